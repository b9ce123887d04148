/**
 * The shapes shared by the WebMCP adapter: a tool as data, what its handler
 * receives, and the envelope every call returns.
 */
import { type IWebMcpTool } from '../tokens';

export type {
  CellActivityKind,
  IToolAnnotations,
  IToolCallContext,
  IToolProgress
} from '../tokens';

/** A JSON Schema object, as the tools advertise and ajv compiles. */
export type JSONSchema = { [key: string]: unknown };

/**
 * A tool as the registry holds it: a definition (ours, or another
 * extension's) and, for ours, the validator generated from its schema at
 * build time. Handlers throw ToolError for expected failures; the adapter
 * turns every outcome into the result envelope.
 */
export interface IToolDefinition extends IWebMcpTool {
  /** The compiled validator of `inputSchema`; compiled at addTool if absent. */
  validate?: CompiledValidator;
}

/** The envelope every tool call returns. */
export interface IToolResult {
  content: [{ type: 'text'; text: string }];
  structuredContent?: unknown;
  isError?: true;
}

/**
 * One error as ajv reports it (the subset of ajv's ErrorObject read here).
 */
export interface IValidationError {
  keyword: string;
  instancePath: string;
  schemaPath: string;
  params: Record<string, unknown>;
  message?: string;
}

/**
 * A validation function as ajv compiles it, with `useDefaults` and
 * `allErrors: false`: fills defaults into `data`, returns whether it is valid
 * and leaves the (first) error in `errors`.
 */
export type CompiledValidator = ((data: unknown) => boolean) & {
  errors?: IValidationError[] | null;
};
