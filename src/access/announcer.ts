/**
 * This tab's side of the restrictions other tabs apply (see ./announced):
 * while a notebook open here has unsaved changes, what its live model
 * restricts (the notebook's access, the cells that are `read` or `none`) is
 * announced to the other tabs of this browser, whose tools read that notebook
 * from its file; the announcement is withdrawn when the notebook is saved,
 * reverted (no unsaved changes left) or closed, and when this tab goes away.
 * What the other tabs announce is kept here, for this tab's readers of files.
 */
import type { INotebookTracker, NotebookPanel } from '@jupyterlab/notebook';
import { type IDisposable } from '@lumino/disposable';
import { type ISignal } from '@lumino/signaling';

import {
  AnnouncedRestrictions,
  parseAnnouncement,
  type AnnouncementMessage,
  type IAnnouncedAccess,
  type IAnnouncedNotebook
} from './announced';
import { type AgentAccess } from './model';
import { type IMessageChannel } from './notebook-file';
import { panelPath } from './panels';
import { mayWrite } from './policy';
import { cellAccess, notebookAccess } from './read';

/** What the live model of a panel restricts, or null when it restricts nothing. */
export function liveRestrictions(
  panel: NotebookPanel
): { notebook: AgentAccess | null; cells: Record<string, AgentAccess> } | null {
  const model = panel.context.model.sharedModel;
  const own = notebookAccess(model);
  const cells: Record<string, AgentAccess> = {};
  let restricted = !mayWrite(own);
  for (const cell of model.cells) {
    const access = cellAccess(cell);
    if (!mayWrite(access)) {
      cells[cell.id] = access;
      restricted = true;
    }
  }
  return restricted ? { notebook: mayWrite(own) ? null : own, cells } : null;
}

/**
 * Announces this tab's unsaved restrictions and keeps the other tabs'.
 */
export class TabRestrictions implements IAnnouncedAccess, IDisposable {
  constructor(options: TabRestrictions.IOptions) {
    this._tracker = options.tracker;
    this._channel = options.channel;
    this._accessChanged = options.accessChanged;
    this._channel.addEventListener('message', this._onMessage);
    this._tracker.forEach(panel => this._watch(panel));
    this._tracker.widgetAdded.connect(this._onPanelAdded, this);
    this._accessChanged.connect(this._onAccessChanged, this);
    // the tab going away (closed, reloaded) withdraws what it announced
    globalThis.addEventListener?.('pagehide', this._onPageHide);
    // a tab that opens late hears what the others hold already
    this._post({ type: 'query', tab: this._tab });
  }

  get isDisposed(): boolean {
    return this._isDisposed;
  }

  announced(path: string): IAnnouncedNotebook | null {
    return this._others.announced(path);
  }

  /** Withdraw every announcement of this tab (it is going away). */
  withdrawAll(): void {
    if (this._posted.size > 0) {
      this._posted.clear();
      this._post({ type: 'drop', tab: this._tab, path: null });
    }
  }

  dispose(): void {
    if (this._isDisposed) {
      return;
    }
    this.withdrawAll();
    this._isDisposed = true;
    this._tracker.widgetAdded.disconnect(this._onPanelAdded, this);
    this._accessChanged.disconnect(this._onAccessChanged, this);
    this._channel.removeEventListener('message', this._onMessage);
    globalThis.removeEventListener?.('pagehide', this._onPageHide);
    this._channel.close();
  }

  private _onPageHide = (): void => this.withdrawAll();

  private _onPanelAdded(_: INotebookTracker, panel: NotebookPanel): void {
    this._watch(panel);
  }

  private _onAccessChanged(_: unknown, change: { path: string }): void {
    this._tracker.forEach(panel => {
      if (!panel.isDisposed && panelPath(panel) === change.path) {
        this._schedule(panel);
      }
    });
  }

  private _watch(panel: NotebookPanel): void {
    let path = panelPath(panel);
    void panel.context.ready.then(() => {
      if (this._isDisposed || panel.isDisposed) {
        return;
      }
      const onState = () => this._schedule(panel);
      const onPath = () => {
        this._withdraw(path);
        path = panelPath(panel);
        this._schedule(panel);
      };
      panel.context.model.stateChanged.connect(onState);
      panel.context.pathChanged.connect(onPath);
      panel.disposed.connect(() => {
        panel.context.model?.stateChanged.disconnect(onState);
        panel.context.pathChanged.disconnect(onPath);
        this._withdraw(path);
      });
      this._schedule(panel);
    });
  }

  /** Announce a panel's state once the current task's changes are made. */
  private _schedule(panel: NotebookPanel): void {
    if (this._scheduled.has(panel)) {
      return;
    }
    this._scheduled.add(panel);
    queueMicrotask(() => {
      this._scheduled.delete(panel);
      if (!this._isDisposed && !panel.isDisposed && panel.context.isReady) {
        this._announce(panel);
      }
    });
  }

  private _announce(panel: NotebookPanel): void {
    const path = panelPath(panel);
    const restrictions = panel.context.model.dirty
      ? liveRestrictions(panel)
      : null;
    if (!restrictions) {
      this._withdraw(path);
      return;
    }
    const message: AnnouncementMessage = {
      type: 'restrictions',
      tab: this._tab,
      path,
      ...restrictions
    };
    const key = JSON.stringify(restrictions);
    if (this._posted.get(path)?.key !== key) {
      this._posted.set(path, { key, message });
      this._post(message);
    }
  }

  private _withdraw(path: string): void {
    if (this._posted.delete(path)) {
      this._post({ type: 'drop', tab: this._tab, path });
    }
  }

  private _post(message: AnnouncementMessage): void {
    if (!this._isDisposed) {
      this._channel.postMessage(message);
    }
  }

  private _onMessage = (event: MessageEvent): void => {
    const message = parseAnnouncement(event.data);
    if (!message || message.tab === this._tab) {
      return;
    }
    if (message.type === 'query') {
      for (const { message: posted } of this._posted.values()) {
        this._post(posted);
      }
      return;
    }
    this._others.receive(message);
  };

  private readonly _tab = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
  private readonly _tracker: INotebookTracker;
  private readonly _channel: IMessageChannel;
  private readonly _accessChanged: ISignal<unknown, { path: string }>;
  private readonly _others = new AnnouncedRestrictions();
  private readonly _posted = new Map<
    string,
    { key: string; message: AnnouncementMessage }
  >();
  private readonly _scheduled = new Set<NotebookPanel>();
  private _isDisposed = false;
}

export namespace TabRestrictions {
  export interface IOptions {
    tracker: INotebookTracker;
    /** A BroadcastChannel named RESTRICTIONS_CHANNEL_NAME. */
    channel: IMessageChannel;
    /** Emitted when the access of an open notebook or its cells changed. */
    accessChanged: ISignal<unknown, { path: string }>;
  }
}
