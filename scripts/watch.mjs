// `npm run watch`: rebuilds the TypeScript (lib/) and the labextension
// (jupyterlite_webmcp/labextension) on every change, as the extension
// template's `run-p watch:src watch:labextension` does. Two child processes
// and a shared Ctrl+C need no dependency: npm-run-all2, the maintained
// run-p, needs Node 22 in its current major, and this repository builds on
// Node 20.
import { spawn } from 'node:child_process';

const commands = [
  ['npm', ['run', 'watch:src']],
  ['npm', ['run', 'watch:labextension']]
];

// each in a process group of its own, so stopping it stops npm's children
// (the shell and the watcher) too
const children = commands.map(([command, args]) =>
  spawn(command, args, { stdio: 'inherit', detached: true })
);

let stopping = false;
function stop(code) {
  if (stopping) {
    return;
  }
  stopping = true;
  for (const child of children) {
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
  process.exitCode = code;
}

for (const child of children) {
  // one watcher ending (a failed start) ends the other, with its code
  child.on('exit', code => stop(code ?? 1));
}
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
