import {
  type JupyterFrontEnd,
  type JupyterFrontEndPlugin
} from '@jupyterlab/application';
import { type DocumentRegistry } from '@jupyterlab/docregistry';
import type * as nbformat from '@jupyterlab/nbformat';
import { type INotebookModel, type NotebookPanel } from '@jupyterlab/notebook';

import { withStableCellIds } from './cell-ids';

/** The widget factory every app opens notebooks with. */
const NOTEBOOK_FACTORY = 'Notebook';

/** The models whose loading already goes through `withStableCellIds`. */
const patched = new WeakSet<INotebookModel>();

/**
 * Gives the cells of a notebook without ids, when JupyterLab loads its file
 * into an open notebook, the ids a tool reads from the closed file
 * (`withStableCellIds`), instead of the random ones `@jupyter/ydoc` would
 * give them.
 *
 * A widget extension runs when the notebook's widget is made, before the
 * document context loads the file into the model (`context.initialize`,
 * then `model.fromJSON`), so the cells are created with these ids: nothing
 * is changed afterwards, no step enters the undo history (the context clears
 * it after loading anyway), and the model is upgraded and clean exactly as
 * JupyterLab's own upgrade leaves it. "Reload from disk" loads the same way.
 * Under real-time collaboration the server builds the document and the page
 * loads no file: nothing happens there.
 */
export class StableCellIdsExtension implements DocumentRegistry.IWidgetExtension<
  NotebookPanel,
  INotebookModel
> {
  createNew(
    _panel: NotebookPanel,
    context: DocumentRegistry.IContext<INotebookModel>
  ): void {
    const model = context.model;
    if (patched.has(model)) {
      return;
    }
    patched.add(model);
    const load = model.fromJSON.bind(model);
    model.fromJSON = (value: nbformat.INotebookContent) =>
      load(withStableCellIds(value));
  }
}

/** Loads notebooks without cell ids with the ids the tools read from their files. */
export const stableCellIdsPlugin: JupyterFrontEndPlugin<void> = {
  id: 'jupyterlite-webmcp:stable-cell-ids',
  description:
    'Gives the cells of notebooks without ids (nbformat < 4.5) the ids the tools read from their files.',
  autoStart: true,
  activate: (app: JupyterFrontEnd): void => {
    app.docRegistry.addWidgetExtension(
      NOTEBOOK_FACTORY,
      new StableCellIdsExtension()
    );
  }
};
