import {
  ILayoutRestorer,
  type JupyterFrontEnd,
  type JupyterFrontEndPlugin
} from '@jupyterlab/application';
import { ICommandPalette } from '@jupyterlab/apputils';
import { INotebookTracker } from '@jupyterlab/notebook';
import { ISettingRegistry } from '@jupyterlab/settingregistry';
import { IStatusBar } from '@jupyterlab/statusbar';
import { ITranslator, nullTranslator } from '@jupyterlab/translation';

import { DisposableSet } from '@lumino/disposable';

import { CommandIDs as ProposeCommandIDs } from '../propose/commands';
import { ProposeModeToggle } from '../propose/toggle';
import {
  CommandIDs as ReviewCommandIDs,
  addReviewCommands,
  addReviewMenus,
  humanAuthor
} from '../review/commands';
import {
  addRevertCommands,
  CommandIDs as RevertCommandIDs
} from '../revert/commands';
import {
  IAgentAccess,
  IProposals,
  IReviewStore,
  IWebMcpRegistry
} from '../tokens';
import { AccessPanel } from './access-tab';
import { AccessTabModel } from './access-tab-model';
import { ActivityPanel } from './activity';
import { ActivityModel } from './activity-model';
import { AgentEditsModel } from './edits-model';
import { CommentsPanel } from './comments';
import { CommentsTabModel } from './comments-model';
import { AGENT_PANEL_ID, AgentPanel, HeaderRanks, TabRanks } from './panel';
import { AgentPresence } from './presence';
import { ProposalsPanel } from './proposals';
import { ProposalsModel } from './proposals-model';
import { revealAnchor, revealCell } from './reveal';
import { WebMcpStatus } from './status';

/** The ids of the Agent panel's commands. */
export namespace CommandIDs {
  /** Reveal the Agent panel. */
  export const openAgentPanel = 'jupyterlite-webmcp:open-agent-panel';
}

/** Where the panel sits among the right sidebar's panels. */
const PANEL_RANK = 600;

let statusItem: DisposableSet | null = null;

/**
 * Shows WebMCP's availability, the registered tools and the call in progress
 * in the status bar.
 */
export const statusPlugin: JupyterFrontEndPlugin<void> = {
  id: 'jupyterlite-webmcp:status',
  description: 'Shows WebMCP availability and tool calls in the status bar.',
  autoStart: true,
  requires: [IWebMcpRegistry],
  optional: [IStatusBar, ITranslator, IProposals],
  activate: (
    app: JupyterFrontEnd,
    registry: IWebMcpRegistry,
    statusBar: IStatusBar | null,
    translator: ITranslator | null,
    proposals: IProposals | null
  ): void => {
    if (!statusBar) {
      return;
    }
    const item = new WebMcpStatus(registry, translator ?? undefined, proposals);
    const registration = statusBar.registerStatusItem(
      'jupyterlite-webmcp:status',
      { item, align: 'left', rank: 900 }
    );
    statusItem = new DisposableSet();
    statusItem.add(registration);
    statusItem.add(item);
  },
  deactivate: (): void => {
    statusItem?.dispose();
    statusItem = null;
  }
};

let agentPanel: DisposableSet | null = null;

/**
 * The Agent panel in the right sidebar (Notebook 7: its right side panel,
 * listed under View › Right Sidebar), with the Activity and Access tabs,
 * and a command to open it. Works without WebMCP: Activity then says so.
 */
