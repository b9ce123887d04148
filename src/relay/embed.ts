/**
 * The part loaded only when the owner turns the relay on (a chunk of its
 * own, through `import()` in ./plugin.ts): installs the runtime (./runtime.ts)
 * and loads the relay's page script, `embed.js` of
 * `@mcp-b/webmcp-local-relay`, from this extension's own static files (the
 * build copies it and its `widget.html` into `static/relay/`; no CDN). The
 * page script puts a hidden frame (`widget.html`, from the same folder) into
 * the page, which opens the WebSocket to the relay on 127.0.0.1.
 */
import { type IDisposable } from '@lumino/disposable';

import {
  installRuntime,
  type IOfferedToolsSource,
  RelayRuntime,
  RUNTIME_PROPERTY
} from './runtime';

/** Where the build puts the relay's page files, under the extension's static folder. */
export const RELAY_ASSETS_FOLDER = 'relay/';

/** The marker attribute of the frame the relay's page script adds. */
const FRAME_SELECTOR = 'iframe[data-webmcp-relay]';

// the extension's static folder, as the bundler knows it at run time
declare const __webpack_public_path__: string | undefined;

/** The URL of the folder holding the relay's page files. */
export function relayAssetsUrl(): string {
  const base =
    typeof __webpack_public_path__ === 'string' ? __webpack_public_path__ : '';
  return new URL(RELAY_ASSETS_FOLDER, new URL(base, document.baseURI)).href;
}

export interface IConnectOptions {
  /** The tools to offer (the WebMCP registry). */
  source: IOfferedToolsSource;
  /** The relay's WebSocket port on 127.0.0.1. */
  port: number;
  /** The folder of `embed.js` and `widget.html` (default {@link relayAssetsUrl}). */
  assetsUrl?: string;
}

/**
 * Offers the tools to a relay on `port`. Resolves once the page script has
 * loaded (it then looks for the relay, and keeps retrying while it is not
 * running); disposing the result removes the frame (closing the WebSocket),
 * the page script and the runtime.
 */
export async function connectRelay(
  options: IConnectOptions
): Promise<IDisposable> {
  const runtime = new RelayRuntime(options.source);
  const installed = installRuntime(navigator, runtime);
  if (!installed) {
    runtime.dispose();
    throw new Error(
      `navigator.${RUNTIME_PROPERTY} is already defined by the browser or another script; the relay would not list this app's tools.`
    );
  }
  const script = document.createElement('script');
  script.src = new URL('embed.js', options.assetsUrl ?? relayAssetsUrl()).href;
  script.dataset.relayHost = '127.0.0.1';
  script.dataset.relayPort = String(options.port);
  const disconnect = () => {
    for (const frame of Array.from(document.querySelectorAll(FRAME_SELECTOR))) {
      frame.remove();
    }
    script.remove();
    installed.dispose();
  };
  try {
    await new Promise<void>((resolve, reject) => {
      script.addEventListener('load', () => resolve(), { once: true });
      script.addEventListener(
        'error',
        () => reject(new Error(`could not load ${script.src}`)),
        { once: true }
      );
      document.head.appendChild(script);
    });
  } catch (reason) {
    disconnect();
    throw reason;
  }
  let disposed = false;
  return {
    get isDisposed() {
      return disposed;
    },
    dispose() {
      if (!disposed) {
        disposed = true;
        disconnect();
      }
    }
  };
}

// the relay's chunk: what follows the setting, with the page script
export { RelaySwitch } from './connection';
