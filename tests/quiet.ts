/**
 * Console noise of the libraries under test in jsdom, not findings: Yjs warns
 * once per new cell while @jupyter/ydoc builds it ("Invalid access: Add Yjs
 * type…") and, with per-cell undo, "[yjs#509] Not same Y.Doc"; JupyterLab's
 * clipboard warns that jsdom has no Clipboard API. Printing hundreds of them
 * with stack traces makes the large notebooks of the tests slow to build.
 */
const NOISE = [
  'Invalid access: Add Yjs type',
  '[yjs#509] Not same Y.Doc',
  'Clipboard API not available'
];

/**
 * Drop those warnings (every other one still prints) from now on, including
 * while the module under test loads, and again after each test in case it
 * restored every mock.
 */
export function silenceKnownWarnings(): void {
  const original = console.warn;
  const install = () => {
    if (console.warn === original) {
      jest.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => {
        const text = String(args[0]);
        if (!NOISE.some(noise => text.startsWith(noise))) {
          original(...args);
        }
      });
    }
  };
  install();
  beforeEach(install);
  afterAll(() => {
    console.warn = original;
  });
}
