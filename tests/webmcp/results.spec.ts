import {
  type IToolErrorPayload,
  normalizeError,
  ToolError
} from '../../src/common/errors';
import { LIMITS } from '../../src/limits';
import { jsonEscapedPrefix, jsonStringBytes } from '../../src/common/json';
import {
  errorResult,
  NO_FIT_REASON,
  successResult
} from '../../src/webmcp/results';

/** UTF-8 bytes, measured independently of the module under test. */
const bytes = (text: string): number => new TextEncoder().encode(text).length;

type Obj = Record<string, unknown>;

function textOf(result: { content: [{ text: string }] }): string {
  return result.content[0].text;
}

function items(count: number, make: (i: number) => Obj): Obj[] {
  return Array.from({ length: count }, (_, i) => make(i));
}

/** Text fits, is the JSON of structuredContent, and nothing else is attached. */
function expectConsistent(
  result: ReturnType<typeof successResult>,
  max: number
): Obj {
  const text = textOf(result);
  expect(bytes(text)).toBeLessThanOrEqual(max);
  expect(result.isError).toBeUndefined();
  expect(JSON.stringify(result.structuredContent)).toBe(text);
  return result.structuredContent as Obj;
}

describe('successResult', () => {
  it('returns the payload itself when it fits', () => {
    const payload = { path: 'a.ipynb', entries: [{ name: 'x' }] };
    const result = successResult(payload);
    expect(result.structuredContent).toBe(payload);
    expect(textOf(result)).toBe(JSON.stringify(payload));
    expect(result.isError).toBeUndefined();
  });

  it('defaults to the total result bound', () => {
    const under = { text: 'a'.repeat(LIMITS.MAX_TOTAL_RESULT_BYTES - 20) };
    expect(successResult(under).structuredContent).toBe(under);
    const over = { text: 'a'.repeat(LIMITS.MAX_TOTAL_RESULT_BYTES) };
    expect(successResult(over).structuredContent).toBeUndefined();
  });

  it('keeps a payload of exactly maxBytes and trims one byte less', () => {
    const payload = { cells: items(10, i => ({ id: `c${i}` })) };
    const size = bytes(JSON.stringify(payload));
    expect(successResult(payload, size).structuredContent).toBe(payload);
    const trimmed = expectConsistent(
      successResult(payload, size - 1),
      size - 1
    );
    expect((trimmed.cells as Obj[]).length).toBeLessThan(10);
  });

  it('drops trailing items, marks the holder and counts them', () => {
    const payload = {
      path: '',
      entries: items(200, i => ({ path: `file-${i}.txt`, size: i })),
      truncated: false,
      omittedCount: 0
    };
    const max = 2000;
    const out = expectConsistent(successResult(payload, max), max);
    const kept = out.entries as Obj[];
    expect(out.truncated).toBe(true);
    expect(kept.length + (out.omittedCount as number)).toBe(200);
    expect(kept).toEqual(payload.entries.slice(0, kept.length));
    // Maximal: one more item back (and one fewer omitted) no longer fits.
    const bigger = {
      ...out,
      entries: payload.entries.slice(0, kept.length + 1),
      omittedCount: (out.omittedCount as number) - 1
    };
    expect(bytes(JSON.stringify(bigger))).toBeGreaterThan(max);
  });

  it('never mutates the caller payload', () => {
    const payload = {
      cells: items(50, i => ({ id: `c${i}`, outputs: items(5, j => ({ j })) })),
      omittedCount: 3
    };
    const before = JSON.parse(JSON.stringify(payload));
    successResult(payload, 500);
    expect(payload).toEqual(before);
  });

  it('adds to an omittedCount the handler already set', () => {
    const payload = {
      cells: items(100, i => ({ id: `cell-${i}`, source: 'x'.repeat(50) })),
      truncated: true,
      omittedCount: 7
    };
    const out = expectConsistent(successResult(payload, 3000), 3000);
    const kept = (out.cells as Obj[]).length;
    expect(kept).toBeGreaterThan(0);
    expect(out.omittedCount).toBe(7 + (100 - kept));
  });

  it('replaces a non-numeric omittedCount with the dropped count', () => {
    const payload = {
      cells: items(100, i => ({ id: `cell-${i}` })),
      omittedCount: 'many'
    };
    const out = expectConsistent(successResult(payload, 500), 500);
    expect(out.omittedCount).toBe(100 - (out.cells as Obj[]).length);
  });

  it('marks a nested holder and the root, without omittedCount on the root', () => {
    const payload = {
      notebook: { path: 'a.ipynb' },
      cell: {
        id: 'c1',
        outputs: items(30, i => ({
          outputType: 'stream',
          text: `${i}`.repeat(40)
        }))
      }
    };
    const out = expectConsistent(successResult(payload, 800), 800);
    const cell = out.cell as Obj;
    expect(out.truncated).toBe(true);
    expect(out).not.toHaveProperty('omittedCount');
    expect(cell.truncated).toBe(true);
    expect((cell.outputs as Obj[]).length + (cell.omittedCount as number)).toBe(
      30
    );
  });

  it('drops trailing cells before touching earlier cells outputs', () => {
    const payload = {
      cells: items(20, i => ({
        id: `c${i}`,
        outputs: items(4, j => ({ text: `${i}-${j}`.padEnd(50, '.') }))
      })),
      truncated: false,
      omittedCount: 0
    };
    const out = expectConsistent(successResult(payload, 3000), 3000);
    const cells = out.cells as Obj[];
    expect(cells.length).toBeLessThan(20);
    expect(cells.length).toBeGreaterThan(1);
    expect(out.omittedCount).toBe(20 - cells.length);
    for (const cell of cells) {
      expect((cell.outputs as Obj[]).length).toBe(4);
      expect(cell).not.toHaveProperty('truncated');
    }
  });

  it('trims the outputs of a single huge cell rather than dropping the cell', () => {
    const payload = {
      cells: [
        {
          id: 'only',
          outputs: items(10, i => ({ text: `${i}`.repeat(10 * 1024) }))
        }
      ],
      truncated: false,
      omittedCount: 0
    };
    const out = expectConsistent(
      successResult(payload),
      LIMITS.MAX_TOTAL_RESULT_BYTES
    );
    const cells = out.cells as Obj[];
    expect(cells).toHaveLength(1);
    const outputs = cells[0].outputs as Obj[];
    expect(outputs.length).toBe(4);
    expect(cells[0].truncated).toBe(true);
    expect(cells[0].omittedCount).toBe(6);
    expect(out.truncated).toBe(true);
    // The root's own array was not trimmed.
    expect(out.omittedCount).toBe(0);
  });

  it('empties an inner array before the item that holds it', () => {
    const payload = {
      cells: [{ id: 'only', outputs: [{ text: 'y'.repeat(5000) }] }]
    };
    const out = expectConsistent(successResult(payload, 1000), 1000);
    expect(out.cells).toEqual([
      { id: 'only', outputs: [], truncated: true, omittedCount: 1 }
    ]);
    expect(out.truncated).toBe(true);
  });

  it('empties an array at the exact bound, then drops its holder', () => {
    const payload = {
      cells: [{ id: 'only', outputs: [{ text: 'y'.repeat(5000) }] }]
    };
    const emptied = {
      cells: [{ id: 'only', outputs: [], truncated: true, omittedCount: 1 }],
      truncated: true
    };
    const exact = bytes(JSON.stringify(emptied));
    const spy = jest.spyOn(JSON, 'stringify');
    try {
      const atBound = successResult(payload, exact);
      const below = successResult(payload, exact - 1);
      // Two serializations each: no corrective pass was needed.
      expect(spy.mock.calls.length).toBe(4);
      spy.mockRestore();
      expect(atBound.structuredContent).toEqual(emptied);
      expect(below.structuredContent).toEqual({
        cells: [],
        truncated: true,
        omittedCount: 1
      });
    } finally {
      spy.mockRestore();
    }
  });

  it('trims the largest array first', () => {
    const payload = {
      small: items(10, i => ({ n: i })),
      large: items(400, i => ({ name: `entry-${i}`.padEnd(30, '-') }))
    };
    const out = expectConsistent(successResult(payload, 4000), 4000);
    expect(out.small).toEqual(payload.small);
    expect((out.large as Obj[]).length).toBeLessThan(400);
  });

  it('accounts exactly for multi-byte and escaped text in items', () => {
    const nasty = 'é中😀"\\\n\u0001\ud800x\udc00';
    const payload = {
      threads: items(300, i => ({ id: i, body: nasty.repeat((i % 7) + 1) })),
      omittedCount: 0,
      truncated: false
    };
    for (let max = 1500; max < 1530; max++) {
      const out = expectConsistent(successResult(payload, max), max);
      const kept = (out.threads as Obj[]).length;
      const bigger = {
        ...out,
        threads: payload.threads.slice(0, kept + 1),
        omittedCount: (out.omittedCount as number) - 1
      };
      expect(bytes(JSON.stringify(bigger))).toBeGreaterThan(max);
    }
  });

  it('serializes the whole payload a bounded number of times', () => {
    const payload = {
      entries: items(20000, i => ({ path: `dir/file-${i}.txt`, size: i })),
      truncated: false,
      omittedCount: 0
    };
    const nested = {
      cells: items(2000, i => ({
        id: `c${i}`,
        outputs: items(10, j => ({ text: `${i}:${j}` }))
      }))
    };
    const spy = jest.spyOn(JSON, 'stringify');
    try {
      // 20,000 dropped items or 20,000 tracked arrays: still a constant
      // number of serializations (the first, the check, nothing per item).
      const flat = successResult(payload);
      expect(spy.mock.calls.length).toBeGreaterThanOrEqual(1);
      expect(spy.mock.calls.length).toBeLessThanOrEqual(3);
      spy.mockClear();
      const deep = successResult(nested);
      expect(spy.mock.calls.length).toBeGreaterThanOrEqual(1);
      expect(spy.mock.calls.length).toBeLessThanOrEqual(3);
      spy.mockRestore();
      expectConsistent(flat, LIMITS.MAX_TOTAL_RESULT_BYTES);
      expectConsistent(deep, LIMITS.MAX_TOTAL_RESULT_BYTES);
    } finally {
      spy.mockRestore();
    }
  });

  it('counts the fields it adds exactly, at every bound', () => {
    // No truncated/omittedCount yet: both are added, on a holder and a root.
    const payload = {
      notebook: { path: 'a.ipynb' },
      cell: { id: 'c', outputs: items(40, i => ({ text: 'é'.repeat(i % 5) })) }
    };
    const spy = jest.spyOn(JSON, 'stringify');
    try {
      for (let max = 150; max < 400; max++) {
        spy.mockClear();
        const result = successResult(payload, max);
        // One serialization to measure, one to emit: the estimate was exact.
        expect([max, spy.mock.calls.length]).toEqual([max, 2]);
        const out = expectConsistent(result, max);
        const cell = out.cell as Obj;
        const kept = (cell.outputs as Obj[]).length;
        const bigger = {
          ...out,
          cell: {
            ...cell,
            outputs: payload.cell.outputs.slice(0, kept + 1),
            omittedCount: (cell.omittedCount as number) - 1
          }
        };
        if (kept < 39) {
          expect(bytes(JSON.stringify(bigger))).toBeGreaterThan(max);
        }
      }
    } finally {
      spy.mockRestore();
    }
  });

  it('keeps an exact running total over many payload shapes', () => {
    const nasty = 'é中😀"\\\n\u0001\ud800x\udc00';
    const spy = jest.spyOn(JSON, 'stringify');
    let trimmedCases = 0;
    try {
      for (let seed = 0; seed < 60; seed++) {
        const payload = {
          truncated: seed % 2 === 0 ? false : 'maybe',
          ...(seed % 3 === 0 ? { omittedCount: 9 } : {}),
          ...(seed % 3 === 1 ? { omittedCount: 'x' } : {}),
          cells: items(5 + (seed % 30), i => ({
            id: `c${i}`,
            source: nasty.repeat((i * seed) % 11),
            outputs: items((i + seed) % 6, j => ({
              text: nasty.repeat(j * 3),
              meta: [{ a: [{ b: j }] }]
            })),
            ...(i % 4 === 0 ? { truncated: false, omittedCount: 99 } : {})
          })),
          other: { list: items(seed % 9, k => ({ k, s: nasty.repeat(k) })) }
        };
        const size = bytes(JSON.stringify(payload));
        for (const max of [300, 700, 1500, 4000]) {
          spy.mockClear();
          const result = successResult(payload, max);
          const calls = spy.mock.calls.length;
          expect(bytes(textOf(result))).toBeLessThanOrEqual(max);
          if (size > max && result.structuredContent !== undefined) {
            trimmedCases++;
            // One serialization to measure, one to emit: no corrective pass.
            expect(calls).toBe(2);
            expect(JSON.stringify(result.structuredContent)).toBe(
              textOf(result)
            );
          }
        }
      }
    } finally {
      spy.mockRestore();
    }
    expect(trimmedCases).toBeGreaterThan(100);
  });

  describe('when no trimming fits', () => {
    function envelope(
      result: ReturnType<typeof successResult>,
      max: number
    ): Obj {
      const text = textOf(result);
      expect(bytes(text)).toBeLessThanOrEqual(max);
      expect(result).not.toHaveProperty('structuredContent');
      expect(result.isError).toBeUndefined();
      const parsed = JSON.parse(text) as Obj;
      expect(Object.keys(parsed).sort()).toEqual(
        ['maxBytes', 'partial', 'reason', 'truncated'].sort()
      );
      expect(parsed.truncated).toBe(true);
      expect(parsed.maxBytes).toBe(max);
      expect(parsed.reason).toBe(NO_FIT_REASON);
      return parsed;
    }

    it('returns a partial prefix of one 200 KB string', () => {
      const payload = { text: 'z'.repeat(200 * 1024) };
      const max = LIMITS.MAX_TOTAL_RESULT_BYTES;
      const parsed = envelope(successResult(payload), max);
      const partial = parsed.partial as string;
      expect(JSON.stringify(payload).startsWith(partial)).toBe(true);
      // The prefix fills the room: the original JSON has quotes, which cost 2.
      expect(bytes(textOf(successResult(payload)))).toBeGreaterThan(max - 4);
    });

    it('stays within the bound with multi-byte and escape-heavy content', () => {
      const chunk = '"\\\n\u0007é中😀\u2028</script>';
      const payload = { notebook: { path: chunk.repeat(2000) }, cells: [] };
      const original = JSON.stringify(payload);
      for (let max = 900; max < 940; max++) {
        const result = successResult(payload, max);
        const partial = envelope(result, max).partial as string;
        expect(original.startsWith(partial)).toBe(true);
        // Maximal: one more code point of the original would not fit.
        const next = Array.from(
          original.slice(partial.length, partial.length + 2)
        )[0];
        const longer = {
          ...JSON.parse(textOf(result)),
          partial: partial + next
        };
        expect(bytes(JSON.stringify(longer))).toBeGreaterThan(max);
      }
    });

    it('gives up when the non-array part alone is too large', () => {
      const payload = {
        notebook: { path: 'p'.repeat(5000) },
        cells: items(50, i => ({ id: `c${i}` }))
      };
      envelope(successResult(payload, 1000), 1000);
    });

    it('does not trim a root that is an array', () => {
      const payload = items(500, i => ({ id: i }));
      envelope(successResult(payload, 1000), 1000);
    });

    it('still emits valid JSON when the bound is smaller than the envelope', () => {
      const result = successResult({ text: 'x'.repeat(100) }, 40);
      expect(bytes(textOf(result))).toBeLessThanOrEqual(40);
      expect(JSON.parse(textOf(result))).toEqual({ truncated: true });
    });
  });

  it('serializes an undefined payload as null', () => {
    expect(successResult(undefined)).toEqual({
      content: [{ type: 'text', text: 'null' }],
      structuredContent: null
    });
  });

  it('turns a payload JSON cannot carry into INTERNAL_ERROR', () => {
    const cyclic: Obj = { a: 1 };
    cyclic.self = cyclic;
    const result = successResult(cyclic);
    expect(result.isError).toBe(true);
    expect((result.structuredContent as Obj).error).toBe('INTERNAL_ERROR');
  });
});

