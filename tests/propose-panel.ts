/**
 * A notebook panel as the proposal service sees it: the parts of its
 * context the service watches while a proposal waits (the model's cells,
 * the context's disposal and renaming), around a real shared notebook.
 */
import type { YNotebook } from '@jupyter/ydoc';
import { Signal } from '@lumino/signaling';

import type { IProposals } from '../src/tokens';

export function proposalPanel(
  notebook: YNotebook,
  cellsChanged: Signal<object, void> = new Signal<object, void>({})
): NonNullable<IProposals.IRequest['panel']> {
  return {
    isDisposed: false,
    context: {
      path: 'work/a.ipynb',
      localPath: 'work/a.ipynb',
      model: {
        isDisposed: false,
        cells: { changed: cellsChanged },
        sharedModel: notebook
      },
      disposed: new Signal({}),
      pathChanged: new Signal({})
    }
  } as unknown as NonNullable<IProposals.IRequest['panel']>;
}
