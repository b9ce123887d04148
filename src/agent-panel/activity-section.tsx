/**
 * The Activity tab: every tool call the agent makes through WebMCP, live
 * while it runs, then its outcome in words, newest first. A cell a call
 * acted on is a link that brings that cell up in its notebook.
 */
import {
  type ITranslator,
  nullTranslator,
  type TranslationBundle
} from '@jupyterlab/translation';
import * as React from 'react';

import { revealText } from '../common/invisible';
import { type IToolCall } from '../tokens';
import { type ActivityModel, callDuration, callState } from './activity-model';
import { type AgentEditsModel } from '../revert/section-model';
import { EditsSection, editText, statusText } from '../revert/section';
import { callKey } from '../revert/journal';
import { Revealed } from './revealed';
import { MAX_ROW_CELL_LINKS } from './rows';
import { TabBody } from './view';

/** A duration in words: "12 ms", "1.4 s", "2 min 5 s". */
export function formatDuration(ms: number, trans: TranslationBundle): string {
  if (ms < 1000) {
    return trans.__('%1 ms', Math.round(ms));
  }
  if (ms < 60_000) {
    return trans.__('%1 s', (ms / 1000).toFixed(1));
  }
  const seconds = Math.round(ms / 1000);
  return trans.__('%1 min %2 s', Math.floor(seconds / 60), seconds % 60);
}

/** How many values in credential formats a call kept from the agent. */
export function withheldText(count: number, trans: TranslationBundle): string {
  return trans._n(
    '%1 secret withheld from the agent',
    '%1 secrets withheld from the agent',
    count
  );
}

/** A call's outcome in words. */
export function outcomeText(call: IToolCall, trans: TranslationBundle): string {
  switch (callState(call)) {
    case 'running':
      return trans.__('running');
    case 'ok':
      return trans.__('ok');
    case 'refused':
      return trans.__('refused by access (%1)', call.outcome ?? '');
    default:
      return trans.__('error: %1', call.outcome ?? '');
  }
}

/** What a running call is doing now, in words, or '' when unknown. */
export function runningText(call: IToolCall, trans: TranslationBundle): string {
  const parts: string[] = [];
  const activity = call.activity;
  if (activity) {
    switch (activity.kind) {
      case 'reading':
        parts.push(trans.__('reading cell %1', activity.cellId));
        break;
      case 'editing':
        parts.push(trans.__('editing cell %1', activity.cellId));
        break;
      default:
        parts.push(trans.__('running cell %1', activity.cellId));
    }
  }
  const progress = call.progress;
  if (progress) {
    parts.push(
      typeof progress.total === 'number'
        ? trans.__(
            '%1 (%2 of %3)',
            progress.message,
            progress.done,
            progress.total
          )
        : trans.__('%1 (%2)', progress.message, progress.done)
    );
  }
  return parts.join(' — ');
}

/** The last segment of a path. */
function baseName(path: string): string {
  const parts = path.split('/');
  return parts[parts.length - 1] || path;
}

/** The Activity tab's body. */
export class ActivityPanel extends TabBody<ActivityModel> {
  constructor(options: ActivityPanel.IOptions) {
    super(options.model);
    this.addClass('jp-AgentPanel-activity');
    this.id = 'jp-agent-panel-activity';
    this._openCell = options.openCell;
    this._edits = options.edits ?? null;
    this._edits?.changed.connect(this.refresh, this);
    this._trans = (options.translator ?? nullTranslator).load(
      'jupyterlite-webmcp'
    );
    this.title.label = this._trans.__('Activity');
    this.title.caption = this._trans.__('The tool calls of the agent');
  }

  protected content(): React.ReactElement {
    const trans = this._trans;
    const rows = this.model.rows;
    const availability = this.model.availability;
    let notice: string | null = null;
    if (availability === 'unavailable') {
      notice = trans.__(
        'WebMCP is unavailable in this browser (no document.modelContext): no agent can call the notebook tools here.'
      );
    } else if (availability === 'looking') {
      notice = trans.__('Looking for WebMCP in this browser.');
    }
    return (
      <div className="jp-AgentPanel-activityBody">
        {this._edits && (
          <EditsSection
            model={this._edits}
            trans={trans}
            openCell={this._openCell}
          />
        )}
        {this._edits && (
          <h3 className="jp-AgentPanel-heading">{trans.__('Tool calls')}</h3>
        )}
        {notice && <p className="jp-AgentPanel-notice">{notice}</p>}
        {rows.length === 0 ? (
          availability === 'available' && (
            <p className="jp-AgentPanel-empty">
              {trans.__(
                'No agent tool call has been seen yet. Calls show here as they happen.'
              )}
            </p>
          )
        ) : (
          <ol
            className="jp-AgentPanel-activityList"
            aria-label={trans.__('Agent tool calls, newest first')}
          >
            {rows.map(call => this._row(call))}
          </ol>
        )}
      </div>
    );
  }

