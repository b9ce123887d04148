/**
 * The access policy: what an agent's call may do with a cell or a notebook
 * given the owner's access setting, and the errors a refusal gives. Pure: no
 * JupyterLab runtime import.
 *
 * A hidden (`none`) cell or notebook must be indistinguishable from one that
 * does not exist, so each "not found" error has exactly one constructor here,
 * used both by the lookup that finds nothing and by the guards that hide
 * (`./guard`).
 */
import { type AccessIntent } from '../api';
import { ToolError } from '../common/errors';
import type { AgentAccess } from './model';

/** What a call needs: to read, or to change (edit, delete, run, comment). */
export type { AccessIntent } from '../api';

/** The outcome of checking an access against an intent. */
export type AccessDecision = 'allow' | 'hidden' | 'denied';

/**
 * An access as a decision sees it: one of the three, or `null` when it is
 * not yet known (a notebook whose metadata has not loaded). Not yet known is
 * decided as hidden, so nothing is shown before the owner's word is read.
 */
export type KnownAccess = AgentAccess | null | undefined;

/** A cell as the guard sees it. */
export interface IGuardedCell {
  id: string;
  access: KnownAccess;
}

/** A notebook as the guard sees it. */
export interface IGuardedNotebook {
  path: string;
  access: KnownAccess;
}

/** Cells that remain visible to the agent, and how many were omitted. */
export interface IVisiblePartition<T> {
  visible: T[];
  hiddenCount: number;
}

/**
 * The decision for a cell or a notebook (one three-state rule for both):
 * `none` is hidden whatever the intent; `read` denies a write; `write`
 * allows. Fails closed: a value outside the three (which the types forbid,
 * but a caller may still pass at run time) is treated as `none`.
 */
export function accessDecision(
  access: KnownAccess,
  intent: AccessIntent
): AccessDecision {
  if (access === 'write') {
    return 'allow';
  }
  if (access === 'read') {
    return intent === 'read' ? 'allow' : 'denied';
  }
  return 'hidden';
}

/**
 * Whether the agent must not know the cell or notebook exists: `none`, or an
 * access not yet known (or not understood).
 */
export function isHidden(access: KnownAccess): boolean {
  return accessDecision(access, 'read') === 'hidden';
}

/** Whether the agent may read the cell or notebook. */
export function mayRead(access: KnownAccess): boolean {
  return accessDecision(access, 'read') === 'allow';
}

/** Whether the agent may change (edit, delete, run) the cell or notebook. */
export function mayWrite(access: KnownAccess): boolean {
  return accessDecision(access, 'write') === 'allow';
}

/**
 * Whether `next` takes nothing from the agent that `previous` gave it: a
 * restriction (or the same). Only a restriction may be applied from a
 * source the owner did not save (another tab's unsaved change).
 */
export function isRestriction(
  previous: KnownAccess,
  next: KnownAccess
): boolean {
  const rank = (access: KnownAccess): number =>
    mayWrite(access) ? 2 : mayRead(access) ? 1 : 0;
  return rank(next) <= rank(previous);
}

/** The one error an unknown cell id gives, and so also a hidden cell. */
export function cellNotFoundError(cellId: string): ToolError {
  return new ToolError(
    'CELL_NOT_FOUND',
    `No cell with id "${cellId}" in this notebook.`,
    { cellId }
  );
}

/** The error a write to a read-only cell gives. */
export function cellAccessDeniedError(cellId: string): ToolError {
  return new ToolError(
    'CELL_ACCESS_DENIED',
    `The notebook owner made cell "${cellId}" read-only for agents; it cannot be changed.`,
    { cellId, access: 'read' }
  );
}

/** The one error a missing notebook path gives, and so also a hidden one. */
export function notebookNotFoundError(path: string): ToolError {
  return new ToolError(
    'NOTEBOOK_NOT_FOUND',
    `No notebook found at "${path}".`,
    { path }
  );
}

/** The one error "no current notebook" gives, and so also a hidden one. */
export function noActiveNotebookError(): ToolError {
  return new ToolError(
    'NO_ACTIVE_NOTEBOOK',
    'No notebook is open. Pass notebookPath, or open one with jupyter_open_notebook.'
  );
}

/** The error a write to a read-only notebook gives. */
export function notebookAccessDeniedError(path: string): ToolError {
  return new ToolError(
    'NOTEBOOK_ACCESS_DENIED',
    `The notebook owner made notebook "${path}" read-only for agents; it cannot be changed.`,
    { path, access: 'read' }
  );
}

/**
 * Split cells for a non-explicit read (a range, the focus state): hidden
 * cells are omitted and counted, so the agent never meets a silent gap. Order
 * is preserved; `read` and `write` cells are both visible.
 */
export function partitionVisible<T>(
  cells: readonly T[],
  accessOf: (cell: T) => KnownAccess
): IVisiblePartition<T> {
  const visible: T[] = [];
  let hiddenCount = 0;
  for (const cell of cells) {
    if (isHidden(accessOf(cell))) {
      hiddenCount++;
    } else {
      visible.push(cell);
    }
  }
  return { visible, hiddenCount };
}
