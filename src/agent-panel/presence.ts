/**
 * The agent's presence on a cell: while a tool call reads, edits or runs a
 * cell, that cell says so ("Agent reading"), in a label drawn over the
 * cell's input and an outline, both painted over the layout (nothing
 * moves). The label covers no control the person may need meanwhile: at the
 * input's bottom right, or, while the cell shows JupyterLab's cell toolbar
 * (top right of the active cell), just left of it. A call that lasts shows while it runs; a quick call shows after it
 * answered, once the agent pauses (QUIET_MS), briefly: the page is never
 * touched while a quick call is in flight, nor between the calls of a burst
 * (Chromium would run a frame of the whole page before handing a result
 * back; see WebMcpStatus). Every label stays at least HOLD_MS.
 */
import type { Cell } from '@jupyterlab/cells';
import {
  type ITranslator,
  nullTranslator,
  type TranslationBundle
} from '@jupyterlab/translation';
import { type IDisposable } from '@lumino/disposable';

import { childWithClass, inputWrapper } from '../common/cell-dom';
import {
  type CellActivityKind,
  type IAgentAccess,
  type IToolCall,
  type IWebMcpRegistry
} from '../tokens';
import { RUNNING_DELAY_MS } from './status';

/** The class of a cell the agent is acting on (its kind in `data-agent-activity`). */
export const PRESENCE_CELL_CLASS = 'jp-mod-agentPresent';

/** The class of the label. */
export const PRESENCE_LABEL_CLASS = 'jp-AgentPresence';

/** The class of a label drawn beside the cell toolbar rather than below it. */
export const PRESENCE_BESIDE_TOOLBAR_CLASS = 'jp-mod-besideToolbar';

/** JupyterLab's cell toolbar, and the input area it is put in. */
const CELL_TOOLBAR_CLASS = 'jp-cell-toolbar';
const INPUT_AREA_CLASS = 'jp-Cell-inputArea';

/** The room left between the label and the cell toolbar, in pixels. */
const TOOLBAR_GAP_PX = 4;

/**
 * Puts a label just left of the cell toolbar while the cell shows one (it
 * sits at the input's top right, over where the label would be on a short
 * cell), else where the stylesheet puts it. The toolbar comes and goes with
 * the active cell, and is hidden while the cell's content reaches under it.
 */
function placeLabel(label: HTMLElement, host: HTMLElement): void {
  const area = childWithClass(host, INPUT_AREA_CLASS);
  const toolbar = area ? childWithClass(area, CELL_TOOLBAR_CLASS) : null;
  const box = toolbar?.getBoundingClientRect();
  if (!box || box.width === 0 || box.height === 0) {
    label.classList.remove(PRESENCE_BESIDE_TOOLBAR_CLASS);
    label.style.removeProperty('--jp-agent-presence-right');
    label.style.removeProperty('--jp-agent-presence-top');
    return;
  }
  const frame = host.getBoundingClientRect();
  label.style.setProperty(
    '--jp-agent-presence-right',
    `${frame.right - box.left + TOOLBAR_GAP_PX}px`
  );
  label.style.setProperty(
    '--jp-agent-presence-top',
    `${box.top - frame.top + box.height / 2}px`
  );
  label.classList.add(PRESENCE_BESIDE_TOOLBAR_CLASS);
}

/** How long a label stays at least, so a person can read it. */
export const HOLD_MS = 1500;

/** How long the agent must pause before a quick call's cell shows. */
export const QUIET_MS = 100;

/** The words of a label. */
export function presenceText(
  kind: CellActivityKind,
  trans: TranslationBundle
): string {
  switch (kind) {
    case 'editing':
      return trans.__('Agent editing');
    case 'running':
      return trans.__('Agent running');
    default:
      return trans.__('Agent reading');
  }
}

