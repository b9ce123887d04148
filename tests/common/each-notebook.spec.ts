import type { INotebookTracker, NotebookPanel } from '@jupyterlab/notebook';
import { DisposableDelegate } from '@lumino/disposable';
import { Signal } from '@lumino/signaling';

import { eachNotebook } from '../../src/common/each-notebook';

/** A panel as far as the helper sees one: its disposal. */
function fakePanel(name: string) {
  const panel = {
    name,
    isDisposed: false,
    disposed: new Signal<unknown, void>({}),
    dispose() {
      panel.isDisposed = true;
      panel.disposed.emit();
    }
  };
  return panel;
}
type FakePanel = ReturnType<typeof fakePanel>;

/** The tracker's part: the panels it holds, and the signal of one added. */
class FakeTracker {
  readonly panels: FakePanel[] = [];
  readonly widgetAdded = new Signal<this, FakePanel>(this);
  forEach(fn: (panel: FakePanel) => void): void {
    this.panels.forEach(fn);
  }
  add(panel: FakePanel): void {
    this.panels.push(panel);
    this.widgetAdded.emit(panel);
  }
}

function setUp(open: FakePanel[]) {
  const tracker = new FakeTracker();
  tracker.panels.push(...open);
  const attached: string[] = [];
  const released: string[] = [];
  const each = eachNotebook(
    tracker as unknown as INotebookTracker,
    (panel: NotebookPanel) => {
      const name = (panel as unknown as FakePanel).name;
      attached.push(name);
      return new DisposableDelegate(() => released.push(name));
    }
  );
  return { tracker, attached, released, each };
}

describe('eachNotebook', () => {
  it('gives the panels open now theirs, and each panel added later its own', () => {
    const { tracker, attached } = setUp([fakePanel('a'), fakePanel('b')]);
    expect(attached).toEqual(['a', 'b']);
    tracker.add(fakePanel('c'));
    expect(attached).toEqual(['a', 'b', 'c']);
  });

  it('skips a disposed panel, and one given already', () => {
    const gone = fakePanel('gone');
    gone.isDisposed = true;
    const a = fakePanel('a');
    const { tracker, attached } = setUp([gone, a]);
    tracker.widgetAdded.emit(a);
    expect(attached).toEqual(['a']);
  });

  it("disposes a closed panel's part with it, and not again later", () => {
    const a = fakePanel('a');
    const { tracker, released, each } = setUp([a]);
    const b = fakePanel('b');
    tracker.add(b);
    a.dispose();
    b.dispose();
    expect(released).toEqual(['a', 'b']);
    each.dispose();
    expect(released).toEqual(['a', 'b']);
  });

  it('takes back every part and gives none once disposed', () => {
    const { tracker, attached, released, each } = setUp([fakePanel('a')]);
    tracker.add(fakePanel('b'));
    each.dispose();
    expect(released.sort()).toEqual(['a', 'b']);
    expect(each.isDisposed).toBe(true);
    tracker.add(fakePanel('c'));
    expect(attached).toEqual(['a', 'b']);
    each.dispose();
    expect(released).toHaveLength(2);
  });
});
