/**
 * The owner's access controls, loaded once the page is idle (./plugin.ts):
 * the commands that set and cycle the access of a cell or a notebook, their
 * context-menu items, shortcut and palette entries, and the markers on cells
 * and notebooks the agent may not see or change.
 */
import type { JupyterFrontEnd } from '@jupyterlab/application';
import { type ICommandPalette } from '@jupyterlab/apputils';
import {
  type FileBrowser,
  type IFileBrowserFactory
} from '@jupyterlab/filebrowser';
import { type INotebookTracker } from '@jupyterlab/notebook';
import { type ITranslator, nullTranslator } from '@jupyterlab/translation';
import { DisposableSet, type IDisposable } from '@lumino/disposable';

import { eachNotebook } from '../common/each-notebook';
import { CommandIDs, addAccessCommands } from './commands';
import { AccessMarkers } from './markers';
import { AGENT_ACCESS_VALUES } from './model';
import { type AgentAccessService } from './service';

/** Wires the controls; disposing removes them. */
export function activateAccessUi(
  app: JupyterFrontEnd,
  options: {
    tracker: INotebookTracker;
    access: AgentAccessService;
    translator: ITranslator | null;
    palette: ICommandPalette | null;
    defaultBrowser: FileBrowser | null;
    browserFactory: IFileBrowserFactory | null;
  }
): IDisposable {
  const {
    tracker,
    access,
    translator,
    palette,
    defaultBrowser,
    browserFactory
  } = options;
  const set = new DisposableSet();
  const trans = (translator ?? nullTranslator).load('jupyterlite-webmcp');
  const fileBrowsers = (): FileBrowser[] => {
    const browsers: FileBrowser[] = defaultBrowser ? [defaultBrowser] : [];
    browserFactory?.tracker.forEach(browser => {
      if (!browsers.includes(browser)) {
        browsers.push(browser);
      }
    });
    return browsers;
  };
  set.add(
    addAccessCommands(app, { tracker, access, translator, fileBrowsers })
  );

  // the context-menu items are the plugin's, added at the start
  if (palette) {
    const category = trans.__('Agent Access');
    set.add(palette.addItem({ command: CommandIDs.cycleCellAccess, category }));
    set.add(
      palette.addItem({ command: CommandIDs.cycleNotebookAccess, category })
    );
    for (const value of AGENT_ACCESS_VALUES) {
      for (const command of [
        CommandIDs.setCellAccess,
        CommandIDs.setNotebookAccess
      ]) {
        set.add(
          palette.addItem({ command, args: { access: value }, category })
        );
      }
    }
  }

  set.add(
    eachNotebook(
      tracker,
      panel =>
        new AccessMarkers({
          panel,
          translator,
          onActivateNotebook: () => {
            void app.commands.execute(CommandIDs.cycleNotebookAccess, {
              path: panel.context.localPath
            });
          }
        })
    )
  );
  return set;
}