export const agentPanelPlugin: JupyterFrontEndPlugin<void> = {
  id: 'jupyterlite-webmcp:agent-panel',
  description:
    'The Agent panel: what the agent did (Activity) and what it may see or change (Access).',
  autoStart: true,
  requires: [INotebookTracker, IAgentAccess],
  optional: [
    IWebMcpRegistry,
    ITranslator,
    ICommandPalette,
    ILayoutRestorer,
    IReviewStore,
    ISettingRegistry,
    IProposals
  ],
  activate: (
    app: JupyterFrontEnd,
    tracker: INotebookTracker,
    access: IAgentAccess,
    registry: IWebMcpRegistry | null,
    translator: ITranslator | null,
    palette: ICommandPalette | null,
    restorer: ILayoutRestorer | null,
    review: IReviewStore | null,
    settingRegistry: ISettingRegistry | null,
    proposals: IProposals | null
  ): void => {
    const set = new DisposableSet();
    agentPanel = set;
    const trans = (translator ?? nullTranslator).load('jupyterlite-webmcp');

    const panel = new AgentPanel({
      translator,
      reveal: () => app.shell.activateById(AGENT_PANEL_ID)
    });
    const activityModel = new ActivityModel({ registry });
    if (settingRegistry) {
      const apply = (settings: ISettingRegistry.ISettings) => {
        const size = settings.composite.activityHistorySize;
        if (typeof size === 'number') {
          activityModel.limit = size;
        }
      };
      void settingRegistry
        .load(agentPanelPlugin.id)
        .then(settings => {
          apply(settings);
          settings.changed.connect(apply);
        })
        .catch(reason => {
          console.warn(
            'jupyterlite-webmcp: the Agent panel settings could not be read.',
            reason
          );
        });
    }
    const accessModel = new AccessTabModel({
      tracker,
      access,
      proposals,
      registry
    });
    const editsModel = new AgentEditsModel({ tracker });
    panel.addSection(new AccessPanel({ model: accessModel, translator }), {
      rank: TabRanks.access
    });
    panel.addSection(
      new ActivityPanel({
        model: activityModel,
        edits: editsModel,
        translator,
        openCell: async (path, cellId) => {
          await revealCell(app, access, path, cellId);
        }
      }),
      { rank: TabRanks.activity }
    );
    if (proposals) {
      const proposalsModel = new ProposalsModel({ tracker, proposals });
      panel.addSection(
        new ProposalsPanel({
          model: proposalsModel,
          translator,
          openCell: async (path, cellId) => {
            await revealCell(app, access, path, cellId);
          }
        }),
        { rank: TabRanks.proposals }
      );
      set.add(proposalsModel);
      panel.addHeaderControl(
        new ProposeModeToggle({
          proposals,
          translator,
          onToggle: () => {
            void app.commands.execute(ProposeCommandIDs.toggleProposeMode);
          }
        }),
        { rank: HeaderRanks.proposeMode }
      );
    }
    set.add(panel);
    set.add(activityModel);
    set.add(accessModel);
    set.add(editsModel);
    if (registry) {
      // while a tool acts on a cell, the cell says so
      set.add(new AgentPresence({ registry, access, translator }));
    }
    if (review) {
      const commentsModel = new CommentsTabModel({
        tracker,
        review,
        author: () => humanAuthor(app)
      });
      const comments = new CommentsPanel({
        model: commentsModel,
        translator,
        goTo: async (path, row) => {
          await revealAnchor(app, access, path, row.thread.anchor.cellId, {
            range: row.status.range ?? null
          });
        }
      });
      panel.addSection(comments, { rank: TabRanks.comments });
      set.add(commentsModel);
      const showComments = () => {
        panel.show(comments);
      };
      // the human's commands ask for the comment in the tab's composer
      set.add(
        addReviewCommands(app, {
          tracker,
          translator,
          compose: target => {
            commentsModel.startDraft({
              model: target.model,
              path: target.panel.context.localPath,
              anchor: target.anchor
            });
            showComments();
          }
        })
      );
      set.add(addReviewMenus(app, palette, translator));
      set.add(
        app.commands.addCommand(ReviewCommandIDs.showComments, {
          label: trans.__('Show Review Comments'),
          caption: trans.__(
            'Show the review threads of the current notebook in the Agent panel.'
          ),
          describedBy: {
            args: {
              type: 'object',
              properties: {
                threadId: {
                  type: 'string',
                  description: 'The thread to bring into view.'
                },
                cellId: {
                  type: 'string',
                  description:
                    'Bring the first open thread of this cell into view.'
                }
              }
            }
          },
          execute: args => {
            showComments();
            const model = tracker.currentWidget?.content.model?.sharedModel;
            let threadId =
              typeof args.threadId === 'string' ? args.threadId : null;
            if (!threadId && typeof args.cellId === 'string' && model) {
              const threads = review
                .allThreads(model)
                .filter(thread => thread.anchor.cellId === args.cellId);
              threadId =
                (threads.find(thread => thread.status === 'open') ?? threads[0])
                  ?.id ?? null;
            }
            if (threadId) {
              commentsModel.focusThread(threadId);
            }
          }
        })
      );
      if (palette) {
        set.add(
          palette.addItem({
            command: ReviewCommandIDs.showComments,
            category: trans.__('Agent')
          })
        );
      }
    }

    app.shell.add(panel, 'right', { rank: PANEL_RANK });
    restorer?.add(panel, panel.id);

    set.add(
      app.commands.addCommand(CommandIDs.openAgentPanel, {
        label: trans.__('Open Agent Panel'),
        caption: trans.__(
          'Show the Agent panel: what the agent did and what it may see or change.'
        ),
        describedBy: { args: { type: 'object', properties: {} } },
        execute: () => {
          app.shell.activateById(panel.id);
        }
      })
    );
    set.add(addRevertCommands(app.commands, tracker, trans));
    if (palette) {
      for (const command of [
        CommandIDs.openAgentPanel,
        RevertCommandIDs.forgetAgentEdits
      ]) {
        set.add(palette.addItem({ command, category: trans.__('Agent') }));
      }
    }
  },
  deactivate: (): void => {
    agentPanel?.dispose();
    agentPanel = null;
  }
};
