import { normalizeError, ToolError } from '../../src/common/errors';
import { type ToolName } from '../../src/webmcp/specs';
import { InputValidator } from '../../src/webmcp/validate';
import { COMPILED_VALIDATORS } from '../../src/webmcp/validators.generated';

const validator = new InputValidator(COMPILED_VALIDATORS);

/** The error a call throws, or fails the test when it does not throw. */
function failure(name: ToolName, input: unknown): ToolError {
  try {
    validator.validate(name, input);
  } catch (thrown) {
    expect(thrown).toBeInstanceOf(ToolError);
    return thrown as ToolError;
  }
  throw new Error(`${name} accepted ${JSON.stringify(input)}`);
}

function expectInvalid(
  name: ToolName,
  input: unknown,
  message: string,
  details: { field: string; rule: string }
): void {
  const error = failure(name, input);
  expect(error.code).toBe('INVALID_ARGUMENT');
  expect(error.message).toBe(message);
  expect(error.details).toEqual(details);
}

describe('InputValidator.validate', () => {
  it('returns the arguments with the defaults filled in', () => {
    expect(
      validator.validate('jupyter_list_workspace', { path: 'docs' })
    ).toEqual({ path: 'docs', recursive: false, limit: 100 });
  });

  it('never mutates the caller arguments', () => {
    const input = { path: 'a.ipynb', nested: undefined };
    const args = validator.validate('jupyter_open_notebook', input);
    expect(args).toEqual({ path: 'a.ipynb', activate: true });
    expect(args).not.toBe(input);
    expect(input).toEqual({ path: 'a.ipynb', nested: undefined });
    const anchor = { kind: 'cell', cellId: 'c' };
    const comment = { anchor, message: 'm' };
    validator.validate('jupyter_create_comment', comment);
    expect(comment.anchor).toBe(anchor);
    expect(anchor).toEqual({ kind: 'cell', cellId: 'c' });
  });

  it.each([undefined, null])('treats %p as no arguments', input => {
    expect(validator.validate('jupyter_list_comments', input)).toEqual({
      status: 'open',
      scope: 'notebook',
      limit: 50
    });
    expect(validator.validate('jupyter_get_context', input)).toEqual({});
  });

  it('leaves out properties holding undefined, as JSON would', () => {
    expect(
      validator.validate('jupyter_list_workspace', { limit: undefined })
    ).toEqual({ recursive: false, limit: 100 });
  });

  it.each([[['a.ipynb']], ['a.ipynb'], [42], [true]])(
    'refuses non-object arguments: %p',
    input => {
      const error = failure('jupyter_save_notebook', input);
      expect(error.code).toBe('INVALID_ARGUMENT');
      expect(error.message).toMatch(/^Invalid arguments: must be an object/);
      expect(error.details).toEqual({ field: '', rule: 'type' });
    }
  );

  it('names the field and the rule in plain English', () => {
    expectInvalid(
      'jupyter_list_workspace',
      { limit: 0 },
      'Invalid argument "limit": must be >= 1.',
      { field: 'limit', rule: 'minimum' }
    );
    expectInvalid(
      'jupyter_list_workspace',
      { limit: 101 },
      'Invalid argument "limit": must be <= 100.',
      { field: 'limit', rule: 'maximum' }
    );
    expectInvalid(
      'jupyter_list_workspace',
      { foo: 1 },
      'Unknown argument "foo": this tool accepts only path, recursive, limit.',
      { field: 'foo', rule: 'additionalProperties' }
    );
    expectInvalid(
      'jupyter_open_notebook',
      {},
      'Missing required argument "path".',
      { field: 'path', rule: 'required' }
    );
    expectInvalid(
      'jupyter_create_comment',
      { anchor: { kind: 'line', cellId: 'c' }, message: 'm' },
      'Invalid argument "anchor.kind": must be one of "cell", "source-range", "output".',
      { field: 'anchor.kind', rule: 'enum' }
    );
    expectInvalid(
      'jupyter_list_workspace',
      { recursive: 'yes' },
      'Invalid argument "recursive": must be boolean.',
      { field: 'recursive', rule: 'type' }
    );
  });

  it('describes nested, array and union-type failures', () => {
    expectInvalid(
      'jupyter_create_comment',
      { anchor: { kind: 'cell' }, message: 'm' },
      'Missing required argument "anchor.cellId".',
      { field: 'anchor.cellId', rule: 'required' }
    );
    expectInvalid(
      'jupyter_create_comment',
      { anchor: { kind: 'cell', cellId: 'c', foo: 1 }, message: 'm' },
      'Unknown argument "anchor.foo": "anchor" accepts only kind, cellId, selection, text, outputIndex.',
      { field: 'anchor.foo', rule: 'additionalProperties' }
    );
    expectInvalid(
      'jupyter_focus_cell',
      { cellId: 'c', selection: { start: { line: 0, column: -2 }, end: {} } },
      'Invalid argument "selection.start.column": must be >= 0.',
      { field: 'selection.start.column', rule: 'minimum' }
    );
    expectInvalid(
      'jupyter_run_cells',
      { cellIds: ['a', 7] },
      'Invalid argument "cellIds[1]": must be string.',
      { field: 'cellIds[1]', rule: 'type' }
    );
    expectInvalid(
      'jupyter_run_cells',
      { cellIds: Array.from({ length: 101 }, (_, i) => `c${i}`) },
      'Invalid argument "cellIds": must have at most 100 items.',
      { field: 'cellIds', rule: 'maxItems' }
    );
    for (const tool of [
      'jupyter_run_cells',
      'jupyter_get_cells',
      'jupyter_get_cell_access'
    ] as const) {
      // an empty list is a mistake, never a silent empty answer
      expectInvalid(
        tool,
        { cellIds: [] },
        'Invalid argument "cellIds": must not be empty.',
        { field: 'cellIds', rule: 'minItems' }
      );
    }
    expectInvalid(
      'jupyter_list_workspace',
      { path: 5 },
      'Invalid argument "path": must be string or null.',
      { field: 'path', rule: 'type' }
    );
    expectInvalid(
      'jupyter_get_cells',
      { startIndex: 1.5 },
      'Invalid argument "startIndex": must be integer.',
      { field: 'startIndex', rule: 'type' }
    );
    expectInvalid(
      'jupyter_reply_comment',
      { threadId: 't', message: '' },
      'Invalid argument "message": must not be empty.',
      { field: 'message', rule: 'minLength' }
    );
    expectInvalid(
      'jupyter_get_output_selection',
      { all: true },
      'Unknown argument "all": this tool takes no arguments.',
      { field: 'all', rule: 'additionalProperties' }
    );
  });

  it('reports one error, the same one every time', () => {
    const input = { limit: 0, recursive: 'x', foo: 1 };
    const first = failure('jupyter_list_workspace', input).message;
    for (let i = 0; i < 3; i++) {
      expect(failure('jupyter_list_workspace', input).message).toBe(first);
    }
    expect(first.match(/argument/g)).toHaveLength(1);
  });

  it('handles a 4,000-byte string without echoing it', () => {
    const long = 'é'.repeat(2000);
    expect(new TextEncoder().encode(long).length).toBe(4000);
    expect(
      validator.validate('jupyter_list_workspace', { path: long }).path
    ).toBe(long);
    const wrongType = failure('jupyter_list_workspace', { limit: long });
    expect(wrongType.message).toBe(
      'Invalid argument "limit": must be integer.'
    );
    const unknown = failure('jupyter_list_workspace', { [long]: 1 });
    expect(unknown.message.length).toBeLessThan(200);
    expect(unknown.message).toContain('é'.repeat(64) + '…');
    expect(String(unknown.details.field).length).toBeLessThanOrEqual(65);
  });

  it('refuses cyclic arguments', () => {
    const anchor: Record<string, unknown> = { kind: 'cell', cellId: 'c' };
    anchor.self = anchor;
    const error = failure('jupyter_create_comment', { anchor, message: 'm' });
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.details).toEqual({ field: '', rule: 'cycle' });
  });

  it('treats a "__proto__" key as an unknown argument', () => {
    const input: unknown = JSON.parse('{"__proto__": {"limit": 0}}');
    expectInvalid(
      'jupyter_list_workspace',
      input,
      'Unknown argument "__proto__": this tool accepts only path, recursive, limit.',
      { field: '__proto__', rule: 'additionalProperties' }
    );
  });

  it('normalizes to the structured error with field and rule', () => {
    const error = normalizeError(failure('jupyter_kernel_action', {}));
    expect(error).toEqual({
      error: 'INVALID_ARGUMENT',
      message: 'Missing required argument "action".',
      field: 'action',
      rule: 'required'
    });
  });
});
