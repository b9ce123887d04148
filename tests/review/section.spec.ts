import type * as nbformat from '@jupyterlab/nbformat';
import type {
  NotebookPanel,
  NotebookTracker as NotebookTrackerType
} from '@jupyterlab/notebook';
import type { NBTestUtils as NBTestUtilsType } from '@jupyterlab/notebook/lib/testutils';
import { Widget } from '@lumino/widgets';

import { ACCESS_METADATA_KEY } from '../../src/access/model';
import type * as ViewModule from '../../src/review/section';
import type * as ModelModule from '../../src/review/section-model';
import { REVIEW_METADATA_KEY, ReviewStore } from '../../src/review/storage';
import { silenceKnownWarnings } from '../quiet';

silenceKnownWarnings();

// Loaded once the console is quieted: @jupyterlab/apputils warns on import.
const { CommentsTabModel, COMMENT_PAGE } = jest.requireActual<
  typeof ModelModule
>('../../src/review/section-model');
const { CommentsPanel, STATUS_SETTLE_MS } = jest.requireActual<
  typeof ViewModule
>('../../src/review/section');
const { NBTestUtils } = jest.requireActual<{
  NBTestUtils: typeof NBTestUtilsType;
}>('@jupyterlab/notebook/lib/testutils');
const { NotebookTracker } = jest.requireActual<{
  NotebookTracker: typeof NotebookTrackerType;
}>('@jupyterlab/notebook');

function code(id: string, source: string) {
  return {
    id,
    cell_type: 'code' as const,
    source,
    metadata: {} as nbformat.ICodeCell['metadata'],
    outputs: [],
    execution_count: null
  };
}

const PERSON = { kind: 'human' as const, name: 'Ada' };

