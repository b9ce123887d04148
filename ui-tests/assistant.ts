/**
 * The in-app assistant's tests (`tests/assistant-*.spec.ts`, projects
 * assistant-lab, assistant-lite, assistant0-lab): the scripted model that
 * answers the assistant, and the person driving its chat.
 *
 *   import { expect, test } from '../assistant';
 *
 *   test('…', async ({ jupyter, chat, model }) => {
 *     await model.add(toolCall('jupyter_get_context', {}), text('done'));
 *     await chat.open();
 *     await chat.send('what is open?');
 *     const [first] = await model.requests(1);
 *   });
 *
 * Every test has its own session of the model (ui-tests/assistant/model.mjs):
 * its browser context sends the header `x-scripted-model-session` with every
 * request, and the model answers each session from its own turns and keeps
 * its own log, so the two workers' tests never see each other's turns.
 */
import { expect, type Locator, type Page } from '@playwright/test';

import { test as base } from './fixtures';
import type { JupyterApp } from './jupyter';

export { expect } from '@playwright/test';

const SESSION_HEADER = 'x-scripted-model-session';

/** A scripted answer: text, or calls of tools with their arguments. */
export type Turn =
  | { text: string }
  | { toolCalls: { name: string; arguments: Record<string, unknown> }[] };

export const text = (value: string): Turn => ({ text: value });

export const toolCall = (
  name: string,
  args: Record<string, unknown> = {}
): Turn => ({ toolCalls: [{ name, arguments: args }] });

/** One logged request body (an OpenAI chat completion request). */
export interface IModelRequest {
  model: string;
  messages: {
    role: string;
    content?: unknown;
    tool_call_id?: string;
    tool_calls?: { function: { name: string; arguments: string } }[];
  }[];
  tools?: {
    type: string;
    function: { name: string; description: string; parameters: unknown };
  }[];
  stream?: boolean;
}

/** The scripted model, as one test sees it: its own session. */
export class ScriptedModel {
  constructor(
    readonly baseURL: string,
    readonly session: string
  ) {}

  private get _control(): string {
    return `${this.baseURL.replace(/\/v1$/, '')}/control/${encodeURIComponent(this.session)}`;
  }

  /** Appends turns: the next requests are answered with them, in order. */
  async add(...turns: Turn[]): Promise<void> {
    const response = await fetch(`${this._control}/turns`, {
      method: 'POST',
      body: JSON.stringify({ turns })
    });
    expect(response.ok).toBe(true);
  }

  /** The logged requests, once there are at least `count` (waits for them). */
  async requests(count = 0, timeoutMs = 30_000): Promise<IModelRequest[]> {
    const response = await fetch(
      `${this._control}/log?count=${count}&timeout=${timeoutMs}`
    );
    const { requests } = (await response.json()) as {
      requests: IModelRequest[];
    };
    if (response.status === 408) {
      throw new Error(
        `the model got ${requests.length} requests in ${timeoutMs} ms, not ${count}`
      );
    }
    return requests;
  }

  /** Forgets this session's turns and log. */
  async reset(): Promise<void> {
    await fetch(this._control, { method: 'DELETE' });
  }
}

/** The last tool result a request carries (`role: "tool"`), parsed. */
export function lastToolResult<T = Record<string, unknown>>(
  request: IModelRequest
): { raw: string; json: T } {
  const message = [...request.messages]
    .reverse()
    .find(entry => entry.role === 'tool');
  if (!message) {
    throw new Error('the request carries no tool result');
  }
  const raw = toolText(message.content);
  return { raw, json: JSON.parse(raw) as T };
}

/** A tool message's text, whatever shape its content has. */
export function toolText(content: unknown): string {
  if (typeof content === 'string') {
    return content;
  }
  if (Array.isArray(content)) {
    return content
      .map(part =>
        typeof part === 'string'
          ? part
          : ((part as { text?: string }).text ?? JSON.stringify(part))
      )
      .join('');
  }
  return JSON.stringify(content);
}

/** Which assistant a project's app has. */
export type AssistantName = 'jupyter-ai-lite' | 'jupyterlite-ai';

/** The person in front of the assistant's chat (jupyter-ai-lite, jupyterlite-ai). */
export class Chat {
  constructor(
    private readonly _jupyter: JupyterApp,
    readonly assistant: AssistantName
  ) {}

