import Ajv, { type ValidateFunction } from 'ajv';

import { LIMITS } from '../../src/limits';
import {
  TOOL_INPUT_SCHEMAS,
  TOOL_NAMES,
  type ToolName
} from '../../src/webmcp/specs';
import { type JSONSchema } from '../../src/webmcp/types';

type Args = Record<string, unknown>;

/** What every tool must accept and reject. */
interface ICase {
  /** The smallest valid input. */
  minimal: Args;
  /** A field and a value of the wrong type. */
  wrongType?: [string, unknown];
  /** A string field given a number. */
  numberForString?: string;
  /** An integer field (limit or index) that refuses negatives. */
  negative?: string;
  /** Fields the spec makes required. */
  required: string[];
}

const CASES: Record<ToolName, ICase> = {
  jupyter_get_context: { minimal: {}, required: [] },
  jupyter_list_workspace: {
    minimal: {},
    wrongType: ['recursive', 'yes'],
    numberForString: 'path',
    negative: 'limit',
    required: []
  },
  jupyter_open_notebook: {
    minimal: { path: 'a.ipynb' },
    wrongType: ['activate', 1],
    numberForString: 'path',
    required: ['path']
  },
  jupyter_create_notebook: {
    minimal: { name: 'new' },
    wrongType: ['directory', true],
    numberForString: 'name',
    required: ['name']
  },
  jupyter_get_cells: {
    minimal: {},
    wrongType: ['cellIds', 'c1'],
    numberForString: 'notebookPath',
    negative: 'startIndex',
    required: []
  },
  jupyter_get_cell_access: {
    minimal: {},
    wrongType: ['cellIds', [1]],
    numberForString: 'notebookPath',
    negative: 'endIndex',
    required: []
  },
  jupyter_insert_cell: {
    minimal: {},
    wrongType: ['activate', 'true'],
    numberForString: 'source',
    required: []
  },
  jupyter_update_cell: {
    minimal: { cellId: 'c', source: '', expectedSourceHash: 'h' },
    wrongType: ['source', null],
    numberForString: 'cellId',
    required: ['cellId', 'source', 'expectedSourceHash']
  },
  jupyter_delete_cell: {
    minimal: { cellId: 'c', expectedSourceHash: 'h' },
    wrongType: ['expectedSourceHash', null],
    numberForString: 'cellId',
    required: ['cellId', 'expectedSourceHash']
  },
  jupyter_run_cells: {
    minimal: {},
    wrongType: ['stopOnError', 0],
    numberForString: 'notebookPath',
    negative: 'startIndex',
    required: []
  },
  jupyter_focus_cell: {
    minimal: { cellId: 'c' },
    wrongType: ['cursor', 'line 1'],
    numberForString: 'cellId',
    required: ['cellId']
  },
  jupyter_save_notebook: {
    minimal: {},
    wrongType: ['notebookPath', false],
    numberForString: 'notebookPath',
    required: []
  },
  jupyter_kernel_action: {
    minimal: { action: 'interrupt' },
    wrongType: ['action', true],
    numberForString: 'action',
    required: ['action']
  },
  jupyter_list_comments: {
    minimal: {},
    wrongType: ['limit', 2.5],
    numberForString: 'status',
    negative: 'limit',
    required: []
  },
  jupyter_get_comment: {
    minimal: { threadId: 't' },
    wrongType: ['threadId', null],
    numberForString: 'threadId',
    required: ['threadId']
  },
  jupyter_create_comment: {
    minimal: { anchor: { kind: 'cell', cellId: 'c' }, message: 'm' },
    wrongType: ['anchor', 'cell'],
    numberForString: 'message',
    required: ['anchor', 'message']
  },
  jupyter_reply_comment: {
    minimal: { threadId: 't', message: 'm' },
    wrongType: ['message', ['m']],
    numberForString: 'threadId',
    required: ['threadId', 'message']
  },
  jupyter_resolve_comment: {
    minimal: { threadId: 't' },
    wrongType: ['resolutionMessage', 3],
    numberForString: 'threadId',
    required: ['threadId']
  },
  jupyter_reopen_comment: {
    minimal: { threadId: 't' },
    wrongType: ['notebookPath', {}],
    numberForString: 'threadId',
    required: ['threadId']
  },
  jupyter_focus_comment: {
    minimal: { threadId: 't' },
    wrongType: ['notebookPath', []],
    numberForString: 'threadId',
    required: ['threadId']
  },
  jupyter_export_notebook: {
    minimal: {},
    wrongType: ['format', false],
    numberForString: 'format',
    required: []
  },
  jupyter_get_output_selection: { minimal: {}, required: [] }
};

