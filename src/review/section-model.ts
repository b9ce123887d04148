/**
 * The model of the Agent panel's Comments tab: the review threads of the
 * current notebook as the human sees them (all of them, threads on cells
 * hidden from the agent included, and said to be hidden), each with its
 * anchor's live state, filtered by status; and the human's writes (reply,
 * resolve, reopen), which go through the review store like the agent's.
 *
 * It follows the notebook tracker, the review store's writes and merges,
 * and the notebook's own changes (a collaborator's thread, an edit that
 * moves anchored text), waiting SOURCE_SETTLE_MS after typing before it
 * recomputes anchors.
 */
import type { ISharedNotebook } from '@jupyter/ydoc';
import type { INotebookTracker, NotebookPanel } from '@jupyterlab/notebook';

import { anchorStatus, type IAnchorStatus } from './anchors';
import { compareTimes } from './merge';
import {
  hiddenCellIds,
  type IMessageAuthor,
  type IReviewThread,
  type IThreadAnchor,
  type ThreadStatus
} from './storage';
import { type IReviewStore } from '../tokens';
import { CurrentNotebookModel } from '../agent-panel/current-notebook';

/** Which threads the tab lists. */
export type CommentsFilter = ThreadStatus | 'all';

/** How many threads the tab renders before "Show more". */
export const COMMENT_PAGE = 50;

/** A comment being written: what it is about, in which notebook. */
export interface ICommentDraft {
  /** Tells one draft from the next (the composer starts afresh). */
  id: number;
  model: ISharedNotebook;
  /** The notebook's path when the draft started. */
  path: string;
  anchor: IThreadAnchor;
}

/** A thread as the tab shows it. */
export interface ICommentRow {
  thread: IReviewThread;
  /** Where its anchor stands now. */
  status: IAnchorStatus;
  /** Whether the agent cannot see it (its cell's access is `none`). */
  hiddenFromAgent: boolean;
}

export class CommentsTabModel extends CurrentNotebookModel {
  constructor(options: CommentsTabModel.IOptions) {
    super();
    this._review = options.review;
    this._author = options.author;
    this._review.changed.connect(this._onReview, this);
    this.follow(options.tracker);
  }

  /** Which threads are listed. */
  get filter(): CommentsFilter {
    return this._filter;
  }

  set filter(value: CommentsFilter) {
    if (value !== this._filter) {
      this._filter = value;
      this._limit = COMMENT_PAGE;
      this.repaint();
    }
  }

  /** How many threads are rendered at most (grows with `showMore`). */
  get limit(): number {
    return this._limit;
  }

  /** Render another page of threads. */
  showMore(): void {
    this._limit += COMMENT_PAGE;
    this.repaint();
  }

  /** The thread to bring into view and focus once rendered, if any. */
  get focusedThreadId(): string | null {
    return this._focused;
  }

  /**
   * Ask the tab to bring a thread into view: it is listed whatever the
   * filter (the filter switches to one that shows it).
   */
  focusThread(threadId: string): void {
    const thread = this._model()
      ? this._review.getThread(this._model()!, threadId)
      : null;
    if (thread && this._filter !== 'all' && thread.status !== this._filter) {
      this._filter = thread.status;
    }
    this._focused = threadId;
    this.repaint();
  }

  /** Forget the thread to focus (the view did focus it). */
  clearFocus(): void {
    this._focused = null;
  }

  /** How many threads there are, open and resolved. */
  counts(): { open: number; resolved: number } {
    const model = this._model();
    let open = 0;
    let resolved = 0;
    for (const thread of model ? this._review.allThreads(model) : []) {
      if (thread.status === 'open') {
        open++;
      } else {
        resolved++;
      }
    }
    return { open, resolved };
  }

  /**
   * The threads the filter selects, newest activity first, with their live
   * anchors; at most `limit` of them, and how many matched in all.
   */
  rows(): { rows: ICommentRow[]; total: number } {
    const model = this._model();
    if (!model) {
      return { rows: [], total: 0 };
    }
    const threads = this._review
      .allThreads(model)
      .filter(
        thread => this._filter === 'all' || thread.status === this._filter
      )
      .sort((a, b) => compareTimes(b.updatedAt, a.updatedAt));
    let shown = threads.slice(0, this._limit);
    const focused = this._focused;
    if (focused && !shown.some(thread => thread.id === focused)) {
      const thread = threads.find(candidate => candidate.id === focused);
      if (thread) {
        shown = [thread, ...shown];
      }
    }
    const hidden = hiddenCellIds(
      model,
      new Set(shown.map(thread => thread.anchor.cellId))
    );
    return {
      rows: shown.map(thread => ({
        thread,
        status: anchorStatus(model, thread),
        hiddenFromAgent: hidden.has(thread.anchor.cellId)
      })),
      total: threads.length
    };
  }

