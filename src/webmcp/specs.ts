/**
 * Every tool's definition as data, in one entry per tool: its name (the key),
 * title, description (verbatim from the specification), annotations and input
 * JSON Schema. Pure data: no JupyterLab import, so the validator generator
 * (scripts/build-validators.mjs), the docs check and the browser tests read
 * it without the app. A tool's handler is bound to its entry by `defineTool`
 * (./define.ts), with its argument type derived from this schema.
 *
 * The schemas use only plain keywords (type, properties, required, enum,
 * minimum/maximum, items, maxItems, default) so every WebMCP client can read
 * them. Rules the spec states in UTF-8 bytes (name 256 bytes, source 256 KiB,
 * message 8 KiB, anchor text 4 KiB) are checked by the handlers, because JSON
 * Schema `maxLength` counts characters; so are the rules that relate two
 * fields (a run range needs both endpoints, `endIndex >= startIndex`, a
 * source-range anchor needs `text` or `selection`) and blank-string checks.
 * `consequentialHint` marks the tools that run code, delete or restart.
 *
 * The helpers below keep each schema's literal type (`const` type
 * parameters), so `FromSchema` can derive the handler's arguments from it.
 */
import { LIMITS } from '../limits';
import { type IToolAnnotations, type JSONSchema } from './types';

/** The advertised part of a tool, and its input schema. */
export interface IToolSpec {
  title: string;
  description: string;
  annotations: IToolAnnotations;
  inputSchema: JSONSchema;
}

/** An object schema that refuses properties it does not list. */
type ObjectSchema<P, R extends readonly string[]> = {
  type: 'object';
  properties: P;
  additionalProperties: false;
} & (R extends readonly [] ? unknown : { required: R });

function object<
  const P extends Record<string, JSONSchema>,
  const R extends readonly (keyof P & string)[] = []
>(properties: P, required?: R): ObjectSchema<P, R> {
  return {
    type: 'object',
    properties,
    ...(required && required.length > 0 ? { required } : {}),
    additionalProperties: false
  } as ObjectSchema<P, R>;
}

function string(description: string): { type: 'string'; description: string } {
  return { type: 'string', description };
}

function nullableString(description: string): {
  type: readonly ['string', 'null'];
  description: string;
} {
  return { type: ['string', 'null'], description };
}

function boolean(
  description: string,
  value: boolean
): { type: 'boolean'; description: string; default: boolean } {
  return { type: 'boolean', description, default: value };
}

function index(description: string): {
  type: 'integer';
  minimum: 0;
  description: string;
} {
  return { type: 'integer', minimum: 0, description };
}

function notebookPath() {
  return nullableString(
    'Workspace-relative path of the notebook, e.g. "analysis/report.ipynb". Omit or pass null for the current notebook.'
  );
}

function cellIds(
  description: string,
  maxItems?: number
): {
  type: 'array';
  items: { type: 'string' };
  maxItems?: number;
  description: string;
} {
  return {
    type: 'array',
    items: { type: 'string' },
    ...(maxItems === undefined ? {} : { maxItems }),
    description
  };
}

function position(description: string) {
  return {
    type: 'object',
    description,
    properties: {
      line: index('Zero-based line number in the cell source.'),
      column: index('Zero-based column (UTF-16 offset) within the line.')
    },
    required: ['line', 'column'],
    additionalProperties: false
  } as const;
}

