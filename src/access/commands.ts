/**
 * The human's access commands: cycle or set the agent access of cells (the
 * selected ones, or given ids), cycle or set a notebook's access. No WebMCP
 * tool reaches this module: it is wired only by the access plugin, into
 * menus, the palette and a shortcut. Everything is written through the
 * access service (`IAgentAccess`).
 */
import type { ISharedCell } from '@jupyter/ydoc';
import type { JupyterFrontEnd } from '@jupyterlab/application';
import { Notification, showErrorMessage } from '@jupyterlab/apputils';
import type { FileBrowser } from '@jupyterlab/filebrowser';
import type {
  INotebookTracker,
  Notebook,
  NotebookPanel
} from '@jupyterlab/notebook';
import {
  nullTranslator,
  type ITranslator,
  type TranslationBundle
} from '@jupyterlab/translation';
import { DisposableSet, type IDisposable } from '@lumino/disposable';

import { type IAgentAccess, type INotebookAccessChange } from '../tokens';
import { browserSelection } from './file-browser';
import { AGENT_ACCESS_VALUES, isAgentAccess, type AgentAccess } from './model';
import {
  CELL_ACCESS_SHORTCUT,
  CELL_CONTEXT_SELECTOR,
  CommandIDs,
  commandLabels,
  NOTEBOOK_FILE_SELECTOR
} from './command-ids';

export {
  CELL_ACCESS_SHORTCUT,
  CELL_CONTEXT_SELECTOR,
  CommandIDs,
  NOTEBOOK_FILE_SELECTOR
};

/** The human-facing name of each access value. */
export function accessName(
  access: AgentAccess,
  trans: TranslationBundle
): string {
  switch (access) {
    case 'write':
      return trans.__('read and write');
    case 'read':
      return trans.__('read-only');
    default:
      return trans.__('hidden');
  }
}

/** What each access value lets the agent do, in a sentence (the legend). */
export function accessMeaning(
  access: AgentAccess,
  trans: TranslationBundle
): string {
  switch (access) {
    case 'write':
      return trans.__('The agent may read, change and run it.');
    case 'read':
      return trans.__(
        'The agent may read it but not change or run it. Its cells are marked "read-only for agent".'
      );
    default:
      return trans.__(
        'The agent cannot see it: to the agent it does not exist. Its cells are marked "hidden from agent".'
      );
  }
}

/** The selected cells of a notebook widget (the active one included). */
export function selectedCells(notebook: Notebook): {
  cells: ISharedCell[];
  active: ISharedCell | null;
} {
  const cells = notebook.widgets
    .filter(widget => notebook.isSelectedOrActive(widget))
    .map(widget => widget.model.sharedModel);
  return { cells, active: notebook.activeCell?.model.sharedModel ?? null };
}

/** The arguments of the set-cell-access command. */
interface ICellArgs {
  cellIds?: string[];
  access?: AgentAccess;
}

const SET_CELL_SCHEMA = {
  type: 'object',
  properties: {
    cellIds: {
      type: 'array',
      items: { type: 'string' },
      description:
        'Ids of cells of the current notebook; default: the selected cells (the active one included).'
    },
    access: { type: 'string', enum: [...AGENT_ACCESS_VALUES] }
  },
  required: ['access'],
  additionalProperties: false
};

/** The arguments of the notebook commands. */
interface INotebookArgs {
  path?: string;
  fileBrowser?: boolean;
  access?: AgentAccess;
}

const PATH_SCHEMA = {
  type: 'string',
  description:
    'Workspace path of the notebook; default: the current notebook (or, with fileBrowser, the notebooks selected in the file browser).'
};

const CYCLE_NOTEBOOK_SCHEMA = {
  type: 'object',
  properties: {
    path: PATH_SCHEMA,
    fileBrowser: {
      type: 'boolean',
      description:
        "Act on the notebooks selected in the file browser the command was opened from (what the file browser's context menu passes)."
    }
  },
  additionalProperties: false
};

const SET_NOTEBOOK_SCHEMA = {
  type: 'object',
  properties: {
    path: PATH_SCHEMA,
    access: { type: 'string', enum: [...AGENT_ACCESS_VALUES] }
  },
  required: ['access'],
  additionalProperties: false
};

/**
 * Add the access commands to an app. Returns what removes them again.
 */