  /** The comment being written, if any. */
  get draft(): ICommentDraft | null {
    return this._draft;
  }

  /**
   * Starts writing a comment on `anchor` of a notebook (one at a time: a
   * new one replaces a draft not sent).
   */
  startDraft(target: {
    model: ISharedNotebook;
    path: string;
    anchor: IThreadAnchor;
  }): void {
    this._draftModel?.disposed.disconnect(this._onDraftModelDisposed, this);
    this._draft = { id: ++this._draftCount, ...target };
    this._draftModel = target.model;
    target.model.disposed.connect(this._onDraftModelDisposed, this);
    this.repaint();
  }

  /** Drops the comment being written. */
  cancelDraft(): void {
    this._draftModel?.disposed.disconnect(this._onDraftModelDisposed, this);
    this._draftModel = null;
    this._draft = null;
    this.repaint();
  }

  /**
   * Writes the comment being written as a new open thread by the person,
   * and brings it into view; returns it.
   */
  submitDraft(body: string): IReviewThread {
    const draft = this._draft;
    if (!draft) {
      throw new Error('No comment is being written.');
    }
    const thread = this._review.createThread(draft.model, {
      anchor: draft.anchor,
      body,
      author: this._author()
    });
    this.cancelDraft();
    if (draft.model === this._model()) {
      this.focusThread(thread.id);
    }
    return thread;
  }

  /** Adds the human's reply to a thread. */
  reply(threadId: string, body: string): void {
    const model = this._mustHaveModel();
    this._review.reply(model, threadId, { body, author: this._author() });
  }

  /** Resolves or reopens a thread, as the human. */
  setStatus(threadId: string, status: ThreadStatus): void {
    const model = this._mustHaveModel();
    this._review.setStatus(model, threadId, status);
  }

  dispose(): void {
    if (this.isDisposed) {
      return;
    }
    this._draftModel?.disposed.disconnect(this._onDraftModelDisposed, this);
    this._draftModel = null;
    this._review.changed.disconnect(this._onReview, this);
    super.dispose();
  }

  private _model(): ISharedNotebook | null {
    return this.panel?.content.model?.sharedModel ?? null;
  }

  private _mustHaveModel(): ISharedNotebook {
    const model = this._model();
    if (!model) {
      throw new Error('No notebook is open.');
    }
    return model;
  }

  private _onReview(_: IReviewStore, change: { model: ISharedNotebook }) {
    if (change.model === this._model()) {
      this.repaint();
    }
  }

  protected onPanel(
    _panel: NotebookPanel | null,
    previous: NotebookPanel | null
  ): void {
    previous?.content.model?.sharedModel.changed.disconnect(
      this._onNotebookChanged,
      this
    );
    this._focused = null;
    this._limit = COMMENT_PAGE;
  }

  /**
   * A collaborator's thread shows at once (cells added or removed, and edits
   * inside a cell, which may move anchored text or change a commented
   * output, are the base's).
   */
  protected onModelReady(panel: NotebookPanel): void {
    panel.content.model?.sharedModel.changed.connect(
      this._onNotebookChanged,
      this
    );
  }

  private _onNotebookChanged(
    _: ISharedNotebook,
    change: { metadataChange?: unknown }
  ): void {
    if (change.metadataChange) {
      this.repaint();
    }
  }

  private _onDraftModelDisposed(): void {
    // its notebook closed: there is nothing left to comment on
    this.cancelDraft();
  }

  private readonly _review: IReviewStore;
  private readonly _author: () => IMessageAuthor;
  private _filter: CommentsFilter = 'open';
  private _limit = COMMENT_PAGE;
  private _focused: string | null = null;
  private _draft: ICommentDraft | null = null;
  private _draftModel: ISharedNotebook | null = null;
  private _draftCount = 0;
}

export namespace CommentsTabModel {
  export interface IOptions {
    tracker: INotebookTracker;
    review: IReviewStore;
    /** Who the human writing here is (read at each write). */
    author: () => IMessageAuthor;
  }
}
