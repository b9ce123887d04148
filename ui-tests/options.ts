/**
 * Project options shared by playwright.config.ts and fixtures.ts.
 */

/** Which app a project drives. */
export type AppKind = 'lab' | 'notebook' | 'lite';

/** Which user interface a page shows (JupyterLite ships both). */
export type UiKind = 'lab' | 'notebook';

/** Per-project options, set in the `use` block of each project. */
export interface IAppOptions {
  /** The app the project's server runs. */
  appKind: AppKind;
  /** The interface used for JupyterLite pages (Lab and Notebook are fixed). */
  liteUi: UiKind;
  /** Whether the browser was launched with `--enable-features=WebMCP`. */
  webmcp: boolean;
  /** Inject `@mcp-b/global` before any app script (the mcp-client project). */
  mcpB: boolean;
  /** Fail a test that logged an unexpected console error. */
  failOnConsoleErrors: boolean;
}
