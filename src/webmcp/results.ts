/**
 * The result envelope every tool call returns, bounded to the total result
 * size. Pure: no JupyterLab import.
 *
 * A payload over the bound first loses trailing items of its largest arrays of
 * objects (the holder of each trimmed array says so with `truncated` and
 * `omittedCount`); only when no trimming fits does the text become an opaque
 * `{truncated, reason, maxBytes, partial}` envelope with no structuredContent.
 */
import { LIMITS } from '../limits';
import { type IToolErrorPayload, normalizeError } from '../common/errors';
import { TRUNCATION_MARKER, utf8Length } from '../common/text';
import { jsonEscapedPrefix, jsonStringBytes } from '../common/json';
import { Trimmer } from './trim';
import { type IToolResult } from './types';

/** Why a payload came back as the opaque envelope. */
export const NO_FIT_REASON =
  'The result is larger than the size limit even after dropping list items; partial is the start of its JSON text.';

/**
 * The result of a successful call. The text is the payload's JSON, and
 * structuredContent the payload itself, when it fits in `maxBytes` of UTF-8.
 */
export function successResult(
  payload: unknown,
  maxBytes: number = LIMITS.MAX_TOTAL_RESULT_BYTES
): IToolResult {
  let text: string | undefined;
  try {
    text = JSON.stringify(payload);
  } catch (thrown) {
    // A cycle or a BigInt: the handler returned something JSON cannot carry.
    return errorResult(normalizeError(thrown), maxBytes);
  }
  if (text === undefined) {
    return {
      content: [{ type: 'text', text: 'null' }],
      structuredContent: null
    };
  }
  if (utf8Length(text) <= maxBytes) {
    return { content: [{ type: 'text', text }], structuredContent: payload };
  }
  const trimmed = new Trimmer(JSON.parse(text), maxBytes).run();
  if (trimmed) {
    return {
      content: [{ type: 'text', text: trimmed.text }],
      structuredContent: trimmed.value
    };
  }
  return { content: [{ type: 'text', text: noFitText(text, maxBytes) }] };
}

/**
 * The result of a failed call: the structured error as structuredContent and
 * as text. An error still over `maxBytes` is reduced to `{error, message}`.
 */
export function errorResult(
  error: IToolErrorPayload,
  maxBytes: number = LIMITS.MAX_TOTAL_RESULT_BYTES
): IToolResult {
  let text: string | undefined;
  try {
    text = JSON.stringify(error);
  } catch {
    text = undefined;
  }
  if (text !== undefined && utf8Length(text) <= maxBytes) {
    return {
      content: [{ type: 'text', text }],
      structuredContent: error,
      isError: true
    };
  }
  const reduced = { error: error.error, message: String(error.message) };
  const base = utf8Length(JSON.stringify({ ...reduced, message: '' }));
  if (base + jsonStringBytes(reduced.message) - 2 > maxBytes) {
    const room = maxBytes - base - (jsonStringBytes(TRUNCATION_MARKER) - 2);
    reduced.message =
      room > 0
        ? jsonEscapedPrefix(reduced.message, room) + TRUNCATION_MARKER
        : '';
  }
  return {
    content: [{ type: 'text', text: JSON.stringify(reduced) }],
    structuredContent: reduced,
    isError: true
  };
}

/** The opaque envelope for a payload no trimming fits. */
function noFitText(original: string, maxBytes: number): string {
  const envelope = {
    truncated: true,
    reason: NO_FIT_REASON,
    maxBytes,
    partial: ''
  };
  const base = utf8Length(JSON.stringify(envelope));
  if (base <= maxBytes) {
    envelope.partial = jsonEscapedPrefix(original, maxBytes - base);
    return JSON.stringify(envelope);
  }
  // A bound too small for the envelope itself: say only that it was cut.
  return JSON.stringify({ truncated: true });
}