interface IShown {
  cell: Cell;
  label: HTMLElement;
  /** Follows the cell toolbar coming and going (placeLabel). */
  observer: MutationObserver;
  kind: CellActivityKind;
  /** When it was drawn; it stays until at least HOLD_MS after. */
  since: number;
  timer: ReturnType<typeof setTimeout> | null;
}

export class AgentPresence implements IDisposable {
  constructor(options: AgentPresence.IOptions) {
    this._registry = options.registry;
    this._access = options.access;
    this._trans = (options.translator ?? nullTranslator).load(
      'jupyterlite-webmcp'
    );
    this._now = options.now ?? (() => Date.now());
    this._registry.callChanged.connect(this._onCall, this);
    // wired once the page is idle (activity-plugin.ts): a call that started
    // before, such as a proposal waiting for the person, shows all the same
    for (const call of this._registry.activeCalls) {
      this._onCall(this._registry, call);
    }
  }

  get isDisposed(): boolean {
    return this._isDisposed;
  }

  dispose(): void {
    if (this._isDisposed) {
      return;
    }
    this._isDisposed = true;
    this._registry.callChanged.disconnect(this._onCall, this);
    for (const timer of this._pending.values()) {
      clearTimeout(timer);
    }
    this._pending.clear();
    this._holdFlash();
    this._flash = null;
    for (const shown of [...this._shown.values()]) {
      this._remove(shown);
    }
  }

  private _onCall(_: IWebMcpRegistry, call: IToolCall): void {
    const activity = call.activity;
    if (call.finishedAt === null) {
      // the agent is busy: a flash of an earlier quick call waits
      this._running.add(call.id);
      this._holdFlash();
      if (!activity) {
        return;
      }
      this._last.set(call.id, { ...activity });
      // show a call that lasts; never touch the page before that
      const started = call.startedAt;
      const wait = Math.max(0, started + RUNNING_DELAY_MS - this._now());
      this._defer(call.id, wait, () =>
        this._show(
          call.id,
          activity.notebookPath,
          activity.cellId,
          activity.kind
        )
      );
      return;
    }
    // the call answered: its last cell shows briefly (drawn after the
    // answer), or the label it had is held, then goes
    const shown = this._shown.get(call.id);
    const last = this._last.get(call.id) ?? null;
    this._last.delete(call.id);
    if (this._superseded.delete(call.id)) {
      this._cancel(call.id);
    } else if (shown) {
      this._cancel(call.id);
      this._scheduleRemoval(shown);
    } else if (last) {
      this._cancel(call.id);
      this._flash = { id: call.id, target: last };
    }
    this._running.delete(call.id);
    if (this._running.size === 0) {
      this._armFlash();
    }
  }

  /**
   * Shows the last quick call's cell once the agent has paused for
   * QUIET_MS: a burst of quick calls is never slowed by a frame per call,
   * and the person still sees where the agent last was.
   */
  private _armFlash(): void {
    this._holdFlash();
    if (!this._flash) {
      return;
    }
    this._flashTimer = setTimeout(() => {
      this._flashTimer = null;
      const flash = this._flash;
      this._flash = null;
      if (!flash || this._isDisposed) {
        return;
      }
      const { id, target } = flash;
      this._show(id, target.notebookPath, target.cellId, target.kind);
      const drawn = this._shown.get(id);
      if (drawn) {
        this._scheduleRemoval(drawn);
      }
    }, QUIET_MS);
  }

  private _holdFlash(): void {
    if (this._flashTimer !== null) {
      clearTimeout(this._flashTimer);
      this._flashTimer = null;
    }
  }

  /** Runs `action` for a call after `wait`, replacing what was pending. */
  private _defer(id: number, wait: number, action: () => void): void {
    this._cancel(id);
    this._pending.set(
      id,
      setTimeout(() => {
        this._pending.delete(id);
        if (!this._isDisposed) {
          action();
        }
      }, wait)
    );
  }

  private _cancel(id: number): void {
    const timer = this._pending.get(id);
    if (timer !== undefined) {
      clearTimeout(timer);
      this._pending.delete(id);
    }
  }

