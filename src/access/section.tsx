/**
 * The Access tab: the current notebook's agent access, each of its cells'
 * access with a control to change it, "apply to all cells", and what each
 * access means. Clicking a row selects its cell in the notebook (Shift+click
 * extends the selection); the rows of the notebook's selected cells are
 * highlighted, the active one most.
 */
import { showErrorMessage } from '@jupyterlab/apputils';
import {
  type ITranslator,
  nullTranslator,
  type TranslationBundle
} from '@jupyterlab/translation';
import * as React from 'react';

import { accessMeaning, accessName } from './commands';
import {
  AGENT_ACCESS_VALUES,
  type AgentAccess,
  DEFAULT_ACCESS,
  type IAccessReading,
  isAgentAccess
} from './model';
import { type AccessTabModel, type IAccessRow } from './section-model';
import { selectCellAt } from '../agent-panel/reveal';
import { TabBody } from '../agent-panel/view';

/** The value of an access `<select>` for a stored value it cannot show. */
const INVALID = 'invalid';

/** The access `<select>`'s options, with an "invalid" one when needed. */
function AccessOptions(props: {
  reading: IAccessReading | null;
  trans: TranslationBundle;
}): React.ReactElement {
  const { reading, trans } = props;
  return (
    <>
      {reading === null && (
        <option value="" disabled>
          {trans.__('unknown')}
        </option>
      )}
      {reading !== null && !reading.valid && (
        <option value={INVALID} disabled>
          {trans.__('invalid value (treated as hidden)')}
        </option>
      )}
      {AGENT_ACCESS_VALUES.map(value => (
        <option key={value} value={value}>
          {accessName(value, trans)}
        </option>
      ))}
    </>
  );
}

/** What an access `<select>` shows for a reading. */
function selectValue(reading: IAccessReading | null): string {
  if (reading === null) {
    return '';
  }
  return reading.valid ? reading.access : INVALID;
}

/** "Apply to all cells": a choice of access and a button. */
function ApplyToAll(props: {
  trans: TranslationBundle;
  disabled: boolean;
  onApply: (access: AgentAccess) => void;
}): React.ReactElement {
  const { trans } = props;
  const [value, setValue] = React.useState<AgentAccess>(DEFAULT_ACCESS);
  const id = React.useId();
  return (
    <div className="jp-AgentPanel-applyAll">
      <label htmlFor={id}>{trans.__('All cells:')}</label>
      <select
        id={id}
        className="jp-AgentPanel-select"
        value={value}
        onChange={event => {
          if (isAgentAccess(event.target.value)) {
            setValue(event.target.value);
          }
        }}
      >
        <AccessOptions reading={{ access: value, valid: true }} trans={trans} />
      </select>
      <button
        type="button"
        className="jp-AgentPanel-button"
        disabled={props.disabled}
        onClick={() => props.onApply(value)}
      >
        {trans.__('Apply to all cells')}
      </button>
    </div>
  );
}

/** The Access tab's body. */
export class AccessPanel extends TabBody<AccessTabModel> {
  constructor(options: AccessPanel.IOptions) {
    super(options.model);
    this.addClass('jp-AgentPanel-access');
    this.id = 'jp-agent-panel-access';
    this._trans = (options.translator ?? nullTranslator).load(
      'jupyterlite-webmcp'
    );
    this.title.label = this._trans.__('Access');
    this.title.caption = this._trans.__(
      'What the agent may see and change in the current notebook'
    );
  }

  protected content(): React.ReactElement {
    const trans = this._trans;
    const model = this.model;
    const path = model.path;
    if (path === null) {
      return (
        <div className="jp-AgentPanel-accessBody">
          <p className="jp-AgentPanel-empty">
            {trans.__('Open a notebook to see and set its agent access.')}
          </p>
          {this._legend()}
        </div>
      );
    }
    const count = model.cellCount;
    const { start, end } = model.window;
    const rows = model.rows();
    return (
      <div className="jp-AgentPanel-accessBody">
        <div className="jp-AgentPanel-notebookAccess">
          <label htmlFor={`${this.id}-notebook`}>
            {trans.__('Agent access to %1', path)}
          </label>
          <select
            id={`${this.id}-notebook`}
            className="jp-AgentPanel-select"
            value={selectValue(model.notebookAccess)}
            onChange={event => this._setNotebook(event.target.value)}
          >
            <AccessOptions reading={model.notebookAccess} trans={trans} />
          </select>
        </div>
        {model.kernelWarning && (
          <div className="jp-AgentAccess-kernelWarning" role="status">
            <p>
              {trans.__(
                'Code the agent runs shares the kernel with every cell: once a hidden cell has run, the agent’s code can read its variables.'
              )}
            </p>
            <p>
              {trans.__(
                'To decide on each run first, switch this notebook to Propose mode (the switch above), or turn jupyter_run_cells off in the settings.'
              )}
            </p>
          </div>
        )}
        <ApplyToAll
          trans={trans}
          disabled={count === 0}
          onApply={access => this._setAll(access)}
        />
        <p className="jp-AgentPanel-rowCount">
          {count > end - start
            ? trans.__(
                'Cells %1–%2 of %3, around the active cell.',
                start + 1,
                end,
                count
              )
            : trans._n('%1 cell', '%1 cells', count)}
        </p>
        <ul
          className="jp-AgentPanel-accessList"
          aria-label={trans.__('Agent access of each cell')}
        >
          {rows.map(row => this._row(row))}
        </ul>
        {this._secrets()}
        {this._legend()}
      </div>
    );
  }

