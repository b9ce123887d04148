/**
 * The status-bar item: whether WebMCP is available, how many tools are
 * registered, and the call in progress; pressing it lists the tools with
 * their annotations. It never claims an agent is connected: WebMCP cannot
 * know that.
 */
import { type Popup, showPopup } from '@jupyterlab/statusbar';
import {
  type ITranslator,
  nullTranslator,
  type TranslationBundle
} from '@jupyterlab/translation';
import { type IDisposable } from '@lumino/disposable';
import { Widget } from '@lumino/widgets';

import { type IMissingPart, PARTS, type Parts } from '../common/parts';
import { SoonestTimer } from '../common/soonest-timer';
import { type IProposals, type IWebMcpRegistry } from '../tokens';
import { ToolList } from './tool-list';

/**
 * The text and tooltip of the item for a registry's state, and how many
 * proposals wait for the owner (shown after the rest: "· 2 waiting").
 */
export function statusText(
  registry: IWebMcpRegistry,
  translator: ITranslator = nullTranslator,
  waiting = 0,
  missing: readonly IMissingPart[] = []
): { text: string; title: string } {
  const shown = withMissing(
    registryText(registry, translator),
    missing,
    translator
  );
  const { text, title } = shown;
  if (waiting <= 0) {
    return { text, title };
  }
  const trans = translator.load('jupyterlite-webmcp');
  return {
    text: trans.__('%1 · %2 waiting', text, waiting),
    title: [
      title,
      trans._n(
        '%1 agent proposal waits for your decision (Agent panel, Proposals).',
        '%1 agent proposals wait for your decision (Agent panel, Proposals).',
        waiting
      )
    ].join('\n')
  };
}

/**
 * The text and tooltip with the parts of the extension that could not be
 * loaded (a chunk the page could not fetch): "· 1 part missing", and a line
 * for each in the tooltip.
 */
function withMissing(
  shown: { text: string; title: string },
  missing: readonly IMissingPart[],
  translator: ITranslator
): { text: string; title: string } {
  if (missing.length === 0) {
    return shown;
  }
  const trans = translator.load('jupyterlite-webmcp');
  return {
    text: trans._n(
      '%2 · %1 part missing',
      '%2 · %1 parts missing',
      missing.length,
      shown.text
    ),
    title: [
      shown.title,
      ...missing.map(({ part }) =>
        trans.__(
          'Could not load %1: the page may be offline, or hold files of an earlier version. Reload the page.',
          part
        )
      )
    ].join('\n')
  };
}

/** The text and tooltip of the item for a registry's state alone. */
function registryText(
  registry: IWebMcpRegistry,
  translator: ITranslator
): { text: string; title: string } {
  const trans = translator.load('jupyterlite-webmcp');
  const { available, pending, registered, failed, disabled } = registry.status;
  const active = registry.activeCalls;
  const clients = registry.clients;
  if (!available && clients.length > 0) {
    return assistantOnlyText(registry, trans);
  }
  if (!available) {
    return pending
      ? {
          text: trans.__('WebMCP: looking'),
          title: trans.__(
            'Looking for WebMCP (document.modelContext) in this browser.'
          )
        }
      : {
          text: trans.__('WebMCP: unavailable'),
          title: trans.__(
            'This browser has no WebMCP (document.modelContext): no tools are registered. In Chromium, start it with --enable-features=WebMCP.'
          )
        };
  }
  const total = registry.toolNames.length - disabled.length;
  let text =
    failed.length > 0
      ? trans.__('WebMCP: %1 of %2 tools', registered.length, total)
      : trans._n('WebMCP: %1 tool', 'WebMCP: %1 tools', registered.length);
  const lines = [
    trans.__(
      '%1 notebook tools registered on document.modelContext.',
      registered.length
    )
  ];
  if (active.length > 0) {
    const call = active[active.length - 1];
    const progress = call.progress;
    text =
      progress && typeof progress.total === 'number' && progress.total > 0
        ? trans.__('WebMCP: %1 %2/%3', call.tool, progress.done, progress.total)
        : trans.__('WebMCP: running %1', call.tool);
    if (progress) {
      lines.push(trans.__('%1: %2', call.tool, progress.message));
    }
  }
  if (clients.length > 0) {
    lines.push(
      trans.__('Also offered to the in-app assistant: %1.', clients.join(', '))
    );
  }
  if (disabled.length > 0) {
    lines.push(disabledLine(disabled, trans));
  }
  for (const failure of failed) {
    lines.push(
      trans.__('Could not register %1: %2', failure.name, failure.reason)
    );
  }
  if (pending) {
    lines.push(trans.__('Registration in progress.'));
  }
  return { text, title: lines.join('\n') };
}

/**
 * The text and tooltip when the browser has no WebMCP but an in-app
 * assistant offers the tools (its calls still show as they run).
 */
