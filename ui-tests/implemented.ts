import { TOOL_NAMES, type ToolName } from '../src/webmcp/specs';

/** The tools the extension registers: every tool of the specification. */
export const IMPLEMENTED: ToolName[] = [...TOOL_NAMES];
