/**
 * The agent edits section of the Activity tab: every agent edit of the
 * current notebook the journal keeps (newest first), what it did, whether it
 * can be reverted now and why not, and the two reverts: this one, or this
 * one and every later one, each one step of the notebook's undo history.
 */
import { type TranslationBundle } from '@jupyterlab/translation';
import * as React from 'react';

import { revealText } from '../common/invisible';
import type { IAgentEdit } from './journal';
import type { EditStatus } from './revert';
import type { AgentEditsModel, IEditRow, IRevertReport } from './section-model';

/** What an edit did, in words, with the first line of its cell. */
export function editText(
  edit: IAgentEdit,
  preview: string | null,
  trans: TranslationBundle
): string {
  // plain text (it is also a button's label): every invisible or
  // direction-changing character as its visible mark
  const line =
    preview === null
      ? trans.__('(a cell no longer here)')
      : revealText(preview) || trans.__('(empty cell)');
  switch (edit.kind) {
    case 'insert':
      return trans.__('Inserted: %1', line);
    case 'update':
      return trans.__('Changed: %1', line);
    default:
      return trans.__('Deleted: %1', line);
  }
}

/** Where an edit stands, in words. */
export function statusText(
  status: EditStatus,
  trans: TranslationBundle
): string {
  switch (status.state) {
    case 'revertable':
      return trans.__('can be reverted');
    case 'reverted':
      return trans.__('reverted');
    default:
      switch (status.reason) {
        case 'changed':
          return trans.__(
            'cannot be reverted: the cell was changed after this edit'
          );
        case 'later-edit':
          return trans.__(
            'cannot be reverted alone: a later agent edit changed this cell (revert this and later)'
          );
        default:
          return trans.__('cannot be reverted: the cell no longer exists');
      }
  }
}

/** What a revert did, in words. */
export function reportText(
  report: IRevertReport,
  previews: ReadonlyMap<string, string | null>,
  trans: TranslationBundle
): string {
  const { reverted, blocked } = report.outcome;
  const parts: string[] = [];
  parts.push(
    reverted.length === 0
      ? trans.__('Nothing was reverted.')
      : trans._n(
          'Reverted %1 agent edit (undo with the notebook’s undo).',
          'Reverted %1 agent edits in one step (undo with the notebook’s undo).',
          reverted.length
        )
  );
  for (const { edit, reason } of blocked) {
    parts.push(
      `${editText(edit, previews.get(edit.id) ?? null, trans)} — ${statusText(
        { state: 'blocked', reason },
        trans
      )}`
    );
  }
  return parts.join(' ');
}

/** The section, or null when there is no notebook. */
export function EditsSection(props: {
  model: AgentEditsModel;
  trans: TranslationBundle;
  openCell: (path: string, cellId: string) => Promise<void>;
}): React.ReactElement | null {
  const { model, trans, openCell } = props;
  const path = model.path;
  if (!path) {
    return null;
  }
  const name = path.split('/').pop() || path;
  const rows = model.rows;
  const report = model.lastReport;
  return (
    <section
      className="jp-AgentPanel-edits"
      aria-labelledby="jp-agent-panel-edits-title"
    >
      <h3 id="jp-agent-panel-edits-title" className="jp-AgentPanel-heading">
        {trans.__('Agent edits in %1', name)}
      </h3>
      <p className="jp-AgentPanel-editsStatus" role="status">
        {report
          ? reportText(
              report,
              new Map(rows.map(row => [row.edit.id, row.preview])),
              trans
            )
          : ''}
      </p>
      {rows.length === 0 ? (
        <p className="jp-AgentPanel-empty">
          {trans.__(
            'No agent edit of this notebook is kept. Inserts, changes and deletes the agent makes show here, and you can revert them.'
          )}
        </p>
      ) : (
        <ol
          className="jp-AgentPanel-editsList"
          aria-label={trans.__('Agent edits of %1, newest first', name)}
        >
          {rows.map(row => (
            <EditRow
              key={row.edit.id}
              row={row}
              path={path}
              model={model}
              trans={trans}
              openCell={openCell}
            />
          ))}
        </ol>
      )}
    </section>
  );
}

function EditRow(props: {
  row: IEditRow;
  path: string;
  model: AgentEditsModel;
  trans: TranslationBundle;
  openCell: (path: string, cellId: string) => Promise<void>;
}): React.ReactElement {
  const { row, path, model, trans, openCell } = props;
  const { edit, status } = row;
  const at = new Date(edit.at);
  const what = editText(edit, row.preview, trans);
  const exists = !(
    (edit.kind === 'delete' && status.state !== 'reverted') ||
    (edit.kind === 'insert' && status.state === 'reverted') ||
    (status.state === 'blocked' && status.reason === 'cell-missing')
  );
  return (
    <li
      className={`jp-AgentPanel-editRow jp-mod-${status.state}`}
      data-state={status.state}
    >
      <div className="jp-AgentPanel-activityHead">
        <span className="jp-AgentPanel-editWhat">
          {exists ? (
            <button
              type="button"
              className="jp-AgentPanel-cellLink"
              aria-label={trans.__('Go to cell %1 in %2', edit.cellId, path)}
              onClick={() => void openCell(path, edit.cellId)}
            >
              {what}
            </button>
          ) : (
            what
          )}
        </span>
        <time dateTime={Number.isNaN(at.getTime()) ? undefined : edit.at}>
          {Number.isNaN(at.getTime()) ? edit.at : at.toLocaleTimeString()}
        </time>
      </div>
      <div className="jp-AgentPanel-editStatus">
        {statusText(status, trans)}
        {edit.outputsDropped &&
          ` ${trans.__('(its outputs were too large to keep)')}`}
      </div>
      <div className="jp-AgentPanel-editActions">
        <button
          type="button"
          className="jp-mod-styled jp-mod-reject jp-AgentPanel-revert"
          disabled={status.state !== 'revertable'}
          aria-label={trans.__('Revert: %1', what)}
          onClick={() => model.revert(edit.id)}
        >
          {trans.__('Revert')}
        </button>
        <button
          type="button"
          className="jp-mod-styled jp-AgentPanel-revertSince"
          disabled={!row.groupRevertable}
          aria-label={trans.__('Revert this and later: %1', what)}
          onClick={() => model.revertSince(edit.id)}
        >
          {trans.__('Revert this and later')}
        </button>
      </div>
    </li>
  );
}
