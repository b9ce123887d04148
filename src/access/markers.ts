/**
 * What the owner sees of agent access in a notebook: a marker in the prompt
 * area of every cell that is not `write`, and a notebook toolbar item for the
 * notebook's own access.
 *
 * One `AccessMarkers` per notebook panel, created when the tracker adds it and
 * disposed with it. It is event-driven: cell widgets are (re)marked when the
 * cell list changes (new cells, moves, type changes re-create widgets), when
 * a placeholder cell renders, and when a cell's `jupyterlite_webmcp` metadata
 * changes, whoever changed it (the human, a collaborator, an undo). The
 * marker is a child of the cell's input wrapper, which survives windowing: a
 * cell scrolled out of view has its input wrapper detached with its subtree,
 * and re-attached as it was.
 */
import type { Cell, ICellModel } from '@jupyterlab/cells';
import type { INotebookModel, NotebookPanel } from '@jupyterlab/notebook';
import {
  nullTranslator,
  type ITranslator,
  type TranslationBundle
} from '@jupyterlab/translation';
import { LabIcon } from '@jupyterlab/ui-components';
import type { IMapChange } from '@jupyter/ydoc';
import { Signal } from '@lumino/signaling';
import { Widget } from '@lumino/widgets';

import { InputDecorations } from '../common/cell-dom';

import {
  ACCESS_METADATA_KEY,
  readCellAccess,
  readNotebookAccess,
  type IAccessReading
} from './model';

/** The states a marker shows: every access but `write`, and invalid values. */
export type MarkerState = 'read' | 'none' | 'invalid';

/** The class of a restricted cell's node (its state in `data-agent-access`). */
export const RESTRICTED_CELL_CLASS = 'jp-mod-agentRestricted';

/** The class of a cell marker. */
export const MARKER_CLASS = 'jp-AgentAccessMarker';

/** The name of the notebook toolbar item. */
export const TOOLBAR_ITEM_NAME = 'jupyterlite-webmcp:agent-access';

