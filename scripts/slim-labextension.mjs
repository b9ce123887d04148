// The builder copies this package's package.json into the labextension
// twice (package.json, with `jupyterlab._build` added, and
// schemas/<name>/package.json.orig), both shipped in the wheel. Their
// `scripts` and `devDependencies` are for developing this repository: no
// app reads them (JupyterLab, Notebook 7 and JupyterLite read the name, the
// version and `jupyterlab`; jupyterlab_server reads the .orig's version).
// Left out, the two copies are 1.4 KB smaller gzipped (docs/benchmarks.md,
// "A small start"). Run after each build of the labextension
// (package.json `build:labextension`, `build:labextension:dev`).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const DEVELOPMENT_ONLY = ['scripts', 'devDependencies'];

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const source = JSON.parse(
  fs.readFileSync(path.join(root, 'package.json'), 'utf8')
);
const output = path.join(root, source.jupyterlab.outputDir);
const copies = [
  path.join(output, 'package.json'),
  path.join(output, 'schemas', source.name, 'package.json.orig')
];
for (const file of copies) {
  const data = JSON.parse(fs.readFileSync(file, 'utf8'));
  if (data.name !== source.name || data.version !== source.version) {
    throw new Error(`${file} is not this package's copy: rebuild first`);
  }
  for (const key of DEVELOPMENT_ONLY) {
    delete data[key];
  }
  fs.writeFileSync(file, JSON.stringify(data, null, 2) + '\n');
}
