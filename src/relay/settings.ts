/**
 * The owner's relay setting as the schema (schema/relay.json) defines it:
 * read at the page's start, while what follows it (./connection.ts) and the
 * relay's page script (./embed.ts) are loaded only once it is turned on.
 *
 * Pure: no JupyterLab import, no DOM.
 */

/** The relay's own default WebSocket port (`webmcp-local-relay --port`). */
export const DEFAULT_RELAY_PORT = 9333;

/** What the setting asks for. */
export interface IRelaySettings {
  /** "Connect to a local WebMCP relay": off unless the owner turns it on. */
  enabled: boolean;
  /** The relay's WebSocket port on 127.0.0.1. */
  port: number;
}

/** The settings as the schema (schema/relay.json) defines them; anything invalid reads as the default. */
export function readRelaySettings(composite: unknown): IRelaySettings {
  const values = (
    composite && typeof composite === 'object' ? composite : {}
  ) as Record<string, unknown>;
  const port = values.port;
  return {
    enabled: values.enabled === true,
    port:
      typeof port === 'number' &&
      Number.isInteger(port) &&
      port >= 1 &&
      port <= 65535
        ? port
        : DEFAULT_RELAY_PORT
  };
}
