/**
 * The human's review commands: "Add Comment" (on the editor's selection if
 * there is one, else the whole active cell), "Comment on Cell", and
 * "Comment on Output" (from an output's context menu). Each finds what the
 * comment is about and hands it to a composer (the Comments tab's), which
 * asks for the text, says what it will be attached to, and writes the thread
 * through the review store, authored by the person (under their
 * collaboration name when there is one). The human is never limited by the
 * agent's access settings.
 */
import type { ISharedNotebook } from '@jupyter/ydoc';
import type { JupyterFrontEnd } from '@jupyterlab/application';
import { type ICommandPalette, Notification } from '@jupyterlab/apputils';
import { type Cell, CodeCell } from '@jupyterlab/cells';
import type * as nbformat from '@jupyterlab/nbformat';
import type { INotebookTracker, NotebookPanel } from '@jupyterlab/notebook';
import { type ITranslator, nullTranslator } from '@jupyterlab/translation';
import { DisposableSet, type IDisposable } from '@lumino/disposable';

import { outputAnchor, sourceRangeAnchor } from './anchors';
import type { IMessageAuthor, IThreadAnchor } from './storage';
import {
  CommandIDs,
  commandLabels,
  OUTPUT_CONTEXT_SELECTOR
} from './command-ids';

export { CommandIDs, OUTPUT_CONTEXT_SELECTOR };

/** The class of an output's node in an output area. */
const OUTPUT_CHILD_CLASS = 'jp-OutputArea-child';

/** The name stored for a person when the app knows none. */
export const UNKNOWN_PERSON = 'Notebook user';

/**
 * The author of the person using this page: their collaboration identity's
 * name (display name first) when the app knows one.
 */
export function humanAuthor(app: JupyterFrontEnd): IMessageAuthor {
  let identity: { display_name?: string; name?: string } | null = null;
  try {
    identity = app.serviceManager.user?.identity ?? null;
  } catch {
    identity = null;
  }
  const name =
    [identity?.display_name, identity?.name].find(
      (value): value is string =>
        typeof value === 'string' && value.trim() !== ''
    ) ?? UNKNOWN_PERSON;
  return { kind: 'human', name: name.trim() };
}

/** What a new comment is attached to, and in which notebook. */
export interface ICommentTarget {
  panel: NotebookPanel;
  model: ISharedNotebook;
  anchor: IThreadAnchor;
}

/** The active cell of the current notebook, with its panel. */
function activeCell(
  tracker: INotebookTracker
): { panel: NotebookPanel; cell: Cell } | null {
  const panel = tracker.currentWidget;
  const cell = panel?.content.activeCell;
  return panel && cell && panel.content.model ? { panel, cell } : null;
}

/** The editor's selection in `cell` as an anchor, if it selects any text. */
function selectionAnchor(cell: Cell): IThreadAnchor | null {
  const editor = cell.editor;
  if (!editor) {
    return null;
  }
  const selection = editor.getSelection();
  const { start, end } = selection;
  if (start.line === end.line && start.column === end.column) {
    return null;
  }
  const forward =
    start.line < end.line ||
    (start.line === end.line && start.column < end.column);
  return sourceRangeAnchor(
    cell.model.sharedModel.getId(),
    cell.model.sharedModel.getSource(),
    forward ? { start, end } : { start: end, end: start }
  );
}

/**
 * The output a command is about: the one whose context menu was opened,
 * else output `outputIndex` (default 0) of the active cell.
 */
function outputTarget(
  app: JupyterFrontEnd,
  tracker: INotebookTracker,
  outputIndex: unknown
): ICommentTarget | null {
  const hit = app.contextMenuHitTest(node =>
    node.classList.contains(OUTPUT_CHILD_CLASS)
  );
  let panel: NotebookPanel | null = null;
  let cell: Cell | null = null;
  let index = -1;
  if (hit) {
    panel =
      tracker.find(candidate => candidate.content.node.contains(hit)) ?? null;
    cell =
      panel?.content.widgets.find(widget => widget.node.contains(hit)) ?? null;
    if (cell instanceof CodeCell) {
      index = cell.outputArea.widgets.findIndex(
        child => child.node === hit || child.node.contains(hit)
      );
    }
  } else {
    const active = activeCell(tracker);
    panel = active?.panel ?? null;
    cell = active?.cell ?? null;
    index =
      typeof outputIndex === 'number' && Number.isInteger(outputIndex)
        ? outputIndex
        : 0;
  }
  const model = panel?.content.model?.sharedModel;
  if (!panel || !model || !(cell instanceof CodeCell) || index < 0) {
    return null;
  }
  const outputs = cell.model.sharedModel.getOutputs();
  if (index >= outputs.length) {
    return null;
  }
  return {
    panel,
    model,
    anchor: outputAnchor(
      cell.model.sharedModel.getId(),
      index,
      outputs[index] as nbformat.IOutput
    )
  };
}

