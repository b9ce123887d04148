import {
  TOOL_INPUT_SCHEMAS,
  TOOL_NAMES,
  TOOL_SPECS
} from '../../src/webmcp/specs';
import { buildTools } from '../../src/webmcp/tools';

/** Every tool of the specification has its handler. */
const IMPLEMENTED = TOOL_NAMES;

// buildTools only wires handlers; none runs here, so no app is needed. The
// output-selection tracker comes from its own plugin; a stand-in will do.
const services = { outputSelection: {} } as unknown as Parameters<
  typeof buildTools
>[0];

describe('the tool catalog', () => {
  it('describes exactly the 22 tools of the specification', () => {
    expect(Object.keys(TOOL_SPECS)).toEqual([...TOOL_NAMES]);
    expect(TOOL_NAMES).toHaveLength(22);
  });

  it('gives every tool a title, a description and both hints', () => {
    for (const name of TOOL_NAMES) {
      const { title, description, annotations } = TOOL_SPECS[name];
      expect(title.length).toBeGreaterThan(0);
      expect(description.length).toBeGreaterThan(20);
      expect(typeof annotations.readOnlyHint).toBe('boolean');
      expect(typeof annotations.untrustedContentHint).toBe('boolean');
    }
  });

  it('marks the tools that run code, delete or restart as consequential', () => {
    const consequential = TOOL_NAMES.filter(
      name => TOOL_SPECS[name].annotations.consequentialHint
    );
    expect(consequential.sort()).toEqual([
      'jupyter_delete_cell',
      'jupyter_kernel_action',
      'jupyter_run_cells'
    ]);
  });

  it('marks read tools read-only and only them', () => {
    const readOnly = TOOL_NAMES.filter(
      name => TOOL_SPECS[name].annotations.readOnlyHint
    );
    expect(readOnly.sort()).toEqual(
      [
        'jupyter_export_notebook',
        'jupyter_get_cell_access',
        'jupyter_get_cells',
        'jupyter_get_comment',
        'jupyter_get_context',
        'jupyter_get_output_selection',
        'jupyter_list_comments',
        'jupyter_list_workspace'
      ].sort()
    );
  });

  it('keeps the descriptions the agent relies on word for word', () => {
    expect(TOOL_SPECS.jupyter_create_notebook.description).toBe(
      'Create a new, empty notebook in the browser-local workspace and open it. Refuses to overwrite an existing file.'
    );
    expect(TOOL_SPECS.jupyter_focus_cell.description).toContain(
      'notebook editor’s own selection'
    );
  });
});

describe('buildTools', () => {
  it('builds exactly the implemented tools, in the specification order', () => {
    const tools = buildTools(services);
    expect(tools.map(tool => tool.name)).toEqual(IMPLEMENTED);
  });

  it('leaves out the output-selection tool when its tracker is missing', () => {
    const tools = buildTools({ ...services, outputSelection: null });
    expect(tools.map(tool => tool.name)).toEqual(
      IMPLEMENTED.filter(name => name !== 'jupyter_get_output_selection')
    );
  });

  it('joins each tool to its catalog entry and its input schema', () => {
    for (const tool of buildTools(services)) {
      const name = tool.name as keyof typeof TOOL_SPECS;
      expect(tool.title).toBe(TOOL_SPECS[name].title);
      expect(tool.description).toBe(TOOL_SPECS[name].description);
      expect(tool.annotations).toEqual(TOOL_SPECS[name].annotations);
      expect(tool.inputSchema).toBe(TOOL_INPUT_SCHEMAS[name]);
      expect(typeof tool.handler).toBe('function');
    }
  });
});