  /** The app's page (Notebook 7 moves to a notebook's own tab). */
  get page(): Page {
    return this._jupyter.page;
  }

  /**
   * How a message reaches the assistant: jupyter-ai-lite answers a message
   * that mentions its persona in a Jupyter Chat; jupyterlite-ai's own chat
   * panel talks to the model directly.
   */
  get mention(): string {
    return this.assistant === 'jupyter-ai-lite' ? '@jupyternaut-frontend' : '';
  }

  /** The chat's message input. */
  get input(): Locator {
    return this.page.getByPlaceholder(/Type a chat message/).first();
  }

  /** The chat widget (messages and input). */
  get panel(): Locator {
    return this.page.locator('.jp-chat-messages-container').first();
  }

  /**
   * Opens the chat side panel and starts a new chat, as a person does
   * (jupyterlite-ai's panel opens with a chat of the default provider).
   * Notebook 7 lists its side panels under View > Left Sidebar, on a
   * notebook's page.
   */
  async open(): Promise<void> {
    if (this._jupyter.ui === 'notebook') {
      await this.page.getByRole('menuitem', { name: 'View' }).click();
      await this.page
        .locator('.lm-Menu-item', { hasText: 'Left Sidebar' })
        .click();
      await this.page
        .locator('.lm-Menu-item', { hasText: /^Show Jupyter Chat/ })
        .click();
      await this.page
        .locator('jp-button[aria-label="New chat"]:visible')
        .first()
        .click();
    } else if (this.assistant === 'jupyter-ai-lite') {
      await this.page.getByRole('tab', { name: /^Jupyter Chat/ }).click();
      await this.page
        .locator('jp-button[aria-label="New chat"]:visible')
        .first()
        .click();
    } else {
      await this.page
        .getByRole('tab', { name: /^Chat with AI assistant/ })
        .click();
    }
    await expect(this.input).toBeVisible();
  }

  /** Types a message to the assistant and presses Send. */
  async send(message: string): Promise<void> {
    await this.input.click();
    if (this.mention) {
      await this.input.pressSequentially(`${this.mention} `);
      // the mention's completion menu, if open, would take the next keys
      await this.page.keyboard.press('Escape');
    }
    await this.input.pressSequentially(message);
    await this.page.keyboard.press('Escape');
    await this.page.getByRole('button', { name: /^Send message/ }).click();
  }

  /** The assistant's stop button, shown while it answers. */
  get stopButton(): Locator {
    return this.page.locator('[class*="stop-button"]:visible').first();
  }

  /** The assistant's own approval prompt for a tool call (jupyter-chat-components). */
  get approvalPrompt(): Locator {
    return this.page.locator(
      '.jp-ai-tool-approval-buttons, .jp-ai-approval-btn'
    );
  }
}

export interface IAssistantFixtures {
  /** This test's session of the scripted model. */
  model: ScriptedModel;
  /** The assistant's chat, driven as a person does. */
  chat: Chat;
}

/** This test's session name: unique per test, repeat and retry. */
function sessionOf(info: {
  testId: string;
  repeatEachIndex: number;
  retry: number;
}): string {
  return `${info.testId}-${info.repeatEachIndex}-${info.retry}`;
}

export const test = base.extend<IAssistantFixtures>({
  extraHTTPHeaders: async ({}, use, testInfo) => {
    await use({ [SESSION_HEADER]: sessionOf(testInfo) });
  },

  model: async ({}, use, testInfo) => {
    const url = process.env.UI_TESTS_MODEL_URL;
    if (!url) {
      throw new Error('UI_TESTS_MODEL_URL is not set (playwright.config.ts)');
    }
    const model = new ScriptedModel(url, sessionOf(testInfo));
    await use(model);
    const requests = await model.requests(0, 0);
    await testInfo.attach('model-requests.json', {
      body: JSON.stringify(requests, null, 1),
      contentType: 'application/json'
    });
    await model.reset();
  },

  chat: async ({ jupyter }, use, testInfo) => {
    const assistant: AssistantName = testInfo.project.name.startsWith(
      'assistant0'
    )
      ? 'jupyterlite-ai'
      : 'jupyter-ai-lite';
    await use(new Chat(jupyter, assistant));
  }
});
