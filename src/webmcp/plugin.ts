import {
  type JupyterFrontEnd,
  type JupyterFrontEndPlugin
} from '@jupyterlab/application';

/**
 * Registers the WebMCP tools on the page's model context.
 */
const plugin: JupyterFrontEndPlugin<void> = {
  id: 'jupyterlite-webmcp:webmcp',
  description: 'Registers the notebook tools on document.modelContext.',
  autoStart: true,
  activate: (app: JupyterFrontEnd): void => {
    void app;
  }
};

export default plugin;
