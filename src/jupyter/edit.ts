/**
 * Writing cells: `jupyter_insert_cell`, `jupyter_update_cell`,
 * `jupyter_delete_cell`.
 *
 * Writes act on the live model of an open notebook. Update and delete follow
 * the read-hash-write protocol: the caller sends the `sourceHash` it read, and
 * a cell that changed since (a human edit, however recent) is refused with
 * STALE_CELL, so the human's text always survives. Each write is one step of
 * the undo history, separate from the human's typing around it, and is
 * journaled in the notebook (src/revert/journal.ts) so the human can revert
 * it from the Agent panel.
 */
import { type ISharedCell, type ISharedNotebook } from '@jupyter/ydoc';
import { type MarkdownCell } from '@jupyterlab/cells';
import { type NotebookPanel } from '@jupyterlab/notebook';

import { withAgentAttribution } from '../access/guard';
import { recordAgentAction } from '../access/provenance';
import { sourceHash } from '../common/hash';
import { restoreWithheld } from '../common/secrets';
import { replaceSource } from '../common/source-edit';
import { asOwnUndoStep } from '../common/undo-step';
import { callKey, recordAgentEdit } from '../revert/journal';
import { LIMITS } from '../limits';
import { type IProposals } from '../tokens';
import { type ICallTrace, NO_CALL } from './call';
import { isHidden } from '../access/policy';
import { cellAccess } from '../access/read';
import {
  assertSourceHash,
  cellSnapshot,
  findCell,
  type ICellSnapshot
} from './cells';
import { ToolError } from '../common/errors';
import { revealCell } from './navigate';
import { secretFilter } from './secrets';
import {
  checkNotebookAccess,
  namesNotebook,
  notebookInfo,
  type ILiveNotebook,
  type INotebookInfo,
  type NotebookResolver
} from './notebook';
import { utf8Length } from '../common/text';
import { abortedIfReviewed, deniedResult, notApplied } from './proposed';

const CELL_TYPES = ['code', 'markdown', 'raw'] as const;
type CellType = (typeof CELL_TYPES)[number];

/** Refuse a source over the write bound; never cut it. */
export function assertWritableSource(source: string, key = 'source'): void {
  const bytes = utf8Length(source);
  if (bytes > LIMITS.MAX_CELL_SOURCE_WRITE_BYTES) {
    throw new ToolError(
      'INVALID_ARGUMENT',
      `Invalid argument "${key}": ${bytes} bytes of UTF-8, more than the ${LIMITS.MAX_CELL_SOURCE_WRITE_BYTES} allowed. Nothing was written.`,
      { field: key, rule: 'maxBytes', bytes }
    );
  }
}

/**
 * What an update or a delete checks before it writes: the cell exists, the
 * agent may write it, and it is still what the agent read. Run on the file
 * of a notebook that is not open before it opens, then on the live model.
 */
function checkCellWrite(
  model: ISharedNotebook,
  args: { cellId: string; expectedSourceHash: string },
  staleMessage: string
): void {
  const { cell } = findCell(model, args.cellId, 'write');
  assertSourceHash(cell, args.expectedSourceHash, staleMessage);
}

/** What a write returns. */
export interface ICellWriteResult {
  notebook: INotebookInfo;
  cell: ICellSnapshot;
}

/**
 * The snapshot of a cell re-read by id after a write (CELL_NOT_FOUND if
 * gone), its source with secrets withheld as a read's.
 */
function reread(
  resolver: NotebookResolver,
  notebook: ILiveNotebook,
  cellId: string,
  call: ICallTrace
): ICellWriteResult {
  const { cell, index } = findCell(notebook.model, cellId, 'read');
  return {
    notebook: notebookInfo(notebook),
    cell: cellSnapshot(cell, index, {
      includeSource: true,
      includeOutputs: false,
      filter: secretFilter(resolver, notebook.model, call)
    })
  };
}

/**
 * Run `write` as one undo step of its own, attributed to the agent: whatever
 * the human typed just before is closed off, and nothing typed after merges
 * into it.
 */
function asOneStep(
  model: ISharedNotebook,
  cell: ISharedCell | null,
  write: () => void
): void {
  const history = cell && (cell as { undoManager?: unknown }).undoManager;
  asOwnUndoStep(history ? cell : model, () =>
    withAgentAttribution(() => {
      if (cell) {
        cell.transact(write);
      } else {
        model.transact(write);
      }
    })
  );
}

