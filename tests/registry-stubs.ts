/**
 * The parts of IWebMcpRegistry the panel's fake registries do not use:
 * adding tools and resolving notebooks. Called, they fail the test.
 */
import { type IDisposable } from '@lumino/disposable';

import { Signal } from '@lumino/signaling';

import {
  type IOfferedTool,
  type IWebMcpNotebooks,
  type IWebMcpRegistry
} from '../src/tokens';

export function refuseAddTool(): IDisposable {
  throw new Error('this fake registry adds no tools');
}

export const NO_NOTEBOOKS: IWebMcpNotebooks = {
  resolve: () =>
    Promise.reject(new Error('this fake registry has no notebooks'))
};

/**
 * The other clients' side of a fake registry: no tool offered, no client
 * (the status item's tests set `clients` to name one).
 */
export class NoOfferedTools {
  readonly offeredTools: readonly IOfferedTool[] = [];
  readonly offeredToolsChanged = new Signal<IWebMcpRegistry, void>(
    this as unknown as IWebMcpRegistry
  );
  clients: readonly string[] = [];
  addClient(): IDisposable {
    throw new Error('this fake registry takes no clients');
  }
}
