/**
 * `jupyter_get_comment`'s answer within the whole result bound
 * (MAX_TOTAL_RESULT_BYTES). The thread keeps the spec's message rule at any
 * size: the first message, then the most recent ones that fit, with
 * `omittedMessages` counting exactly those left out between them. What has
 * to give way, in this order: the anchored cell's trailing outputs (the
 * agent can read them with jupyter_get_cells; a message left out here it can
 * read nowhere), then the older of the recent messages, then the end of the
 * cell's source. The generic trimming of the result envelope, which knows
 * nothing of this rule, then has nothing left to cut. Pure.
 */
import { jsonEscapedPrefix, jsonStringBytes } from '../common/json';
import { TRUNCATION_MARKER, utf8Length } from '../common/text';
import { LIMITS } from '../limits';
import { cappedThread, type IReviewThread } from './storage';
import { type ICellSnapshot } from '../jupyter/cells';

/** The parts of the answer the bound acts on. */
export interface ICommentResultParts {
  thread: IReviewThread;
  omittedMessages: number;
  context: { cell?: ICellSnapshot };
}

/** `,"sourceTruncated":true`, added when a source is first cut here. */
const SOURCE_TRUNCATED_BYTES = 23;

function jsonBytes(value: unknown): number {
  return utf8Length(JSON.stringify(value));
}

/**
 * Bound `result` (whose thread holds the messages of `thread`, capped as
 * cappedThread caps them) to `maxBytes` of JSON, in place, and return it.
 */
export function boundCommentResult<T extends ICommentResultParts>(
  result: T,
  thread: IReviewThread,
  maxBytes: number = LIMITS.MAX_TOTAL_RESULT_BYTES
): T {
  let total = jsonBytes(result);
  if (total <= maxBytes) {
    return result;
  }
  const cell = result.context.cell;
  // 1. the cell's outputs, the last first, as get_cells' bound drops them
  if (cell?.outputs && cell.outputs.length > 0) {
    const outputs = [...cell.outputs];
    const trimmed: ICellSnapshot = { ...cell, outputs, outputsTruncated: true };
    result.context.cell = trimmed;
    total = jsonBytes(result);
    while (total > maxBytes && outputs.length > 0) {
      const dropped = outputs.pop();
      total -= jsonBytes(dropped) + (outputs.length > 0 ? 1 : 0);
    }
    if (total <= maxBytes) {
      return result;
    }
  }
  // 2. the messages: the same rule in the room the rest leaves them (the
  // most a count of omitted messages can take is counted in the rest)
  const rest = jsonBytes({
    ...result,
    thread: { ...result.thread, messages: [] },
    omittedMessages: thread.messages.length
  });
  const room = Math.min(LIMITS.MAX_COMMENT_MESSAGES_BYTES, maxBytes - rest + 2);
  const capped = cappedThread(thread, room);
  result.thread = capped.thread;
  result.omittedMessages = capped.omittedMessages;
  total = jsonBytes(result);
  // 3. the end of the cell's source, when even the first message alone
  // leaves it no room (a source of many characters JSON escapes)
  const shown = result.context.cell;
  if (total > maxBytes && shown?.source !== undefined) {
    const source = shown.sourceTruncated
      ? shown.source.slice(0, shown.source.length - TRUNCATION_MARKER.length)
      : shown.source;
    const room =
      jsonStringBytes(shown.source) -
      2 -
      (total - maxBytes) -
      (shown.sourceTruncated ? 0 : SOURCE_TRUNCATED_BYTES) -
      (jsonStringBytes(TRUNCATION_MARKER) - 2);
    result.context.cell = {
      ...shown,
      source: jsonEscapedPrefix(source, Math.max(0, room)) + TRUNCATION_MARKER,
      sourceTruncated: true
    };
  }
  return result;
}
