/**
 * The Comments tab: the review threads of the current notebook (open,
 * resolved or all), each with where it points and how that anchor stands
 * now in words, its messages with who wrote them (a person or the agent)
 * and when, and the human's controls: reply (Ctrl/Cmd+Enter sends), resolve
 * or reopen, and go to what the thread is about. While the person writes a
 * new comment ("Add Comment" and its siblings), its composer sits on top:
 * not a modal dialog, so the code it is about stays in view.
 */
import { showErrorMessage } from '@jupyterlab/apputils';
import {
  type ITranslator,
  nullTranslator,
  type TranslationBundle
} from '@jupyterlab/translation';
import * as React from 'react';

import { countInvisibles } from '../common/invisible';
import { anchorStatus } from './anchors';
import {
  anchorPlace,
  anchorStateLabel,
  anchorStateName,
  anchorStateSentence,
  authorKindLabel,
  messageProblem
} from './describe';
import type { IReviewThread, IThreadMessage, ThreadStatus } from './storage';
import {
  type CommentsFilter,
  type CommentsTabModel,
  type ICommentDraft,
  type ICommentRow
} from './section-model';
import { holdFocus } from '../agent-panel/hold-focus';
import { InvisibleWarning, Revealed } from '../agent-panel/revealed';
import { TabBody } from '../agent-panel/view';

/** How much of a commented text a thread's quote shows. */
const QUOTE_CHARS = 240;

/**
 * How long a thread's Reopen (or Resolve) button takes no press after
 * someone else (a collaborator, the agent) changed the thread's status and
 * it took the place of the other one. A press that soon was aimed at the
 * button before: taken as the new one, a person reaching for Resolve just
 * as the agent resolved the thread would reopen it, the opposite of what
 * both meant. Longer than a person's reaction to a change on screen, short
 * enough not to be in the way of one who does mean to undo it.
 */
export const STATUS_SETTLE_MS = 600;

/** A stored time as the person's locale writes it, or the text as stored. */
function localTime(time: string): string {
  const value = new Date(time);
  return Number.isNaN(value.getTime()) ? time : value.toLocaleString();
}

function Message(props: {
  message: IThreadMessage;
  trans: TranslationBundle;
}): React.ReactElement {
  const { message, trans } = props;
  const kind = message.author.kind;
  return (
    <li className={`jp-AgentComments-message jp-mod-${kind}`}>
      <div className="jp-AgentComments-messageHead">
        <span className="jp-AgentComments-author">
          <Revealed text={message.author.name} />
        </span>
        <span className="jp-AgentComments-authorKind">
          {authorKindLabel(kind, trans)}
        </span>
        <time
          className="jp-AgentComments-time"
          dateTime={message.createdAt}
          title={message.createdAt}
        >
          {localTime(message.createdAt)}
        </time>
      </div>
      <div className="jp-AgentComments-body">
        <Revealed text={message.body} />
      </div>
    </li>
  );
}

/** The reply box of a thread; the draft survives re-renders. */
function ReplyBox(props: {
  threadId: string;
  trans: TranslationBundle;
  onReply: (body: string) => void;
}): React.ReactElement {
  const { threadId, trans, onReply } = props;
  const [draft, setDraft] = React.useState('');
  const [problem, setProblem] = React.useState<string | null>(null);
  const id = `jp-agent-comments-reply-${threadId}`;
  const send = () => {
    const why = messageProblem(draft, trans);
    setProblem(why);
    if (why === null) {
      onReply(draft);
      setDraft('');
    }
  };
  return (
    <div className="jp-AgentComments-reply">
      <label htmlFor={id} className="jp-AgentComments-replyLabel">
        {trans.__('Reply')}
      </label>
      <textarea
        id={id}
        className="jp-AgentComments-replyInput"
        rows={2}
        value={draft}
        aria-describedby={problem ? `${id}-problem` : undefined}
        aria-invalid={problem ? true : undefined}
        onChange={event => {
          setDraft(event.target.value);
          setProblem(null);
        }}
        onKeyDown={event => {
          if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
            event.preventDefault();
            send();
          }
        }}
      />
      {problem && (
        <p
          id={`${id}-problem`}
          className="jp-AgentComments-problem"
          role="alert"
        >
          {problem}
        </p>
      )}
      <button
        type="button"
        className="jp-AgentPanel-button jp-AgentComments-send"
        onClick={send}
      >
        {trans.__('Send Reply')}
      </button>
    </div>
  );
}