/** Arguments of `jupyter_insert_cell`. */
export interface IInsertArgs {
  notebookPath?: string | null;
  referenceCellId?: string | null;
  position?: 'above' | 'below';
  cellType?: string;
  source?: string;
  activate?: boolean;
}

function insertionIndex(notebook: ILiveNotebook, args: IInsertArgs): number {
  const cells = notebook.model.cells;
  if (cells.length === 0) {
    return 0;
  }
  const below = (args.position ?? 'below') === 'below';
  if (args.referenceCellId !== null && args.referenceCellId !== undefined) {
    const { index } = findCell(notebook.model, args.referenceCellId, 'read');
    return below ? index + 1 : index;
  }
  const active = notebook.panel.content.activeCell;
  const index = active
    ? cells.findIndex(cell => cell.id === active.model.id)
    : -1;
  if (index < 0 || isHidden(cellAccess(cells[index]))) {
    // No usable active cell: the end (or the start, for "above").
    return below ? cells.length : 0;
  }
  return below ? index + 1 : index;
}

/** What `jupyter_insert_cell` returns once its proposal is accepted. */
export type InsertResult =
  ICellWriteResult | IAcceptedWriteResult | IDeniedInsert;

/** A denied insert: no cell was ever made, so none is named. */
export interface IDeniedInsert {
  status: 'denied';
  code: 'PROPOSAL_DENIED';
  proposalId: string;
  cellId: null;
  reason: string | null;
}

/**
 * Insert a new cell; it is never run, and never marked trusted. In Propose
 * mode (inserts reviewed) the checks run first, then the cell is shown where
 * it would go and exists only once the human accepts.
 */
export async function insertCell(
  resolver: NotebookResolver,
  args: IInsertArgs,
  call?: ICallTrace
): Promise<ICellWriteResult>;
export async function insertCell(
  resolver: NotebookResolver,
  args: IInsertArgs,
  call: ICallTrace,
  proposals: IProposals | null
): Promise<InsertResult>;
export async function insertCell(
  resolver: NotebookResolver,
  args: IInsertArgs,
  call: ICallTrace = NO_CALL,
  proposals: IProposals | null = null
): Promise<InsertResult> {
  if (call.signal.aborted && proposals) {
    await abortedIfReviewed(resolver, args.notebookPath, proposals, 'insert');
  }
  const cellType = args.cellType ?? 'code';
  if (!(CELL_TYPES as readonly string[]).includes(cellType)) {
    throw new ToolError(
      'INVALID_CELL_TYPE',
      `Unsupported cell type "${cellType}": use "code", "markdown" or "raw".`,
      { cellType }
    );
  }
  const source = args.source ?? '';
  assertWritableSource(source);
  const reference = args.referenceCellId;
  const notebook = await resolver.resolveLive(
    args.notebookPath,
    'write',
    model => {
      if (reference !== null && reference !== undefined) {
        findCell(model, reference, 'read');
      }
    }
  );
  if (proposals?.reviews(notebook.model, 'insert')) {
    return proposeInsert(
      resolver,
      notebook,
      args,
      cellType as CellType,
      call,
      proposals
    );
  }
  const cellId = writeInsert(
    notebook,
    insertionIndex(notebook, args),
    cellType as CellType,
    source,
    call
  );
  return afterInsert(resolver, notebook, args, cellId, call);
}

/** The agent's insert: one undo step, provenance and the journal. */
function writeInsert(
  notebook: ILiveNotebook,
  index: number,
  cellType: CellType,
  source: string,
  call: ICallTrace
): string {
  let inserted: ISharedCell | null = null;
  asOneStep(notebook.model, null, () => {
    inserted = notebook.model.insertCell(index, {
      cell_type: cellType,
      source,
      metadata: {}
    });
  });
  const cellId = inserted!.id;
  call.reportCell(notebook.path, cellId, 'editing');
  recordAgentAction(inserted!, 'inserted', 'jupyter_insert_cell');
  recordAgentEdit(notebook.model, {
    tool: 'jupyter_insert_cell',
    kind: 'insert',
    cellId,
    afterHash: sourceHash(cellType, source),
    ...callOf(call)
  });
  return cellId;
}