function selection(description: string) {
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

function threadOnly() {
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

const SPECS = {
  jupyter_get_context: {
    title: 'Get notebook context',
    description:
      'Read the live state of the browser-local Jupyter workspace: the open documents, the current notebook (including whether it has unsaved changes), the kernel status, the active and selected cells, the cursor, and the exact text the user currently has selected. Call this first; the selection is how the user points at something when they say "this".',
    annotations: { readOnlyHint: true, untrustedContentHint: true },
    inputSchema: object({})
  },
  jupyter_list_workspace: {
    title: 'List workspace files',
    description:
      'List files and directories in the browser-local workspace. Returns names, paths, types, sizes and modification times, never file contents. Use it to find a notebook before opening it.',
    annotations: { readOnlyHint: true, untrustedContentHint: true },
    inputSchema: object({
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
        description:
          'Maximum number of entries to return, across the whole walk.'
      }
    })
  },
  jupyter_open_notebook: {
    title: 'Open a notebook',
    description:
      'Open a notebook from the workspace and bring it to the front, optionally scrolling to a specific cell. This visibly changes what the user is looking at.',
    annotations: { readOnlyHint: false, untrustedContentHint: true },
    inputSchema: object(
      {
        path: string('Workspace-relative path of the notebook to open.'),
        cellId: nullableString(
          'Id of a cell to scroll to and activate once open.'
        ),
        activate: boolean('Bring the notebook to the front.', true)
      },
      ['path']
    )
  },
  jupyter_create_notebook: {
    title: 'Create a notebook',
    description:
      'Create a new, empty notebook in the browser-local workspace and open it. Refuses to overwrite an existing file.',
    annotations: { readOnlyHint: false, untrustedContentHint: false },
    inputSchema: object(
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
    )
  },
  jupyter_get_cells: {
    title: 'Read notebook cells',
    description:
      'Read cells from the live notebook model, including edits the user has not saved yet. Each cell comes back with its stable id and a sourceHash; you must pass that hash back to edit or delete the cell. Outputs are bounded and only included when asked for.',
    annotations: { readOnlyHint: true, untrustedContentHint: true },
    inputSchema: object({
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
    })
  },
  jupyter_get_cell_access: {
    title: 'Read cell agent access',
    description:
      'Report what a connected agent may currently do with each cell (write, read, or none) plus its full provenance history, and how many cells in range are hidden entirely. The notebook owner controls this per cell from the cell context menu; there is no tool to change it. Use this to explain to the user why you are not touching a cell.',
    annotations: { readOnlyHint: true, untrustedContentHint: true },
    inputSchema: object({
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
    })
  },
  jupyter_insert_cell: {
    title: 'Insert a cell',
    description:
      'Insert a new cell into the live notebook, above or below a reference cell. The cell is visible to the user immediately. It is not executed: run it with jupyter_run_cells as a separate, explicit step.',
    annotations: { readOnlyHint: false, untrustedContentHint: true },
    inputSchema: object({
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
    })
  },
  jupyter_update_cell: {
    title: 'Update a cell',
    description:
      'Replace the source of a visible notebook cell in the live model. Requires the sourceHash returned by a previous read, so an unsaved human edit can never be overwritten by accident: if the cell changed, the write is refused with a STALE_CELL error containing the current hash and a preview. Does not run or save the cell. When the human has switched the notebook to Propose mode, this call does not apply immediately: it stages a reviewable diff in the notebook UI and waits for the human; it does not resolve until they accept (applied, same as Direct mode) or deny it (a normal, non-error result carrying their reason, coded PROPOSAL_DENIED), or the call is aborted. It is auto-denied the same way, with a reason, if the cell is deleted or the notebook is closed or renamed first.',
    annotations: { readOnlyHint: false, untrustedContentHint: true },
    inputSchema: object(
      {
        notebookPath: notebookPath(),
        cellId: string('Id of the cell to update.'),
        source: string(
          'The complete replacement source (not a diff). At most 256 KiB of UTF-8.'
        ),
        expectedSourceHash: string(SOURCE_HASH)
      },
      ['cellId', 'source', 'expectedSourceHash']
    )
  },
  jupyter_delete_cell: {
    title: 'Delete a cell',
    description:
      'Delete a visible notebook cell. Requires the sourceHash from a previous read; a cell the user has edited since then is not deleted.',
    annotations: {
      readOnlyHint: false,
      untrustedContentHint: true,
      consequentialHint: true
    },
    inputSchema: object(
      {
        notebookPath: notebookPath(),
        cellId: string('Id of the cell to delete.'),
        expectedSourceHash: string(SOURCE_HASH)
      },
      ['cellId', 'expectedSourceHash']
    )
  },
  jupyter_run_cells: {
    title: 'Run notebook cells',
    description:
      'Execute cells that already exist in the notebook, using the browser-local kernel the user shares. Select them with cellIds, or with an explicit contiguous startIndex/endIndex range; if no selector is given, the active cell runs. The user sees the busy state, the execution counts and the outputs. There is no way to run an arbitrary source string: to compute something new, insert a visible cell first and then run it.',
    annotations: {
      readOnlyHint: false,
      untrustedContentHint: true,
      consequentialHint: true
    },
    inputSchema: object({
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
    })
  },
  jupyter_focus_cell: {
    title: 'Focus a cell',
    description:
      'Scroll to a cell, select it, and optionally place the cursor or select an exact range of its source using the notebook editor’s own selection. Use it to point the user at the code you are talking about. Changes only what is on screen.',
    annotations: { readOnlyHint: false, untrustedContentHint: true },
    inputSchema: object(
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
    )
  },
  jupyter_save_notebook: {
    title: 'Save the notebook',
    description:
      'Save the notebook to the browser-local workspace. The live in-memory model is authoritative, so this is only needed when the user wants the file on disk updated.',
    annotations: { readOnlyHint: false, untrustedContentHint: false },
    inputSchema: object({ notebookPath: notebookPath() })
  },
  jupyter_kernel_action: {
    title: 'Interrupt or restart the kernel',
    description:
      'Interrupt or restart the browser-local kernel for a notebook. The kernel is shared with the user, so an interrupt also stops anything they started. Restarting discards every in-memory variable.',
    annotations: {
      readOnlyHint: false,
      untrustedContentHint: false,
      consequentialHint: true
    },
    inputSchema: object(
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
    )
  },
  jupyter_list_comments: {
    title: 'List review comments',
    description:
      'List the review threads stored in a notebook. Threads are an ordinary notebook feature the user can also create, reply to and resolve by hand; they are saved in the notebook file. Each summary says whether the thread still points at live code or has become orphaned.',
    annotations: { readOnlyHint: true, untrustedContentHint: true },
    inputSchema: object({
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
    })
  },
  jupyter_get_comment: {
    title: 'Read a review thread',
    description:
      'Read one review thread: its messages (the first and the most recent when long), the anchor, whether the anchor still resolves, and the code or output it is attached to as it exists now.',
    annotations: { readOnlyHint: true, untrustedContentHint: true },
    inputSchema: threadOnly()
  },
  jupyter_create_comment: {
    title: 'Create a review comment',
    description:
      'Create a review thread anchored to a whole cell, to an exact range of a cell’s source, or to one of a cell’s outputs. This is the same kind of comment the user creates from the Comments tab of the Agent panel, so use it to leave observations without editing their notebook.',
    annotations: { readOnlyHint: false, untrustedContentHint: true },
    inputSchema: object(
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
    )
  },
  jupyter_reply_comment: {
    title: 'Reply to a review thread',
    description:
      'Append a message to an existing review thread. The user sees it in the Comments tab of the Agent panel next to their own messages.',
    annotations: { readOnlyHint: false, untrustedContentHint: true },
    inputSchema: object(
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
    )
  },
  jupyter_resolve_comment: {
    title: 'Resolve a review thread',
    description:
      'Mark a review thread resolved, optionally adding a closing message. The history is preserved and the user can reopen it.',
    annotations: { readOnlyHint: false, untrustedContentHint: true },
    inputSchema: object(
      {
        notebookPath: notebookPath(),
        threadId: string('Id of the review thread to resolve.'),
        resolutionMessage: nullableString(
          'An optional closing message added before resolving. At most 8 KiB of UTF-8.'
        )
      },
      ['threadId']
    )
  },
  jupyter_reopen_comment: {
    title: 'Reopen a review thread',
    description: 'Reopen a resolved review thread, preserving its history.',
    annotations: { readOnlyHint: false, untrustedContentHint: true },
    inputSchema: threadOnly()
  },
  jupyter_focus_comment: {
    title: 'Focus a review thread',
    description:
      'Scroll to what a review thread is attached to and select it, so the user can see exactly which code or output is under discussion. Changes only what is on screen.',
    annotations: { readOnlyHint: false, untrustedContentHint: true },
    inputSchema: threadOnly()
  },
  jupyter_export_notebook: {
    title: 'Export the notebook',
    description:
      'Export the notebook as a portable markdown document: markdown cells verbatim, code cells as fenced code blocks, and (by default) their text and error outputs, with images represented only by a placeholder, never embedded. Use this to hand the notebook to another tool (upload it, email it, put it in a document) without a manual export.',
    annotations: { readOnlyHint: true, untrustedContentHint: true },
    inputSchema: object({
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
    })
  },
  jupyter_get_output_selection: {
    title: 'Read the selected output',
    description:
      'Read the text the user last selected inside a rendered cell output, if any is currently recorded. Returns null when nothing is selected, the selection crossed cells or notebook chrome, or it no longer matches the output it was taken from.',
    annotations: { readOnlyHint: true, untrustedContentHint: true },
    inputSchema: object({})
  }
} satisfies Record<string, IToolSpec>;

/** The name of one tool of ours. */
export type ToolName = keyof typeof SPECS;

/** The input schema of tool `N`, with its literal type. */
export type ToolInputSchema<N extends ToolName> =
  (typeof SPECS)[N]['inputSchema'];

/**
 * The 22 tools, in the order of the specification: each entry an IToolSpec
 * whose input schema keeps its literal type (for `FromSchema`).
 */
export const TOOL_SPECS: {
  readonly [N in ToolName]: IToolSpec & {
    inputSchema: ToolInputSchema<N>;
  };
} = SPECS;

/** The 22 tools' names, in the order of the specification. */
export const TOOL_NAMES = Object.keys(TOOL_SPECS) as readonly ToolName[];

/** The input schema of every tool, by name. */
export const TOOL_INPUT_SCHEMAS: { readonly [N in ToolName]: JSONSchema } =
  (() => {
    const schemas = {} as { [N in ToolName]: JSONSchema };
    for (const name of TOOL_NAMES) {
      schemas[name] = TOOL_SPECS[name].inputSchema;
    }
    return schemas;
  })();
