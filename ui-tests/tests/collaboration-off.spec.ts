/**
 * jupyter-collaboration is installed (for the rtc project's lab-rtc server),
 * but the apps the other projects test run without it: the lab and notebook
 * servers disable its server extension and do not load its labextensions,
 * and the JupyterLite site disables them (demo/jupyter-lite.json). A notebook
 * there is a single user's document, loaded and saved through the contents
 * service, as every other test expects.
 */
import { expect, shareInLab, test } from '../fixtures';

const RTC_EXTENSIONS = [
  '@jupyter/docprovider-extension',
  '@jupyter/collaboration-extension'
];

// in JupyterLab it shares the worker's app start-up: the plugins it reads
// are the app's, however many tests the app served
test.use(shareInLab);

test('the app runs without real-time collaboration', async ({
  jupyter,
  human
}) => {
  await jupyter.start();
  const path = await jupyter.createNotebook('single-user.ipynb', {
    cells: [],
    metadata: {},
    nbformat: 4,
    nbformat_minor: 5
  });
  await human.openNotebook(path, { kernel: false });
  const facts = await jupyter.page.evaluate(
    ([p, names]) => {
      const app = window.uiTests.app();
      const panel = window.uiTests.findNotebook(p);
      return {
        collaborative: panel?.context.model.collaborative ?? null,
        plugins: app
          .listPlugins()
          .filter(id => names.some(name => id.startsWith(`${name}:`)))
      };
    },
    [path, RTC_EXTENSIONS] as const
  );
  expect(facts).toEqual({ collaborative: false, plugins: [] });
});