/** Bring the inserted cell into view, then answer with it. */
async function afterInsert(
  resolver: NotebookResolver,
  notebook: ILiveNotebook,
  args: IInsertArgs,
  cellId: string,
  call: ICallTrace
): Promise<ICellWriteResult> {
  if (args.activate ?? true) {
    // Best-effort: the cell is inserted, and a failed scroll or focus must
    // not tell the agent otherwise (a retry would insert it twice).
    await activateCell(notebook.panel, cellId).catch(() => undefined);
  }
  // Hidden while the cell was being brought into view: the call answers as
  // for a hidden notebook, and says nothing of what it wrote.
  checkNotebookAccess(notebook, 'read', namesNotebook(args.notebookPath));
  return reread(resolver, notebook, cellId, call);
}

/**
 * Where a proposed insert goes, as a cell and a side: the reference cell,
 * else the active cell, else after the last cell (or before the first, for
 * "above"); no cell in an empty notebook.
 */
function insertAnchor(
  notebook: ILiveNotebook,
  args: IInsertArgs
): { cellId: string | null; position: 'above' | 'below' } {
  const cells = notebook.model.cells;
  const position = args.position ?? 'below';
  if (cells.length === 0) {
    return { cellId: null, position: 'below' };
  }
  if (args.referenceCellId !== null && args.referenceCellId !== undefined) {
    // the reference as it is now (CELL_NOT_FOUND when gone or hidden)
    const { cell } = findCell(notebook.model, args.referenceCellId, 'read');
    return { cellId: cell.id, position };
  }
  const index = insertionIndex(notebook, args);
  return index < cells.length
    ? { cellId: cells[index].id, position: 'above' }
    : { cellId: cells[cells.length - 1].id, position: 'below' };
}

/** Show the insert where it would go, and make it only on Accept. */
async function proposeInsert(
  resolver: NotebookResolver,
  notebook: ILiveNotebook,
  args: IInsertArgs,
  cellType: CellType,
  call: ICallTrace,
  proposals: IProposals
): Promise<IAcceptedWriteResult | IDeniedInsert> {
  const source = args.source ?? '';
  const anchor = insertAnchor(notebook, args);
  let cellId: string | null = null;
  return asProposal(
    notebook,
    args.notebookPath,
    proposals,
    {
      kind: 'insert',
      cellId: anchor.cellId,
      cellIds: [],
      proposed: source,
      cellType,
      position: anchor.position,
      signal: call.signal
    },
    () => {
      let index = notebook.model.cells.length;
      if (anchor.cellId !== null) {
        const found = findCell(notebook.model, anchor.cellId, 'read');
        index = anchor.position === 'below' ? found.index + 1 : found.index;
      }
      cellId = writeInsert(notebook, index, cellType, source, call);
    },
    () => afterInsert(resolver, notebook, args, cellId!, call),
    { cellId: null }
  );
}

/**
 * Stage a change as a proposal and answer as the human decides. On Accept,
 * the notebook's access is checked again (the owner's word wins) before
 * `apply` checks the cell as it is now and writes; `accepted` is the result
 * then. A denial names `target`; a stale, hidden or withdrawn proposal is
 * the error it stands for. The one path of inserts, updates and deletes.
 */
async function asProposal<R extends object, T extends object>(
  notebook: ILiveNotebook,
  notebookPath: string | null | undefined,
  proposals: IProposals,
  request: Omit<IProposals.IRequest, 'panel' | 'apply'>,
  apply: () => void,
  accepted: () => R | Promise<R>,
  target: T
): Promise<
  | (R & { status: 'accepted'; proposalId: string })
  | ReturnType<typeof deniedResult<T>>
> {
  const outcome = await proposals.propose({
    ...request,
    panel: notebook.panel,
    apply: () => {
      checkNotebookAccess(notebook, 'write', namesNotebook(notebookPath));
      apply();
    }
  });
  switch (outcome.kind) {
    case 'accepted':
      return {
        ...(await accepted()),
        status: 'accepted',
        proposalId: outcome.proposal.id
      };
    case 'denied':
      return deniedResult(outcome, target);
    default:
      throw notApplied(outcome, notebook, namesNotebook(notebookPath));
  }
}

/** Make a cell active and visible; render a markdown cell that has source. */
async function activateCell(
  panel: NotebookPanel,
  cellId: string
): Promise<void> {
  const notebook = panel.content;
  const index = notebook.widgets.findIndex(cell => cell.model.id === cellId);
  if (index < 0) {
    return;
  }
  const cell = notebook.widgets[index];
  if (cell.model.type === 'markdown' && cell.model.sharedModel.getSource()) {
    (cell as MarkdownCell).rendered = true;
  }
  await revealCell(panel, index);
}