  private _row(row: IAccessRow): React.ReactElement {
    const trans = this._trans;
    const number = row.index + 1;
    const classes = ['jp-AgentPanel-accessRow'];
    if (row.active) {
      classes.push('jp-mod-active');
    }
    if (row.selected) {
      classes.push('jp-mod-selected');
    }
    return (
      <li
        key={row.id}
        className={classes.join(' ')}
        data-agent-access={row.reading.valid ? row.reading.access : INVALID}
      >
        <button
          type="button"
          className="jp-AgentPanel-accessCell"
          aria-current={row.active ? 'true' : undefined}
          aria-label={trans.__('Select cell %1: %2', number, row.preview)}
          title={row.id}
          onClick={event => this._select(row.index, event.shiftKey)}
        >
          <span className="jp-AgentPanel-cellIndex">[{number}]</span>
          <span className="jp-AgentPanel-cellPreview">
            {row.preview || trans.__('(empty)')}
          </span>
        </button>
        <select
          className="jp-AgentPanel-select"
          aria-label={trans.__('Agent access of cell %1', number)}
          value={selectValue(row.reading)}
          onChange={event => this._setCell(row.index, event.target.value)}
        >
          <AccessOptions reading={row.reading} trans={trans} />
        </select>
      </li>
    );
  }

  /** The notebook's switch for withholding secrets, and what it covers. */
  private _secrets(): React.ReactElement {
    const trans = this._trans;
    const model = this.model;
    const id = `${this.id}-secrets`;
    return (
      <div className="jp-AgentPanel-secrets">
        <div className="jp-AgentPanel-secretsSwitch">
          <input
            id={id}
            type="checkbox"
            checked={model.withholdsSecrets ?? true}
            disabled={model.withholdsSecrets === null}
            onChange={event => this._setSecrets(event.target.checked)}
          />
          <label htmlFor={id}>
            {trans.__('Withhold secrets in this notebook from the agent')}
          </label>
        </div>
        <p className="jp-AgentPanel-secretsNote">
          {trans.__(
            'Keys, tokens, private keys, JWTs, passwords in URLs and literals assigned to names like password, token or api_key read as [secret withheld: …] in the cells and outputs the agent reads; an edit keeping the placeholder keeps the value.'
          )}
        </p>
        <p className="jp-AgentPanel-secretsNote">
          {trans.__(
            'Not covered: values in other formats. Code the agent runs can still print a secret into an output, which is withheld only if it matches one of these formats.'
          )}
        </p>
        <p className="jp-AgentPanel-secretsNote">
          {model.withholdSecretsByDefault
            ? trans.__(
                'For notebooks without their own switch, the setting "Withhold secrets from the agent" is on.'
              )
            : trans.__(
                'For notebooks without their own switch, the setting "Withhold secrets from the agent" is off.'
              )}
        </p>
      </div>
    );
  }

  private _setSecrets(value: boolean): void {
    try {
      this.model.setWithholdSecrets(value);
    } catch (error) {
      this._fail(error);
    }
  }

  private _legend(): React.ReactElement {
    const trans = this._trans;
    return (
      <dl className="jp-AgentPanel-legend">
        {AGENT_ACCESS_VALUES.map(access => (
          <React.Fragment key={access}>
            <dt>{accessName(access, trans)}</dt>
            <dd>{accessMeaning(access, trans)}</dd>
          </React.Fragment>
        ))}
        <dd className="jp-AgentPanel-legendNote">
          {trans.__(
            'A notebook’s access limits every cell in it; a value the extension does not recognise counts as hidden.'
          )}
        </dd>
      </dl>
    );
  }

  /** A click selects the row's cell; Shift+click extends the selection. */
  private _select(index: number, extend: boolean): void {
    const notebook = this.model.panel?.content;
    if (!notebook) {
      return;
    }
    if (extend) {
      notebook.extendContiguousSelectionTo(index);
    } else {
      void selectCellAt(notebook, index);
    }
  }

  private _setCell(index: number, value: string): void {
    if (!isAgentAccess(value)) {
      return;
    }
    try {
      this.model.setCellAccess(index, value);
    } catch (error) {
      this._fail(error);
    }
  }

  private _setAll(access: AgentAccess): void {
    try {
      this.model.setAllCellsAccess(access);
    } catch (error) {
      this._fail(error);
    }
  }

  private _setNotebook(value: string): void {
    if (!isAgentAccess(value)) {
      return;
    }
    this.model.setNotebookAccess(value).catch(error => {
      this._fail(error);
    });
  }

  private _fail(error: unknown): void {
    void showErrorMessage(
      this._trans.__('Agent access not changed'),
      error instanceof Error ? error : String(error)
    );
  }

  private readonly _trans: TranslationBundle;
}

export namespace AccessPanel {
  export interface IOptions {
    model: AccessTabModel;
    translator?: ITranslator | null;
  }
}
