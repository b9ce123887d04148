import {
  type JupyterFrontEnd,
  type JupyterFrontEndPlugin
} from '@jupyterlab/application';
import { INotebookTracker, type NotebookPanel } from '@jupyterlab/notebook';

import { ProvenanceRecorder } from './provenance';

/**
 * Records the human's edits in each open notebook's cell history, so the
 * agent and the owner can see who changed what.
 */
export const provenancePlugin: JupyterFrontEndPlugin<void> = {
  id: 'jupyterlite-webmcp:provenance',
  description: "Records the human's cell edits in each cell's history.",
  autoStart: true,
  requires: [INotebookTracker],
  activate: (app: JupyterFrontEnd, tracker: INotebookTracker): void => {
    const watch = (panel: NotebookPanel) => {
      void panel.context.ready.then(() => {
        const model = panel.content.model;
        if (!model || panel.isDisposed) {
          return;
        }
        const recorder = new ProvenanceRecorder({ model: model.sharedModel });
        // Pending history goes into the file being saved, so a save is not
        // followed by a history write that makes the notebook dirty again.
        panel.context.saveState.connect((_, state) => {
          if (state === 'started') {
            recorder.flush();
          }
        });
        panel.disposed.connect(() => recorder.dispose());
      });
    };
    tracker.forEach(watch);
    tracker.widgetAdded.connect((_, panel) => watch(panel));
  }
};
