import { type ToolName } from '../src/webmcp/schemas';

/** The tools implemented so far; each issue that lands adds its own. */
export const IMPLEMENTED: ToolName[] = [
  'jupyter_get_context',
  'jupyter_list_workspace',
  'jupyter_open_notebook',
  'jupyter_create_notebook'
];
