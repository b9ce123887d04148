const jestJupyterLab = require('@jupyterlab/testing/lib/jest-config');

const base = jestJupyterLab(__dirname);

// ESM-only packages jest must transform, beside the ones JupyterLab lists.
const esModules = [
  '@codemirror',
  '@marijn',
  '@microsoft',
  '@jupyter/react-components',
  '@jupyter/web-components',
  '@jupyter/ydoc',
  '@jupyterlab/',
  'ansi-regex',
  'color',
  'exenv-es6',
  'lib0',
  'marked',
  'nanoid',
  'strip-ansi',
  'vscode-ws-jsonrpc',
  'y-protocols',
  'y-websocket',
  'yjs'
].join('|');

module.exports = {
  ...base,
  reporters: ['default'],
  coverageReporters: ['text-summary', 'lcov'],
  collectCoverageFrom: ['src/**/*.{ts,tsx}', '!src/**/*.d.ts'],
  testRegex: '/tests/.*\\.spec\\.tsx?$',
  testPathIgnorePatterns: ['/lib/', '/node_modules/', '/ui-tests/'],
  transformIgnorePatterns: [`/node_modules/(?!${esModules}).+`]
};
