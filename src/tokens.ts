import { Token } from '@lumino/coreutils';
import { type ISignal } from '@lumino/signaling';

import { type OutputSelectionTracker } from './selection/capture';
import { type IRegistrationStatus, type IToolCall } from './webmcp/register';

export type { IRegistrationStatus, IToolCall } from './webmcp/register';

/**
 * The WebMCP registration of this app's tools: whether WebMCP is available,
 * what is registered, and the calls in progress.
 */
export interface IWebMcpRegistry {
  readonly status: IRegistrationStatus;
  readonly statusChanged: ISignal<IWebMcpRegistry, IRegistrationStatus>;
  readonly callChanged: ISignal<IWebMcpRegistry, IToolCall>;
  readonly activeCalls: IToolCall[];
  readonly toolNames: string[];
}

/** The token of the WebMCP registration. */
export const IWebMcpRegistry = new Token<IWebMcpRegistry>(
  'jupyterlite-webmcp:IWebMcpRegistry',
  'The WebMCP registration of the notebook tools and their calls in progress.'
);

/** The tracker of the text the human selects inside one rendered output. */
export const IOutputSelectionTracker = new Token<OutputSelectionTracker>(
  'jupyterlite-webmcp:IOutputSelectionTracker',
  'Records the text the human selects inside one rendered cell output.'
);
