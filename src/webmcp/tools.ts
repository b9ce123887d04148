/**
 * Our tools, in three groups: the core tools the WebMCP plugin registers,
 * the comment tools the review feature adds and the output-selection tool
 * the selection feature adds. A tool is registered from its definition
 * (./specs.ts) alone; its handler (./handlers.ts, src/review/tools.ts,
 * src/selection/tools.ts, with the semantic layer they call and the
 * generated validators) comes with the later chunk
 * (src/later.ts), loaded at the first call or, before it, once the start is
 * over and the page idle (`preloadHandlers`).
 */
import { PARTS } from '../common/parts';
import { type NotebookResolver } from '../jupyter/notebook';
import {
  type IOutputSelectionTracker,
  type IProposals,
  type IReviewStore
} from '../tokens';
import {
  COMMENT_TOOL_NAMES,
  CORE_TOOL_NAMES,
  defineLazyTools,
  SELECTION_TOOL_NAMES,
  type ToolHandlers
} from './define';
import { TOOL_NAMES, type ToolName } from './specs';
import type * as LaterChunk from '../later';
import { type IToolServices } from './services';
import { type IToolDefinition } from './types';

/**
 * A part's loader of the later chunk (the tools' handlers and the features'
 * UI, src/later.ts): the chunk is fetched once for the page, and a part
 * whose load failed is named in the status bar as `part`.
 */
export function fromLater(part: string): () => Promise<typeof LaterChunk> {
  return PARTS.lazy(
    part,
    () => import(/* webpackChunkName: "later" */ '../later')
  );
}

/** The later chunk, with the handlers, loaded once for the page. */
export const loadHandlers = fromLater('the notebook tools');

/** Fetches the handlers' chunk ahead of the first call. */
export function preloadHandlers(): void {
  // a failure is kept in PARTS (the status bar says it); the call that
  // needs the chunk tries again
  loadHandlers().catch(() => undefined);
}

/**
 * A service the handlers use, or how to get it at the first call (a service
 * whose plugin starts once the page is idle).
 */
export type AtFirstCall<T> = T | (() => Promise<T>);

async function resolved<T>(service: AtFirstCall<T>): Promise<T> {
  return typeof service === 'function'
    ? (service as () => Promise<T>)()
    : service;
}

/** A group's handlers, built once from the loaded chunk. */
function group<N extends ToolName>(
  build: (chunk: typeof LaterChunk) => Promise<ToolHandlers<N>>
): () => Promise<ToolHandlers<N>> {
  let built: Promise<ToolHandlers<N>> | null = null;
  return () =>
    (built ??= loadHandlers()
      .then(build)
      .catch((reason: unknown) => {
        built = null; // tried again at the next call
        throw reason;
      }));
}

/** The tools the WebMCP plugin registers itself, in the spec's order. */
export function coreTools(
  services: IToolServices,
  proposals: IProposals | null
): IToolDefinition[] {
  return defineLazyTools(
    CORE_TOOL_NAMES,
    group(async chunk => chunk.coreHandlers(services, proposals))
  );
}

/** The review-thread tools, which the review feature adds. */
export function commentTools(
  services: IToolServices,
  review: AtFirstCall<IReviewStore>
): IToolDefinition[] {
  return defineLazyTools(
    COMMENT_TOOL_NAMES,
    group(async chunk =>
      chunk.commentHandlers(services, await resolved(review))
    )
  );
}

/** The output-selection tool, which the selection feature adds. */
export function selectionTools(
  resolver: NotebookResolver,
  outputSelection: AtFirstCall<IOutputSelectionTracker>
): IToolDefinition[] {
  return defineLazyTools(
    SELECTION_TOOL_NAMES,
    group(async chunk =>
      chunk.selectionHandlers(resolver, await resolved(outputSelection))
    )
  );
}

/**
 * Every tool of ours, in the spec's order, as the three plugins add them
 * (the output-selection tool only with a tracker): what the docs check and
 * the unit tests read.
 */
export function buildTools(
  services: IToolServices & {
    review: IReviewStore;
    proposals?: IProposals | null;
    outputSelection?: IOutputSelectionTracker | null;
  }
): IToolDefinition[] {
  const tools = [
    ...coreTools(services, services.proposals ?? null),
    ...commentTools(services, services.review),
    ...(services.outputSelection
      ? selectionTools(services.resolver, services.outputSelection)
      : [])
  ];
  return TOOL_NAMES.flatMap(name => tools.filter(tool => tool.name === name));
}