  private _row(call: IToolCall): React.ReactElement {
    const trans = this._trans;
    const state = callState(call);
    const path = call.notebookPath;
    const cells = [...call.cellIds];
    if (call.activity && !cells.includes(call.activity.cellId)) {
      cells.push(call.activity.cellId);
    }
    const shown = cells.slice(0, MAX_ROW_CELL_LINKS);
    const started = new Date(call.startedAt);
    const live = state === 'running' ? runningText(call, trans) : '';
    return (
      <li
        key={call.id}
        className={`jp-AgentPanel-activityRow jp-mod-${state}`}
        data-state={state}
        aria-busy={state === 'running' ? true : undefined}
      >
        <div className="jp-AgentPanel-activityHead">
          <span className="jp-AgentPanel-activityTool">{call.tool}</span>
          <span className="jp-AgentPanel-activityOutcome">
            {outcomeText(call, trans)}
          </span>
        </div>
        <div className="jp-AgentPanel-activityMeta">
          <time dateTime={started.toISOString()}>
            {started.toLocaleTimeString()}
          </time>
          {state !== 'running' && (
            <span className="jp-AgentPanel-activityDuration">
              {formatDuration(callDuration(call, Date.now()), trans)}
            </span>
          )}
          {path && (
            <span
              className="jp-AgentPanel-activityNotebook"
              title={revealText(path)}
            >
              <Revealed text={baseName(path)} />
            </span>
          )}
        </div>
        {live && <div className="jp-AgentPanel-activityLive">{live}</div>}
        {call.withheld > 0 && (
          <div className="jp-AgentPanel-activityWithheld">
            {withheldText(call.withheld, trans)}
          </div>
        )}
        {this._editOf(call)}
        {shown.length > 0 && (
          <div className="jp-AgentPanel-activityCells">
            <span>{trans.__('Cells:')}</span>
            {shown.map(cellId =>
              path ? (
                <button
                  key={cellId}
                  type="button"
                  className="jp-AgentPanel-cellLink"
                  aria-label={trans.__('Go to cell %1 in %2', cellId, path)}
                  onClick={() => void this._openCell(path, cellId)}
                >
                  {cellId}
                </button>
              ) : (
                <code key={cellId}>{cellId}</code>
              )
            )}
            {cells.length > shown.length && (
              <span>
                {trans.__('and %1 more', cells.length - shown.length)}
              </span>
            )}
          </div>
        )}
      </li>
    );
  }

  /** The revert of the edit a finished call made, when the journal has it. */
  private _editOf(call: IToolCall): React.ReactElement | null {
    const edits = this._edits;
    if (!edits || call.finishedAt === null) {
      return null;
    }
    const key = callKey(call.id);
    const row = edits.rows.find(candidate => candidate.edit.call === key);
    if (!row) {
      return null;
    }
    const trans = this._trans;
    const what = editText(row.edit, row.preview, trans);
    return (
      <div className="jp-AgentPanel-activityEdit">
        <span>{statusText(row.status, trans)}</span>
        <button
          type="button"
          className="jp-mod-styled jp-AgentPanel-revert"
          disabled={row.status.state !== 'revertable'}
          aria-label={trans.__('Revert the edit of this call: %1', what)}
          onClick={() => edits.revert(row.edit.id)}
        >
          {trans.__('Revert')}
        </button>
      </div>
    );
  }

  dispose(): void {
    this._edits?.changed.disconnect(this.refresh, this);
    super.dispose();
  }

  private readonly _openCell: (path: string, cellId: string) => Promise<void>;
  private readonly _edits: AgentEditsModel | null;
  private readonly _trans: TranslationBundle;
}

export namespace ActivityPanel {
  export interface IOptions {
    model: ActivityModel;
    /** The current notebook's agent edits, to revert them. */
    edits?: AgentEditsModel | null;
    /** Brings a cell up in its notebook. */
    openCell: (path: string, cellId: string) => Promise<void>;
    translator?: ITranslator | null;
  }
}
