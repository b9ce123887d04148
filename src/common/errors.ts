/**
 * The closed set of error codes, the error every service throws, and the one
 * normalization every tool result goes through. Pure: no JupyterLab import.
 */
import { LIMITS } from '../limits';
import { boundChars, boundUtf8 } from './text';

/** Every code a tool can report; nothing outside this set ever reaches a caller. */
export const ERROR_CODES = [
  'NO_ACTIVE_NOTEBOOK',
  'NOTEBOOK_NOT_FOUND',
  'CELL_NOT_FOUND',
  'STALE_CELL',
  'INVALID_PATH',
  'PATH_EXISTS',
  'INVALID_CELL_TYPE',
  'INVALID_ARGUMENT',
  'KERNEL_UNAVAILABLE',
  'EXECUTION_ERROR',
  'ABORTED',
  'WEBMCP_UNAVAILABLE',
  'COMMENT_NOT_FOUND',
  'COMMENT_ANCHOR_STALE',
  'CELL_ACCESS_DENIED',
  'NOTEBOOK_ACCESS_DENIED',
  'PROPOSAL_ALREADY_PENDING',
  'INTERNAL_ERROR'
] as const;

/** One code of the closed set. */
export type ErrorCode = (typeof ERROR_CODES)[number];

/** The structured error a failed tool call carries. */
export interface IToolErrorPayload {
  error: ErrorCode;
  message: string;
  [key: string]: unknown;
}

/**
 * The error services throw for every expected failure. `details` become extra
 * fields of the structured error (`cellId`, `path`, `bytes`, ...).
 */
export class ToolError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {}
  ) {
    super(message);
    this.name = 'ToolError';
  }
}

const CODES = new Set<string>(ERROR_CODES);

/** Whether a value is one of the closed set of codes. */
export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && CODES.has(value);
}

/**
 * Reduce anything thrown to the structured error: a ToolError keeps its code,
 * message and details; anything else becomes INTERNAL_ERROR with its message
 * cut to 500 characters and no stack. Every string inside, however deep, is
 * clamped to MAX_ERROR_STRING_BYTES of UTF-8.
 */
export function normalizeError(thrown: unknown): IToolErrorPayload {
  let payload: IToolErrorPayload;
  if (thrown instanceof ToolError && isErrorCode(thrown.code)) {
    // The code and message lead; details never replace them.
    const { error: _code, message: _message, ...details } = thrown.details;
    payload = {
      error: thrown.code,
      message: String(thrown.message),
      ...details
    };
  } else {
    payload = {
      error: 'INTERNAL_ERROR',
      message: boundChars(
        internalMessage(thrown),
        LIMITS.MAX_INTERNAL_ERROR_MESSAGE_CHARS
      ).text
    };
  }
  return clampStrings(payload, new WeakSet()) as IToolErrorPayload;
}

function internalMessage(thrown: unknown): string {
  if (thrown instanceof Error) {
    return thrown.message || thrown.name || 'Unexpected error.';
  }
  if (typeof thrown === 'string' && thrown) {
    return thrown;
  }
  return 'Unexpected error.';
}

/**
 * Copy a JSON-like value with every string clamped to the error string bound.
 * Values JSON cannot carry (functions, cycles) are dropped, so an error never
 * fails to serialize.
 */
function clampStrings(value: unknown, seen: WeakSet<object>): unknown {
  if (typeof value === 'string') {
    return boundUtf8(value, LIMITS.MAX_ERROR_STRING_BYTES).text;
  }
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'number' && !Number.isFinite(value)) {
      return null;
    }
    return typeof value === 'function' ||
      typeof value === 'symbol' ||
      typeof value === 'bigint'
      ? undefined
      : value;
  }
  if (seen.has(value)) {
    return undefined;
  }
  // `seen` holds the ancestors of the value being copied: a cycle is cut,
  // an object merely referenced twice is copied twice.
  seen.add(value);
  let out: unknown;
  if (Array.isArray(value)) {
    out = value.map(item => clampStrings(item, seen) ?? null);
  } else {
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      const clamped = clampStrings(item, seen);
      if (clamped !== undefined) {
        copy[boundUtf8(key, LIMITS.MAX_ERROR_STRING_BYTES).text] = clamped;
      }
    }
    out = copy;
  }
  seen.delete(value);
  return out;
}