function assistantOnlyText(
  registry: IWebMcpRegistry,
  trans: TranslationBundle
): { text: string; title: string } {
  const { disabled } = registry.status;
  const offered = registry.toolNames.length - disabled.length;
  let text = trans.__('Agent tools: %1', offered);
  const lines = [
    trans._n(
      'This browser has no WebMCP (document.modelContext); %1 notebook tool is offered to the in-app assistant: %2.',
      'This browser has no WebMCP (document.modelContext); %1 notebook tools are offered to the in-app assistant: %2.',
      offered,
      registry.clients.join(', ')
    )
  ];
  const active = registry.activeCalls;
  if (active.length > 0) {
    const call = active[active.length - 1];
    const progress = call.progress;
    text =
      progress && typeof progress.total === 'number' && progress.total > 0
        ? trans.__(
            'Agent tools: %1 %2/%3',
            call.tool,
            progress.done,
            progress.total
          )
        : trans.__('Agent tools: running %1', call.tool);
    if (progress) {
      lines.push(trans.__('%1: %2', call.tool, progress.message));
    }
  }
  if (disabled.length > 0) {
    lines.push(disabledLine(disabled, trans));
  }
  return { text, title: lines.join('\n') };
}

/** The tooltip's line naming the tools turned off. */
function disabledLine(disabled: string[], trans: TranslationBundle): string {
  return trans._n(
    '%1 tool turned off in the settings: %2',
    '%1 tools turned off in the settings: %2',
    disabled.length,
    disabled.join(', ')
  );
}

/**
 * How long a call runs before the item shows it as running: long enough that
 * a quick call never touches the page, short enough to read as immediate.
 */
export const RUNNING_DELAY_MS = 150;

/**
 * The status-bar widget. It never writes to the page while a quick tool call
 * is in flight: any change to the page schedules a rendering frame, and
 * Chromium runs that frame before it hands the call's result back, so a
 * status update inside the call made every call pay a frame of the whole
 * page (about 30 ms with a fully rendered 5,000-cell notebook, against 1 ms
 * for a call that leaves the page alone). A call shows as running once it
 * has lasted RUNNING_DELAY_MS; every other change is rendered on a timer
 * right after the current task. Only what differs from the page is written.
 */
export class WebMcpStatus extends Widget {
  constructor(
    private readonly _registry: IWebMcpRegistry,
    private readonly _translator: ITranslator = nullTranslator,
    private readonly _proposals: IProposals | null = null,
    private readonly _parts: Parts = PARTS
  ) {
    super();
    this.addClass('jp-WebMcpStatus');
    this.addClass('jp-mod-highlighted');
    this.node.setAttribute('role', 'status');
    // the text is a button: pressing it lists the tools
    this._button.type = 'button';
    this._button.className = 'jp-WebMcpStatus-button jp-StatusBar-TextItem';
    this._button.setAttribute('aria-haspopup', 'dialog');
    this._button.setAttribute('aria-expanded', 'false');
    this._button.addEventListener('click', this._toggle);
    this.node.appendChild(this._button);
    this._registry.statusChanged.connect(this._schedule, this);
    this._registry.callChanged.connect(this._schedule, this);
    this._proposals?.changed.connect(this._schedule, this);
    this._partsChanged = this._parts.onChange(() => this._schedule());
    this._render();
  }

  /** Opens (or closes) the list of tools. */
  private readonly _toggle = (): void => {
    if (this._popup && !this._popup.isDisposed) {
      this._popup.dispose();
      return;
    }
    const body = new ToolList(this._registry, this._translator);
    const popup = showPopup({ body, anchor: this, align: 'left' });
    this._popup = popup;
    this._button.setAttribute('aria-expanded', 'true');
    popup.disposed.connect(() => {
      this._popup = null;
      this._button.setAttribute('aria-expanded', 'false');
      if (body.node.contains(document.activeElement)) {
        this._button.focus();
      }
    });
    body.node.focus();
  };

  dispose(): void {
    if (this.isDisposed) {
      return;
    }
    this._paint.dispose();
    this._popup?.dispose();
    this._registry.statusChanged.disconnect(this._schedule, this);
    this._registry.callChanged.disconnect(this._schedule, this);
    this._proposals?.changed.disconnect(this._schedule, this);
    this._partsChanged.dispose();
    super.dispose();
  }

  private _state(): { text: string; title: string; active: boolean } {
    return {
      ...statusText(
        this._registry,
        this._translator,
        this._proposals?.pending().length ?? 0,
        this._parts.missing
      ),
      active: this._registry.activeCalls.length > 0
    };
  }

  private _schedule(): void {
    const next = this._state();
    const node = this.node;
    const shown =
      this._button.textContent === next.text && node.title === next.title;
    if (shown && this.hasClass('jp-mod-active') === next.active) {
      // e.g. a call that ended before it was shown: nothing to do
      this._paint.cancel();
      return;
    }
    // a call just started (and nothing else changed): show it only if it lasts
    const delay =
      next.active && !this.hasClass('jp-mod-active') ? RUNNING_DELAY_MS : 0;
    this._paint.schedule(delay);
  }

  /** Write the current state, touching only what differs from the page. */
  private _render(): void {
    const { text, title, active } = this._state();
    if (this._button.textContent !== text) {
      this._button.textContent = text;
    }
    if (this.node.title !== title) {
      this.node.title = title;
    }
    if (this.hasClass('jp-mod-active') !== active) {
      this.toggleClass('jp-mod-active', active);
    }
  }

  private readonly _paint = new SoonestTimer(() => this._render());
  private readonly _partsChanged: IDisposable;
  private readonly _button = document.createElement('button');
  private _popup: Popup | null = null;
}
