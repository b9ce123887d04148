// Builds the "empty" labextension the load benchmark compares against
// (ui-tests/bench/load.bench.ts, BENCH_LOAD_EMPTY=1): this package's name,
// settings schemas and style sheet, and no plugin at all. It is what any
// extension shipping the same files costs a page load (the federation's
// remote entry, the style chunk, the settings the app validates), so the
// benchmark can tell that floor apart from what our code adds.
//
//   node scripts/build-empty-extension.mjs OUT_DIR
//
// The package is assembled in a temporary folder (package.json with its
// outputDir pointed at OUT_DIR, schema/, style/, a lib/index.js exporting no
// plugin, node_modules linked to this checkout's) and built with the same
// builder and core package file as `npm run build:labextension`.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = process.argv[2];
if (!out) {
  console.error('usage: node scripts/build-empty-extension.mjs OUT_DIR');
  process.exit(2);
}
const outDir = path.resolve(out);
// OUT_DIR is emptied first: it must lie outside this checkout (not the
// real build's folder) and must not hold it
const inside = (parent, child) =>
  !path.relative(parent, child).startsWith('..') &&
  !path.isAbsolute(path.relative(parent, child));
if (inside(repo, outDir) || inside(outDir, repo)) {
  console.error(`OUT_DIR ${outDir} must lie outside this checkout (${repo})`);
  process.exit(2);
}
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'jlwebmcp-empty-'));
try {
  const pkg = JSON.parse(
    fs.readFileSync(path.join(repo, 'package.json'), 'utf8')
  );
  // the builder joins outputDir to the package's folder
  pkg.jupyterlab.outputDir = path.relative(work, outDir);
  // the same build configuration (the style sheets minified alike)
  pkg.jupyterlab.webpackConfig = path.relative(
    work,
    path.join(repo, pkg.jupyterlab.webpackConfig)
  );
  fs.writeFileSync(
    path.join(work, 'package.json'),
    JSON.stringify(pkg, null, 2)
  );
  for (const dir of ['schema', 'style']) {
    fs.cpSync(path.join(repo, dir), path.join(work, dir), { recursive: true });
  }
  fs.mkdirSync(path.join(work, 'lib'));
  fs.writeFileSync(path.join(work, 'lib', 'index.js'), 'export default [];\n');
  fs.symlinkSync(
    path.join(repo, 'node_modules'),
    path.join(work, 'node_modules')
  );
  fs.rmSync(outDir, { recursive: true, force: true });
  execFileSync(
    process.execPath,
    [
      path.join(
        repo,
        'node_modules/@jupyter/builder/lib/build-labextension.js'
      ),
      '--core-package-file',
      path.join(repo, 'node_modules/@jupyterlab/core-meta/core.package.json'),
      work
    ],
    { stdio: 'inherit', cwd: work }
  );
  if (!fs.existsSync(path.join(outDir, 'package.json'))) {
    throw new Error(`the build wrote no package.json into ${outDir}`);
  }
  console.log(`Built the empty ${pkg.name} labextension into ${outDir}`);
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
