import { Signal } from '@lumino/signaling';

import { connectRelay } from '../../src/relay/embed';
import {
  type IOfferedToolsSource,
  RUNTIME_PROPERTY
} from '../../src/relay/runtime';

const ASSETS = 'http://127.0.0.1:8888/lab/extensions/x/static/relay/';

function source(): IOfferedToolsSource {
  const emitter = {};
  return {
    offeredTools: [],
    offeredToolsChanged: new Signal<object, void>(emitter)
  };
}

/** The relay's page script, as the page would get it: the one script added. */
function relayScript(): HTMLScriptElement {
  const scripts = document.head.querySelectorAll<HTMLScriptElement>(
    'script[data-relay-port]'
  );
  expect(scripts).toHaveLength(1);
  return scripts[0];
}

/** What embed.js does once loaded: it adds its hidden frame. */
function addRelayFrame(): void {
  const frame = document.createElement('iframe');
  frame.setAttribute('data-webmcp-relay', '1');
  document.body.appendChild(frame);
}

describe('connectRelay', () => {
  afterEach(() => {
    delete (navigator as unknown as Record<string, unknown>)[RUNTIME_PROPERTY];
  });

  it('installs the runtime, then loads embed.js from the extension with the port; disposing removes frame, script and runtime', async () => {
    const connecting = connectRelay({
      source: source(),
      port: 9444,
      assetsUrl: ASSETS
    });
    // the runtime is there before the page script runs
    expect(RUNTIME_PROPERTY in navigator).toBe(true);
    const script = relayScript();
    expect(script.src).toBe(`${ASSETS}embed.js`);
    expect(script.dataset).toMatchObject({
      relayPort: '9444',
      relayHost: '127.0.0.1'
    });
    addRelayFrame();
    script.dispatchEvent(new Event('load'));
    const connection = await connecting;

    connection.dispose();
    expect(document.querySelectorAll('iframe[data-webmcp-relay]')).toHaveLength(
      0
    );
    expect(
      document.head.querySelectorAll('script[data-relay-port]')
    ).toHaveLength(0);
    expect(RUNTIME_PROPERTY in navigator).toBe(false);
  });

  it('undoes everything when embed.js cannot be loaded', async () => {
    const connecting = connectRelay({
      source: source(),
      port: 9333,
      assetsUrl: ASSETS
    });
    relayScript().dispatchEvent(new Event('error'));
    await expect(connecting).rejects.toThrow(/could not load .*embed\.js/);
    expect(
      document.head.querySelectorAll('script[data-relay-port]')
    ).toHaveLength(0);
    expect(RUNTIME_PROPERTY in navigator).toBe(false);
  });

  it("refuses, loading nothing, when the page has a runtime of another's under that name", async () => {
    const other = { listTools: () => [] };
    Object.defineProperty(navigator, RUNTIME_PROPERTY, {
      configurable: true,
      value: other
    });
    await expect(
      connectRelay({ source: source(), port: 9333, assetsUrl: ASSETS })
    ).rejects.toThrow(/already defined/);
    expect(
      document.head.querySelectorAll('script[data-relay-port]')
    ).toHaveLength(0);
    expect(
      (navigator as unknown as Record<string, unknown>)[RUNTIME_PROPERTY]
    ).toBe(other);
  });
});