  private _show(
    id: number,
    path: string,
    cellId: string,
    kind: CellActivityKind
  ): void {
    const cell =
      this._access
        .findPanel(path)
        ?.content.widgets.find(widget => widget.model.id === cellId) ?? null;
    const previous = this._shown.get(id);
    if (previous && previous.cell === cell && previous.kind === kind) {
      return;
    }
    if (previous) {
      this._remove(previous);
    }
    const host = cell ? inputWrapper(cell) : null;
    if (!cell || !host) {
      // not on screen here (another tab, or not rendered): nothing to show
      return;
    }
    // one label a cell: the latest call's (an earlier call on the cell
    // does not come back when it ends)
    for (const [otherId, other] of [...this._shown]) {
      if (other.cell === cell && otherId !== id) {
        this._superseded.add(otherId);
        this._remove(other);
      }
    }
    const label = document.createElement('div');
    label.className = PRESENCE_LABEL_CLASS;
    label.dataset.agentActivity = kind;
    label.textContent = presenceText(kind, this._trans);
    host.appendChild(label);
    cell.node.classList.add(PRESENCE_CELL_CLASS);
    cell.node.dataset.agentActivity = kind;
    placeLabel(label, host);
    // the toolbar is added to and removed from the input area as the active
    // cell changes, and hidden by a class on the cell
    const observer = new MutationObserver(() => placeLabel(label, host));
    const area = childWithClass(host, INPUT_AREA_CLASS);
    if (area) {
      observer.observe(area, { childList: true });
    }
    observer.observe(cell.node, {
      attributes: true,
      attributeFilter: ['class']
    });
    this._shown.set(id, {
      cell,
      label,
      observer,
      kind,
      since: this._now(),
      timer: null
    });
    this._superseded.delete(id);
  }

  private _scheduleRemoval(shown: IShown): void {
    if (shown.timer !== null) {
      return;
    }
    const left = Math.max(0, shown.since + HOLD_MS - this._now());
    shown.timer = setTimeout(() => this._remove(shown), left);
  }

  private _remove(shown: IShown): void {
    if (shown.timer !== null) {
      clearTimeout(shown.timer);
      shown.timer = null;
    }
    shown.observer.disconnect();
    shown.label.remove();
    for (const [id, entry] of this._shown) {
      if (entry === shown) {
        this._shown.delete(id);
      }
    }
    // another call may still be on the same cell
    const still = [...this._shown.values()].find(
      entry => entry.cell === shown.cell
    );
    if (still) {
      shown.cell.node.dataset.agentActivity = still.kind;
    } else if (!shown.cell.isDisposed) {
      shown.cell.node.classList.remove(PRESENCE_CELL_CLASS);
      delete shown.cell.node.dataset.agentActivity;
    }
  }

  private readonly _registry: IWebMcpRegistry;
  private readonly _access: IAgentAccess;
  private readonly _trans: TranslationBundle;
  private readonly _now: () => number;
  private readonly _pending = new Map<number, ReturnType<typeof setTimeout>>();
  private readonly _shown = new Map<number, IShown>();
  /** The calls in progress. */
  private readonly _running = new Set<number>();
  /** The cell of the last quick call, shown once the agent pauses. */
  private _flash: {
    id: number;
    target: { notebookPath: string; cellId: string; kind: CellActivityKind };
  } | null = null;
  private _flashTimer: ReturnType<typeof setTimeout> | null = null;
  /** Calls whose label a later call on the same cell replaced. */
  private readonly _superseded = new Set<number>();
  /** The last cell each running call acted on. */
  private readonly _last = new Map<
    number,
    { notebookPath: string; cellId: string; kind: CellActivityKind }
  >();
  private _isDisposed = false;
}

export namespace AgentPresence {
  export interface IOptions {
    registry: IWebMcpRegistry;
    access: IAgentAccess;
    translator?: ITranslator | null;
    /** The clock (tests). */
    now?: () => number;
  }
}
