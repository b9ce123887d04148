/**
 * A feature's part of every notebook panel: the panels open now and each one
 * the tracker gets from now on, each part disposed with its panel, and all of
 * them when the feature is turned off.
 *
 * Why the tracker and not a JupyterLab notebook extension
 * (`docRegistry.addWidgetExtension`), the usual way: adding one emits the
 * document registry's `changed`, and JupyterLab's document manager answers
 * every `changed` by loading its settings again. In Notebook 7.6, on the
 * file browser page (`/tree`), that reload leaves its `defaultViewers`
 * setting undefined and its settings handler logs "Cannot convert undefined
 * or null to object", when the extension is added after the document
 * manager's settings plugin started, as ours would be (they need the
 * tracker): tried, and all 12 Notebook 7 browser tests of that run failed
 * on it. The tracker gets a panel in the same turn a notebook
 * extension would (the widget factory's `widgetCreated`), before its file
 * loads.
 */
import type { INotebookTracker, NotebookPanel } from '@jupyterlab/notebook';
import type { IDisposable } from '@lumino/disposable';

/**
 * Calls `attach` for every notebook panel, open now or added to the tracker
 * from now on. What it returns is disposed with its panel, or when the
 * returned disposable is disposed: then no new panel gets one, and every one
 * given is taken back.
 */
export function eachNotebook(
  tracker: INotebookTracker,
  attach: (panel: NotebookPanel) => IDisposable
): IDisposable {
  const given = new Map<NotebookPanel, IDisposable>();
  const give = (panel: NotebookPanel): void => {
    if (panel.isDisposed || given.has(panel)) {
      return;
    }
    const part = attach(panel);
    given.set(panel, part);
    const release = () => {
      given.delete(panel);
      panel.disposed.disconnect(release);
      part.dispose();
    };
    panel.disposed.connect(release);
  };
  const onAdded = (_: INotebookTracker, panel: NotebookPanel) => give(panel);
  tracker.forEach(give);
  tracker.widgetAdded.connect(onAdded);
  let disposed = false;
  return {
    get isDisposed() {
      return disposed;
    },
    dispose() {
      if (disposed) {
        return;
      }
      disposed = true;
      tracker.widgetAdded.disconnect(onAdded);
      const parts = [...given.values()];
      given.clear();
      parts.forEach(part => part.dispose());
    }
  };
}