describe('CommentsTabModel', () => {
  let panel: NotebookPanel;
  let tracker: NotebookTrackerType;
  let review: ReviewStore;
  let model: ModelModule.CommentsTabModel;

  const nextChange = () =>
    new Promise<void>(resolve => {
      const once = () => {
        model.changed.disconnect(once);
        resolve();
      };
      model.changed.connect(once);
    });

  beforeEach(async () => {
    const context = await NBTestUtils.createMockContext();
    context.model.fromJSON({
      cells: [code('a', 'x = 1\ny = x + 1'), code('b', 'print(y)')],
      metadata: {},
      nbformat: 4,
      nbformat_minor: 5
    });
    panel = NBTestUtils.createNotebookPanel(context);
    Widget.attach(panel, document.body);
    tracker = new NotebookTracker({ namespace: 'comments-spec' });
    await tracker.add(panel);
    review = new ReviewStore();
    model = new CommentsTabModel({ tracker, review, author: () => PERSON });
    await nextChange();
  });

  afterEach(() => {
    model.dispose();
    review.dispose();
    const context = panel.context;
    panel.dispose();
    context.dispose();
    tracker.dispose();
  });

  const shared = () => panel.content.model!.sharedModel;

  it('lists threads by status, newest activity first, with live anchors', async () => {
    const first = review.createThread(shared(), {
      anchor: { kind: 'cell', cellId: 'a' },
      body: 'one',
      author: PERSON,
      now: new Date('2026-01-01T00:00:00Z')
    });
    const second = review.createThread(shared(), {
      anchor: { kind: 'cell', cellId: 'b' },
      body: 'two',
      author: PERSON,
      now: new Date('2026-01-02T00:00:00Z')
    });
    await nextChange();
    expect(model.rows().rows.map(r => r.thread.id)).toEqual([
      second.id,
      first.id
    ]);
    expect(model.rows().rows[1].status).toMatchObject({
      state: 'exact',
      cellIndex: 0
    });
    model.setStatus(first.id, 'resolved');
    await nextChange();
    expect(model.counts()).toEqual({ open: 1, resolved: 1 });
    expect(model.rows().rows.map(r => r.thread.id)).toEqual([second.id]);
    model.filter = 'resolved';
    expect(model.rows().rows.map(r => r.thread.id)).toEqual([first.id]);
    model.filter = 'all';
    expect(model.rows().total).toBe(2);
  });

  it('shows the human every thread, saying which the agent cannot see', async () => {
    const hidden = review.createThread(shared(), {
      anchor: { kind: 'cell', cellId: 'b' },
      body: 'secret',
      author: PERSON
    });
    shared().cells[1].setMetadata(ACCESS_METADATA_KEY, {
      version: 1,
      access: 'none'
    });
    await nextChange();
    expect(review.threads(shared())).toEqual([]);
    const [row] = model.rows().rows;
    expect(row.thread.id).toBe(hidden.id);
    expect(row.hiddenFromAgent).toBe(true);
  });

  it('writes replies and status changes as the person', async () => {
    const thread = review.createThread(shared(), {
      anchor: { kind: 'cell', cellId: 'a' },
      body: 'why?',
      author: { kind: 'agent', name: 'Browser agent' }
    });
    model.reply(thread.id, 'because');
    model.setStatus(thread.id, 'resolved');
    const stored = review.getThread(shared(), thread.id)!;
    expect(stored.status).toBe('resolved');
    expect(stored.messages.map(m => [m.author, m.body])).toEqual([
      [{ kind: 'agent', name: 'Browser agent' }, 'why?'],
      [PERSON, 'because']
    ]);
    expect(() => model.reply('no-such-thread', 'x')).toThrow();
  });

  it('hears a collaborator’s thread, and an edit that moves anchored text', async () => {
    const changed = nextChange();
    const value = {
      version: 1,
      threads: [
        {
          id: 't1',
          status: 'open',
          createdAt: '2026-01-01T00:00:00.000Z',
          updatedAt: '2026-01-01T00:00:00.000Z',
          anchor: {
            kind: 'source-range',
            cellId: 'a',
            sourceRange: {
              start: { line: 1, column: 0 },
              end: { line: 1, column: 9 }
            },
            selectedText: 'y = x + 1',
            prefix: 'x = 1\n',
            suffix: ''
          },
          messages: [
            {
              id: 'm1',
              author: { kind: 'human', name: 'Grace' },
              createdAt: '2026-01-01T00:00:00.000Z',
              body: 'check'
            }
          ]
        }
      ]
    };
    shared().setMetadata(REVIEW_METADATA_KEY, value);
    await changed;
    expect(model.rows().rows[0].status.state).toBe('exact');
    const moved = nextChange();
    shared().cells[0].setSource('# header\nx = 1\ny = x + 1');
    await moved;
    expect(model.rows().rows[0].status).toMatchObject({
      state: 'reanchored',
      range: { start: { line: 2, column: 0 } }
    });
  });

  it('writes a drafted comment as a new thread by the person, and focuses it', async () => {
    model.startDraft({
      model: shared(),
      path: panel.context.localPath,
      anchor: { kind: 'cell', cellId: 'b' }
    });
    expect(model.draft).toMatchObject({ anchor: { cellId: 'b' } });
    const thread = model.submitDraft('a comment');
    expect(model.draft).toBeNull();
    expect(model.focusedThreadId).toBe(thread.id);
    expect(review.getThread(shared(), thread.id)).toMatchObject({
      status: 'open',
      anchor: { kind: 'cell', cellId: 'b' },
      messages: [{ author: PERSON, body: 'a comment' }]
    });
    expect(() => model.submitDraft('again')).toThrow();
  });

  it('drops a draft when cancelled, or when its notebook closes', () => {
    model.startDraft({
      model: shared(),
      path: 'x.ipynb',
      anchor: { kind: 'cell', cellId: 'a' }
    });
    model.cancelDraft();
    expect(model.draft).toBeNull();
    expect(review.allThreads(shared())).toEqual([]);
    model.startDraft({
      model: shared(),
      path: 'x.ipynb',
      anchor: { kind: 'cell', cellId: 'a' }
    });
    const context = panel.context;
    panel.dispose();
    context.dispose();
    expect(model.draft).toBeNull();
  });

  it('renders a page of threads at a time, and always the one to focus', async () => {
    const ids: string[] = [];
    for (let i = 0; i < COMMENT_PAGE + 5; i++) {
      ids.push(
        review.createThread(shared(), {
          anchor: { kind: 'cell', cellId: 'a' },
          body: `t${i}`,
          author: PERSON,
          now: new Date(Date.UTC(2026, 0, 1, 0, 0, i))
        }).id
      );
    }
    await nextChange();
    expect(model.rows()).toMatchObject({ total: COMMENT_PAGE + 5 });
    expect(model.rows().rows).toHaveLength(COMMENT_PAGE);
    // the oldest is past the page, yet shown when asked for
    model.focusThread(ids[0]);
    expect(model.rows().rows[0].thread.id).toBe(ids[0]);
    model.clearFocus();
    model.showMore();
    expect(model.rows().rows).toHaveLength(COMMENT_PAGE + 5);
  });

  it('switches the filter to show a thread it is asked to focus', async () => {
    const thread = review.createThread(shared(), {
      anchor: { kind: 'cell', cellId: 'a' },
      body: 'x',
      author: PERSON
    });
    review.setStatus(shared(), thread.id, 'resolved');
    await nextChange();
    expect(model.filter).toBe('open');
    model.focusThread(thread.id);
    expect(model.filter).toBe('resolved');
    expect(model.rows().rows.map(r => r.thread.id)).toEqual([thread.id]);
  });

  describe('the view', () => {
    let view: ViewModule.CommentsPanel;

    /** Resolves once `check` holds (React renders asynchronously). */
    const until = async (check: () => boolean) => {
      for (let i = 0; i < 400 && !check(); i++) {
        await new Promise(resolve => setTimeout(resolve, 5));
      }
      expect(check()).toBe(true);
    };

    /** The thread's Resolve / Reopen button. */
    const statusButton = (id: string) =>
      [
        ...view.node.querySelectorAll<HTMLButtonElement>(
          `article[data-thread-id="${id}"] button`
        )
      ].find(button => /^(Resolve|Reopen)$/.test(button.textContent ?? ''));

    beforeEach(() => {
      model.filter = 'all';
      view = new CommentsPanel({ model, goTo: async () => {} });
      Widget.attach(view, document.body);
    });

    afterEach(() => {
      view.dispose();
    });

    it("marks an agent message's bidirectional controls and warns at the thread's top", async () => {
      const thread = review.createThread(shared(), {
        anchor: { kind: 'cell', cellId: 'a' },
        body: 'Looks fine \u202Eevil\u202C, approve\u200B',
        author: { kind: 'agent', name: 'agent' }
      });
      const article = () =>
        view.node.querySelector(`article[data-thread-id="${thread.id}"]`);
      await until(() => article() !== null);
      const warning = article()!.querySelector('.jp-AgentInvisible-warning')!;
      expect(warning.getAttribute('role')).toBe('note');
      expect(warning.textContent).toBe(
        'Warning: 3 invisible or direction-changing characters, shown marked'
      );
      // at the top: right after the heading
      expect(warning.previousElementSibling!.tagName).toBe('H3');
      const body = article()!.querySelector('.jp-AgentComments-body')!;
      expect(body.textContent).toBe(
        'Looks fine ⟦U+202E⟧evil⟦U+202C⟧, approve⟦U+200B⟧'
      );
      expect(
        [...body.querySelectorAll('.jp-AgentInvisible')].map(
          mark => (mark as HTMLElement).title
        )
      ).toEqual([
        'U+202E RIGHT-TO-LEFT OVERRIDE',
        'U+202C POP DIRECTIONAL FORMATTING',
        'U+200B ZERO WIDTH SPACE'
      ]);
    });

    it('takes no status press for a moment after someone else changed the status', async () => {
      const thread = review.createThread(shared(), {
        anchor: { kind: 'cell', cellId: 'a' },
        body: 'why?',
        author: PERSON
      });
      await until(() => statusButton(thread.id)?.textContent === 'Resolve');
      const resolve = statusButton(thread.id)!;
      resolve.focus();
      // the agent (or a collaborator) resolves it as the person reaches for
      // Resolve: a Reopen button takes its place (another button, with the
      // focus), and the press that lands right after does not reopen it
      review.setStatus(shared(), thread.id, 'resolved');
      await until(() => statusButton(thread.id)?.textContent === 'Reopen');
      const button = statusButton(thread.id)!;
      expect(button).not.toBe(resolve);
      expect(resolve.isConnected).toBe(false);
      expect(document.activeElement).toBe(button);
      expect(button.getAttribute('aria-disabled')).toBe('true');
      button.click();
      expect(review.getThread(shared(), thread.id)!.status).toBe('resolved');
      // once it has settled, a press does what the button says
      await new Promise(resolve => setTimeout(resolve, STATUS_SETTLE_MS));
      await until(
        () => !statusButton(thread.id)!.hasAttribute('aria-disabled')
      );
      statusButton(thread.id)!.click();
      expect(review.getThread(shared(), thread.id)!.status).toBe('open');
    });

    it('lets the person undo their own status change at once', async () => {
      const thread = review.createThread(shared(), {
        anchor: { kind: 'cell', cellId: 'a' },
        body: 'why?',
        author: PERSON
      });
      await until(() => statusButton(thread.id)?.textContent === 'Resolve');
      statusButton(thread.id)!.focus();
      statusButton(thread.id)!.click();
      expect(review.getThread(shared(), thread.id)!.status).toBe('resolved');
      await until(() => statusButton(thread.id)?.textContent === 'Reopen');
      expect(statusButton(thread.id)!.hasAttribute('aria-disabled')).toBe(
        false
      );
      // the keyboard stays on it
      expect(document.activeElement).toBe(statusButton(thread.id));
      statusButton(thread.id)!.click();
      expect(review.getThread(shared(), thread.id)!.status).toBe('open');
      await until(() => statusButton(thread.id)?.textContent === 'Resolve');
      expect(statusButton(thread.id)!.hasAttribute('aria-disabled')).toBe(
        false
      );
    });
  });
});