const ajv = new Ajv({ strict: true, allowUnionTypes: true, useDefaults: true });
const validators = new Map<ToolName, ValidateFunction>();
for (const name of TOOL_NAMES) {
  validators.set(name, ajv.compile(TOOL_INPUT_SCHEMAS[name]));
}

function accepts(name: ToolName, input: Args): boolean {
  return validators.get(name)!(
    JSON.parse(JSON.stringify(input)) as Args
  ) as boolean;
}

/** Every object schema, however deep, with its location. */
function objectSchemas(schema: JSONSchema, at: string): [string, JSONSchema][] {
  const found: [string, JSONSchema][] = [];
  if (schema.type === 'object') {
    found.push([at, schema]);
  }
  const properties = (schema.properties ?? {}) as Record<string, JSONSchema>;
  for (const [key, child] of Object.entries(properties)) {
    found.push(...objectSchemas(child, `${at}.${key}`));
  }
  return found;
}

describe('TOOL_NAMES', () => {
  // how many tools the specification names is said once, in tools.spec.ts
  it('lists the tools once each, and every one has a schema', () => {
    expect(new Set(TOOL_NAMES).size).toBe(TOOL_NAMES.length);
    expect(Object.keys(TOOL_INPUT_SCHEMAS).sort()).toEqual(
      [...TOOL_NAMES].sort()
    );
    expect(TOOL_NAMES[0]).toBe('jupyter_get_context');
    expect(TOOL_NAMES[TOOL_NAMES.length - 1]).toBe(
      'jupyter_get_output_selection'
    );
  });
});

describe.each(TOOL_NAMES.map(name => [name]))('%s', name => {
  const schema = TOOL_INPUT_SCHEMAS[name as ToolName];
  const spec = CASES[name as ToolName];
  const properties = schema.properties as Record<string, JSONSchema>;

  it('is a closed object whose every field is described', () => {
    expect(schema.type).toBe('object');
    for (const [at, object] of objectSchemas(schema, name)) {
      expect([at, object.additionalProperties]).toEqual([at, false]);
      const fields = (object.properties ?? {}) as Record<string, JSONSchema>;
      for (const [key, field] of Object.entries(fields)) {
        expect([`${at}.${key}`, typeof field.description]).toEqual([
          `${at}.${key}`,
          'string'
        ]);
      }
    }
    expect(schema.required ?? []).toEqual(spec.required);
  });

  it('accepts a minimal valid input', () => {
    expect(accepts(name as ToolName, spec.minimal)).toBe(true);
  });

  it('rejects an unknown property', () => {
    expect(accepts(name as ToolName, { ...spec.minimal, extra: 1 })).toBe(
      false
    );
  });

  it('rejects a value of the wrong type', () => {
    if (!spec.wrongType) {
      expect(Object.keys(properties)).toEqual([]);
      return;
    }
    const [field, value] = spec.wrongType;
    expect(properties).toHaveProperty(field);
    expect(accepts(name as ToolName, { ...spec.minimal, [field]: value })).toBe(
      false
    );
  });

  it('rejects a number where a string is expected', () => {
    if (!spec.numberForString) {
      expect(Object.keys(properties)).toEqual([]);
      return;
    }
    const field = spec.numberForString;
    expect(accepts(name as ToolName, { ...spec.minimal, [field]: 42 })).toBe(
      false
    );
  });

  it('rejects a negative limit or index', () => {
    const integers = Object.keys(properties).filter(
      key => properties[key].type === 'integer'
    );
    if (!spec.negative) {
      expect(integers).toEqual([]);
      return;
    }
    for (const field of integers) {
      expect([
        field,
        accepts(name as ToolName, { ...spec.minimal, [field]: -1 })
      ]).toEqual([field, false]);
    }
  });

  it('rejects a missing required field', () => {
    for (const field of spec.required) {
      const input = { ...spec.minimal };
      delete input[field];
      expect([field, accepts(name as ToolName, input)]).toEqual([field, false]);
    }
    if (spec.required.length === 0) {
      expect(schema).not.toHaveProperty('required');
    }
  });
});

