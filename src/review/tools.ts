/**
 * The handlers of the review-thread tools, which the review feature adds
 * (src/review/plugin.ts registers them): each calls the threads' semantic
 * layer (./thread-read-tools.ts, ./thread-write-tools.ts, and
 * ./thread-tools.ts for focus). Loaded with the later chunk (src/later.ts).
 */
import { type IReviewStore } from '../tokens';
import { type CommentToolName, type ToolHandlers } from '../webmcp/define';
import { type IToolServices } from '../webmcp/services';
import { getComment, listComments } from './thread-read-tools';
import { focusComment } from './thread-tools';
import {
  createComment,
  reopenComment,
  replyComment,
  resolveComment
} from './thread-write-tools';

export function commentHandlers(
  { env, resolver }: IToolServices,
  review: IReviewStore
): ToolHandlers<CommentToolName> {
  const services = { env, resolver, review };
  return {
    jupyter_list_comments: async (args, call) =>
      listComments(services, args, call),
    jupyter_get_comment: async (args, call) => getComment(services, args, call),
    jupyter_create_comment: async (args, call) =>
      createComment(services, args, call),
    jupyter_reply_comment: async (args, call) =>
      replyComment(services, args, call),
    jupyter_resolve_comment: async (args, call) =>
      resolveComment(services, args, call),
    jupyter_reopen_comment: async (args, call) =>
      reopenComment(services, args, call),
    jupyter_focus_comment: async (args, call) =>
      focusComment(services, args, call)
  };
}
