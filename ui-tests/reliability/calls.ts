/**
 * Many tool calls from the page itself, through native WebMCP
 * (`document.modelContext.executeTool`, the call the agent fixture's
 * `start` makes), one after the other or all at once, and the checks every
 * answer must pass: it resolved, it is the result envelope, an error is one
 * of the closed set and never INTERNAL_ERROR.
 */
import type { Page } from '@playwright/test';

import type { JupyterApp } from '../jupyter';
import { toToolResult, type IToolResult } from '../results';

export interface ICall {
  tool: string;
  input: Record<string, unknown>;
}

/** How one call ended for its caller. */
export interface IAnswer {
  /** The envelope (parsed); missing when the call rejected. */
  result?: IToolResult;
  /** The rejection, when the call did not resolve with a result. */
  rejected?: string;
  ms: number;
}

/** The spec's closed set of error codes. */
export const ERROR_CODES = [
  'NO_ACTIVE_NOTEBOOK',
  'NOTEBOOK_NOT_FOUND',
  'CELL_NOT_FOUND',
  'STALE_CELL',
  'INVALID_PATH',
  'PATH_EXISTS',
  'INVALID_CELL_TYPE',
  'INVALID_ARGUMENT',
  'KERNEL_UNAVAILABLE',
  'EXECUTION_ERROR',
  'ABORTED',
  'WEBMCP_UNAVAILABLE',
  'COMMENT_NOT_FOUND',
  'COMMENT_ANCHOR_STALE',
  'CELL_ACCESS_DENIED',
  'NOTEBOOK_ACCESS_DENIED',
  'PROPOSAL_ALREADY_PENDING',
  'INTERNAL_ERROR'
];

/** The bound on a whole result (MAX_TOTAL_RESULT_BYTES). */
const MAX_RESULT_BYTES = 50 * 1024;

/**
 * A file renamed or deleted through the app's own contents manager, the call
 * JupyterLab's file browser makes (the open document hears of it).
 */
export type ContentsChange =
  { rename: string; to: string } | { delete: string };

/**
 * Calls `calls` through `document.modelContext.executeTool`, in order
 * (`concurrent: false`) or all started at once. With `contentsChange`, the
 * calls are started at once and the change is made in the same task, while
 * they are in flight; it must succeed.
 */
export async function callMany(
  page: Page,
  calls: ICall[],
  options: { concurrent?: boolean; contentsChange?: ContentsChange } = {}
): Promise<IAnswer[]> {
  const raw = await page.evaluate(
    async ([list, concurrent, change]) => {
      const context = document.modelContext;
      if (!context) {
        throw new Error('no document.modelContext');
      }
      const tools = new Map(
        (await context.getTools()).map(tool => [tool.name, tool])
      );
      const one = async (call: { tool: string; input: string }) => {
        const started = performance.now();
        const tool = tools.get(call.tool);
        if (!tool) {
          return { rejected: `no tool ${call.tool}`, ms: 0 };
        }
        try {
          // parsed here, as an agent's JSON arrives: a "__proto__" key stays
          // an own field (Playwright's argument passing would drop it)
          const input = JSON.parse(call.input) as Record<string, unknown>;
          const output = await context.executeTool(tool, input);
          return { output, ms: performance.now() - started };
        } catch (error) {
          const e = error as Error | null;
          return {
            rejected: `${e?.name ?? 'Error'}: ${e?.message ?? String(error)}`,
            ms: performance.now() - started
          };
        }
      };
      if (change) {
        const contents = window.uiTests.app().serviceManager.contents;
        const answers = Promise.all(list.map(one));
        await ('rename' in change
          ? contents.rename(change.rename, change.to)
          : contents.delete(change.delete));
        return answers;
      }
      if (concurrent) {
        return Promise.all(list.map(one));
      }
      const out = [];
      for (const call of list) {
        out.push(await one(call));
      }
      return out;
    },
    [
      calls.map(call => ({
        tool: call.tool,
        input: JSON.stringify(call.input)
      })),
      options.concurrent ?? false,
      options.contentsChange ?? null
    ] as const
  );
  return raw.map(answer =>
    'output' in answer
      ? { result: toToolResult(answer.output), ms: answer.ms }
      : { rejected: answer.rejected, ms: answer.ms }
  );
}

