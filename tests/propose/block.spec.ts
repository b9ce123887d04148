/**
 * The inline review block of each kind of proposal: its title and region,
 * what it shows (a run's cells in order, the kernel's name, an insert's new
 * cell, a delete's struck source, what a restart or an interrupt loses), the
 * fold of a long source, and which callback each button calls.
 */
import { FOLD_LINES, ProposalBlock } from '../../src/propose/block';
import type { IProposal, ProposalKind } from '../../src/propose/store';

function proposal(kind: ProposalKind, extra: Partial<IProposal> = {}) {
  const base: IProposal = {
    id: `p-${kind}`,
    kind,
    notebookKey: 'notebook-1',
    notebookPath: 'n.ipynb',
    cellId: 'a',
    cellIds: ['a'],
    original: '',
    proposed: '',
    cellType: null,
    position: null,
    cells: [],
    kernelName: null,
    action: null,
    createdAt: new Date(0).toISOString(),
    state: 'pending',
    reason: null,
    cause: null
  };
  return { ...base, ...extra };
}

function render(p: IProposal) {
  const onAccept = jest.fn();
  const onDeny = jest.fn();
  const block = new ProposalBlock({ proposal: p, onAccept, onDeny });
  document.body.appendChild(block.node);
  const node = block.node;
  const q = <T extends Element = HTMLElement>(selector: string) =>
    node.querySelector(selector) as T | null;
  return { block, node, onAccept, onDeny, q };
}

