/**
 * One shape for a tool result, whichever way the tool was called
 * (Playwright's WebMCP client, the CDP WebMCP domain or an MCP client).
 */

export interface IToolResult<T = unknown> {
  /** `isError: true` in the result envelope. */
  isError: boolean;
  /** `structuredContent`, or `content[0].text` parsed as JSON when absent. */
  structured: T | undefined;
  /** The first text content item. */
  text: string | undefined;
  /** The result as the caller received it. */
  raw: unknown;
}

/** A tool as `document.modelContext.getTools()` describes it. */
export interface IToolInfo {
  name: string;
  title?: string;
  description: string;
  inputSchema?: unknown;
  annotations?: Record<string, unknown>;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Normalizes a raw result (an object, or the JSON string of one). */
export function toToolResult<T = unknown>(raw: unknown): IToolResult<T> {
  const value = typeof raw === 'string' ? (parseJson(raw) ?? raw) : raw;
  if (!isRecord(value)) {
    return { isError: false, structured: undefined, text: undefined, raw };
  }
  const content = Array.isArray(value.content) ? value.content : [];
  const first = content.find(
    item =>
      isRecord(item) && item.type === 'text' && typeof item.text === 'string'
  ) as { text: string } | undefined;
  const text = first?.text;
  const structured =
    'structuredContent' in value && value.structuredContent !== undefined
      ? value.structuredContent
      : text !== undefined
        ? parseJson(text)
        : undefined;
  return {
    isError: value.isError === true,
    structured: structured as T | undefined,
    text,
    raw
  };
}
