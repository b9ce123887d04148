const jestJupyterLab = require('@jupyterlab/testing/lib/jest-config');

const base = jestJupyterLab(__dirname);

module.exports = {
  ...base,
  reporters: ['default'],
  coverageReporters: ['text-summary', 'lcov'],
  collectCoverageFrom: ['src/**/*.{ts,tsx}', '!src/**/*.d.ts'],
  testRegex: '/tests/.*\\.spec\\.tsx?$',
  testPathIgnorePatterns: ['/lib/', '/node_modules/', '/ui-tests/']
};
