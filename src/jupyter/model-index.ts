/**
 * What the tools look up on every call of a notebook, kept up to date by the
 * model's own change signals instead of being recomputed per call:
 *
 * - the index of a cell by id (a linear scan reads every cell's id from its
 *   Y map, about 1 ms per 1,000 cells);
 * - the notebook's `revision`, hashed in chunks of `REVISION_CHUNK` visible
 *   cells (see `revisionOf`), so an edit of one cell re-hashes one chunk and
 *   the short list of chunk digests, not every cell.
 *
 * A change to the cell list (insert, delete, move, type change) rebuilds both
 * on the next read; a source change dirties only the chunk holding the cell;
 * a metadata change rebuilds the chunks only when it shows or hides the cell.
 * Every value equals what a full recomputation would give; the unit tests
 * check that against `revisionOf` after every kind of change.
 */
import {
  type CellChange,
  type ISharedCell,
  type ISharedNotebook,
  type NotebookChange
} from '@jupyter/ydoc';

import { isHidden } from '../access/policy';
import { isCellVisible, storedCellAccess } from '../access/read';
import { cellHash } from './cell-cache';
import {
  REVISION_CHUNK,
  chunkDigest,
  revisionFromChunks
} from '../common/hash';

/** Consecutive visible cells whose ids and hashes are digested together. */
interface IChunk {
  cells: ISharedCell[];
  digest: string | null;
}

class ModelIndex {
  constructor(private readonly _model: ISharedNotebook) {
    _model.changed.connect(this._onModelChanged, this);
  }

  /** The index of the first cell with this id, or -1. */
  indexOf(cellId: string): number {
    if (this._positions === null) {
      const positions = new Map<string, number>();
      this._model.cells.forEach((cell, index) => {
        if (!positions.has(cell.id)) {
          positions.set(cell.id, index);
        }
      });
      this._positions = positions;
    }
    const index = this._positions.get(cellId) ?? -1;
    // Cheap guard against a change the signals did not report (the cell
    // list is updated before its change is emitted): scan instead.
    if (index >= 0 && this._model.cells[index]?.id === cellId) {
      return index;
    }
    this._positions = null;
    return this._model.cells.findIndex(cell => cell.id === cellId);
  }

  /** The revision over the agent-visible cells (`revisionOf`). */
  revision(): string {
    if (this._revision === null) {
      const chunks = this._chunks ?? this._buildChunks();
      const digests = chunks.map(chunk => {
        if (chunk.digest === null) {
          chunk.digest = chunkDigest(
            chunk.cells.map(cell => ({
              id: cell.id,
              sourceHash: cellHash(cell)
            }))
          );
        }
        return chunk.digest;
      });
      this._revision = revisionFromChunks(digests);
    }
    return this._revision;
  }

  private _buildChunks(): IChunk[] {
    const chunks: IChunk[] = [];
    this._chunkOf = new Map();
    let current: IChunk | null = null;
    for (const cell of this._model.cells) {
      this._watch(cell);
      if (!isCellVisible(cell)) {
        continue;
      }
      if (!current || current.cells.length === REVISION_CHUNK) {
        current = { cells: [], digest: null };
        chunks.push(current);
      }
      current.cells.push(cell);
      this._chunkOf.set(cell, current);
    }
    this._chunks = chunks;
    return chunks;
  }

  private _watch(cell: ISharedCell): void {
    if (!this._watched.has(cell)) {
      this._watched.add(cell);
      cell.changed.connect(this._onCellChanged, this);
    }
  }

  private _onModelChanged(_: ISharedNotebook, change: NotebookChange): void {
    if (change.cellsChange) {
      this._positions = null;
      this._chunks = null;
      this._revision = null;
    }
  }

  private _onCellChanged(cell: ISharedCell, change: CellChange): void {
    if (this._chunks === null) {
      return;
    }
    if (change.metadataChange) {
      // Read from the metadata itself: the access cache of access/read.ts may
      // not have seen this change yet.
      const visible = !isHidden(storedCellAccess(cell));
      if (visible !== this._chunkOf.has(cell)) {
        this._chunks = null;
        this._revision = null;
        return;
      }
    }
    if (change.sourceChange) {
      const chunk = this._chunkOf.get(cell);
      if (chunk) {
        chunk.digest = null;
        this._revision = null;
      }
    }
  }

  private _positions: Map<string, number> | null = null;
  private _chunks: IChunk[] | null = null;
  private _chunkOf = new Map<ISharedCell, IChunk>();
  private _revision: string | null = null;
  private readonly _watched = new WeakSet<ISharedCell>();
}

const indexes = new WeakMap<ISharedNotebook, ModelIndex>();

function indexOfModel(model: ISharedNotebook): ModelIndex {
  let index = indexes.get(model);
  if (!index) {
    index = new ModelIndex(model);
    indexes.set(model, index);
  }
  return index;
}

/** The index of the first cell of `model` with this id, or -1. */
export function cellIndexOf(model: ISharedNotebook, cellId: string): number {
  return indexOfModel(model).indexOf(cellId);
}

/**
 * The revision of a notebook: a hash over its agent-visible cells, kept up
 * to date incrementally (see the module comment).
 */
export function notebookRevision(model: ISharedNotebook): string {
  return indexOfModel(model).revision();
}
