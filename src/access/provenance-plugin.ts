import {
  type JupyterFrontEnd,
  type JupyterFrontEndPlugin
} from '@jupyterlab/application';
import type { DocumentRegistry } from '@jupyterlab/docregistry';
import { INotebookTracker } from '@jupyterlab/notebook';
import { DisposableDelegate } from '@lumino/disposable';

import { eachNotebook } from '../common/each-notebook';
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
    eachNotebook(tracker, panel => {
      let recorder: ProvenanceRecorder | null = null;
      let stopped = false;
      // Pending history goes into the file being saved, so a save is not
      // followed by a history write that makes the notebook dirty again.
      const onSave = (_: unknown, state: DocumentRegistry.SaveState) => {
        if (state === 'started') {
          recorder?.flush();
        }
      };
      void panel.context.ready.then(() => {
        const model = panel.content.model;
        if (stopped || !model || panel.isDisposed) {
          return;
        }
        recorder = new ProvenanceRecorder({ model: model.sharedModel });
        panel.context.saveState.connect(onSave);
      });
      return new DisposableDelegate(() => {
        stopped = true;
        panel.context.saveState.disconnect(onSave);
        recorder?.dispose();
        recorder = null;
      });
    });
  }
};
