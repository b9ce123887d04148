import {
  ERROR_CODES,
  isErrorCode,
  normalizeError,
  ToolError
} from '../../src/common/errors';
import { TRUNCATION_MARKER } from '../../src/common/text';
import { LIMITS } from '../../src/limits';

const bytes = (text: string): number => new TextEncoder().encode(text).length;

/** Every string in a JSON-like value, keys included. */
function strings(value: unknown): string[] {
  if (typeof value === 'string') {
    return [value];
  }
  if (value === null || typeof value !== 'object') {
    return [];
  }
  const found: string[] = [];
  for (const [key, item] of Object.entries(value)) {
    if (!Array.isArray(value)) {
      found.push(key);
    }
    found.push(...strings(item));
  }
  return found;
}

describe('ERROR_CODES', () => {
  it('is the closed set of the spec, without KERNEL_BUSY', () => {
    expect(ERROR_CODES).toHaveLength(18);
    expect(ERROR_CODES).toContain('PROPOSAL_ALREADY_PENDING');
    expect(ERROR_CODES).not.toContain('KERNEL_BUSY');
    expect(isErrorCode('STALE_CELL')).toBe(true);
    expect(isErrorCode('KERNEL_BUSY')).toBe(false);
    expect(isErrorCode(3)).toBe(false);
  });
});

describe('normalizeError', () => {
  it('keeps the code, message and details of a ToolError', () => {
    const thrown = new ToolError(
      'STALE_CELL',
      'Cell changed since it was read.',
      {
        cellId: 'c1',
        expectedSourceHash: 'a',
        currentSourceHash: 'b'
      }
    );
    expect(normalizeError(thrown)).toEqual({
      error: 'STALE_CELL',
      message: 'Cell changed since it was read.',
      cellId: 'c1',
      expectedSourceHash: 'a',
      currentSourceHash: 'b'
    });
  });

  it('never lets details override error or message', () => {
    const thrown = new ToolError('CELL_NOT_FOUND', 'No such cell.', {
      error: 'INTERNAL_ERROR',
      message: 'spoofed'
    });
    expect(normalizeError(thrown)).toEqual({
      error: 'CELL_NOT_FOUND',
      message: 'No such cell.'
    });
  });

  it('turns anything else into INTERNAL_ERROR without a stack', () => {
    const thrown = new RangeError('out of range');
    const error = normalizeError(thrown);
    expect(error).toEqual({ error: 'INTERNAL_ERROR', message: 'out of range' });
    expect(JSON.stringify(error)).not.toContain('spec.ts');
  });

  it.each([
    ['a string', 'plain failure', 'plain failure'],
    ['an empty string', '', 'Unexpected error.'],
    ['undefined', undefined, 'Unexpected error.'],
    ['an object', { message: 'not an Error' }, 'Unexpected error.'],
    ['an Error with no message', new Error(''), 'Error']
  ])('gives %s a message', (_, thrown, message) => {
    expect(normalizeError(thrown)).toEqual({
      error: 'INTERNAL_ERROR',
      message
    });
  });

  it('treats a ToolError with a code outside the set as INTERNAL_ERROR', () => {
    const forged = new ToolError('KERNEL_BUSY' as 'ABORTED', 'busy');
    expect(normalizeError(forged).error).toBe('INTERNAL_ERROR');
  });

  it('cuts an unexpected message to 500 characters', () => {
    const error = normalizeError(new Error('😀'.repeat(1000)));
    const chars = Array.from(error.message);
    expect(chars).toHaveLength(LIMITS.MAX_INTERNAL_ERROR_MESSAGE_CHARS);
    expect(error.message.endsWith(TRUNCATION_MARKER)).toBe(true);
    expect(normalizeError(new Error('x'.repeat(500))).message).toBe(
      'x'.repeat(500)
    );
  });

  it('clamps every string to 2 KiB of UTF-8, nested details and keys too', () => {
    const long = '中'.repeat(5000);
    const thrown = new ToolError('INVALID_ARGUMENT', long, {
      cellId: long,
      nested: { deeper: [long, { text: long }] },
      [long]: 'key'
    });
    const error = normalizeError(thrown);
    const all = strings(error);
    expect(all.length).toBeGreaterThanOrEqual(8);
    for (const text of all) {
      expect(bytes(text)).toBeLessThanOrEqual(LIMITS.MAX_ERROR_STRING_BYTES);
    }
    expect(error.message.endsWith(TRUNCATION_MARKER)).toBe(true);
    const nested = error.nested as { deeper: [string, { text: string }] };
    expect(nested.deeper[1].text.endsWith(TRUNCATION_MARKER)).toBe(true);
  });

  it('does not throw on cyclic details, and keeps shared non-cyclic ones', () => {
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = cyclic;
    const shared = { id: 's' };
    const thrown = new ToolError('INVALID_ARGUMENT', 'Bad.', {
      cyclic,
      list: [cyclic],
      a: shared,
      b: shared
    });
    const error = normalizeError(thrown);
    expect(() => JSON.stringify(error)).not.toThrow();
    expect(error.cyclic).toEqual({ name: 'loop' });
    expect(error.list).toEqual([{ name: 'loop' }]);
    expect(error.a).toEqual({ id: 's' });
    expect(error.b).toEqual({ id: 's' });
  });

  it('drops values JSON cannot carry', () => {
    const thrown = new ToolError('INVALID_ARGUMENT', 'Bad.', {
      fn: () => 1,
      big: BigInt(1),
      nan: Number.NaN,
      list: [() => 1, 2]
    });
    const error = normalizeError(thrown);
    expect(error).toEqual({
      error: 'INVALID_ARGUMENT',
      message: 'Bad.',
      nan: null,
      list: [null, 2]
    });
    expect(() => JSON.stringify(error)).not.toThrow();
  });
});
