/**
 * The status-bar item: whether WebMCP is available, how many tools are
 * registered, and the call in progress. It never claims an agent is
 * connected: WebMCP cannot know that.
 */
import { type ITranslator, nullTranslator } from '@jupyterlab/translation';
import { Widget } from '@lumino/widgets';

import { type IWebMcpRegistry } from '../tokens';

/** The text and tooltip of the item for a registry's state. */
export function statusText(
  registry: IWebMcpRegistry,
  translator: ITranslator = nullTranslator
): { text: string; title: string } {
  const trans = translator.load('jupyterlite-webmcp');
  const { available, pending, registered, failed } = registry.status;
  const active = registry.activeCalls;
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
  const total = registry.toolNames.length;
  let text =
    failed.length > 0
      ? trans.__('WebMCP: %1 of %2 tools', registered.length, total)
      : trans._n('WebMCP: %1 tool', 'WebMCP: %1 tools', registered.length);
  if (active.length > 0) {
    text = trans.__('WebMCP: running %1', active[active.length - 1].tool);
  }
  const lines = [
    trans.__(
      '%1 notebook tools registered on document.modelContext.',
      registered.length
    )
  ];
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
 * The status-bar widget. It re-renders at the next animation frame after a
 * registry change, never inside a tool call: Chromium's WebMCP settles the
 * page's layout before it hands a result back, so a text change made during
 * the call costs a full layout of the page (about 60 ms with a fully
 * rendered 5,000-cell notebook, against 1 ms for a call that changes
 * nothing). A call that ends before the next frame changes nothing on
 * screen; a longer one shows as running from the next frame on.
 */
export class WebMcpStatus extends Widget {
  constructor(
    private readonly _registry: IWebMcpRegistry,
    private readonly _translator: ITranslator = nullTranslator
  ) {
    super();
    this.addClass('jp-WebMcpStatus');
    this.node.setAttribute('role', 'status');
    this._registry.statusChanged.connect(this._schedule, this);
    this._registry.callChanged.connect(this._schedule, this);
    this._render();
  }

  dispose(): void {
    if (this.isDisposed) {
      return;
    }
    if (this._frame) {
      cancelAnimationFrame(this._frame);
      this._frame = 0;
    }
    this._registry.statusChanged.disconnect(this._schedule, this);
    this._registry.callChanged.disconnect(this._schedule, this);
    super.dispose();
  }

  private _schedule(): void {
    if (!this._frame) {
      this._frame = requestAnimationFrame(() => {
        this._frame = 0;
        this._render();
      });
    }
  }

  /** Write the current state, touching only what differs from the DOM. */
  private _render(): void {
    const { text, title } = statusText(this._registry, this._translator);
    if (this.node.textContent !== text) {
      this.node.textContent = text;
    }
    if (this.node.title !== title) {
      this.node.title = title;
    }
    const active = this._registry.activeCalls.length > 0;
    if (this.hasClass('jp-mod-active') !== active) {
      this.toggleClass('jp-mod-active', active);
    }
  }

  private _frame = 0;
}