export function addAccessCommands(
  app: JupyterFrontEnd,
  options: addAccessCommands.IOptions
): IDisposable {
  const { tracker, access: service } = options;
  const trans = (options.translator ?? nullTranslator).load(
    'jupyterlite-webmcp'
  );
  const labels = commandLabels(trans);
  const { commands } = app;
  const set = new DisposableSet();

  const currentPanel = (): NotebookPanel | null => {
    const panel = tracker.currentWidget;
    return panel && !panel.isDisposed && panel.content.model ? panel : null;
  };

  set.add(
    commands.addCommand(CommandIDs.cycleCellAccess, {
      label: labels.cycleCellAccess,
      caption: trans.__(
        'Change what the agent may do with the selected cells: read and write, read-only, hidden'
      ),
      describedBy: { args: { type: 'object', properties: {} } },
      isEnabled: () => currentPanel() !== null,
      execute: () => {
        const panel = currentPanel();
        const model = panel?.content.model;
        if (!panel || !model) {
          return null;
        }
        const { cells, active } = selectedCells(panel.content);
        return service.cycleCellsAccess(model.sharedModel, cells, active);
      }
    })
  );

  set.add(
    commands.addCommand(CommandIDs.setCellAccess, {
      label: args => {
        const access = (args as ICellArgs).access;
        return isAgentAccess(access)
          ? trans.__('Set Agent Access: %1', accessName(access, trans))
          : trans.__('Set Agent Access');
      },
      caption: trans.__(
        'Set what the agent may do with cells: read and write, read-only, hidden'
      ),
      describedBy: { args: SET_CELL_SCHEMA },
      isEnabled: args =>
        isAgentAccess((args as ICellArgs).access) && currentPanel() !== null,
      execute: args => {
        const { access, cellIds } = args as ICellArgs;
        if (!isAgentAccess(access)) {
          throw new Error(`Unknown agent access: ${String(access)}`);
        }
        const model = currentPanel()?.content.model;
        if (!model) {
          throw new Error('No notebook is open.');
        }
        const cells = Array.isArray(cellIds)
          ? cellsById(model.sharedModel.cells, cellIds)
          : selectedCells(currentPanel()!.content).cells;
        return service.setCellsAccess(model.sharedModel, cells, access);
      }
    })
  );

  /** The notebooks a notebook command acts on. */
  const targets = (args: INotebookArgs): string[] => {
    if (typeof args.path === 'string' && args.path) {
      return [args.path];
    }
    if (args.fileBrowser) {
      return browserSelection(app, options.fileBrowsers?.() ?? []);
    }
    const panel = currentPanel();
    return panel ? [panel.context.localPath] : [];
  };

  const report = async (
    args: INotebookArgs,
    run: (paths: string[]) => Promise<INotebookAccessChange[]>
  ): Promise<INotebookAccessChange[]> => {
    const paths = targets(args);
    if (paths.length === 0) {
      return [];
    }
    try {
      const changes = await run(paths);
      // A notebook with no indicator on screen: say what it became.
      if (args.fileBrowser || changes.some(change => change.where !== 'live')) {
        notify(changes, trans);
      }
      return changes;
    } catch (error) {
      await showErrorMessage(
        trans.__('Agent access not changed'),
        error instanceof Error ? error : String(error)
      );
      return [];
    }
  };

  set.add(
    commands.addCommand(CommandIDs.cycleNotebookAccess, {
      label: labels.cycleNotebookAccess,
      caption: trans.__(
        'Change what the agent may do with the notebook: read and write, read-only, hidden'
      ),
      describedBy: { args: CYCLE_NOTEBOOK_SCHEMA },
      isEnabled: args => targets(args as INotebookArgs).length > 0,
      execute: args =>
        report(args as INotebookArgs, paths =>
          service.cycleNotebookAccess(paths)
        )
    })
  );

  set.add(
    commands.addCommand(CommandIDs.setNotebookAccess, {
      label: args => {
        const access = (args as INotebookArgs).access;
        return isAgentAccess(access)
          ? trans.__(
              'Set Agent Access for Notebook: %1',
              accessName(access, trans)
            )
          : trans.__('Set Agent Access for Notebook');
      },
      describedBy: { args: SET_NOTEBOOK_SCHEMA },
      isEnabled: args =>
        isAgentAccess((args as INotebookArgs).access) &&
        targets(args as INotebookArgs).length > 0,
      execute: async args => {
        const access = (args as INotebookArgs).access;
        if (!isAgentAccess(access)) {
          throw new Error(`Unknown agent access: ${String(access)}`);
        }
        return report(args as INotebookArgs, paths =>
          Promise.all(
            paths.map(path => service.setNotebookAccess(path, access))
          )
        );
      }
    })
  );

  return set;
}

export namespace addAccessCommands {
  export interface IOptions {
    tracker: INotebookTracker;
    access: IAgentAccess;
    translator?: ITranslator | null;
    /** The app's file browsers (the default one first), when it has any. */
    fileBrowsers?: () => FileBrowser[];
  }
}

/**
 * The cells with these ids, in the order given; an unknown id is an error
 * naming it, so a typo never silently changes nothing.
 */
function cellsById(
  cells: readonly ISharedCell[],
  ids: readonly string[]
): ISharedCell[] {
  const byId = new Map(cells.map(cell => [cell.id, cell]));
  const missing = ids.filter(id => !byId.has(id));
  if (missing.length > 0) {
    throw new Error(
      `No cell with id ${missing.map(id => `"${id}"`).join(', ')} in the current notebook.`
    );
  }
  return [...new Set(ids)].map(id => byId.get(id)!);
}

function notify(
  changes: readonly INotebookAccessChange[],
  trans: TranslationBundle
): void {
  if (changes.length === 0) {
    return;
  }
  const access = accessName(changes[0].access, trans);
  const message =
    changes.length === 1
      ? trans.__('Agent access of %1: %2', baseName(changes[0].path), access)
      : trans.__('Agent access of %1 notebooks: %2', changes.length, access);
  Notification.info(message, { autoClose: 4000 });
  for (const change of changes) {
    if (change.where === 'tab' && change.changed && !change.saved) {
      Notification.warning(
        trans.__(
          '%1 is open with unsaved changes in another tab: its agent access changed there, and reaches the file when that tab saves it.',
          baseName(change.path)
        ),
        { autoClose: false }
      );
    }
  }
}

function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}
