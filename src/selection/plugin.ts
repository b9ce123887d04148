import {
  type JupyterFrontEnd,
  type JupyterFrontEndPlugin
} from '@jupyterlab/application';
import { INotebookTracker } from '@jupyterlab/notebook';

import { IOutputSelectionTracker } from '../tokens';
import { OutputSelectionTracker } from './capture';

let selection: OutputSelectionTracker | null = null;

/** Records the text the human selects inside one rendered cell output. */
export const outputSelectionPlugin: JupyterFrontEndPlugin<IOutputSelectionTracker> =
  {
    id: 'jupyterlite-webmcp:output-selection',
    description:
      'Records the text the human selects inside one rendered cell output.',
    autoStart: true,
    requires: [INotebookTracker],
    provides: IOutputSelectionTracker,
    activate: (
      app: JupyterFrontEnd,
      tracker: INotebookTracker
    ): IOutputSelectionTracker => {
      selection = new OutputSelectionTracker({ tracker });
      return selection;
    },
    deactivate: (): void => {
      selection?.dispose();
      selection = null;
    }
  };