describe('encoded rules', () => {
  const defaults = (name: ToolName, input: Args = {}): Args => {
    const copy = JSON.parse(JSON.stringify(input)) as Args;
    expect(validators.get(name)!(copy)).toBe(true);
    return copy;
  };

  it('declares the constant defaults of the spec', () => {
    expect(defaults('jupyter_list_workspace')).toEqual({
      recursive: false,
      limit: 100
    });
    expect(defaults('jupyter_open_notebook', { path: 'a.ipynb' })).toEqual({
      path: 'a.ipynb',
      activate: true
    });
    expect(defaults('jupyter_get_cells')).toEqual({
      startIndex: 0,
      includeSource: true,
      includeOutputs: false
    });
    expect(defaults('jupyter_get_cell_access')).toEqual({ startIndex: 0 });
    expect(defaults('jupyter_insert_cell')).toEqual({
      position: 'below',
      cellType: 'code',
      source: '',
      activate: true
    });
    expect(defaults('jupyter_run_cells')).toEqual({ stopOnError: true });
    expect(defaults('jupyter_list_comments')).toEqual({
      status: 'open',
      scope: 'notebook',
      limit: 50
    });
    expect(defaults('jupyter_export_notebook')).toEqual({
      format: 'markdown',
      includeOutputs: true
    });
  });

  it('bounds list_workspace limit to 1..100 and list_comments limit to 1..50', () => {
    expect(accepts('jupyter_list_workspace', { limit: 1 })).toBe(true);
    expect(accepts('jupyter_list_workspace', { limit: 100 })).toBe(true);
    expect(accepts('jupyter_list_workspace', { limit: 0 })).toBe(false);
    expect(accepts('jupyter_list_workspace', { limit: 101 })).toBe(false);
    expect(accepts('jupyter_list_comments', { limit: 50 })).toBe(true);
    expect(accepts('jupyter_list_comments', { limit: 51 })).toBe(false);
    expect(accepts('jupyter_list_comments', { limit: 0 })).toBe(false);
  });

  it('takes null for the nullable strings', () => {
    expect(accepts('jupyter_list_workspace', { path: null })).toBe(true);
    expect(accepts('jupyter_get_cells', { notebookPath: null })).toBe(true);
    expect(
      accepts('jupyter_insert_cell', {
        referenceCellId: null,
        notebookPath: 'a'
      })
    ).toBe(true);
    expect(
      accepts('jupyter_resolve_comment', {
        threadId: 't',
        resolutionMessage: null
      })
    ).toBe(true);
    expect(accepts('jupyter_open_notebook', { path: null })).toBe(false);
  });

  it('enumerates the values the spec reports as INVALID_ARGUMENT', () => {
    expect(accepts('jupyter_insert_cell', { position: 'above' })).toBe(true);
    expect(accepts('jupyter_insert_cell', { position: 'after' })).toBe(false);
    expect(accepts('jupyter_kernel_action', { action: 'restart' })).toBe(true);
    expect(accepts('jupyter_kernel_action', { action: 'shutdown' })).toBe(
      false
    );
    expect(accepts('jupyter_export_notebook', { format: 'html' })).toBe(false);
    expect(accepts('jupyter_list_comments', { status: 'all' })).toBe(true);
    expect(accepts('jupyter_list_comments', { status: 'closed' })).toBe(false);
    expect(accepts('jupyter_list_comments', { scope: 'current-cell' })).toBe(
      true
    );
    expect(accepts('jupyter_list_comments', { scope: 'cell' })).toBe(false);
    for (const kind of ['cell', 'source-range', 'output']) {
      expect(
        accepts('jupyter_create_comment', {
          anchor: { kind, cellId: 'c' },
          message: 'm'
        })
      ).toBe(true);
    }
    expect(
      accepts('jupyter_create_comment', {
        anchor: { kind: 'line', cellId: 'c' },
        message: 'm'
      })
    ).toBe(false);
  });

  it('leaves cellType to the handler (INVALID_CELL_TYPE, not INVALID_ARGUMENT)', () => {
    expect(TOOL_INPUT_SCHEMAS.jupyter_insert_cell.properties).toHaveProperty(
      'cellType',
      expect.not.objectContaining({ enum: expect.anything() })
    );
    expect(accepts('jupyter_insert_cell', { cellType: 'heading' })).toBe(true);
    expect(accepts('jupyter_insert_cell', { cellType: 3 })).toBe(false);
  });

  it('caps run_cells cellIds at MAX_CELL_IDS_PER_CALL', () => {
    const ids = (n: number): string[] =>
      Array.from({ length: n }, (_, i) => `c${i}`);
    const max = LIMITS.MAX_CELL_IDS_PER_CALL;
    expect(accepts('jupyter_run_cells', { cellIds: ids(max) })).toBe(true);
    expect(accepts('jupyter_run_cells', { cellIds: ids(max + 1) })).toBe(false);
    // get_cells caps what it returns, not what it is asked for.
    expect(accepts('jupyter_get_cells', { cellIds: ids(max + 1) })).toBe(true);
  });

  it('takes cursor and selection as {line, column} of non-negative integers', () => {
    const at = (line: number, column: number): Args => ({ line, column });
    expect(
      accepts('jupyter_focus_cell', { cellId: 'c', cursor: at(0, 0) })
    ).toBe(true);
    expect(
      accepts('jupyter_focus_cell', { cellId: 'c', cursor: at(-1, 0) })
    ).toBe(false);
    expect(
      accepts('jupyter_focus_cell', { cellId: 'c', cursor: at(0, 1.5) })
    ).toBe(false);
    expect(
      accepts('jupyter_focus_cell', {
        cellId: 'c',
        cursor: { ...at(0, 0), x: 1 }
      })
    ).toBe(false);
    const selection = { start: at(0, 0), end: at(2, 3) };
    expect(accepts('jupyter_focus_cell', { cellId: 'c', selection })).toBe(
      true
    );
    expect(
      accepts('jupyter_focus_cell', {
        cellId: 'c',
        selection: { start: at(0, 0) }
      })
    ).toBe(false);
    expect(
      accepts('jupyter_create_comment', {
        anchor: { kind: 'source-range', cellId: 'c', selection },
        message: 'm'
      })
    ).toBe(true);
    expect(
      accepts('jupyter_create_comment', {
        anchor: { kind: 'output', cellId: 'c', outputIndex: -1 },
        message: 'm'
      })
    ).toBe(false);
  });

  it('refuses an empty name or reply, where the spec says empty is invalid', () => {
    expect(accepts('jupyter_create_notebook', { name: '' })).toBe(false);
    expect(
      accepts('jupyter_reply_comment', { threadId: 't', message: '' })
    ).toBe(false);
  });

  it('accepts long strings: byte bounds are the handlers\u2019', () => {
    const long = 'é'.repeat(200 * 1024);
    expect(
      accepts('jupyter_update_cell', {
        cellId: 'c',
        source: long,
        expectedSourceHash: 'h'
      })
    ).toBe(true);
  });
});
