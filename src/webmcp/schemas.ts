/**
 * The input JSON Schema of every tool, as advertised to agents and compiled
 * by the input validator. Pure data: no JupyterLab import.
 *
 * The schemas use only plain keywords (type, properties, required, enum,
 * minimum/maximum, items, maxItems, default) so every WebMCP client can read
 * them. Rules the spec states in UTF-8 bytes (name 256 bytes, source 256 KiB,
 * message 8 KiB, anchor text 4 KiB) are checked by the handlers, because JSON
 * Schema `maxLength` counts characters; so are the rules that relate two
 * fields (a run range needs both endpoints, `endIndex >= startIndex`, a
 * source-range anchor needs `text` or `selection`) and blank-string checks.
 */
import { LIMITS } from '../limits';
import { type JSONSchema } from './types';

/** The 22 tools, in the order of the specification. */
export const TOOL_NAMES = [
  'jupyter_get_context',
  'jupyter_list_workspace',
  'jupyter_open_notebook',
  'jupyter_create_notebook',
  'jupyter_get_cells',
  'jupyter_get_cell_access',
  'jupyter_insert_cell',
  'jupyter_update_cell',
  'jupyter_delete_cell',
  'jupyter_run_cells',
  'jupyter_focus_cell',
  'jupyter_save_notebook',
  'jupyter_kernel_action',
  'jupyter_list_comments',
  'jupyter_get_comment',
  'jupyter_create_comment',
  'jupyter_reply_comment',
  'jupyter_resolve_comment',
  'jupyter_reopen_comment',
  'jupyter_focus_comment',
  'jupyter_export_notebook',
  'jupyter_get_output_selection'
] as const;

/** The name of one tool. */
export type ToolName = (typeof TOOL_NAMES)[number];

function object(
  properties: Record<string, JSONSchema>,
  required: string[] = []
): JSONSchema {
  return {
    type: 'object',
    properties,
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false
  };
}

function string(description: string): JSONSchema {
  return { type: 'string', description };
}

function nullableString(description: string): JSONSchema {
  return { type: ['string', 'null'], description };
}

function boolean(description: string, value: boolean): JSONSchema {
  return { type: 'boolean', description, default: value };
}

function index(description: string): JSONSchema {
  return { type: 'integer', minimum: 0, description };
}

function notebookPath(): JSONSchema {
  return nullableString(
    'Workspace-relative path of the notebook, e.g. "analysis/report.ipynb". Omit or pass null for the current notebook.'
  );
}

function cellIds(description: string, maxItems?: number): JSONSchema {
  return {
    type: 'array',
    items: { type: 'string' },
    ...(maxItems === undefined ? {} : { maxItems }),
    description
  };
}

function position(description: string): JSONSchema {
  return {
    type: 'object',
    description,
    properties: {
      line: index('Zero-based line number in the cell source.'),
      column: index('Zero-based column (UTF-16 offset) within the line.')
    },
    required: ['line', 'column'],
    additionalProperties: false
  };
}

function selection(description: string): JSONSchema {
  return {
    ...object(
      {
        start: position('Where the selection starts.'),
        end: position('Where the selection ends.')
      },
      ['start', 'end']
    ),
    description
  };
}

function threadOnly(): JSONSchema {
  return object(
    {
      notebookPath: notebookPath(),
      threadId: string(
        'Id of the review thread, as listed by jupyter_list_comments.'
      )
    },
    ['threadId']
  );
}

const SOURCE_HASH =
  'The sourceHash returned for this cell by the most recent read; the call is refused if the cell changed since.';

