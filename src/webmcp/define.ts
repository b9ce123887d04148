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
import { COMPILED_VALIDATORS } from './validators.generated';

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
export type CommentToolName =
  | 'jupyter_list_comments'
  | 'jupyter_get_comment'
  | 'jupyter_create_comment'
  | 'jupyter_reply_comment'
  | 'jupyter_resolve_comment'
  | 'jupyter_reopen_comment'
  | 'jupyter_focus_comment';

/** The output-selection tool, which the selection feature contributes. */
export type SelectionToolName = 'jupyter_get_output_selection';

/** The tools the WebMCP plugin itself registers. */
export type CoreToolName = Exclude<
  ToolName,
  CommentToolName | SelectionToolName
>;

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
    validate: COMPILED_VALIDATORS[name],
    handler
  };
}

/** One of our tools: its definition, its generated validator, its handler. */
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
