/**
 * What the semantic layer needs from the running app, gathered once by the
 * plugin so services never reach for globals.
 */
import { type JupyterFrontEnd } from '@jupyterlab/application';
import { type IDocumentManager } from '@jupyterlab/docmanager';
import { type INotebookTracker } from '@jupyterlab/notebook';
import { type Contents, type KernelSpec } from '@jupyterlab/services';

import { type IAnnouncedAccess } from '../access/announced';

/** The app as the tools see it. */
export interface IJupyterEnvironment {
  /** The application: commands, shell, service manager. */
  app: JupyterFrontEnd;
  tracker: INotebookTracker;
  docManager: IDocumentManager;
  contents: Contents.IManager;
  kernelspecs: KernelSpec.IManager;
  /**
   * True in JupyterLab, where every open notebook lives in one page. False in
   * Notebook 7 and JupyterLite's notebook pages, where each notebook has its
   * own browser tab and its own app.
   */
  multiDocument: boolean;
  /**
   * The restrictions other tabs of this browser hold unsaved, applied on top
   * of a notebook file read here.
   */
  announced?: IAnnouncedAccess;
  /**
   * The owner's setting for notebooks whose own switch says nothing: whether
   * tool results withhold secrets (absent: they do).
   */
  withholdSecrets?(): boolean;
  /** The directory the user is browsing, when a file browser knows it. */
  browsingDirectory(): string | null;
}
