// Add compiled bytecode to pure-Python wheels, with Pyodide's own Python.
//
//   node demo/pyc_wheels.mjs PYODIDE_DIR SOURCE.whl=TARGET.whl ...
//
// demo/build.py calls this for the wheels a kernel loads at start. It loads
// Pyodide from PYODIDE_DIR (node_modules/pyodide), mounts the folders of the
// given wheels and runs demo/pyc_wheels.py there, whose docstring says what
// a target wheel holds. Prints one JSON line per wheel: {source, target,
// compiled, cacheTag}. Exits 1, with the error, if a wheel fails.
//
// pyodide-build's `pyodide py-compile` does this for Pyodide's own packages,
// but it compiles with the host's Python, which must then be Pyodide's
// version (3.14); this needs only Node and the npm package.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));

const [pyodideDir, ...pairs] = process.argv.slice(2);
if (!pyodideDir || pairs.length === 0 || pairs.some(p => !p.includes('='))) {
  console.error(
    'usage: node demo/pyc_wheels.mjs PYODIDE_DIR SOURCE.whl=TARGET.whl ...'
  );
  process.exit(2);
}

const { loadPyodide } = await import(
  pathToFileURL(path.join(path.resolve(pyodideDir), 'pyodide.mjs')).href
);
const pyodide = await loadPyodide({
  indexURL: path.resolve(pyodideDir) + path.sep,
  stdout: line => console.error(line),
  stderr: line => console.error(line)
});

// each host folder once, at /host/<n>
const mounts = new Map();
const inPyodide = file => {
  const folder = path.dirname(path.resolve(file));
  if (!mounts.has(folder)) {
    const at = `/host/${mounts.size}`;
    pyodide.FS.mkdirTree(at);
    pyodide.mountNodeFS(at, folder);
    mounts.set(folder, at);
  }
  return `${mounts.get(folder)}/${path.basename(file)}`;
};

pyodide.FS.mkdirTree('/pyc');
pyodide.FS.writeFile(
  '/pyc/pyc_wheels.py',
  readFileSync(path.join(HERE, 'pyc_wheels.py'), 'utf8')
);
pyodide.runPython("import sys; sys.path.insert(0, '/pyc')");
const compileWheel = pyodide.pyimport('pyc_wheels').compile_wheel;

for (const pair of pairs) {
  const [source, target] = pair.split('=');
  const result = compileWheel(inPyodide(source), inPyodide(target));
  const counts = result.toJs({ dict_converter: Object.fromEntries });
  result.destroy();
  console.log(
    JSON.stringify({
      source,
      target,
      compiled: counts.compiled,
      cacheTag: counts.cache_tag
    })
  );
}
