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
  moduleNameMapper: {
    // first: a *.raw.css sheet is a string (tests/raw-css.js)
    '\\.raw\\.css$': '<rootDir>/tests/raw-css.js',
    ...base.moduleNameMapper
  },
  reporters: ['default'],
  coverageReporters: ['text-summary', 'lcov'],
  collectCoverageFrom: ['src/**/*.{ts,tsx}', '!src/**/*.d.ts'],
  testRegex: '/tests/.*\\.spec\\.tsx?$',
  testPathIgnorePatterns: ['/lib/', '/node_modules/', '/ui-tests/'],
  transformIgnorePatterns: [`/node_modules/(?!${esModules}).+`]
};
