#!/usr/bin/env node
// The size of the built labextension as a browser downloads it: every file
// under jupyterlite_webmcp/labextension/, gzipped one by one with node's zlib
// at level 9 (what `gzip -9` does), summed. Prints a table (file, raw bytes,
// gzipped bytes) and the totals in KB (1 KB = 1,000 bytes), for every file and
// for the JavaScript files alone. Builds nothing: run the production build
// first (npm run build:prod, or ./scripts/setup.sh).
//
// Each file is also put in the moment the page fetches it (docs/architecture.md,
// "A small start"), read off the federation runtime (remoteEntry.*.js): at
// the start, the runtime and the chunks its "./extension" and "./style"
// modules load, and our plugins' chunk, which the start fetches once the
// layout is restored: what the page downloads and runs before the tools are
// registered; later, every other chunk; the opt-in relay's files, fetched
// only when the owner turns the relay on; and the files the page never
// fetches (package.json, the settings schemas, the licenses). The goals:
// the start at most 45 KB, all files but the relay's at most 115 KB.
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

const START_GOAL_KB = 45;
const TOTAL_GOAL_KB = 115;

const rows = files.map(path => {
  const raw = readFileSync(path);
  return {
    file: relative(root, path),
    raw: raw.length,
    gzip: gzipSync(raw, { level: 9 }).length
  };
});
rows.sort((a, b) => b.gzip - a.gzip);

/**
 * The files of the chunks the exposed modules load at the start: the
 * runtime names them by chunk id, and names each chunk's file by a hash
 * that is in the file's name.
 */
function startFiles() {
  const entry = rows.find(row =>
    /^static\/remoteEntry\.[^/]*\.js$/.test(row.file)
  );
  if (!entry) {
    throw new Error('No remoteEntry.*.js: is this a built labextension?');
  }
  const runtime = readFileSync(join(root, entry.file), 'utf-8');
  const ids = new Set();
  for (const exposed of ['./extension', './style']) {
    const at = runtime.indexOf(`"${exposed}":`);
    if (at < 0) {
      throw new Error(`The runtime exposes no ${exposed}.`);
    }
    const loader = runtime.slice(at, runtime.indexOf('.then(', at));
    for (const match of loader.matchAll(/\.e\((\d+)\)/g)) {
      ids.add(match[1]);
    }
  }
  // our plugins' chunk, which the start fetches once the layout is restored
  // and which registers the tools (src/load-plugins.ts)
  const plugins = runtime.match(/(\d+):"plugins"/);
  if (!plugins) {
    throw new Error('The runtime names no "plugins" chunk.');
  }
  ids.add(plugins[1]);
  const hashes = new Map();
  for (const match of runtime.matchAll(/(\d+):"([0-9a-f]{16,})"/g)) {
    hashes.set(match[1], match[2]);
  }
  const start = new Set([entry.file]);
  for (const id of ids) {
    const hash = hashes.get(id);
    const row = hash && rows.find(row => row.file.includes(`.${hash}.js`));
    if (!row) {
      throw new Error(`The file of chunk ${id} is not found.`);
    }
    start.add(row.file);
  }
  return start;
}

const start = startFiles();
const momentOf = row => {
  if (start.has(row.file)) {
    return 'start';
  }
  if (/^static\/relay[./]/.test(row.file)) {
    return 'relay';
  }
  if (/^static\/assistants\./.test(row.file)) {
    return 'assist'; // at the start, only with an in-app assistant installed
  }
  if (row.file === 'static/style.js') {
    return 'never'; // the builder's CSS imports, for a source build
  }
  if (row.file.startsWith('static/') && row.file.endsWith('.js')) {
    return 'later';
  }
  return 'never';
};
for (const row of rows) {
  row.moment = momentOf(row);
}

const kb = bytes => (bytes / 1000).toFixed(1);
const sum = (list, key) => list.reduce((total, row) => total + row[key], 0);
const js = rows.filter(row => row.file.endsWith('.js'));
const width = Math.max(...rows.map(row => row.file.length), 'file'.length);
const line = (file, moment, raw, gzip) =>
  `${file.padEnd(width)}  ${moment.padEnd(6)}  ${String(raw).padStart(9)}  ${String(gzip).padStart(9)}`;

console.log(`Labextension size (${relative(process.cwd(), root) || '.'}),`);
console.log(
  'each file gzipped alone with zlib level 9, in bytes, and when the page fetches it:'
);
console.log('');
console.log(line('file', 'when', 'raw', 'gzipped'));
console.log(
  line('-'.repeat(width), '-'.repeat(6), '-'.repeat(9), '-'.repeat(9))
);
for (const row of rows) {
  console.log(line(row.file, row.moment, row.raw, row.gzip));
}
const of = moment => rows.filter(row => row.moment === moment);
const startKb = sum(of('start'), 'gzip') / 1000;
const relay = of('relay');
const allButRelay = rows.filter(row => row.moment !== 'relay');
const totalKb = sum(allButRelay, 'gzip') / 1000;
console.log('');
console.log(
  `Start:      ${startKb.toFixed(1)} KB gzipped (${kb(sum(of('start'), 'raw'))} KB raw), ${of('start').length} files: downloaded and run before the tools are registered (goal: at most ${START_GOAL_KB} KB${startKb <= START_GOAL_KB ? ', met' : ', NOT met'})`
);
console.log(
  `Assistant:  ${kb(sum(of('assist'), 'gzip'))} KB gzipped, ${of('assist').length} file: fetched at the start only when an in-app assistant is installed`
);
console.log(
  `Later:      ${kb(sum(of('later'), 'gzip'))} KB gzipped (${kb(sum(of('later'), 'raw'))} KB raw), ${of('later').length} files: fetched once the start is over, or when first needed`
);
console.log(
  `All files but the relay's: ${totalKb.toFixed(1)} KB gzipped, ${allButRelay.length} files (goal: at most ${TOTAL_GOAL_KB} KB${totalKb <= TOTAL_GOAL_KB ? ', met' : ', NOT met'})`
);
console.log(
  `The relay (opt-in): ${kb(sum(relay, 'gzip'))} KB gzipped, ${relay.length} files, fetched only when the owner turns it on`
);
console.log(
  `Total:      ${kb(sum(rows, 'gzip'))} KB gzipped (${kb(sum(rows, 'raw'))} KB raw), ${rows.length} files`
);
console.log(
  `JavaScript: ${kb(sum(js, 'gzip'))} KB gzipped (${kb(sum(js, 'raw'))} KB raw), ${js.length} files`
);
