/**
 * What the run-cell and kernel-action browser tests share: notebooks for the
 * app's own Python kernel, and what a run left in a cell and on the kernel.
 */
import type { ICell } from '@jupyterlab/nbformat';

import { type JupyterApp, readFixture } from './jupyter';
import { notebookOf } from './notebook-content';

/** The kernelspec of the app's Python kernel (Pyodide in JupyterLite). */
export function pythonKernelspec(jupyter: JupyterApp): {
  display_name: string;
  language: string;
  name: string;
} {
  return jupyter.kind === 'lite'
    ? { display_name: 'Python (Pyodide)', language: 'python', name: 'python' }
    : {
        display_name: 'Python 3 (ipykernel)',
        language: 'python',
        name: 'python3'
      };
}

/**
 * Saves a notebook of `cells` (or of the fixture so named) for the app's
 * Python kernel in the test's directory; returns its path.
 */
export async function addKernelNotebook(
  jupyter: JupyterApp,
  name: string,
  cells: ICell[] | string
): Promise<string> {
  const kernelspec = pythonKernelspec(jupyter);
  if (typeof cells === 'string') {
    const content = readFixture(cells);
    content.metadata = { ...content.metadata, kernelspec };
    return jupyter.createNotebook(name, content);
  }
  return jupyter.createNotebook(name, notebookOf(cells, { kernelspec }));
}

interface IOutput {
  output_type: string;
  text?: string | string[];
  ename?: string;
}

async function outputs(jupyter: JupyterApp, index: number): Promise<IOutput[]> {
  return (await jupyter.cellRuns())[index].outputs as IOutput[];
}

/** A cell's stdout and stderr, as its stream outputs hold it. */
export async function streamText(
  jupyter: JupyterApp,
  index: number
): Promise<string> {
  return (await outputs(jupyter, index))
    .filter(output => output.output_type === 'stream')
    .map(output =>
      Array.isArray(output.text) ? output.text.join('') : (output.text ?? '')
    )
    .join('');
}

/** The names of a cell's error outputs. */
export async function errorNames(
  jupyter: JupyterApp,
  index: number
): Promise<string[]> {
  return (await outputs(jupyter, index))
    .filter(output => output.output_type === 'error')
    .map(output => output.ename ?? '');
}

/** The `execute_request`s the notebook's kernel was sent since recording. */
export async function executeRequests(jupyter: JupyterApp): Promise<number> {
  return (await jupyter.kernelMessages()).filter(
    type => type === 'execute_request'
  ).length;
}
