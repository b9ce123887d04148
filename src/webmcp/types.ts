/**
 * The shapes shared by the WebMCP adapter: a tool as data, what its handler
 * receives, and the envelope every call returns.
 */
import { type CellActivityKind, type IToolProgress } from '../tokens';

export type { CellActivityKind, IToolProgress } from '../tokens';

/** A JSON Schema object, as the tools advertise and ajv compiles. */
export type JSONSchema = { [key: string]: unknown };

/** The annotations a tool declares to the WebMCP runtime. */
export interface IToolAnnotations {
  readOnlyHint: boolean;
  untrustedContentHint: boolean;
  /** Present (true) on tools that run code, delete or restart. */
  consequentialHint?: boolean;
}

/** What a handler gets beside its validated arguments. */
export interface IToolCallContext {
  /** The caller's abort signal (never undefined: a dummy one when none came). */
  signal: AbortSignal;
  /** The call's id in the call stream (IToolCall.id). */
  callId: number;
  /**
   * Say which notebook and cell the call is reading, editing or running now,
   * for the human (the Activity tab, on-cell presence); never sent to the
   * agent.
   */
  reportCell(
    notebookPath: string,
    cellId: string,
    kind: CellActivityKind
  ): void;
  /** Report the progress of long work (listing a big workspace, say). */
  reportProgress(progress: IToolProgress): void;
}

/** A tool as data: the spec's name, title, description, schema and annotations. */
export interface IToolDefinition {
  name: string;
  title: string;
  description: string;
  inputSchema: JSONSchema;
  annotations: IToolAnnotations;
  /**
   * Run the tool on validated arguments. Handlers throw ToolError for expected
   * failures; the adapter turns every outcome into the result envelope.
   */
  handler(
    args: Record<string, unknown>,
    context: IToolCallContext
  ): Promise<unknown>;
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
