/**
 * What the page fetches once its start is over (docs/architecture.md, "A
 * small start"): one chunk, "later", with the tools' handlers and the
 * features' UI. Each feature's plugin loads its part from here (through
 * `PARTS.lazy`, so a part that fails to load is named in the status bar);
 * one module for all of them lets the bundler join their code into one
 * scope, and names only what the plugins use, so nothing else is kept.
 */
export {
  COMPILED_VALIDATORS,
  commentHandlers,
  coreHandlers,
  selectionHandlers
} from './webmcp/handlers';
export { activateAccessPanel } from './access/panel-wiring';
export { activateAccessUi } from './access/ui-wiring';
export { activateActivityPanel } from './panel/activity-wiring';
export { ProposalBlocks } from './propose/blocks';
export { activateProposePanel } from './propose/panel-wiring';
export { activateReviewBadges } from './review/badges-wiring';
export { activateReviewPanel } from './review/panel-wiring';
export { ReviewStore } from './review/storage';
export { activateRevert } from './revert/wiring';
export { OutputSelectionTracker } from './selection/capture';