/** Arguments of `jupyter_update_cell`. */
export interface IUpdateArgs {
  notebookPath?: string | null;
  cellId: string;
  source: string;
  expectedSourceHash: string;
}

/** What `jupyter_update_cell` returns once a proposal is accepted. */
export interface IAcceptedWriteResult extends ICellWriteResult {
  status: 'accepted';
  proposalId: string;
}

/** What `jupyter_update_cell` returns when the human (or the app) said no. */
export interface IDeniedResult {
  status: 'denied';
  code: 'PROPOSAL_DENIED';
  proposalId: string;
  cellId: string;
  reason: string | null;
}

/** What `jupyter_update_cell` may return. */
export type UpdateResult =
  ICellWriteResult | IAcceptedWriteResult | IDeniedResult;

/**
 * Replace a cell's source, if it is still what the agent read. In Propose
 * mode (`proposals` given and switched on) the size, access and hash checks
 * run first, so a doomed write fails at once; then the edit waits for the
 * human as a proposal, and the call's signal withdraws it when it fires.
 */
export async function updateCell(
  resolver: NotebookResolver,
  args: IUpdateArgs,
  call?: ICallTrace
): Promise<ICellWriteResult>;
export async function updateCell(
  resolver: NotebookResolver,
  args: IUpdateArgs,
  call: ICallTrace,
  proposals: IProposals | null
): Promise<UpdateResult>;
export async function updateCell(
  resolver: NotebookResolver,
  args: IUpdateArgs,
  call: ICallTrace = NO_CALL,
  proposals: IProposals | null = null
): Promise<UpdateResult> {
  if (call.signal.aborted && proposals) {
    await abortedIfReviewed(resolver, args.notebookPath, proposals, 'update');
  }
  assertWritableSource(args.source);
  const notebook = await resolver.resolveLive(
    args.notebookPath,
    'write',
    model => checkCellWrite(model, args, 'Cell changed since it was read.')
  );
  const { cell } = findCell(notebook.model, args.cellId, 'write');
  call.reportCell(notebook.path, cell.id, 'editing');
  assertSourceHash(
    cell,
    args.expectedSourceHash,
    'Cell changed since it was read.'
  );
  // A placeholder of a secret the agent kept stands for the value in the
  // cell: the cell keeps it, and a proposal shows the owner the real text.
  const restored = {
    ...args,
    source: restoreWithheld(cell.getSource(), args.source)
  };
  if (proposals?.reviews(notebook.model, 'update')) {
    return proposeUpdate(resolver, notebook, cell, restored, call, proposals);
  }
  writeSource(notebook, cell, restored.source, call);
  return reread(resolver, notebook, args.cellId, call);
}

/** The agent's update of a cell: one undo step, attributed to the agent. */
function writeSource(
  notebook: ILiveNotebook,
  cell: ISharedCell,
  source: string,
  call: ICallTrace
): void {
  const before = cell.getSource();
  if (before !== source) {
    asOneStep(notebook.model, cell, () => replaceSource(cell, source));
    recordAgentAction(cell, 'edited', 'jupyter_update_cell');
    recordAgentEdit(notebook.model, {
      tool: 'jupyter_update_cell',
      kind: 'update',
      cellId: cell.id,
      before,
      afterHash: sourceHash(cell.cell_type, source),
      ...callOf(call)
    });
  }
}

/** The journal's name for the call, when it came through the call stream. */
function callOf(call: ICallTrace): { call?: string } {
  return call.callId === undefined ? {} : { call: callKey(call.callId) };
}

/** Stage the update as a proposal and answer as the human decides. */
function proposeUpdate(
  resolver: NotebookResolver,
  notebook: ILiveNotebook,
  cell: ISharedCell,
  args: IUpdateArgs,
  call: ICallTrace,
  proposals: IProposals
): Promise<IAcceptedWriteResult | IDeniedResult> {
  return asProposal(
    notebook,
    args.notebookPath,
    proposals,
    {
      cellId: args.cellId,
      original: cell.getSource(),
      proposed: args.source,
      signal: call.signal
    },
    () => {
      // the cell as it is now: a human edit made during review wins
      const { cell: current } = findCell(notebook.model, args.cellId, 'write');
      assertSourceHash(
        current,
        args.expectedSourceHash,
        'Cell changed since it was read.'
      );
      writeSource(notebook, current, args.source, call);
    },
    () => reread(resolver, notebook, args.cellId, call),
    { cellId: args.cellId }
  );
}

