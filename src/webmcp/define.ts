/**
 * Binding handlers to the tools' definitions (./specs.ts): a group of tools
 * is a map from name to handler, typed so that each handler's arguments are
 * derived from its input schema (`FromSchema`, the arguments as validated,
 * defaults filled in) and a tool of the group without a handler does not
 * compile.
 */
import { type FromSchema } from 'json-schema-to-ts';

import {
  TOOL_NAMES,
  TOOL_SPECS,
  type ToolInputSchema,
  type ToolName
} from './specs';
import { type IToolCallContext, type IToolDefinition } from './types';

/** A tool's arguments as its handler receives them: validated, defaults in. */
export type ToolArgs<N extends ToolName> = FromSchema<ToolInputSchema<N>>;

/** The handler of tool `N`. */
export type ToolHandler<N extends ToolName> = (
  args: ToolArgs<N>,
  call: IToolCallContext
) => Promise<unknown>;

/** A handler for every tool named in `N`. */
export type ToolHandlers<N extends ToolName> = { [K in N]: ToolHandler<K> };

/** The seven review-thread tools, which the review feature contributes. */
export const COMMENT_TOOL_NAMES = [
  'jupyter_list_comments',
  'jupyter_get_comment',
  'jupyter_create_comment',
  'jupyter_reply_comment',
  'jupyter_resolve_comment',
  'jupyter_reopen_comment',
  'jupyter_focus_comment'
] as const satisfies readonly ToolName[];
export type CommentToolName = (typeof COMMENT_TOOL_NAMES)[number];

/** The output-selection tool, which the selection feature contributes. */
export const SELECTION_TOOL_NAMES = [
  'jupyter_get_output_selection'
] as const satisfies readonly ToolName[];
export type SelectionToolName = (typeof SELECTION_TOOL_NAMES)[number];

/** The tools the WebMCP plugin itself registers. */
export type CoreToolName = Exclude<
  ToolName,
  CommentToolName | SelectionToolName
>;

/** Their names, in the specification's order. */
export const CORE_TOOL_NAMES = TOOL_NAMES.filter(
  (name): name is CoreToolName =>
    !(COMMENT_TOOL_NAMES as readonly ToolName[]).includes(name) &&
    !(SELECTION_TOOL_NAMES as readonly ToolName[]).includes(name)
);

/**
 * The handler as the registry calls it. The registry validates the
 * arguments against the tool's schema before the call, so the arguments a
 * handler is typed with are what it receives: this is the one place that
 * relies on it (checking the generic types here would instantiate every
 * tool's argument type at once).
 */
type RegistryHandler = IToolDefinition['handler'];

function definition(name: ToolName, handler: RegistryHandler): IToolDefinition {
  const { title, description, annotations, inputSchema } = TOOL_SPECS[name];
  return {
    name,
    title,
    description,
    annotations,
    inputSchema,
    handler
  };
}

/** One of our tools: its definition and its handler. */
export function defineTool<N extends ToolName>(
  name: N,
  handler: ToolHandler<N>
): IToolDefinition {
  return definition(name, handler as unknown as RegistryHandler);
}

/** The definitions of a group of tools, in the specification's order. */
export function defineTools<N extends ToolName>(
  handlers: ToolHandlers<N>
): IToolDefinition[] {
  const named = handlers as unknown as Partial<
    Record<ToolName, RegistryHandler>
  >;
  return TOOL_NAMES.flatMap(name => {
    const handler = named[name];
    return handler ? [definition(name, handler)] : [];
  });
}

/**
 * The definitions of a group of tools whose handlers are loaded at the
 * first call (`load`, shared by the group): the tools are registered from
 * their definitions alone. A load that fails rejects that call and is tried
 * again at the next.
 */
export function defineLazyTools<N extends ToolName>(
  names: readonly N[],
  load: () => Promise<ToolHandlers<N>>
): IToolDefinition[] {
  return names.map(name =>
    definition(name, async (args, call) => {
      const handlers = (await load()) as unknown as Record<N, RegistryHandler>;
      return handlers[name](args, call);
    })
  );
}
