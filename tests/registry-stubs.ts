/**
 * The parts of IWebMcpRegistry the panel's fake registries do not use:
 * adding tools and resolving notebooks. Called, they fail the test.
 */
import { type IDisposable } from '@lumino/disposable';

import { type IWebMcpNotebooks } from '../src/tokens';

export function refuseAddTool(): IDisposable {
  throw new Error('this fake registry adds no tools');
}

export const NO_NOTEBOOKS: IWebMcpNotebooks = {
  resolve: () =>
    Promise.reject(new Error('this fake registry has no notebooks'))
};