/**
 * What is wrong with an answer's envelope, or null: it must have resolved,
 * carry a text content item, keep structuredContent and the text alike, stay
 * within the result bound, and an error must be one of the closed set, never
 * INTERNAL_ERROR.
 */
export function envelopeProblem(answer: IAnswer): string | null {
  if (answer.rejected !== undefined) {
    return `rejected: ${answer.rejected}`;
  }
  const result = answer.result!;
  if (result.text === undefined) {
    return `no text content: ${JSON.stringify(result.raw).slice(0, 300)}`;
  }
  if (new TextEncoder().encode(result.text).length > MAX_RESULT_BYTES) {
    return `over the result bound: ${result.text.length} chars`;
  }
  if (result.isError) {
    const structured = result.structured as
      { error?: unknown; message?: unknown } | undefined;
    const code = structured?.error;
    if (typeof code !== 'string' || !ERROR_CODES.includes(code)) {
      return `error outside the closed set: ${result.text.slice(0, 300)}`;
    }
    if (code === 'INTERNAL_ERROR') {
      return `INTERNAL_ERROR: ${result.text.slice(0, 500)}`;
    }
    if (typeof structured?.message !== 'string') {
      return `error without a message: ${result.text.slice(0, 300)}`;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(result.text);
    } catch {
      return `error text is not JSON: ${result.text.slice(0, 300)}`;
    }
    if (JSON.stringify(parsed) !== JSON.stringify(structured)) {
      return 'error text and structuredContent differ';
    }
  }
  return null;
}

/** The error code of a result, if it is an error. */
export function errorCode(answer: IAnswer): string | undefined {
  return answer.result?.isError
    ? (answer.result.structured as { error?: string } | undefined)?.error
    : undefined;
}

/**
 * Counts the page's unhandled promise rejections from now on. The listener
 * is added once per page and the list starts empty at each call: a page the
 * worker's tests share (ui-tests/shared-app.ts) would otherwise hand one
 * test the rejections of an earlier one.
 */
export async function watchRejections(page: Page): Promise<void> {
  await page.evaluate(() => {
    const holder = window as unknown as {
      reliabRejections?: string[];
      reliabRejectionsWatched?: boolean;
    };
    holder.reliabRejections = [];
    if (holder.reliabRejectionsWatched) {
      return;
    }
    holder.reliabRejectionsWatched = true;
    window.addEventListener('unhandledrejection', event => {
      const reason = event.reason as Error | undefined;
      holder.reliabRejections?.push(
        String(reason?.stack ?? reason?.message ?? reason)
      );
    });
  });
}

/** The unhandled rejections seen since `watchRejections`. */
export async function rejections(page: Page): Promise<string[]> {
  return page.evaluate(
    () =>
      (window as unknown as { reliabRejections?: string[] }).reliabRejections ??
      []
  );
}

/**
 * Everything a call could change: every open notebook's live model, every
 * file of the test's directory with its content, and the root's entries
 * (without other tests' own directories).
 */
export async function workspaceState(
  jupyter: JupyterApp
): Promise<Record<string, unknown>> {
  const notebooks = await jupyter.page.evaluate(() =>
    window.uiTests.notebookPanels().map(panel => ({
      path: panel.context.path,
      model: panel.model?.sharedModel.toJSON() ?? null
    }))
  );
  const files: Record<string, string> = {};
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await jupyter.list(dir)) {
      if (entry.type === 'directory') {
        await walk(entry.path);
      } else {
        files[entry.path] = await jupyter.readText(entry.path);
      }
    }
  };
  await walk(jupyter.dir);
  const root = (await jupyter.list(''))
    .map(entry => entry.name)
    .filter(name => !name.startsWith('uit-') || name === jupyter.dir)
    .sort();
  return { notebooks, files, root };
}
