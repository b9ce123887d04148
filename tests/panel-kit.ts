/**
 * JupyterLab's notebook test kit, for suites that need a real NotebookPanel.
 * Call it once the known warnings are silenced (`silenceKnownWarnings`): an
 * import would load the packages first, and the clipboard's warning would
 * print.
 */
import type { NotebookPanel, NotebookTracker } from '@jupyterlab/notebook';
import type { NBTestUtils } from '@jupyterlab/notebook/lib/testutils';

import { normalizeError } from '../src/common/errors';

export function loadPanelKit(): {
  NBTestUtils: typeof NBTestUtils;
  NotebookTracker: typeof NotebookTracker;
} {
  return {
    NBTestUtils: jest.requireActual<{ NBTestUtils: typeof NBTestUtils }>(
      '@jupyterlab/notebook/lib/testutils'
    ).NBTestUtils,
    NotebookTracker: jest.requireActual<{
      NotebookTracker: typeof NotebookTracker;
    }>('@jupyterlab/notebook').NotebookTracker
  };
}

/** The normalized error (the tool's answer) a call that must fail gives. */
export async function failure(
  call: Promise<unknown>
): Promise<Record<string, unknown>> {
  try {
    await call;
  } catch (error) {
    return normalizeError(error);
  }
  throw new Error('expected a failure');
}

/** Dispose a test's panel, its context and its tracker. */
export function disposePanel(
  panel: NotebookPanel,
  tracker: { dispose(): void }
): void {
  const context = panel.context;
  panel.dispose();
  context.dispose();
  tracker.dispose();
}
