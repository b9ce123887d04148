/**
 * The notebook resolution and access rules our tools go through, offered to
 * the tools of other extensions (`IWebMcpRegistry.notebooks`): the same
 * resolver, the same guard, so a third-party tool that uses them hides what
 * the owner hid and refuses what the owner made read-only, as ours do.
 */
import { type AccessIntent } from '../access/policy';
import { isCellVisible } from '../access/read';
import { findCell } from '../jupyter/find-cell';
import { type NotebookResolver } from '../jupyter/notebook';
import { type IToolNotebook, type IWebMcpNotebooks } from '../tokens';

/** What a tool may resolve a notebook for. */
const INTENTS: readonly AccessIntent[] = ['read', 'write'];

/** The notebooks of a resolver, as `IWebMcpNotebooks`. */
export function toolNotebooks(resolver: NotebookResolver): IWebMcpNotebooks {
  return {
    async resolve(path, intent): Promise<IToolNotebook> {
      if (!INTENTS.includes(intent)) {
        throw new Error(
          `jupyterlite-webmcp: a notebook is resolved to 'read' or 'write', not ${JSON.stringify(intent)}.`
        );
      }
      const resolved = await resolver.resolveNotebook(path, { intent });
      return {
        path: resolved.path,
        panel: resolved.panel,
        model: resolved.model,
        dirty: resolved.dirty,
        visibleCells: () => resolved.model.cells.filter(isCellVisible),
        cell: (cellId, cellIntent) =>
          findCell(resolved.model, cellId, cellIntent).cell,
        release: () => resolved.release()
      };
    }
  };
}
