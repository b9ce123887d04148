#!/usr/bin/env node
// The size of the built labextension as a browser downloads it: every file
// under jupyterlite_webmcp/labextension/, gzipped one by one with node's zlib
// at level 9 (what `gzip -9` does), summed. Prints a table (file, raw bytes,
// gzipped bytes) and the totals in KB (1 KB = 1,000 bytes), for every file and
// for the JavaScript files alone. Builds nothing: run the production build
// first (npm run build:prod, or ./scripts/setup.sh).
//
// Usage: node scripts/bundle-size.mjs [labextension directory]
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

const root = resolve(
  process.argv[2] ??
    join(import.meta.dirname, '..', 'jupyterlite_webmcp', 'labextension')
);

function filesUnder(dir) {
  let found;
  try {
    found = readdirSync(dir);
  } catch {
    return null;
  }
  const files = [];
  for (const name of found.sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      files.push(...(filesUnder(path) ?? []));
    } else {
      files.push(path);
    }
  }
  return files;
}

const files = filesUnder(root);
if (!files || files.length === 0) {
  console.error(
    `No built labextension in ${root}: run npm run build:prod (or ./scripts/setup.sh) first.`
  );
  process.exit(1);
}

const rows = files.map(path => {
  const raw = readFileSync(path);
  return {
    file: relative(root, path),
    raw: raw.length,
    gzip: gzipSync(raw, { level: 9 }).length
  };
});
rows.sort((a, b) => b.gzip - a.gzip);

const kb = bytes => (bytes / 1000).toFixed(1);
const sum = (list, key) => list.reduce((total, row) => total + row[key], 0);
const js = rows.filter(row => row.file.endsWith('.js'));
const width = Math.max(...rows.map(row => row.file.length), 'file'.length);
const line = (file, raw, gzip) =>
  `${file.padEnd(width)}  ${String(raw).padStart(9)}  ${String(gzip).padStart(9)}`;

console.log(`Labextension size (${relative(process.cwd(), root) || '.'}),`);
console.log('each file gzipped alone with zlib level 9, in bytes:');
console.log('');
console.log(line('file', 'raw', 'gzipped'));
console.log(line('-'.repeat(width), '-'.repeat(9), '-'.repeat(9)));
for (const row of rows) {
  console.log(line(row.file, row.raw, row.gzip));
}
console.log('');
console.log(
  `Total:      ${kb(sum(rows, 'gzip'))} KB gzipped (${kb(sum(rows, 'raw'))} KB raw), ${rows.length} files`
);
console.log(
  `JavaScript: ${kb(sum(js, 'gzip'))} KB gzipped (${kb(sum(js, 'raw'))} KB raw), ${js.length} files`
);