/** The composer of a new comment, at the top of the tab while one is written. */
function Composer(props: {
  draft: ICommentDraft;
  /** The path of the notebook the tab shows. */
  shownPath: string | null;
  trans: TranslationBundle;
  onSubmit: (body: string) => void;
  onCancel: () => void;
}): React.ReactElement {
  const { draft, trans } = props;
  const [body, setBody] = React.useState('');
  const [problem, setProblem] = React.useState<string | null>(null);
  const input = React.useRef<HTMLTextAreaElement>(null);
  const form = React.useRef<HTMLFormElement>(null);
  React.useEffect(() => {
    if (input.current) {
      return holdFocus(input.current, { within: form.current ?? undefined });
    }
  }, [draft.id]);
  const status = anchorStatus(draft.model, {
    anchor: draft.anchor
  } as IReviewThread);
  const place = anchorPlace(draft.anchor, status, trans);
  const quote = draft.anchor.selectedText ?? '';
  const id = `jp-agent-comments-draft-${draft.id}`;
  const submit = () => {
    const why = messageProblem(body, trans);
    setProblem(why);
    if (why === null) {
      props.onSubmit(body);
    }
  };
  return (
    <form
      ref={form}
      className="jp-AgentComments-composer"
      aria-labelledby={`${id}-title`}
      onSubmit={event => {
        event.preventDefault();
        submit();
      }}
    >
      <h3 id={`${id}-title`} className="jp-AgentComments-place">
        {trans.__('New comment')}
      </h3>
      <p className="jp-AgentComments-stateSentence">
        {draft.path === props.shownPath
          ? trans.__('On %1', place)
          : trans.__('On %1 of %2', place, draft.path)}
      </p>
      {quote !== '' && <Quote text={quote} />}
      <label htmlFor={id} className="jp-AgentComments-replyLabel">
        {trans.__('Comment')}
      </label>
      <textarea
        id={id}
        ref={input}
        className="jp-AgentComments-replyInput"
        rows={4}
        value={body}
        aria-describedby={problem ? `${id}-problem` : `${id}-keys`}
        aria-invalid={problem ? true : undefined}
        onChange={event => {
          setBody(event.target.value);
          setProblem(null);
        }}
        onKeyDown={event => {
          if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
            event.preventDefault();
            submit();
          } else if (event.key === 'Escape') {
            event.preventDefault();
            props.onCancel();
          }
        }}
      />
      <p id={`${id}-keys`} className="jp-AgentComments-hint">
        {trans.__('Ctrl+Enter adds the comment; Escape cancels.')}
      </p>
      {problem && (
        <p
          id={`${id}-problem`}
          className="jp-AgentComments-problem"
          role="alert"
        >
          {problem}
        </p>
      )}
      <div className="jp-AgentComments-actions">
        <button type="submit" className="jp-AgentPanel-button">
          {trans.__('Add Comment')}
        </button>
        <button
          type="button"
          className="jp-AgentPanel-button"
          onClick={props.onCancel}
        >
          {trans.__('Cancel')}
        </button>
      </div>
    </form>
  );
}

/** A commented text, shortened. */
function Quote(props: { text: string }): React.ReactElement {
  const { text } = props;
  return (
    <blockquote className="jp-AgentComments-quote">
      <code>
        <Revealed
          text={
            text.length > QUOTE_CHARS
              ? `${text.slice(0, QUOTE_CHARS - 1)}…`
              : text
          }
        />
      </code>
    </blockquote>
  );
}

/**
 * A thread's Resolve or Reopen button. They are two buttons, one replacing
 * the other (the focus moves along), not one relabelled: a press aimed at
 * one can never land on the other, and a click an automation resolved on
 * "Resolve" finds that button gone rather than clicking "Reopen". After
 * someone else (a collaborator, the agent) changed the status, the new
 * button settles for STATUS_SETTLE_MS, taking no press; not after the
 * person's own press, which they may undo at once.
 */