describe('errorResult', () => {
  it('carries the error as structuredContent and as text', () => {
    const error: IToolErrorPayload = {
      error: 'CELL_NOT_FOUND',
      message: 'No cell "x".',
      cellId: 'x'
    };
    const result = errorResult(error);
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBe(error);
    expect(JSON.parse(textOf(result))).toEqual(error);
  });

  it('reduces an error over the total bound to {error, message}', () => {
    const details: Obj = {};
    for (let i = 0; i < 40; i++) {
      details[`field${i}`] = 'd'.repeat(4000);
    }
    // 40 details of 2 KiB each once clamped: about 80 KiB in all.
    const error = normalizeError(
      new ToolError('CELL_NOT_FOUND', 'Too big.', details)
    );
    expect(bytes(JSON.stringify(error))).toBeGreaterThan(
      LIMITS.MAX_TOTAL_RESULT_BYTES
    );
    const result = errorResult(error);
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toEqual({
      error: 'CELL_NOT_FOUND',
      message: 'Too big.'
    });
    expect(JSON.parse(textOf(result))).toEqual(result.structuredContent);
  });

  it('cuts the message too when even {error, message} is over the bound', () => {
    const error: IToolErrorPayload = {
      error: 'INVALID_ARGUMENT',
      message: '😀"\n'.repeat(1000)
    };
    const result = errorResult(error, 300);
    const text = textOf(result);
    expect(bytes(text)).toBeLessThanOrEqual(300);
    const parsed = JSON.parse(text) as Obj;
    expect(parsed.error).toBe('INVALID_ARGUMENT');
    expect(parsed.message).toMatch(/…\[truncated\]$/);
    expect(result.structuredContent).toEqual(parsed);
  });

  it('normalizes anything thrown, without a stack', () => {
    const result = errorResult(normalizeError(new TypeError('boom')));
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toEqual({
      error: 'INTERNAL_ERROR',
      message: 'boom'
    });
    expect(textOf(result)).not.toContain('at ');
  });
});

describe('JSON size helpers', () => {
  const samples = [
    '',
    'plain',
    '"quoted" \\ back',
    '\b\f\n\r\t\u0000\u001f\u007f',
    'é中😀',
    '\ud800 lone high',
    'lone low \udc00',
    'end high \ud83d',
    '\u2028\u2029'
  ];

  it.each(samples)('jsonStringBytes matches JSON.stringify for %j', text => {
    expect(jsonStringBytes(text)).toBe(bytes(JSON.stringify(text)));
  });

  it('jsonEscapedPrefix never splits a surrogate pair', () => {
    const text = 'a😀b';
    expect(jsonEscapedPrefix(text, 1)).toBe('a');
    expect(jsonEscapedPrefix(text, 4)).toBe('a');
    expect(jsonEscapedPrefix(text, 5)).toBe('a😀');
    expect(jsonEscapedPrefix(text, 6)).toBe('a😀b');
  });

  it('jsonEscapedPrefix counts escapes at their escaped size', () => {
    expect(jsonEscapedPrefix('""', 3)).toBe('"');
    expect(jsonEscapedPrefix('\u0001x', 5)).toBe('');
    expect(jsonEscapedPrefix('\u0001x', 6)).toBe('\u0001');
  });
});
