/**
 * Restrictions other tabs of this browser announced for notebooks they hold
 * with unsaved changes. Pure: no JupyterLab runtime import.
 *
 * In Notebook 7 and JupyterLite's notebook pages each notebook has its own
 * browser tab, and the tools of every other tab read that notebook from its
 * file. When the owner hides a notebook or a cell in its own tab and has not
 * saved, the file still says otherwise; so that tab announces what its live
 * model restricts (see ./announcer), and every other tab applies it on top of
 * what the file says until the announcing tab saves, reverts or closes.
 *
 * A message is trusted only to restrict: an announced access counts only
 * where it is narrower than what the file says (isRestriction), so an
 * unsaved widening (back to `write`) never widens what a file says, and a
 * value the extension does not understand restricts fully, as it does in a
 * file.
 */
import type { ISharedCell, ISharedNotebook } from '@jupyter/ydoc';

import {
  isAgentAccess,
  isPlainObject,
  type AgentAccess,
  type IAnnouncedAccess,
  type IAnnouncedNotebook
} from './model';
import { isRestriction, type KnownAccess } from './policy';
import { cellAccess, notebookAccess } from './read';
import { setCellsAccess, setSharedNotebookAccess } from './writer';

export type { IAnnouncedAccess, IAnnouncedNotebook } from './model';

/** The messages the tabs exchange on the restrictions channel. */
export type AnnouncementMessage =
  | {
      type: 'restrictions';
      tab: string;
      path: string;
      notebook: AgentAccess | null;
      cells: Record<string, AgentAccess>;
    }
  | { type: 'drop'; tab: string; path: string | null }
  | { type: 'query'; tab: string };

/** The channel other tabs of this browser announce restrictions on. */
export const RESTRICTIONS_CHANNEL_NAME =
  'jupyterlite-webmcp:access-restrictions';

/** A value a message gives as an access: anything not understood is `none`. */
function announcedAccess(value: unknown): AgentAccess {
  return isAgentAccess(value) ? value : 'none';
}

/**
 * A message read defensively, or null when it is not one: a restriction
 * whose values are not understood restricts fully, so no message can widen.
 */
export function parseAnnouncement(data: unknown): AnnouncementMessage | null {
  if (!isPlainObject(data) || typeof data.tab !== 'string' || !data.tab) {
    return null;
  }
  const tab = data.tab;
  switch (data.type) {
    case 'query':
      return { type: 'query', tab };
    case 'drop':
      return typeof data.path === 'string' || data.path === null
        ? { type: 'drop', tab, path: data.path }
        : null;
    case 'restrictions': {
      if (typeof data.path !== 'string' || !data.path) {
        return null;
      }
      const cells: Record<string, AgentAccess> = {};
      if (isPlainObject(data.cells)) {
        for (const [id, value] of Object.entries(data.cells)) {
          cells[id] = announcedAccess(value);
        }
      }
      return {
        type: 'restrictions',
        tab,
        path: data.path,
        notebook:
          data.notebook === null || data.notebook === undefined
            ? null
            : announcedAccess(data.notebook),
        cells
      };
    }
    default:
      return null;
  }
}

/**
 * The narrower of what a file says and what was announced: the announced
 * access only when it takes something away (a restriction), never wider.
 */
export function restricted(
  stored: KnownAccess,
  announced: AgentAccess | null | undefined
): KnownAccess {
  return announced !== null &&
    announced !== undefined &&
    isRestriction(stored, announced) &&
    !isRestriction(announced, stored)
    ? announced
    : stored;
}

/**
 * The restrictions announced by the other tabs, by path: each tab's latest
 * announcement, merged (the narrowest of them) when read. A tab's
 * announcement for a path is dropped when it says so (it saved, reverted or
 * closed the notebook) or when the tab goes away.
 */
export class AnnouncedRestrictions implements IAnnouncedAccess {
  /** Take a message from another tab; whether it changed what is known. */
  receive(message: AnnouncementMessage): boolean {
    switch (message.type) {
      case 'restrictions': {
        const byTab = this._byPath.get(message.path) ?? new Map();
        byTab.set(message.tab, {
          notebook: message.notebook,
          cells: new Map(Object.entries(message.cells))
        });
        this._byPath.set(message.path, byTab);
        return true;
      }
      case 'drop': {
        let changed = false;
        for (const [path, byTab] of this._byPath) {
          if (message.path === null || message.path === path) {
            changed = byTab.delete(message.tab) || changed;
            if (byTab.size === 0) {
              this._byPath.delete(path);
            }
          }
        }
        return changed;
      }
      default:
        return false;
    }
  }

  announced(path: string): IAnnouncedNotebook | null {
    const byTab = this._byPath.get(path);
    if (!byTab || byTab.size === 0) {
      return null;
    }
    if (byTab.size === 1) {
      return byTab.values().next().value!;
    }
    let notebook: AgentAccess | null = null;
    const cells = new Map<string, AgentAccess>();
    for (const announced of byTab.values()) {
      notebook = narrowest(notebook, announced.notebook);
      for (const [id, access] of announced.cells) {
        cells.set(id, narrowest(cells.get(id) ?? null, access)!);
      }
    }
    return { notebook, cells };
  }

  private readonly _byPath = new Map<string, Map<string, IAnnouncedNotebook>>();
}

function narrowest(
  a: AgentAccess | null,
  b: AgentAccess | null
): AgentAccess | null {
  if (a === null) {
    return b;
  }
  return b !== null && isRestriction(a, b) ? b : a;
}

/**
 * Apply what was announced to a notebook read from its file (a standalone
 * model no one else holds): the notebook's and each cell's access become the
 * announced one where it is narrower. Returns how many accesses it narrowed.
 */
export function applyAnnounced(
  model: ISharedNotebook,
  announced: IAnnouncedNotebook | null
): number {
  if (!announced) {
    return 0;
  }
  let narrowed = 0;
  const stored = notebookAccess(model);
  const notebook = restricted(stored, announced.notebook);
  if (notebook !== stored && notebook) {
    setSharedNotebookAccess(model, notebook);
    narrowed++;
  }
  const byAccess = new Map<AgentAccess, ISharedCell[]>();
  if (announced.cells.size > 0) {
    for (const cell of model.cells) {
      const own = cellAccess(cell);
      const access = restricted(own, announced.cells.get(cell.id));
      if (access !== own && access) {
        const group = byAccess.get(access);
        if (group) {
          group.push(cell);
        } else {
          byAccess.set(access, [cell]);
        }
      }
    }
  }
  for (const [access, cells] of byAccess) {
    narrowed += setCellsAccess(model, cells, access);
  }
  return narrowed;
}
