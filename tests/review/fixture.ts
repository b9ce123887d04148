/** The notebook jupyterlite-webmcp 0.1.1 annotated, for the review tests. */
import { readFileSync } from 'fs';
import * as path from 'path';

import { YNotebook } from '@jupyter/ydoc';
import type * as nbformat from '@jupyterlab/nbformat';

import { withJoinedStreams } from '../../src/jupyter/outputs/outputs';

const FIXTURE = 'annotated-by-0.1.1.ipynb';

/**
 * The fixture, kept in the repository (`tests/fixtures/`), where the unit
 * tests and the browser tests (ui-tests/jupyter.ts `readFixture`) read it.
 */
export function fixturePath(): string {
  return path.resolve(__dirname, '../fixtures', FIXTURE);
}

export function fixtureContent(): nbformat.INotebookContent {
  return JSON.parse(
    readFileSync(fixturePath(), 'utf-8')
  ) as nbformat.INotebookContent;
}

/** A model built from the file exactly as the resolver builds one. */
export function fromFile(content = fixtureContent()): YNotebook {
  const model = YNotebook.create();
  model.fromJSON(withJoinedStreams(content));
  return model;
}

/** The thread ids of the fixture, by what they are about. */
export const FIXTURE_THREADS = {
  cell: 'a616b942-473a-4cdc-b78e-83a8a8db1b75',
  range: '808743df-5dab-444f-ada4-3295452de0b7',
  output: '3ab1e429-4f47-4726-b862-d45bb5463755',
  hidden: '71b896f7-1cd5-4dae-bddc-4b3efc9493d9',
  readOnly: '70458636-b072-4b04-8f92-4f8805d25810'
};
