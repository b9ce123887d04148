/**
 * What the page fetches once its start is over (docs/architecture.md, "A
 * small start"): one chunk, "later", with the tools' handlers and the
 * features' UI. Each feature's plugin loads its part from here (through
 * `PARTS.lazy`, so a part that fails to load is named in the status bar);
 * one module for all of them lets the bundler join their code into one
 * scope, and names only what the plugins use, so nothing else is kept.
 *
 * The bundler joins the modules in the order of these lines, and the
 * chunk's gzipped size depends on it: 0.8 KB between the orders tried
 * (2026-12-05, docs/benchmarks.md); the handlers first was the smallest.
 *
 * The features' style sheet comes with their code (style/later.js); the
 * start's sheet has only what the start draws.
 */
import '../style/later.js';
export { COMPILED_VALIDATORS, coreHandlers } from './webmcp/handlers';
export { selectionHandlers } from './selection/tools';
export { commentHandlers } from './review/tools';
export { activateAccessPanel } from './access/section-wiring';
export { activateAccessUi } from './access/ui-wiring';
export { activateActivityPanel } from './agent-panel/activity-wiring';
export { ProposalBlocks } from './propose/blocks';
export { activateProposePanel } from './propose/section-wiring';
export { activateReviewBadges } from './review/badges-wiring';
export { activateReviewPanel } from './review/section-wiring';
export { ReviewStore } from './review/storage';
export { activateRevert } from './revert/wiring';
export { OutputSelectionTracker } from './selection/capture';
