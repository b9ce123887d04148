/**
 * The parts of the WebMCP browser API the tests use (Chromium 156 with
 * `--enable-features=WebMCP`, or the `@mcp-b/global` polyfill). TypeScript's
 * DOM library does not describe it yet.
 */

interface IWebMcpAnnotations {
  readOnlyHint?: boolean;
  untrustedContentHint?: boolean;
  consequentialHint?: boolean;
  debugging?: boolean;
}

interface IWebMcpToolDefinition {
  name: string;
  title?: string;
  description: string;
  inputSchema?: object;
  annotations?: IWebMcpAnnotations;
  execute(
    input: Record<string, unknown>,
    options?: { signal?: AbortSignal }
  ): unknown;
}

/** A tool as `getTools()` returns it (Chromium gives the schema as a string). */
interface IWebMcpRegisteredTool {
  name: string;
  title?: string;
  description: string;
  inputSchema?: string | object;
  annotations?: IWebMcpAnnotations;
}

interface IWebMcpModelContext extends EventTarget {
  registerTool(
    tool: IWebMcpToolDefinition,
    options?: { signal?: AbortSignal }
  ): Promise<void>;
  getTools(): Promise<IWebMcpRegisteredTool[]>;
  executeTool(
    tool: IWebMcpRegisteredTool,
    input: Record<string, unknown>,
    options?: { signal?: AbortSignal }
  ): Promise<string | null>;
}

// eslint-disable-next-line @typescript-eslint/naming-convention
interface Document {
  readonly modelContext?: IWebMcpModelContext;
}
