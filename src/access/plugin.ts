import type {
  JupyterFrontEnd,
  JupyterFrontEndPlugin
} from '@jupyterlab/application';
import { ICommandPalette } from '@jupyterlab/apputils';
import {
  IDefaultFileBrowser,
  IFileBrowserFactory,
  type FileBrowser
} from '@jupyterlab/filebrowser';
import { INotebookTracker } from '@jupyterlab/notebook';
import { ISettingRegistry } from '@jupyterlab/settingregistry';
import { ITranslator, nullTranslator } from '@jupyterlab/translation';
import { DisposableSet } from '@lumino/disposable';

import { eachNotebook } from '../common/each-notebook';
import { IAgentAccess } from '../tokens';
import {
  CELL_ACCESS_SHORTCUT,
  CELL_CONTEXT_SELECTOR,
  CommandIDs,
  NOTEBOOK_FILE_SELECTOR,
  addAccessCommands
} from './commands';
import { AccessMarkers } from './markers';
import { AGENT_ACCESS_VALUES } from './model';
import { RESTRICTIONS_CHANNEL_NAME } from './announced';
import { ACCESS_CHANNEL_NAME } from './notebook-file';
import { AgentAccessService } from './service';

let wiring: DisposableSet | null = null;

/**
 * The owner's access control: the access service (`IAgentAccess`), the
 * access commands in the cell and file browser context menus, the palette
 * and a shortcut, and the markers of every notebook. Only the notebook
 * tracker is required, so Notebook 7 and JupyterLite (whose pages lack some
 * of the rest) work too.
 */
export const accessPlugin: JupyterFrontEndPlugin<IAgentAccess> = {
  id: 'jupyterlite-webmcp:access',
  description:
    'Lets the notebook owner set agent access per cell and per notebook, and marks restricted cells.',
  autoStart: true,
  requires: [INotebookTracker],
  provides: IAgentAccess,
  optional: [
    ITranslator,
    ICommandPalette,
    IDefaultFileBrowser,
    IFileBrowserFactory,
    ISettingRegistry
  ],
  activate: (
    app: JupyterFrontEnd,
    tracker: INotebookTracker,
    translator: ITranslator | null,
    palette: ICommandPalette | null,
    defaultBrowser: FileBrowser | null,
    browserFactory: IFileBrowserFactory | null,
    settingRegistry: ISettingRegistry | null
  ): IAgentAccess => {
    const set = new DisposableSet();
    wiring = set;
    const trans = (translator ?? nullTranslator).load('jupyterlite-webmcp');
    const access = new AgentAccessService({
      tracker,
      contents: app.serviceManager.contents,
      // the other tabs of this browser (Notebook 7: one app per tab)
      channel:
        typeof BroadcastChannel === 'undefined'
          ? null
          : new BroadcastChannel(ACCESS_CHANNEL_NAME),
      restrictionsChannel:
        typeof BroadcastChannel === 'undefined'
          ? null
          : new BroadcastChannel(RESTRICTIONS_CHANNEL_NAME)
    });
    set.add(access);
    if (settingRegistry) {
      const apply = (settings: ISettingRegistry.ISettings) => {
        access.withholdSecretsByDefault =
          settings.composite.withholdSecrets !== false;
      };
      settingRegistry
        .load(accessPlugin.id)
        .then(settings => {
          apply(settings);
          settings.changed.connect(apply);
        })
        .catch(() => {
          // unreadable settings: secrets stay withheld (the default)
          console.warn(
            'jupyterlite-webmcp: the access settings could not be read; secrets are withheld.'
          );
        });
    }
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

    set.add(
      app.contextMenu.addItem({
        type: 'separator',
        selector: CELL_CONTEXT_SELECTOR,
        rank: 19
      })
    );
    set.add(
      app.contextMenu.addItem({
        command: CommandIDs.cycleCellAccess,
        selector: CELL_CONTEXT_SELECTOR,
        rank: 20
      })
    );
    set.add(
      app.contextMenu.addItem({
        command: CommandIDs.cycleNotebookAccess,
        args: { fileBrowser: true },
        selector: NOTEBOOK_FILE_SELECTOR,
        rank: 20
      })
    );
    set.add(
      app.commands.addKeyBinding({
        command: CommandIDs.cycleCellAccess,
        ...CELL_ACCESS_SHORTCUT
      })
    );

    if (palette) {
      const category = trans.__('Agent Access');
      set.add(
        palette.addItem({ command: CommandIDs.cycleCellAccess, category })
      );
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
    return access;
  },
  deactivate: (): void => {
    wiring?.dispose();
    wiring = null;
  }
};
