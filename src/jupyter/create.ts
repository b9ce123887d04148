/**
 * `jupyter_create_notebook`: a new, empty notebook that never overwrites
 * anything.
 *
 * The file is made as an untitled notebook and then renamed to its target:
 * the rename refuses an existing target, so a concurrent creator cannot be
 * overwritten, and a failed rename deletes the untitled file again.
 */
import { type KernelSpec } from '@jupyterlab/services';

import { LIMITS } from '../limits';
import { type IJupyterEnvironment } from './environment';
import { ToolError } from '../common/errors';
import { kernelInfo, type IKernelInfo } from './kernel/action';
import {
  notebookInfo,
  type INotebookInfo,
  type NotebookResolver
} from './notebook';
import { openInNewTab, type OpenedIn } from './open';
import { isNotebookPath, joinPath, normalizePath } from './paths';
import { utf8Length } from '../common/text';
import { type NotebookVisibility } from './workspace';

/** Arguments of `jupyter_create_notebook`. */
export interface ICreateArgs {
  name: string;
  directory?: string | null;
  kernel?: string | null;
}

/** What `jupyter_create_notebook` returns. */
export interface ICreateResult {
  path: string;
  notebook: INotebookInfo;
  kernel: IKernelInfo;
  openedIn?: OpenedIn;
  message?: string;
}

/** The error every failure to create gives, hidden targets included. */
function creationFailed(path: string): ToolError {
  return new ToolError(
    'INVALID_PATH',
    `Could not create a notebook at "${path}".`,
    { path }
  );
}

/** Validate a name and return the file name ('.ipynb' appended if missing). */
export function notebookFileName(name: string): string {
  if (name.trim() === '') {
    throw new ToolError(
      'INVALID_ARGUMENT',
      'Invalid argument "name": must not be empty or blank.',
      { key: 'name' }
    );
  }
  const bytes = utf8Length(name);
  if (bytes > LIMITS.MAX_NAME_BYTES) {
    throw new ToolError(
      'INVALID_ARGUMENT',
      `Invalid argument "name": ${bytes} bytes of UTF-8, more than the ${LIMITS.MAX_NAME_BYTES} allowed.`,
      { key: 'name', bytes }
    );
  }
  if (name.includes('/')) {
    throw new ToolError(
      'INVALID_PATH',
      `Invalid name "${name}": give a file name and put the folder in "directory".`,
      { path: name }
    );
  }
  if (name === '.' || name === '..') {
    // a dot name is a folder, never a notebook (".." would make "...ipynb")
    throw new ToolError('INVALID_PATH', `Invalid name "${name}".`, {
      path: name
    });
  }
  const fileName = isNotebookPath(name) ? name : `${name}.ipynb`;
  // Control characters and backslashes are refused here.
  if (normalizePath(fileName, { key: 'name' }) !== fileName) {
    throw new ToolError('INVALID_PATH', `Invalid name "${name}".`, {
      path: name
    });
  }
  return fileName;
}

/**
 * Pick the kernelspec for a request: by name (case-insensitive), then by
 * language; anything unmatched falls back to the app's default.
 */
export function matchKernelSpec(
  specs: KernelSpec.ISpecModels | null,
  requested: string | null | undefined
): KernelSpec.ISpecModel | null {
  if (!specs) {
    return null;
  }
  const all = Object.values(specs.kernelspecs).filter(
    (spec): spec is KernelSpec.ISpecModel => !!spec
  );
  const wanted = requested?.trim().toLowerCase();
  if (wanted) {
    const byName = all.find(spec => spec.name.toLowerCase() === wanted);
    const byLanguage = all.find(spec => spec.language.toLowerCase() === wanted);
    if (byName ?? byLanguage) {
      return (byName ?? byLanguage)!;
    }
  }
  return specs.kernelspecs[specs.default] ?? all[0] ?? null;
}

/** Create the notebook, then open it the app's way. */
export async function createNotebook(
  env: IJupyterEnvironment,
  resolver: NotebookResolver,
  args: ICreateArgs,
  isVisible?: NotebookVisibility
): Promise<ICreateResult> {
  const fileName = notebookFileName(args.name);
  const directory = normalizePath(args.directory ?? '', {
    allowRoot: true,
    key: 'directory'
  });
  const path = joinPath(directory, fileName);
  // A target the contents service refuses or cannot look up is a failure to
  // create, like any other (the spec's one error for it).
  const existing = await resolver
    .getContentsModel(path, false)
    .catch((): never => {
      throw creationFailed(path);
    });
  if (existing) {
    const hidden =
      existing.type === 'notebook' &&
      isVisible !== undefined &&
      !(await isVisible({ path, name: fileName, type: 'notebook' }));
    if (hidden) {
      throw creationFailed(path);
    }
    throw new ToolError(
      'PATH_EXISTS',
      `A file already exists at "${path}"; nothing was overwritten.`,
      { path }
    );
  }
  await env.kernelspecs.ready;
  const spec = matchKernelSpec(env.kernelspecs.specs, args.kernel);
  await writeNewNotebook(env, resolver, directory, path, spec);

  if (!env.multiDocument) {
    const opened = await openInNewTab(env, resolver, path);
    return {
      path,
      notebook: opened.notebook,
      kernel: opened.kernel,
      openedIn: opened.openedIn,
      message: opened.message
    };
  }
  const panel = await resolver.openPanel(path, {
    activate: true,
    kernelName: spec?.name
  });
  return {
    path,
    notebook: notebookInfo(resolver.fromPanel(panel)),
    kernel: kernelInfo(panel.sessionContext)
  };
}

async function writeNewNotebook(
  env: IJupyterEnvironment,
  resolver: NotebookResolver,
  directory: string,
  path: string,
  spec: KernelSpec.ISpecModel | null
): Promise<void> {
  let untitled: string;
  try {
    untitled = (
      await env.contents.newUntitled({ path: directory, type: 'notebook' })
    ).path;
  } catch {
    throw creationFailed(path);
  }
  let failure: ToolError = creationFailed(path);
  try {
    await env.contents.save(untitled, {
      type: 'notebook',
      format: 'json',
      content: emptyNotebook(spec)
    });
    // Some drives (JupyterLite's) let a rename replace its target: look once
    // more right before it, so a file made meanwhile is never overwritten.
    if (await resolver.getContentsModel(path, false)) {
      failure = new ToolError(
        'PATH_EXISTS',
        `A file already exists at "${path}"; nothing was overwritten.`,
        { path }
      );
      throw failure;
    }
    await env.contents.rename(untitled, path);
  } catch {
    await env.contents.delete(untitled).catch(() => undefined);
    throw failure;
  }
}

function emptyNotebook(spec: KernelSpec.ISpecModel | null): object {
  const metadata: Record<string, unknown> = {};
  if (spec) {
    metadata.kernelspec = {
      name: spec.name,
      display_name: spec.display_name,
      language: spec.language
    };
    metadata.language_info = { name: spec.language };
  }
  return { cells: [], metadata, nbformat: 4, nbformat_minor: 5 };
}
