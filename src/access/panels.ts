/**
 * The one rule for finding the open panel of a notebook by its workspace
 * path, shared by the tools (notebook resolution), the access commands and
 * the output-selection record. A panel is known by its local path (without
 * a drive prefix); a path that names the drive (`RTC:a.ipynb` under
 * real-time collaboration) finds it too.
 */
import type { INotebookTracker, NotebookPanel } from '@jupyterlab/notebook';

/** The path a panel's document is known by in the workspace. */
export function panelPath(panel: NotebookPanel): string {
  return panel.context.localPath;
}

/** The live (not disposed) panel open on `path` in this app, if any. */
export function findNotebookPanel(
  tracker: INotebookTracker,
  path: string
): NotebookPanel | null {
  return (
    tracker.find(
      panel =>
        !panel.isDisposed &&
        (panel.context.localPath === path || panel.context.path === path)
    ) ?? null
  );
}