function StatusButton(props: {
  status: ThreadStatus;
  trans: TranslationBundle;
  onStatus: (status: ThreadStatus) => void;
}): React.ReactElement {
  const { status, trans } = props;
  const [settling, setSettling] = React.useState(false);
  const shown = React.useRef(status);
  const asked = React.useRef<ThreadStatus | null>(null);
  const button = React.useRef<HTMLButtonElement>(null);
  const hasFocus = React.useRef(false);
  // a layout effect: it runs, and its state update renders, in the same
  // task as the commit that replaced the button, before any press
  React.useLayoutEffect(() => {
    if (shown.current === status) {
      return;
    }
    shown.current = status;
    if (hasFocus.current && button.current) {
      button.current.focus();
    }
    const own = asked.current === status;
    asked.current = null;
    if (own) {
      setSettling(false);
      return;
    }
    setSettling(true);
    const timer = setTimeout(() => setSettling(false), STATUS_SETTLE_MS);
    return () => clearTimeout(timer);
  }, [status]);
  const resolved = status === 'resolved';
  return (
    <button
      key={status}
      ref={button}
      type="button"
      className="jp-AgentPanel-button"
      aria-disabled={settling || undefined}
      onFocus={() => (hasFocus.current = true)}
      onBlur={() => (hasFocus.current = false)}
      onClick={() => {
        if (!settling) {
          const next = resolved ? 'open' : 'resolved';
          asked.current = next;
          props.onStatus(next);
        }
      }}
    >
      {resolved ? trans.__('Reopen') : trans.__('Resolve')}
    </button>
  );
}

function Thread(props: {
  row: ICommentRow;
  trans: TranslationBundle;
  focused: boolean;
  onFocused: () => void;
  onReply: (body: string) => void;
  onStatus: (status: 'open' | 'resolved') => void;
  onGo: () => void;
}): React.ReactElement {
  const { row, trans, focused, onFocused } = props;
  const { thread, status } = row;
  const node = React.useRef<HTMLElement>(null);
  React.useEffect(() => {
    if (focused && node.current) {
      node.current.scrollIntoView({ block: 'nearest' });
      onFocused();
      return holdFocus(node.current);
    }
  }, [focused]);
  const stateName = anchorStateName(status);
  const headingId = `jp-agent-comments-thread-${thread.id}`;
  const place = anchorPlace(thread.anchor, status, trans);
  const quote =
    thread.anchor.kind === 'source-range'
      ? (status.text ?? thread.anchor.selectedText ?? '')
      : '';
  const resolved = thread.status === 'resolved';
  // the whole quote counts, also the part the shortened quote leaves out
  const invisibles = thread.messages.reduce(
    (sum, message) =>
      sum +
      countInvisibles(message.body) +
      countInvisibles(message.author.name),
    countInvisibles(quote)
  );
  return (
    <li className="jp-AgentComments-item">
      <article
        ref={node}
        tabIndex={-1}
        className={`jp-AgentComments-thread jp-mod-${thread.status}`}
        aria-labelledby={headingId}
        data-thread-id={thread.id}
      >
        <h3 id={headingId} className="jp-AgentComments-place">
          <span>{place}</span>
          <span
            className={`jp-AgentComments-state jp-mod-${stateName}`}
            title={anchorStateSentence(thread.anchor, status, trans)}
          >
            {anchorStateLabel(stateName, trans)}
          </span>
          {resolved && (
            <span className="jp-AgentComments-state jp-mod-resolved">
              {trans.__('resolved')}
            </span>
          )}
        </h3>
        <InvisibleWarning count={invisibles} trans={trans} />
        <p className="jp-AgentComments-stateSentence">
          {anchorStateSentence(thread.anchor, status, trans)}
          {row.hiddenFromAgent &&
            ' ' +
              trans.__('The agent cannot see this thread: its cell is hidden.')}
        </p>
        {quote !== '' && <Quote text={quote} />}
        <ol
          className="jp-AgentComments-messages"
          aria-label={trans._n(
            '%1 message',
            '%1 messages',
            thread.messages.length
          )}
        >
          {thread.messages.map(message => (
            <Message key={message.id} message={message} trans={trans} />
          ))}
        </ol>
        <div className="jp-AgentComments-actions">
          <button
            type="button"
            className="jp-AgentPanel-button"
            disabled={!status.cellExists}
            onClick={props.onGo}
          >
            {trans.__('Go to %1', place)}
          </button>
          <StatusButton
            status={thread.status}
            trans={trans}
            onStatus={props.onStatus}
          />
        </div>
        <ReplyBox threadId={thread.id} trans={trans} onReply={props.onReply} />
      </article>
    </li>
  );
}

