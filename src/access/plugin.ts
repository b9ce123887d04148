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

import { activateWhenIdle, standInCommands } from '../common/parts';
import { IAgentAccess } from '../tokens';
import { RESTRICTIONS_CHANNEL_NAME } from './announced';
import {
  CELL_ACCESS_SHORTCUT,
  CELL_CONTEXT_SELECTOR,
  CommandIDs,
  commandLabels,
  NOTEBOOK_FILE_SELECTOR
} from './command-ids';
import { ACCESS_CHANNEL_NAME } from './notebook-file';
import { AgentAccessService } from './service';
import { fromLater } from '../webmcp/tools';

/** The owner's controls, in a chunk fetched once the page is idle. */
const loadUi = fromLater('the access commands and cell markers');

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
    // the commands, menus and cell markers: once the page is idle
    const ui = activateWhenIdle(app.restored, loadUi, loaded => {
      standIns.dispose();
      return loaded.activateAccessUi(app, {
        tracker,
        access,
        translator,
        palette,
        defaultBrowser,
        browserFactory
      });
    });
    // the commands run from the start, wiring them when first run
    const trans = (translator ?? nullTranslator).load('jupyterlite-webmcp');
    const labels = commandLabels(trans);
    const standIns = standInCommands(
      app.commands,
      [
        { id: CommandIDs.cycleCellAccess, label: labels.cycleCellAccess },
        CommandIDs.setCellAccess,
        {
          id: CommandIDs.cycleNotebookAccess,
          label: labels.cycleNotebookAccess
        },
        CommandIDs.setNotebookAccess
      ],
      () => ui.now()
    );
    // the context-menu items from the start, on the stand-ins until wired
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
    set.add(ui);
    set.add(standIns);
    // the shortcut works from the start too: its stand-in wires the rest
    set.add(
      app.commands.addKeyBinding({
        command: CommandIDs.cycleCellAccess,
        ...CELL_ACCESS_SHORTCUT
      })
    );
    return access;
  },
  deactivate: (): void => {
    wiring?.dispose();
    wiring = null;
  }
};
