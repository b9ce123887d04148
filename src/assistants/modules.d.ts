/**
 * The in-app assistants' token packages, as the page's share scope offers
 * them: neither is on the npm registry, both ship as prebuilt labextensions
 * in their PyPI wheels and share these modules as singletons. Only their
 * public tool registry token is used (package.json `sharedPackages` marks
 * them shared and not bundled).
 */
declare module '@jupyter-ai/agent-lite' {
  import type { Token } from '@lumino/coreutils';
  /** jupyter-ai-lite 0.21: `@jupyter-ai/agent-lite:IToolRegistry`. */
  export const IToolRegistry: Token<unknown>;
}

declare module '@jupyternaut/agent' {
  import type { Token } from '@lumino/coreutils';
  /** jupyterlite-ai 0.20 (jupyternaut-persona): `@jupyternaut/agent:IToolRegistry`. */
  export const IToolRegistry: Token<unknown>;
}
