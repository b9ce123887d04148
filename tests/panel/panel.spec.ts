import { Widget } from '@lumino/widgets';

import type * as PanelModule from '../../src/panel/panel';
import { silenceKnownWarnings } from '../quiet';

silenceKnownWarnings();

// Loaded once the console is quieted: @jupyterlab/ui-components warns on import.
const { AgentPanel, AGENT_PANEL_ID, insertionIndex, TabRanks } =
  jest.requireActual<typeof PanelModule>('../../src/panel/panel');

function tab(label: string): Widget {
  const widget = new Widget();
  widget.title.label = label;
  return widget;
}

describe('insertionIndex', () => {
  it('puts an item after every item of lower or equal rank', () => {
    const items = [{ rank: 100 }, { rank: 200 }, { rank: 200 }, { rank: 300 }];
    expect(insertionIndex(items, 50)).toBe(0);
    expect(insertionIndex(items, 200)).toBe(3);
    expect(insertionIndex(items, 250)).toBe(3);
    expect(insertionIndex(items, 900)).toBe(4);
    expect(insertionIndex([], 1)).toBe(0);
  });
});

describe('AgentPanel', () => {
  let panel: PanelModule.AgentPanel;

  beforeEach(() => {
    panel = new AgentPanel();
    Widget.attach(panel, document.body);
  });

  afterEach(() => {
    panel.dispose();
  });

  it('is the Agent side panel', () => {
    expect(panel.id).toBe(AGENT_PANEL_ID);
    expect(panel.hasClass('jp-AgentPanel')).toBe(true);
    expect(panel.hasClass('jp-SidePanel')).toBe(true);
    expect(panel.title.label).toBe('Agent');
    expect(panel.title.caption).not.toBe('');
    expect(panel.title.icon).toBeTruthy();
    expect(panel.node.querySelector('h2')?.textContent).toBe('Agent');
  });

  it('orders tabs by rank, whatever order they come in', () => {
    const activity = tab('Activity');
    const access = tab('Access');
    const comments = tab('Comments');
    panel.addTab(activity, TabRanks.activity);
    panel.addTab(access, TabRanks.access);
    panel.addTab(comments, TabRanks.comments);
    expect(panel.tabs).toEqual([comments, access, activity]);
    expect(panel.widgets).toEqual([comments, access, activity]);
    const titles = [
      ...panel.node.querySelectorAll('.lm-AccordionPanel-title')
    ].map(node => node.textContent);
    expect(titles).toEqual(['Comments', 'Access', 'Activity']);
  });

  it('forgets a disposed tab, so later ranks still place correctly', () => {
    const access = tab('Access');
    const activity = tab('Activity');
    panel.addTab(access, TabRanks.access);
    panel.addTab(activity, TabRanks.activity);
    access.dispose();
    const comments = tab('Comments');
    panel.addTab(comments, TabRanks.comments);
    expect(panel.tabs).toEqual([comments, activity]);
    expect(panel.widgets).toEqual([comments, activity]);
  });

  it('puts header controls in the header, by rank', () => {
    const second = new Widget();
    const first = new Widget();
    panel.addHeaderItem(second, 20);
    panel.addHeaderItem(first, 10);
    const controls = panel.node.querySelector('.jp-AgentPanel-headerControls');
    expect(controls).not.toBeNull();
    expect([...controls!.children]).toEqual([first.node, second.node]);
    expect(panel.header.node.contains(controls)).toBe(true);
  });
});
