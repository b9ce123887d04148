import {
  type JupyterFrontEnd,
  type JupyterFrontEndPlugin
} from '@jupyterlab/application';
import { INotebookTracker } from '@jupyterlab/notebook';
import { DisposableSet } from '@lumino/disposable';

import { activateWhenIdle, PARTS } from '../common/parts';
import { IOutputSelectionTracker, type IWebMcpRegistry } from '../tokens';
import { IToolRegistry, IToolServices } from '../webmcp/services';
import { fromLater, selectionTools } from '../webmcp/tools';
import { type OutputSelectionTracker } from './capture';

/** The tracker, in the chunk fetched once the page is idle. */
const loadTracker = fromLater('the output selection');

let selection: OutputSelectionTracker | null = null;

/** Records the text the human selects inside one rendered cell output. */
export const outputSelectionPlugin: JupyterFrontEndPlugin<IOutputSelectionTracker> =
  {
    id: 'jupyterlite-webmcp:output-selection',
    description:
      'Records the text the human selects inside one rendered cell output.',
    // started once the start is over (the tool's plugin asks for it then),
    // or at the tool's first call if that comes first
    autoStart: 'defer',
    requires: [INotebookTracker],
    provides: IOutputSelectionTracker,
    activate: async (
      app: JupyterFrontEnd,
      tracker: INotebookTracker
    ): Promise<IOutputSelectionTracker> => {
      await PARTS.started;
      const { OutputSelectionTracker } = await loadTracker();
      selection = new OutputSelectionTracker({ tracker });
      return selection;
    },
    deactivate: (): void => {
      selection?.dispose();
      selection = null;
    }
  };

let tool: DisposableSet | null = null;

/** jupyter_get_output_selection, added to the WebMCP registry. */
export const outputSelectionToolPlugin: JupyterFrontEndPlugin<void> = {
  id: 'jupyterlite-webmcp:output-selection-tool',
  description:
    'Adds jupyter_get_output_selection to the WebMCP registry: the output text the human selected.',
  autoStart: true,
  requires: [IToolRegistry, IToolServices],
  activate: (
    app: JupyterFrontEnd,
    registry: IWebMcpRegistry,
    services: IToolServices
  ): void => {
    const set = new DisposableSet();
    tool = set;
    const tracker = () => app.resolveRequiredService(IOutputSelectionTracker);
    for (const definition of selectionTools(services.resolver, tracker)) {
      set.add(registry.addTool(definition));
    }
    // started once the start is over, in every app: Notebook 7 starts a
    // deferred plugin only when asked for it, and a selection made before
    // the tracker exists is not seen; if its part fails to load, the status
    // bar names it, and it is asked for again once another part has loaded
    // (nothing to wire: the tracker, once there, records by itself)
    set.add(activateWhenIdle(app.restored, tracker, () => new DisposableSet()));
  },
  deactivate: (): void => {
    tool?.dispose();
    tool = null;
  }
};