const svg = (body: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16" width="16" height="16" fill="none" stroke="currentColor" stroke-width="1.5" stroke-linecap="round" stroke-linejoin="round">${body}</svg>`;

/** A padlock: the agent may read, not change. */
export const agentReadIcon = new LabIcon({
  name: 'jupyterlite-webmcp:agent-read',
  svgstr: svg(
    '<path d="M5 7.5V5.5a3 3 0 0 1 6 0v2"/><rect x="3.5" y="7.5" width="9" height="6.5" rx="1" fill="currentColor"/>'
  )
});

/** A crossed-out eye: the agent cannot see it. */
export const agentHiddenIcon = new LabIcon({
  name: 'jupyterlite-webmcp:agent-hidden',
  svgstr: svg(
    '<path d="M1.5 8s2.5-4.5 6.5-4.5S14.5 8 14.5 8 12 12.5 8 12.5 1.5 8 1.5 8z"/><circle cx="8" cy="8" r="1.75" fill="currentColor"/><path d="M2.5 13.5l11-11"/>'
  )
});

/** A warning sign: a value the extension does not understand. */
export const agentInvalidIcon = new LabIcon({
  name: 'jupyterlite-webmcp:agent-invalid',
  svgstr: svg(
    '<path d="M8 1.75l6.5 12H1.5z"/><path d="M8 6v3.5"/><circle cx="8" cy="11.75" r="0.5" fill="currentColor"/>'
  )
});

/** A small robot: the agent, with its default access. */
export const agentIcon = new LabIcon({
  name: 'jupyterlite-webmcp:agent',
  svgstr: svg(
    '<rect x="2.5" y="5" width="11" height="8.5" rx="2"/><path d="M8 5V3"/><circle cx="8" cy="2.25" r="0.75" fill="currentColor"/><circle cx="6" cy="9.25" r="1" fill="currentColor"/><circle cx="10" cy="9.25" r="1" fill="currentColor"/>'
  )
});

const ICONS: Record<MarkerState | 'write', LabIcon> = {
  write: agentIcon,
  read: agentReadIcon,
  none: agentHiddenIcon,
  invalid: agentInvalidIcon
};

/** The marker a cell's access reading calls for, or null for `write`. */
export function markerState(reading: IAccessReading): MarkerState | null {
  if (!reading.valid) {
    return 'invalid';
  }
  return reading.access === 'write' ? null : reading.access;
}

/** The words of a cell marker. */
export interface IMarkerText {
  /** The accessible name. */
  label: string;
  /** The tooltip. */
  title: string;
  /** The short word shown beside the icon. */
  text: string;
}

export function cellMarkerText(
  state: MarkerState,
  trans: TranslationBundle
): IMarkerText {
  const change = trans.__('Use "Cycle Agent Access" to change it.');
  switch (state) {
    case 'read':
      return {
        label: trans.__('Read-only for agent'),
        title: trans.__(
          'Read-only for agent: it may read this cell and its outputs, not edit, delete or run it. %1',
          change
        ),
        text: trans.__('read')
      };
    case 'none':
      return {
        label: trans.__('Hidden from agent'),
        title: trans.__(
          'Hidden from agent: it cannot see this cell at all. %1',
          change
        ),
        text: trans.__('hidden')
      };
    default:
      return {
        label: trans.__('Invalid agent access value — treated as hidden'),
        title: trans.__(
          'Invalid agent access value — treated as hidden: the cell metadata holds a value this extension does not recognise. %1',
          change
        ),
        text: trans.__('invalid')
      };
  }
}

/** The words of the notebook toolbar item. */
export function notebookIndicatorText(
  reading: IAccessReading,
  trans: TranslationBundle
): IMarkerText {
  const cycle = trans.__('Click to cycle the agent access of this notebook.');
  if (!reading.valid) {
    return {
      label: trans.__('Agent: hidden (invalid access value)'),
      title: trans.__(
        'The notebook metadata holds an agent access value this extension does not recognise: the notebook is hidden from the agent. %1',
        cycle
      ),
      text: trans.__('Agent: hidden')
    };
  }
  switch (reading.access) {
    case 'read':
      return {
        label: trans.__('Agent: read-only'),
        title: trans.__(
          'The agent may read this notebook, not change or run it. %1',
          cycle
        ),
        text: trans.__('Agent: read-only')
      };
    case 'none':
      return {
        label: trans.__('Agent: hidden'),
        title: trans.__('The agent cannot see this notebook. %1', cycle),
        text: trans.__('Agent: hidden')
      };
    default:
      return {
        label: trans.__('Agent: read and write'),
        title: trans.__(
          'The agent may read and edit this notebook, cell access permitting. %1',
          cycle
        ),
        text: ''
      };
  }
}

/**
 * The notebook toolbar item: a button showing the notebook's agent access
 * ("Agent: read-only", "Agent: hidden"; only the icon for the default) that
 * cycles it when pressed, by mouse or keyboard.
 */
export class NotebookAccessButton extends Widget {
  constructor(options: NotebookAccessButton.IOptions) {
    super();
    this._trans = (options.translator ?? nullTranslator).load(
      'jupyterlite-webmcp'
    );
    this.addClass('jp-AgentNotebookAccess');
    this._button = document.createElement('button');
    this._button.type = 'button';
    this._button.className = 'jp-AgentNotebookAccess-button';
    this._button.addEventListener('click', options.onActivate);
    this.node.appendChild(this._button);
    this.setReading({ access: 'write', valid: true });
  }

  /** Show a notebook's access reading. */
  setReading(reading: IAccessReading): void {
    const state = markerState(reading) ?? 'write';
    const words = notebookIndicatorText(reading, this._trans);
    const button = this._button;
    button.dataset.agentAccess = state;
    button.setAttribute('aria-label', words.label);
    button.title = words.title;
    const icon = ICONS[state].element({
      tag: 'span',
      className: 'jp-AgentNotebookAccess-icon'
    });
    icon.setAttribute('aria-hidden', 'true');
    const children: HTMLElement[] = [icon];
    if (words.text) {
      const text = document.createElement('span');
      text.className = 'jp-AgentNotebookAccess-label';
      text.textContent = words.text;
      children.push(text);
    }
    button.replaceChildren(...children);
    this.toggleClass('jp-mod-restricted', state !== 'write');
  }

  private _trans: TranslationBundle;
  private _button: HTMLButtonElement;
}

export namespace NotebookAccessButton {
  export interface IOptions {
    translator?: ITranslator | null;
    /** What pressing the button does (cycle the notebook's access). */
    onActivate: () => void;
  }
}

/**
 * The access markers of one notebook panel: cell markers and the toolbar
 * item. Disposes itself with the panel.
 */
export class AccessMarkers {
  constructor(options: AccessMarkers.IOptions) {
    const { panel } = options;
    this._panel = panel;
    this._trans = (options.translator ?? nullTranslator).load(
      'jupyterlite-webmcp'
    );
    this._button = new NotebookAccessButton({
      translator: options.translator,
      onActivate: options.onActivateNotebook
    });
    const toolbar = panel.toolbar;
    if (!toolbar.insertAfter('spacer', TOOLBAR_ITEM_NAME, this._button)) {
      toolbar.addItem(TOOLBAR_ITEM_NAME, this._button);
    }
    panel.content.modelChanged.connect(this._onModelChanged, this);
    panel.disposed.connect(this.dispose, this);
    this._connect(panel.content.model);
  }

  get isDisposed(): boolean {
    return this._isDisposed;
  }

  /** The notebook panel marked. */
  get panel(): NotebookPanel {
    return this._panel;
  }

  /** How many cell models it follows: at most the notebook's cells. */
  get followedCells(): number {
    return this._cells.size;
  }

  dispose(): void {
    if (this._isDisposed) {
      return;
    }
    this._isDisposed = true;
    this._connect(null);
    this._panel.content.modelChanged.disconnect(this._onModelChanged, this);
    this._panel.disposed.disconnect(this.dispose, this);
    this._button.dispose();
    Signal.clearData(this);
  }

  private _onModelChanged(): void {
    this._connect(this._panel.content.model);
  }

  private _connect(model: INotebookModel | null): void {
    const old = this._model;
    if (old && !old.isDisposed) {
      old.cells.changed.disconnect(this._onCellsChanged, this);
      old.metadataChanged.disconnect(this._onNotebookMetadata, this);
    }
    for (const cell of this._cells) {
      cell.metadataChanged.disconnect(this._onCellMetadata, this);
    }
    this._cells.clear();
    this._model = model;
    if (!model) {
      return;
    }
    model.cells.changed.connect(this._onCellsChanged, this);
    model.metadataChanged.connect(this._onNotebookMetadata, this);
    this._renderNotebook();
    this._renderCells();
  }

  private _onCellsChanged(
    _: unknown,
    change: { type: string; newValues: readonly ICellModel[] }
  ): void {
    if (change.type === 'remove' || change.type === 'clear') {
      this._forgetRemovedCells();
    }
    if (change.newValues.length > 0) {
      this._renderCells();
    }
  }

  /**
   * Stop following the cells no longer in the notebook. JupyterLab's cell
   * list announces a removal with `oldValues` all `undefined` (the models
   * are already gone from it), so the followed set is compared with the
   * notebook's cells instead; a model kept here would keep the deleted
   * cell's shared model, and its Yjs content, alive with the panel.
   */
  private _forgetRemovedCells(): void {
    const model = this._model;
    const present = new Set<ICellModel>();
    if (model && !model.isDisposed) {
      for (const cell of model.cells) {
        present.add(cell);
      }
    }
    for (const cell of this._cells) {
      if (!present.has(cell)) {
        this._cells.delete(cell);
        cell.metadataChanged.disconnect(this._onCellMetadata, this);
      }
    }
  }

  private _onCellMetadata(cell: ICellModel, change: IMapChange): void {
    if (change.key !== ACCESS_METADATA_KEY) {
      return;
    }
    for (const widget of this._panel.content.widgets) {
      if (widget.model === cell) {
        this._render(widget);
      }
    }
  }

  private _onNotebookMetadata(_: unknown, change: IMapChange): void {
    if (change.key === ACCESS_METADATA_KEY) {
      this._renderNotebook();
    }
  }

  private _renderNotebook(): void {
    const model = this._model;
    if (model && !model.isDisposed) {
      this._button.setReading(
        readNotebookAccess(model.getMetadata(ACCESS_METADATA_KEY))
      );
    }
  }

  /** Mark every cell widget, listening to the cells not yet followed. */
  private _renderCells(): void {
    for (const widget of this._panel.content.widgets) {
      const cell = widget.model;
      if (!this._cells.has(cell)) {
        this._cells.add(cell);
        cell.metadataChanged.connect(this._onCellMetadata, this);
      }
      this._render(widget);
    }
  }

  /** Bring one cell widget's class and marker up to date. */
  private _render(widget: Cell): void {
    if (widget.isDisposed || this._isDisposed) {
      return;
    }
    const state = markerState(
      readCellAccess(widget.model.getMetadata(ACCESS_METADATA_KEY))
    );
    const node = widget.node;
    node.classList.toggle(RESTRICTED_CELL_CLASS, state !== null);
    if (state) {
      node.dataset.agentAccess = state;
    } else {
      delete node.dataset.agentAccess;
    }
    const place = this._decorations.place(widget, state !== null);
    if (!place || !state) {
      return;
    }
    let marker = place.node;
    if (marker?.dataset.agentAccess === state) {
      return;
    }
    const words = cellMarkerText(state, this._trans);
    if (!marker) {
      marker = document.createElement('div');
      marker.className = MARKER_CLASS;
      marker.setAttribute('role', 'img');
      // last child: Lumino places the wrapper's widgets by index before it
      place.host.appendChild(marker);
    }
    marker.dataset.agentAccess = state;
    marker.setAttribute('aria-label', words.label);
    marker.title = words.title;
    const icon = ICONS[state].element({
      tag: 'span',
      className: `${MARKER_CLASS}-icon`
    });
    const text = document.createElement('span');
    text.className = `${MARKER_CLASS}-text`;
    text.textContent = words.text;
    marker.replaceChildren(icon, text);
  }

  private _panel: NotebookPanel;
  private _trans: TranslationBundle;
  private _button: NotebookAccessButton;
  private _model: INotebookModel | null = null;
  private _cells = new Set<ICellModel>();
  /** The cell markers in the input wrappers (placeholders when rendered). */
  private readonly _decorations = new InputDecorations(MARKER_CLASS, widget =>
    this._render(widget)
  );
  private _isDisposed = false;
}

export namespace AccessMarkers {
  export interface IOptions {
    panel: NotebookPanel;
    translator?: ITranslator | null;
    /** What the toolbar item does when pressed (cycle the notebook's access). */
    onActivateNotebook: () => void;
  }
}
