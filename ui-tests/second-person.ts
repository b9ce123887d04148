/**
 * A second person on the same JupyterLab server (the rtc project's
 * lab-rtc): their own browser context, page, app, person and agent, as a
 * collaborator in another browser has.
 */
import type { Browser, Page } from '@playwright/test';

import { Agent } from './agent';
import { Human } from './human';
import { JupyterApp } from './jupyter';
import { installPageHelpers } from './page-helpers';

export interface ISecondPerson {
  jupyter: JupyterApp;
  human: Human;
  agent: Agent;
  page: Page;
}

/**
 * Person B beside the test's own (`first`). Their directory name, which is
 * never created (the notebooks are the first person's), gives them a
 * workspace of their own. The caller closes `jupyter.context` at the end.
 */
export async function secondPerson(
  browser: Browser,
  first: JupyterApp,
  baseURL: string
): Promise<ISecondPerson> {
  const context = await browser.newContext({ baseURL });
  await context.addInitScript(installPageHelpers);
  const page = await context.newPage();
  const jupyter = new JupyterApp({
    context,
    page,
    kind: 'lab',
    ui: 'lab',
    baseURL,
    dir: `${first.dir}-b`
  });
  return {
    jupyter,
    human: new Human(jupyter),
    agent: new Agent(jupyter),
    page
  };
}
