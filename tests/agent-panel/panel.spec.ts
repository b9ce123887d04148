import { type AccordionPanel, Widget } from '@lumino/widgets';

import type * as PanelModule from '../../src/agent-panel/panel';
import { silenceKnownWarnings } from '../quiet';

silenceKnownWarnings();

// Loaded once the console is quieted: @jupyterlab/ui-components warns on import.
const { AgentPanel, AGENT_PANEL_ID, DEFAULT_RANK, insertionIndex } =
  jest.requireActual<typeof PanelModule>('../../src/agent-panel/panel');

/** Our sections' ranks, as the `IAgentPanel` token lists them. */
const TabRanks = { comments: 100, proposals: 150, access: 200, activity: 300 };

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
    panel.addSection(activity, { rank: TabRanks.activity });
    panel.addSection(access, { rank: TabRanks.access });
    panel.addSection(comments, { rank: TabRanks.comments });
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
    panel.addSection(access, { rank: TabRanks.access });
    panel.addSection(activity, { rank: TabRanks.activity });
    access.dispose();
    const comments = tab('Comments');
    panel.addSection(comments, { rank: TabRanks.comments });
    expect(panel.tabs).toEqual([comments, activity]);
    expect(panel.widgets).toEqual([comments, activity]);
  });

  it('puts header controls in the header, by rank', () => {
    const second = new Widget();
    const first = new Widget();
    panel.addHeaderControl(second, { rank: 20 });
    panel.addHeaderControl(first, { rank: 10 });
    const controls = panel.node.querySelector('.jp-AgentPanel-headerControls');
    expect(controls).not.toBeNull();
    expect([...controls!.children]).toEqual([first.node, second.node]);
    expect(panel.header.node.contains(controls)).toBe(true);
  });

  it('puts a section added without a rank after ranked ones, in the order added', () => {
    const extra = tab('Extra');
    const later = tab('Later');
    const activity = tab('Activity');
    panel.addSection(extra);
    panel.addSection(activity, { rank: TabRanks.activity });
    panel.addSection(later, { rank: DEFAULT_RANK });
    expect(panel.tabs).toEqual([activity, extra, later]);
    expect(panel.widgets).toEqual([activity, extra, later]);
  });

  it('takes a section out when its disposable is disposed, the widget kept', () => {
    const access = tab('Access');
    const activity = tab('Activity');
    const added = panel.addSection(access, { rank: TabRanks.access });
    panel.addSection(activity, { rank: TabRanks.activity });
    added.dispose();
    expect(access.isDisposed).toBe(false);
    expect(access.parent).toBeNull();
    expect(panel.tabs).toEqual([activity]);
    expect(panel.widgets).toEqual([activity]);
    const titles = [
      ...panel.node.querySelectorAll('.lm-AccordionPanel-title')
    ].map(node => node.textContent);
    expect(titles).toEqual(['Activity']);
    // disposing it again, or the widget afterwards, changes nothing more
    added.dispose();
    access.dispose();
    const comments = tab('Comments');
    panel.addSection(comments, { rank: TabRanks.comments });
    expect(panel.tabs).toEqual([comments, activity]);
  });

  it('takes a header control out when its disposable is disposed', () => {
    const first = new Widget();
    const second = new Widget();
    const added = panel.addHeaderControl(first, { rank: 10 });
    panel.addHeaderControl(second, { rank: 20 });
    added.dispose();
    expect(first.isDisposed).toBe(false);
    const controls = panel.node.querySelector('.jp-AgentPanel-headerControls');
    expect([...controls!.children]).toEqual([second.node]);
    const third = new Widget();
    panel.addHeaderControl(third, { rank: 15 });
    expect([...controls!.children]).toEqual([third.node, second.node]);
    first.dispose();
  });

  it('reveal brings the panel into view and expands the section asked for', () => {
    const bringIntoView = jest.fn();
    const shown = new AgentPanel({ bringIntoView });
    Widget.attach(shown, document.body);
    try {
      const comments = tab('Comments');
      const access = tab('Access');
      shown.addSection(comments, { rank: TabRanks.comments });
      shown.addSection(access, { rank: TabRanks.access });
      const accordion = shown.content as AccordionPanel;
      accordion.collapse(1);
      expect(access.isHidden).toBe(true);
      shown.reveal(access);
      expect(bringIntoView).toHaveBeenCalledTimes(1);
      expect(access.isHidden).toBe(false);
      shown.reveal();
      expect(bringIntoView).toHaveBeenCalledTimes(2);
      // a widget that is no section of the panel only reveals the panel
      shown.reveal(tab('Other'));
      expect(bringIntoView).toHaveBeenCalledTimes(3);
      // the widget's own show(), which the shell calls, still un-hides it
      shown.hide();
      shown.show();
      expect(shown.isHidden).toBe(false);
      expect(bringIntoView).toHaveBeenCalledTimes(3);
    } finally {
      shown.dispose();
    }
  });
});