export class CommentsPanel extends TabBody<CommentsTabModel> {
  constructor(options: CommentsPanel.IOptions) {
    super(options.model);
    this.addClass('jp-AgentPanel-comments');
    this.id = 'jp-agent-panel-comments';
    this._trans = (options.translator ?? nullTranslator).load(
      'jupyterlite-webmcp'
    );
    this._goTo = options.goTo;
    this.title.label = this._trans.__('Comments');
    this.title.caption = this._trans.__(
      'Review threads of the current notebook, by people and the agent'
    );
  }

  protected content(): React.ReactElement {
    const trans = this._trans;
    const model = this.model;
    const path = model.path;
    const draft = model.draft;
    const composer = draft ? (
      <Composer
        key={draft.id}
        draft={draft}
        shownPath={path}
        trans={trans}
        onSubmit={body => this._act(() => model.submitDraft(body))}
        onCancel={() => model.cancelDraft()}
      />
    ) : null;
    if (path === null) {
      return (
        <div className="jp-AgentPanel-commentsBody">
          {composer}
          <p className="jp-AgentPanel-empty">
            {trans.__('Open a notebook to see its review threads.')}
          </p>
        </div>
      );
    }
    const counts = model.counts();
    const { rows, total } = model.rows();
    const filterId = `${this.id}-filter`;
    return (
      <div className="jp-AgentPanel-commentsBody">
        {composer}
        <div className="jp-AgentComments-filter">
          <label htmlFor={filterId}>{trans.__('Show')}</label>
          <select
            id={filterId}
            className="jp-AgentPanel-select"
            value={model.filter}
            onChange={event =>
              (model.filter = event.target.value as CommentsFilter)
            }
          >
            <option value="open">
              {trans.__('Open threads (%1)', counts.open)}
            </option>
            <option value="resolved">
              {trans.__('Resolved threads (%1)', counts.resolved)}
            </option>
            <option value="all">
              {trans.__('All threads (%1)', counts.open + counts.resolved)}
            </option>
          </select>
        </div>
        {total === 0 ? (
          <p className="jp-AgentPanel-empty">
            {model.filter === 'resolved'
              ? trans.__('No resolved threads in %1.', path)
              : model.filter === 'open'
                ? trans.__(
                    'No open threads in %1. Add one with "Add Comment" from a cell\'s context menu or the command palette.',
                    path
                  )
                : trans.__(
                    'No threads in %1. Add one with "Add Comment" from a cell\'s context menu or the command palette.',
                    path
                  )}
          </p>
        ) : (
          <ul
            className="jp-AgentComments-list"
            aria-label={trans.__('Review threads of %1', path)}
          >
            {rows.map(row => (
              <Thread
                key={row.thread.id}
                row={row}
                trans={trans}
                focused={row.thread.id === model.focusedThreadId}
                onFocused={() => model.clearFocus()}
                onReply={body =>
                  this._act(() => model.reply(row.thread.id, body))
                }
                onStatus={status =>
                  this._act(() => model.setStatus(row.thread.id, status))
                }
                onGo={() => void this._goTo(path, row)}
              />
            ))}
          </ul>
        )}
        {rows.length < total && (
          <button
            type="button"
            className="jp-AgentPanel-button jp-AgentComments-more"
            onClick={() => model.showMore()}
          >
            {trans.__('Show more (%1 of %2 shown)', rows.length, total)}
          </button>
        )}
      </div>
    );
  }

  /** Runs a write; a failure (e.g. the thread vanished) is said, not thrown. */
  private _act(write: () => void): void {
    try {
      write();
    } catch (error) {
      void showErrorMessage(
        this._trans.__('The thread could not be changed'),
        error instanceof Error ? error.message : String(error)
      );
    }
  }

  private readonly _trans: TranslationBundle;
  private readonly _goTo: CommentsPanel.GoTo;
}

export namespace CommentsPanel {
  /** Brings what a thread is about into view in notebook `path`. */
  export type GoTo = (path: string, row: ICommentRow) => Promise<void>;

  export interface IOptions {
    model: CommentsTabModel;
    translator?: ITranslator | null;
    goTo: GoTo;
  }
}
