/**
 * The line diff a review block shows: current source against proposed
 * source, computed by jsdiff (`diff` on npm), as rows a view renders and a
 * screen reader reads. Long unchanged runs fold to their first and last
 * lines. Pure.
 */
import { diffLines } from 'diff';

/** What a row of the diff is. */
export type DiffRowKind = 'insert' | 'delete' | 'equal' | 'fold';

/** One row: a line, or (for `fold`) a count of unchanged lines not shown. */
export interface IDiffRow {
  kind: DiffRowKind;
  /** The line's text (no line break); empty for `fold`. */
  text: string;
  /** For `fold`: how many unchanged lines it stands for. */
  count?: number;
}

/** The diff of two sources. */
export interface ISourceDiff {
  rows: IDiffRow[];
  inserted: number;
  deleted: number;
}

/** Unchanged lines kept around each change. */
export const CONTEXT_LINES = 3;

/** Past this much work jsdiff gives up; the diff is then all-or-nothing. */
const MAX_DIFF_MS = 300;

function linesOf(value: string): string[] {
  const lines = value.split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') {
    lines.pop();
  }
  return lines;
}

/** The rows of the diff from `current` to `proposed`. */
export function sourceDiff(current: string, proposed: string): ISourceDiff {
  const changes = diffLines(current, proposed, { timeout: MAX_DIFF_MS }) ?? [
    { value: current, added: false, removed: true, count: 0 },
    { value: proposed, added: true, removed: false, count: 0 }
  ];
  const rows: IDiffRow[] = [];
  let inserted = 0;
  let deleted = 0;
  changes.forEach((change, index) => {
    if (change.value === '') {
      return;
    }
    const lines = linesOf(change.value);
    if (change.added) {
      inserted += lines.length;
      rows.push(...lines.map(text => ({ kind: 'insert' as const, text })));
    } else if (change.removed) {
      deleted += lines.length;
      rows.push(...lines.map(text => ({ kind: 'delete' as const, text })));
    } else {
      rows.push(...foldEqual(lines, index === 0, index === changes.length - 1));
    }
  });
  return { rows, inserted, deleted };
}

/** An unchanged run, folded to its context lines when long. */
function foldEqual(lines: string[], first: boolean, last: boolean): IDiffRow[] {
  const head = first ? 0 : CONTEXT_LINES;
  const tail = last ? 0 : CONTEXT_LINES;
  // fold only what saves at least two rows
  if (lines.length <= head + tail + 2) {
    return lines.map(text => ({ kind: 'equal', text }));
  }
  return [
    ...lines.slice(0, head).map(text => ({ kind: 'equal' as const, text })),
    { kind: 'fold', text: '', count: lines.length - head - tail },
    ...lines
      .slice(lines.length - tail)
      .map(text => ({ kind: 'equal' as const, text }))
  ];
}