/** Arguments of `jupyter_delete_cell`. */
export interface IDeleteArgs {
  notebookPath?: string | null;
  cellId: string;
  expectedSourceHash: string;
}

/** What `jupyter_delete_cell` returns. */
export interface IDeleteResult {
  notebook: INotebookInfo;
  deletedCellId: string;
  activeCellId: string | null;
}

/** What `jupyter_delete_cell` returns once its proposal is accepted. */
export interface IAcceptedDeleteResult extends IDeleteResult {
  status: 'accepted';
  proposalId: string;
}

/** What `jupyter_delete_cell` may return. */
export type DeleteResult =
  IDeleteResult | IAcceptedDeleteResult | IDeniedResult;

const DELETE_STALE = 'Cell changed since it was read; it was not deleted.';

/**
 * Delete a cell, if it is still what the agent read. In Propose mode
 * (deletes reviewed) the checks run first, the cell is marked, and it is
 * deleted only on Accept, after the hash is checked again.
 */
export async function deleteCell(
  resolver: NotebookResolver,
  args: IDeleteArgs,
  call?: ICallTrace
): Promise<IDeleteResult>;
export async function deleteCell(
  resolver: NotebookResolver,
  args: IDeleteArgs,
  call: ICallTrace,
  proposals: IProposals | null
): Promise<DeleteResult>;
export async function deleteCell(
  resolver: NotebookResolver,
  args: IDeleteArgs,
  call: ICallTrace = NO_CALL,
  proposals: IProposals | null = null
): Promise<DeleteResult> {
  if (call.signal.aborted && proposals) {
    await abortedIfReviewed(resolver, args.notebookPath, proposals, 'delete');
  }
  const notebook = await resolver.resolveLive(
    args.notebookPath,
    'write',
    model => checkCellWrite(model, args, DELETE_STALE)
  );
  const { cell } = findCell(notebook.model, args.cellId, 'write');
  call.reportCell(notebook.path, cell.id, 'editing');
  assertSourceHash(cell, args.expectedSourceHash, DELETE_STALE);
  if (proposals?.reviews(notebook.model, 'delete')) {
    return proposeDelete(notebook, cell, args, call, proposals);
  }
  writeDelete(notebook, cell, call);
  return deleteResult(notebook, args.cellId);
}

/** The agent's delete: one undo step, journaled with the whole cell. */
function writeDelete(
  notebook: ILiveNotebook,
  cell: ISharedCell,
  call: ICallTrace
): void {
  const cells = notebook.model.cells;
  const index = cells.indexOf(cell);
  const removed = {
    tool: 'jupyter_delete_cell',
    kind: 'delete' as const,
    cellId: cell.id,
    cell: cell.toJSON(),
    index,
    previousCellId: index > 0 ? cells[index - 1].id : null,
    nextCellId: index + 1 < cells.length ? cells[index + 1].id : null,
    ...callOf(call)
  };
  asOneStep(notebook.model, null, () => notebook.model.deleteCell(index));
  recordAgentEdit(notebook.model, removed);
}

function deleteResult(notebook: ILiveNotebook, cellId: string): IDeleteResult {
  const active = notebook.panel.content.activeCell;
  const activeCellId =
    active && !isHidden(cellAccess(active.model.sharedModel))
      ? active.model.id
      : null;
  return {
    notebook: notebookInfo(notebook),
    deletedCellId: cellId,
    activeCellId
  };
}

/** Mark the cell for deletion, and delete it only on Accept. */
function proposeDelete(
  notebook: ILiveNotebook,
  cell: ISharedCell,
  args: IDeleteArgs,
  call: ICallTrace,
  proposals: IProposals
): Promise<IAcceptedDeleteResult | IDeniedResult> {
  return asProposal(
    notebook,
    args.notebookPath,
    proposals,
    {
      kind: 'delete',
      cellId: args.cellId,
      original: cell.getSource(),
      signal: call.signal
    },
    () => {
      // a human edit made during review wins
      const { cell: current } = findCell(notebook.model, args.cellId, 'write');
      assertSourceHash(current, args.expectedSourceHash, DELETE_STALE);
      writeDelete(notebook, current, call);
    },
    () => deleteResult(notebook, args.cellId),
    { cellId: args.cellId }
  );
}
