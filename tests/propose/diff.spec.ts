import { CONTEXT_LINES, sourceDiff } from '../../src/propose/diff';

describe('sourceDiff', () => {
  it('marks removed and added lines, keeps unchanged ones', () => {
    const diff = sourceDiff('a\nb\nc', 'a\nB\nc');
    expect(diff.rows).toEqual([
      { kind: 'equal', text: 'a' },
      { kind: 'delete', text: 'b' },
      { kind: 'insert', text: 'B' },
      { kind: 'equal', text: 'c' }
    ]);
    expect(diff).toMatchObject({ inserted: 1, deleted: 1 });
  });

  it('an empty cell filled, and a cell emptied', () => {
    expect(sourceDiff('', 'x = 1').rows).toEqual([
      { kind: 'insert', text: 'x = 1' }
    ]);
    expect(sourceDiff('x = 1\ny', '').rows).toEqual([
      { kind: 'delete', text: 'x = 1' },
      { kind: 'delete', text: 'y' }
    ]);
  });

  it('folds a long unchanged run to its context lines', () => {
    const lines = Array.from({ length: 30 }, (_, i) => `line ${i}`);
    const changed = [...lines];
    changed[15] = 'changed';
    const rows = sourceDiff(lines.join('\n'), changed.join('\n')).rows;
    const folds = rows.filter(row => row.kind === 'fold');
    expect(folds).toEqual([
      { kind: 'fold', text: '', count: 15 - CONTEXT_LINES },
      { kind: 'fold', text: '', count: 14 - CONTEXT_LINES }
    ]);
    expect(rows.filter(row => row.kind === 'equal')).toHaveLength(
      2 * CONTEXT_LINES
    );
  });
});