/** The input schema of every tool. */
export const TOOL_INPUT_SCHEMAS: Record<ToolName, JSONSchema> = {
  jupyter_get_context: object({}),

  jupyter_list_workspace: object({
    path: nullableString(
      'Workspace-relative directory to list. Omit or pass null for the workspace root.'
    ),
    recursive: boolean(
      'List subdirectories too, breadth-first, within the same limit.',
      false
    ),
    limit: {
      type: 'integer',
      minimum: 1,
      maximum: LIMITS.MAX_WORKSPACE_ROWS,
      default: LIMITS.MAX_WORKSPACE_ROWS,
      description: 'Maximum number of entries to return, across the whole walk.'
    }
  }),

  jupyter_open_notebook: object(
    {
      path: string('Workspace-relative path of the notebook to open.'),
      cellId: nullableString(
        'Id of a cell to scroll to and activate once open.'
      ),
      activate: boolean('Bring the notebook to the front.', true)
    },
    ['path']
  ),

  jupyter_create_notebook: object(
    {
      // The spec makes an empty name INVALID_ARGUMENT; a blank one and the
      // 256-byte bound are the handler's.
      name: {
        type: 'string',
        minLength: 1,
        description:
          'File name of the new notebook; ".ipynb" is appended if missing. At most 256 bytes of UTF-8.'
      },
      directory: nullableString(
        'Workspace-relative directory to create it in. Omit or pass null for the workspace root.'
      ),
      kernel: nullableString(
        'Kernel name or language, e.g. "python". Omit or pass null for the default kernel.'
      )
    },
    ['name']
  ),

  jupyter_get_cells: object({
    notebookPath: notebookPath(),
    cellIds: {
      ...cellIds(
        'Ids of the cells to read, in the order wanted (at least one). Takes priority over startIndex/endIndex.'
      ),
      minItems: 1
    },
    startIndex: {
      ...index('Zero-based index of the first cell of the range to read.'),
      default: 0
    },
    endIndex: index(
      'Exclusive end index of the range. Defaults to startIndex + 20; at most 100 cells are returned.'
    ),
    includeSource: boolean('Include each cell source.', true),
    includeOutputs: boolean('Include each cell outputs (bounded).', false)
  }),

  jupyter_get_cell_access: object({
    notebookPath: notebookPath(),
    cellIds: {
      ...cellIds(
        'Ids of the cells to report on (at least one). Takes priority over startIndex/endIndex.'
      ),
      minItems: 1
    },
    startIndex: {
      ...index('Zero-based index of the first cell of the range.'),
      default: 0
    },
    endIndex: index(
      'Exclusive end index of the range. Defaults to startIndex + 20; at most 100 cells are returned.'
    )
  }),

  jupyter_insert_cell: object({
    notebookPath: notebookPath(),
    referenceCellId: nullableString(
      'Id of the cell to insert next to. Omit or pass null for the active cell.'
    ),
    position: {
      type: 'string',
      enum: ['above', 'below'],
      default: 'below',
      description: 'Insert above or below the reference cell.'
    },
    // No enum on purpose: the spec reports an unsupported cell type as
    // INVALID_CELL_TYPE, which the handler raises, not as INVALID_ARGUMENT.
    cellType: {
      type: 'string',
      default: 'code',
      description: 'Type of the new cell: "code", "markdown" or "raw".'
    },
    source: {
      type: 'string',
      default: '',
      description: 'Source of the new cell. At most 256 KiB of UTF-8.'
    },
    activate: boolean(
      'Make the new cell the active cell (and render a markdown cell).',
      true
    )
  }),

  jupyter_update_cell: object(
    {
      notebookPath: notebookPath(),
      cellId: string('Id of the cell to update.'),
      source: string(
        'The complete replacement source (not a diff). At most 256 KiB of UTF-8.'
      ),
      expectedSourceHash: string(SOURCE_HASH)
    },
    ['cellId', 'source', 'expectedSourceHash']
  ),

  jupyter_delete_cell: object(
    {
      notebookPath: notebookPath(),
      cellId: string('Id of the cell to delete.'),
      expectedSourceHash: string(SOURCE_HASH)
    },
    ['cellId', 'expectedSourceHash']
  ),

  jupyter_run_cells: object({
    notebookPath: notebookPath(),
    cellIds: {
      ...cellIds(
        'Ids of the cells to run, in order (at least one). Do not combine with startIndex/endIndex.',
        LIMITS.MAX_CELL_IDS_PER_CALL
      ),
      minItems: 1
    },
    startIndex: index(
      'Inclusive first index of a contiguous range to run; give endIndex too.'
    ),
    endIndex: index(
      'Exclusive end index of the range; give startIndex too. At most 100 cells.'
    ),
    stopOnError: boolean(
      'Stop running the remaining cells after one fails.',
      true
    )
  }),

  jupyter_focus_cell: object(
    {
      notebookPath: notebookPath(),
      cellId: string('Id of the cell to scroll to and select.'),
      cursor: position(
        'Where to place the cursor in the cell source. Ignored when selection is given.'
      ),
      selection: selection(
        'A range of the cell source to select. Takes priority over cursor.'
      )
    },
    ['cellId']
  ),

  jupyter_save_notebook: object({ notebookPath: notebookPath() }),

  jupyter_kernel_action: object(
    {
      notebookPath: notebookPath(),
      action: {
        type: 'string',
        enum: ['interrupt', 'restart'],
        description:
          'Interrupt the running execution, or restart the kernel (every in-memory variable is lost).'
      }
    },
    ['action']
  ),

  jupyter_list_comments: object({
    notebookPath: notebookPath(),
    status: {
      type: 'string',
      enum: ['open', 'resolved', 'all'],
      default: 'open',
      description: 'Which threads to list, by status.'
    },
    scope: {
      type: 'string',
      enum: ['notebook', 'current-cell'],
      default: 'notebook',
      description:
        'List threads of the whole notebook, or only those on the active cell.'
    },
    limit: {
      type: 'integer',
      minimum: 1,
      maximum: LIMITS.MAX_COMMENTS_RETURNED,
      default: LIMITS.MAX_COMMENTS_RETURNED,
      description: 'Maximum number of threads to return, newest first.'
    }
  }),

  jupyter_get_comment: threadOnly(),

  jupyter_create_comment: object(
    {
      notebookPath: notebookPath(),
      anchor: {
        ...object(
          {
            kind: {
              type: 'string',
              enum: ['cell', 'source-range', 'output'],
              description:
                'Attach to the whole cell, to a range of its source, or to one of its outputs.'
            },
            cellId: string('Id of the cell the comment is about.'),
            selection: selection(
              'For "source-range": the range of the source to attach to.'
            ),
            text: string(
              'For "source-range": an exact substring of the source to attach to, instead of selection. At most 4 KiB of UTF-8.'
            ),
            // The default 0 applies to output anchors only, so the handler
            // supplies it rather than a schema default on every kind.
            outputIndex: index(
              'For "output": zero-based index of the output. Defaults to 0.'
            )
          },
          ['kind', 'cellId']
        ),
        description: 'What the comment is attached to.'
      },
      message: string('The comment text (markdown). At most 8 KiB of UTF-8.')
    },
    ['anchor', 'message']
  ),

  jupyter_reply_comment: object(
    {
      notebookPath: notebookPath(),
      threadId: string('Id of the review thread to reply to.'),
      // The spec makes an empty message INVALID_ARGUMENT; blank is the handler's.
      message: {
        type: 'string',
        minLength: 1,
        description: 'The reply text (markdown). At most 8 KiB of UTF-8.'
      }
    },
    ['threadId', 'message']
  ),

  jupyter_resolve_comment: object(
    {
      notebookPath: notebookPath(),
      threadId: string('Id of the review thread to resolve.'),
      resolutionMessage: nullableString(
        'An optional closing message added before resolving. At most 8 KiB of UTF-8.'
      )
    },
    ['threadId']
  ),

  jupyter_reopen_comment: threadOnly(),

  jupyter_focus_comment: threadOnly(),

  jupyter_export_notebook: object({
    notebookPath: notebookPath(),
    format: {
      type: 'string',
      enum: ['markdown'],
      default: 'markdown',
      description: 'Export format. Only "markdown" is supported.'
    },
    includeOutputs: boolean(
      'Include text and error outputs; images become placeholders.',
      true
    )
  }),

  jupyter_get_output_selection: object({})
};
