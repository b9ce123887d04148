/**
 * Our tools in the shape an in-app assistant's tool registry takes: a tool
 * of the Vercel AI SDK (`{description, inputSchema, execute}`), as
 * jupyter-ai-lite 0.21 and jupyterlite-ai 0.20 hand them to their agent.
 * Pure: no JupyterLab import.
 *
 * The input schema is given as a Standard Schema with its JSON Schema
 * (standardschema.dev, the "Standard JSON Schema" interface), which the AI
 * SDK turns into the function schema it sends to the model. Its validation
 * accepts every value: the call itself validates, so an invalid input gets
 * the same structured `INVALID_INPUT` envelope a WebMCP caller gets.
 */
import { type IOfferedTool, type IToolEnvelope } from '../tokens';

/** The options the AI SDK passes to a tool's `execute`. */
export interface IAiSdkCallOptions {
  toolCallId?: string;
  /** Aborted when the chat's stop button ends the turn. */
  abortSignal?: AbortSignal;
}

/** A Standard Schema (v1) that also offers its JSON Schema. */
export interface IStandardJsonSchema {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: string;
    validate(value: unknown): { value: unknown };
    readonly jsonSchema: {
      input(options?: unknown): Record<string, unknown>;
      output(options?: unknown): Record<string, unknown>;
    };
  };
}

/** A tool as an assistant's registry holds it. */
export interface IAiSdkTool {
  description: string;
  title: string;
  metadata: { title: string; source: string };
  inputSchema: IStandardJsonSchema;
  /**
   * Runs the call; the model receives its result's JSON text, the
   * envelope's bounded text (never more than 50 KiB).
   */
  execute(input: unknown, options?: IAiSdkCallOptions): Promise<string>;
}

/** Who we say a tool comes from, in its metadata. */
export const TOOL_SOURCE = 'jupyterlite-webmcp';

/** The Standard Schema wrapper of a JSON Schema that leaves validation to the call. */
export function standardJsonSchema(
  schema: Readonly<Record<string, unknown>>
): IStandardJsonSchema {
  // a copy per request: a consumer that adds keys changes only its own
  const copy = () =>
    JSON.parse(JSON.stringify(schema)) as Record<string, unknown>;
  return {
    '~standard': {
      version: 1,
      vendor: TOOL_SOURCE,
      validate: value => ({ value }),
      jsonSchema: { input: copy, output: copy }
    }
  };
}

/** The text the model receives for an envelope. */
export function modelText(envelope: IToolEnvelope): string {
  return envelope.content[0].text;
}

/** One offered tool as an AI SDK tool: each call goes through `tool.call`. */
export function aiSdkTool(tool: IOfferedTool): IAiSdkTool {
  return {
    description: tool.description,
    title: tool.title,
    metadata: { title: tool.title, source: TOOL_SOURCE },
    inputSchema: standardJsonSchema(tool.inputSchema),
    execute: async (input, options) =>
      modelText(await tool.call(input ?? {}, { signal: options?.abortSignal }))
  };
}
