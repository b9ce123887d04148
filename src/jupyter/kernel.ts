/**
 * The kernel summary tools report (IKernelInfo).
 */
import { type ISessionContext } from '@jupyterlab/apputils';
import { type ISharedNotebook } from '@jupyter/ydoc';

/** The statuses a tool reports; every kernel state maps to one of them. */
export type KernelStatus =
  'idle' | 'busy' | 'starting' | 'dead' | 'unavailable' | 'unknown';

/** The kernel of a notebook, as a tool reports it. */
export interface IKernelInfo {
  name: string | null;
  displayName?: string;
  status: KernelStatus;
}

const STATUS: Record<string, KernelStatus> = {
  idle: 'idle',
  busy: 'busy',
  starting: 'starting',
  restarting: 'starting',
  autorestarting: 'starting',
  initializing: 'starting',
  connecting: 'starting',
  dead: 'dead',
  terminating: 'dead',
  unknown: 'unknown'
};

/** The kernel attached to an open notebook's session. */
export function kernelInfo(sessionContext: ISessionContext): IKernelInfo {
  const kernel = sessionContext.session?.kernel ?? null;
  if (!kernel) {
    const pending = !sessionContext.isReady && !sessionContext.hasNoKernel;
    return {
      name: sessionContext.kernelPreference.name ?? null,
      status: pending ? 'starting' : 'unavailable'
    };
  }
  const info: IKernelInfo = {
    name: kernel.name,
    status: STATUS[kernel.status] ?? 'unknown'
  };
  const displayName = sessionContext.kernelDisplayName;
  if (displayName) {
    info.displayName = displayName;
  }
  return info;
}

/**
 * The kernel a notebook that is not open in this app would use, from its
 * metadata. Nothing runs for it here, so its status is `unavailable`.
 */
export function storedKernelInfo(model: ISharedNotebook): IKernelInfo {
  const spec = model.getMetadata('kernelspec') as
    { name?: unknown; display_name?: unknown } | undefined;
  const info: IKernelInfo = {
    name: typeof spec?.name === 'string' ? spec.name : null,
    status: 'unavailable'
  };
  if (typeof spec?.display_name === 'string' && spec.display_name) {
    info.displayName = spec.display_name;
  }
  return info;
}