/**
 * Adds the review commands; disposing removes them. Each finds what the
 * comment is about and hands it to `compose`, which asks the person for the
 * text (the Comments tab's composer) and writes the thread.
 */
export function addReviewCommands(
  app: JupyterFrontEnd,
  options: {
    tracker: INotebookTracker;
    translator?: ITranslator | null;
    compose: (target: ICommentTarget) => void;
  }
): IDisposable {
  const { tracker, compose } = options;
  const trans = (options.translator ?? nullTranslator).load(
    'jupyterlite-webmcp'
  );
  const labels = commandLabels(trans);
  const set = new DisposableSet();
  const comment = (target: ICommentTarget | null): void => {
    if (target) {
      compose(target);
    } else {
      // run by id (not from a menu, which only offers it when it applies)
      Notification.warning(
        trans.__(
          'There is nothing to comment on: no notebook cell or output is selected.'
        ),
        { autoClose: 5000 }
      );
    }
  };

  const cellTarget = (useSelection: boolean): ICommentTarget | null => {
    const active = activeCell(tracker);
    if (!active) {
      return null;
    }
    const { panel, cell } = active;
    const id = cell.model.sharedModel.getId();
    return {
      panel,
      model: panel.content.model!.sharedModel,
      anchor: (useSelection ? selectionAnchor(cell) : null) ?? {
        kind: 'cell',
        cellId: id
      }
    };
  };

  const noArgs = { args: { type: 'object' as const, properties: {} } };
  set.add(
    app.commands.addCommand(CommandIDs.addComment, {
      label: labels.addComment,
      caption: trans.__(
        'Start a review thread on the selected text, or on the active cell when no text is selected.'
      ),
      describedBy: noArgs,
      isEnabled: () => activeCell(tracker) !== null,
      execute: () => comment(cellTarget(true))
    })
  );
  set.add(
    app.commands.addCommand(CommandIDs.addCellComment, {
      label: labels.addCellComment,
      caption: trans.__('Start a review thread on the active cell as a whole.'),
      describedBy: noArgs,
      isEnabled: () => activeCell(tracker) !== null,
      execute: () => comment(cellTarget(false))
    })
  );
  set.add(
    app.commands.addCommand(CommandIDs.addOutputComment, {
      label: labels.addOutputComment,
      caption: trans.__(
        'Start a review thread on an output: the one whose context menu is open, else the first output of the active cell.'
      ),
      describedBy: {
        args: {
          type: 'object',
          properties: {
            outputIndex: {
              type: 'integer',
              minimum: 0,
              description:
                'Which output of the active cell (0-based) when not opened from an output; 0 by default.'
            }
          }
        }
      },
      isEnabled: args => outputTarget(app, tracker, args.outputIndex) !== null,
      execute: args => comment(outputTarget(app, tracker, args.outputIndex))
    })
  );
  return set;
}

/**
 * Puts the review commands in the cell and output context menus and in the
 * palette; disposing removes them.
 */
export function addReviewMenus(
  app: JupyterFrontEnd,
  palette: ICommandPalette | null,
  translator?: ITranslator | null
): IDisposable {
  const trans = (translator ?? nullTranslator).load('jupyterlite-webmcp');
  const set = new DisposableSet();
  // the context-menu items are the plugin's, added at the start
  for (const command of [
    CommandIDs.addComment,
    CommandIDs.addCellComment,
    CommandIDs.addOutputComment
  ]) {
    if (palette) {
      set.add(palette.addItem({ command, category: trans.__('Review') }));
    }
  }
  return set;
}
