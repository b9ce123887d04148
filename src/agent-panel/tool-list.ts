/**
 * The list of tools the status-bar item opens: each tool with its title and
 * its annotations in words.
 */
import {
  type ITranslator,
  type TranslationBundle
} from '@jupyterlab/translation';
import { Widget } from '@lumino/widgets';

import { type IToolSummary, type IWebMcpRegistry } from '../tokens';

/** An annotation in words, for the tool list. */
export function annotationWords(key: string, trans: TranslationBundle): string {
  switch (key) {
    case 'readOnlyHint':
      return trans.__('reads only');
    case 'untrustedContentHint':
      return trans.__('returns notebook content (untrusted)');
    case 'consequentialHint':
      return trans.__('consequential');
    case 'destructiveHint':
      return trans.__('may destroy data');
    case 'idempotentHint':
      return trans.__('idempotent');
    case 'openWorldHint':
      return trans.__('reaches outside the page');
    default:
      return key;
  }
}

/** What a tool's annotations say, in words ("changes the notebook" when none). */
function toolTraits(tool: IToolSummary, trans: TranslationBundle): string {
  const words = Object.entries(tool.annotations)
    .filter(([, value]) => value === true)
    .map(([key]) => annotationWords(key, trans));
  if (tool.annotations.readOnlyHint !== true) {
    words.unshift(trans.__('can change things'));
  }
  return words.join(', ');
}

/**
 * The list the status item opens: every tool this app offers, whether it is
 * registered, turned off in the settings or failed to register, with its
 * title and its annotations in words.
 */
export class ToolList extends Widget {
  constructor(registry: IWebMcpRegistry, translator: ITranslator) {
    super();
    const trans = translator.load('jupyterlite-webmcp');
    this.addClass('jp-WebMcpToolList');
    // in the tab order: the list scrolls, and keyboard users scroll it
    this.node.tabIndex = 0;
    this.node.setAttribute('role', 'dialog');
    const headingId = `jp-webmcp-tools-${++ToolList._count}`;
    this.node.setAttribute('aria-labelledby', headingId);
    const heading = document.createElement('h2');
    heading.id = headingId;
    heading.textContent = trans.__('Agent tools (WebMCP)');
    const { available, registered, disabled, failed } = registry.status;
    const note = document.createElement('p');
    note.className = 'jp-WebMcpToolList-note';
    const clients = registry.clients;
    note.textContent = available
      ? trans.__(
          'Offered to agents on document.modelContext. WebMCP cannot tell whether an agent is connected; the Activity tab shows what agents call.'
        )
      : clients.length > 0
        ? trans.__(
            'This browser has no WebMCP; the tools are offered to the in-app assistant (%1). The Activity tab shows what it calls.',
            clients.join(', ')
          )
        : trans.__(
            'This browser has no WebMCP: no tool is offered. In Chromium, start it with --enable-features=WebMCP.'
          );
    if (available && clients.length > 0) {
      note.textContent +=
        ' ' +
        trans.__(
          'They are also offered to the in-app assistant (%1).',
          clients.join(', ')
        );
    }
    const list = document.createElement('ul');
    list.className = 'jp-WebMcpToolList-list';
    const failures = new Map(failed.map(item => [item.name, item.reason]));
    for (const tool of registry.tools) {
      const item = document.createElement('li');
      const state = disabled.includes(tool.name)
        ? trans.__('turned off in the settings')
        : failures.has(tool.name)
          ? trans.__('not registered: %1', failures.get(tool.name)!)
          : registered.includes(tool.name) || (!available && clients.length > 0)
            ? ''
            : trans.__('not registered');
      item.dataset.state = state ? 'off' : 'on';
      const name = document.createElement('code');
      name.textContent = tool.name;
      const title = document.createElement('span');
      title.className = 'jp-WebMcpToolList-title';
      title.textContent = tool.title;
      const traits = document.createElement('span');
      traits.className = 'jp-WebMcpToolList-traits';
      traits.textContent = state
        ? `${state}. ${toolTraits(tool, trans)}`
        : toolTraits(tool, trans);
      item.append(name, title, traits);
      list.appendChild(item);
    }
    this.node.append(heading, note, list);
  }

  private static _count = 0;
}