/** The name a region gets from its aria-labelledby. */
function regionName(node: HTMLElement): string {
  const id = node.getAttribute('aria-labelledby')!;
  return node.querySelector(`#${id}`)!.textContent!;
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('ProposalBlock, every kind', () => {
  it.each([
    ['update', 'Agent proposes a change to this cell'],
    ['run', 'Agent wants to run code on the kernel'],
    ['insert', 'Agent proposes a new cell here'],
    ['delete', 'Agent proposes to delete this cell'],
    ['kernel', 'Agent wants to restart the kernel']
  ] as const)(
    '%s: a section region named by its title, keys kept from the notebook',
    (kind, title) => {
      const { node, q } = render(
        proposal(kind, kind === 'kernel' ? { action: 'restart' } : {})
      );
      expect(node.tagName).toBe('SECTION');
      expect(node.classList.contains('jp-ProposalBlock')).toBe(true);
      expect(node.dataset.proposalId).toBe(`p-${kind}`);
      expect(node.dataset.proposalKind).toBe(kind);
      expect(node.getAttribute('role')).toBe('region');
      expect(node.querySelector('h3')!.textContent).toBe(title);
      expect(regionName(node)).toBe(title);
      expect(node.hasAttribute('data-lm-suppress-shortcuts')).toBe(true);
      expect(node.tabIndex).toBe(-1);
      // every kind: one Accept, one Deny, a labelled reason field
      expect(node.querySelectorAll('.jp-mod-accept')).toHaveLength(1);
      expect(node.querySelectorAll('.jp-mod-deny')).toHaveLength(1);
      const reason = q<HTMLTextAreaElement>('textarea.jp-ProposalBlock-reason');
      expect(reason).not.toBeNull();
      expect(node.querySelector(`label[for="${reason!.id}"]`)).not.toBeNull();
      for (const button of node.querySelectorAll('button')) {
        expect(button.type).toBe('button');
        expect(button.title).not.toBe('');
      }
    }
  );

  it('update: the diff and its counts, Accept and Deny as before', () => {
    const { node, onAccept, onDeny, q } = render(
      proposal('update', { original: 'x = 1', proposed: 'x = 10\nprint(x)' })
    );
    expect(q('.jp-ProposalBlock-summary')!.textContent).toBe(
      '2 lines added, 1 line removed'
    );
    const rows = [...node.querySelectorAll('[role="listitem"]')].map(
      row => row.textContent
    );
    expect(rows).toEqual([
      '−Removed: x = 1',
      '+Added: x = 10',
      '+Added: print(x)'
    ]);
    expect(node.querySelector('.jp-mod-allowAgain')).toBeNull();
    expect(
      [...node.querySelectorAll('button')].map(button => button.textContent)
    ).toEqual(['Accept', 'Deny']);
    q<HTMLButtonElement>('.jp-mod-accept')!.click();
    expect(onAccept).toHaveBeenCalledWith('p-update', {});
    q<HTMLTextAreaElement>('.jp-ProposalBlock-reason')!.value = 'no';
    q<HTMLButtonElement>('.jp-mod-deny')!.click();
    expect(onDeny).toHaveBeenCalledWith('p-update', 'no');
  });

  it('run: the kernel, every cell in order with its source, and the allow-again Accept', () => {
    const cells = [
      { cellId: 'b', source: 'y = 2', sourceHash: 'hb' },
      { cellId: 'a', source: 'x = 1\nprint(x)', sourceHash: 'ha' }
    ];
    const { node, onAccept, onDeny, q } = render(
      proposal('run', {
        cellId: 'b',
        cellIds: ['b', 'a'],
        cells,
        kernelName: 'Python 3 (ipykernel)'
      })
    );
    expect(q('.jp-ProposalBlock-kernel')!.textContent).toBe(
      'Kernel: Python 3 (ipykernel)'
    );
    expect(node.textContent).toContain('It runs 2 code cells, in this order:');
    const items = [...node.querySelectorAll('li.jp-ProposalBlock-cell')];
    expect(items.map(item => (item as HTMLElement).dataset.cellId)).toEqual([
      'b',
      'a'
    ]);
    expect(items.map(item => item.querySelector('pre')!.textContent)).toEqual([
      'y = 2',
      'x = 1\nprint(x)'
    ]);
    expect(items[0].textContent).toContain('Cell 1 of 2');
    // short sources are not folded
    expect(node.querySelector('.jp-ProposalBlock-foldToggle')).toBeNull();
    expect(
      [...node.querySelectorAll('button')].map(button => button.textContent)
    ).toEqual(['Run it', 'Run, and allow again while unchanged', 'Deny']);

    q<HTMLButtonElement>('.jp-mod-accept')!.click();
    expect(onAccept).toHaveBeenLastCalledWith('p-run', {});
    q<HTMLButtonElement>('.jp-mod-allowAgain')!.click();
    expect(onAccept).toHaveBeenLastCalledWith('p-run', { allowAgain: true });
    q<HTMLTextAreaElement>('.jp-ProposalBlock-reason')!.value = 'not now';
    q<HTMLButtonElement>('.jp-mod-deny')!.click();
    expect(onDeny).toHaveBeenCalledWith('p-run', 'not now');
  });

  it('run: one cell, and a kernel with no name', () => {
    const { node } = render(
      proposal('run', {
        cells: [{ cellId: 'a', source: 'x', sourceHash: 'h' }]
      })
    );
    expect(node.textContent).toContain('It runs 1 code cell:');
    expect(node.textContent).toContain('Kernel: the notebook’s kernel');
  });

  it('run: a long source is folded behind a real button that expands it', () => {
    const long = Array.from({ length: 30 }, (_, i) => `line${i}`).join('\n');
    const { node } = render(
      proposal('run', {
        cells: [
          { cellId: 'a', source: long, sourceHash: 'h1' },
          { cellId: 'b', source: 'short', sourceHash: 'h2' }
        ]
      })
    );
    const toggles = node.querySelectorAll<HTMLButtonElement>(
      'button.jp-ProposalBlock-foldToggle'
    );
    expect(toggles).toHaveLength(1);
    const toggle = toggles[0];
    const pre = node.querySelector<HTMLElement>(
      `#${toggle.getAttribute('aria-controls')}`
    )!;
    expect(pre.tagName).toBe('PRE');
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(toggle.textContent).toBe('Show all 30 lines (18 more)');
    expect(pre.textContent!.split('\n')).toHaveLength(FOLD_LINES);
    expect(pre.textContent).not.toContain('line29');

    toggle.click();
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(pre.textContent).toBe(long);
    expect(toggle.textContent).toBe('Show only the first 12 lines');

    toggle.click();
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(pre.textContent).not.toContain('line29');
  });

  it('insert: where it goes, the cell type and the source', () => {
    const above = render(
      proposal('insert', {
        cellIds: [],
        proposed: '# Title',
        cellType: 'markdown',
        position: 'above'
      })
    );
    expect(above.node.textContent).toContain(
      'A new Markdown cell, above this cell.'
    );
    expect(above.q('pre')!.textContent).toBe('# Title');
    expect(above.q('pre ins')).not.toBeNull();
    above.q<HTMLButtonElement>('.jp-mod-accept')!.click();
    expect(above.onAccept).toHaveBeenCalledWith('p-insert', {});
    above.q<HTMLButtonElement>('.jp-mod-deny')!.click();
    expect(above.onDeny).toHaveBeenCalledWith('p-insert', '');

    const below = render(
      proposal('insert', {
        cellIds: [],
        proposed: 'x = 1',
        cellType: 'code',
        position: 'below'
      })
    );
    expect(below.node.textContent).toContain(
      'A new code cell, below this cell.'
    );

    const first = render(
      proposal('insert', {
        cellId: null,
        cellIds: [],
        proposed: '',
        cellType: 'raw',
        position: 'below'
      })
    );
    expect(first.node.textContent).toContain(
      'A new raw cell, the first of this notebook.'
    );
    expect(first.node.textContent).toContain('The new cell is empty.');
    expect(first.q('pre')).toBeNull();
  });

  it('delete: the current source struck through in a <del>, Delete it / Deny', () => {
    const { node, onAccept, onDeny, q } = render(
      proposal('delete', { original: 'secret = 1\nprint(secret)' })
    );
    const del = q('pre del')!;
    expect(del.textContent).toBe('secret = 1\nprint(secret)');
    expect(node.textContent).toContain(
      'The cell, its source and its outputs would be removed from the notebook.'
    );
    expect(
      [...node.querySelectorAll('button')].map(button => button.textContent)
    ).toEqual(['Delete it', 'Deny']);
    q<HTMLButtonElement>('.jp-mod-accept')!.click();
    expect(onAccept).toHaveBeenCalledWith('p-delete', {});
    q<HTMLButtonElement>('.jp-mod-deny')!.click();
    expect(onDeny).toHaveBeenCalledWith('p-delete', '');
  });

  it('kernel: restart and interrupt say what is lost, with the kernel name', () => {
    const restart = render(
      proposal('kernel', {
        cellIds: [],
        action: 'restart',
        kernelName: 'Python (Pyodide)'
      })
    );
    expect(restart.q('h3')!.textContent).toBe(
      'Agent wants to restart the kernel'
    );
    expect(restart.q('.jp-ProposalBlock-kernel')!.textContent).toBe(
      'Kernel: Python (Pyodide)'
    );
    expect(restart.q('.jp-mod-warning')!.textContent).toBe(
      "Every variable, import and definition in the kernel's memory is lost, and whatever is running stops."
    );
    restart.q<HTMLButtonElement>('.jp-mod-accept')!.click();
    expect(restart.onAccept).toHaveBeenCalledWith('p-kernel', {});

    const interrupt = render(
      proposal('kernel', {
        cellId: null,
        cellIds: [],
        action: 'interrupt',
        kernelName: 'Python 3 (ipykernel)'
      })
    );
    expect(interrupt.q('h3')!.textContent).toBe(
      'Agent wants to interrupt the kernel'
    );
    expect(interrupt.q('.jp-mod-warning')!.textContent).toBe(
      'Whatever the kernel is running now stops, including work you started.'
    );
    interrupt.q<HTMLTextAreaElement>('.jp-ProposalBlock-reason')!.value = 'x';
    interrupt.q<HTMLButtonElement>('.jp-mod-deny')!.click();
    expect(interrupt.onDeny).toHaveBeenCalledWith('p-kernel', 'x');
  });

  it('ids are unique per block, so two blocks in a page stay labelled apart', () => {
    const one = render(proposal('run', { cells: [] }));
    const two = render(proposal('run', { cells: [] }));
    expect(one.node.getAttribute('aria-labelledby')).not.toBe(
      two.node.getAttribute('aria-labelledby')
    );
  });
});

describe('ProposalBlock, invisible and direction-changing characters', () => {
  const TROJAN =
    'if access_level != "none\u202E \u2066# Check if admin\u2069 \u2066":\n    grant()';

  /** What the person reads: each mark as the code point it names. */
  const marks = (node: Element) =>
    [...node.querySelectorAll('.jp-AgentInvisible')].map(
      mark => (mark as HTMLElement).dataset.codePoint
    );

  it('update: marks each character in the diff, in the text’s order, with a warning at the top', () => {
    const { node, q } = render(
      proposal('update', { original: 'x = 1\n', proposed: TROJAN })
    );
    const warning = q('.jp-AgentInvisible-warning')!;
    expect(warning.getAttribute('role')).toBe('note');
    expect(warning.textContent).toBe(
      'Warning: 4 invisible or direction-changing characters, shown marked'
    );
    // the warning comes right after the title, and describes the region
    expect(warning.previousElementSibling!.tagName).toBe('H3');
    expect(node.getAttribute('aria-describedby')).toBe(warning.id);
    const added = [...node.querySelectorAll('ins.jp-ProposalBlock-line')];
    expect(marks(added[0])).toEqual(['U+202E', 'U+2066', 'U+2069', 'U+2066']);
    expect(added[0].textContent).toBe(
      'if access_level != "none⟦U+202E⟧ ⟦U+2066⟧# Check if admin⟦U+2069⟧ ⟦U+2066⟧":'
    );
    // no such character is left in the page to be obeyed
    expect(/[\u202A-\u202E\u2066-\u2069]/.test(node.textContent!)).toBe(false);
  });

  it('update: a character the change removes counts too', () => {
    const { q } = render(
      proposal('update', { original: 'a\u200Bb\n', proposed: 'ab\n' })
    );
    expect(q('.jp-AgentInvisible-warning')!.textContent).toBe(
      'Warning: 1 invisible or direction-changing character, shown marked'
    );
    expect(marks(q('del.jp-ProposalBlock-line')!)).toEqual(['U+200B']);
  });

  it('run: the warning counts the folded lines, and the fold says what it hides', () => {
    const lines = Array.from({ length: 20 }, (_, i) => `x${i} = ${i}`);
    lines[3] = 'print("a\u200Bb")';
    lines[15] = 'y = "\u2067secret\u2069"';
    const { node, q } = render(
      proposal('run', {
        cells: [{ cellId: 'a', source: lines.join('\n'), sourceHash: 'h' }]
      })
    );
    expect(q('.jp-AgentInvisible-warning')!.textContent).toBe(
      'Warning: 3 invisible or direction-changing characters, shown marked'
    );
    const pre = q('pre.jp-ProposalBlock-source')!;
    expect(pre.dataset.folded).toBe('true');
    expect(marks(pre)).toEqual(['U+200B']);
    const toggle = q<HTMLButtonElement>('button.jp-ProposalBlock-foldToggle')!;
    expect(toggle.textContent).toBe(
      'Show all 20 lines (8 more, with 2 invisible or direction-changing characters)'
    );
    toggle.click();
    expect(marks(pre)).toEqual(['U+200B', 'U+2067', 'U+2069']);
    expect(node.querySelectorAll('.jp-AgentInvisible-warning').length).toBe(1);
  });

  it('insert and delete: marks the source; a plain block has no warning', () => {
    const inserted = render(
      proposal('insert', { proposed: 'a\uFEFFb', cellType: 'code' })
    );
    expect(marks(inserted.node)).toEqual(['U+FEFF']);
    expect(inserted.q('.jp-AgentInvisible-warning')).not.toBeNull();
    const deleted = render(proposal('delete', { original: 'plain = 1' }));
    expect(deleted.q('.jp-AgentInvisible-warning')).toBeNull();
    expect(deleted.node.hasAttribute('aria-describedby')).toBe(false);
  });
});
