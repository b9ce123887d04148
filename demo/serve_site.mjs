// Serve a built site with demo/serve.py on a free port of 127.0.0.1, for
// demo/check_offline.mjs and demo/bench_kernel_start.mjs.

import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.dirname(HERE);

function pythonExecutable() {
  if (process.env.PYTHON) {
    return process.env.PYTHON;
  }
  const venv = path.join(REPO, '.venv', 'bin', 'python');
  return existsSync(venv) ? venv : 'python3';
}

export function startServer(dir) {
  return new Promise((resolve, reject) => {
    const proc = spawn(
      pythonExecutable(),
      [path.join(HERE, 'serve.py'), '--port', '0', '--dir', dir],
      { stdio: ['ignore', 'pipe', 'pipe'] }
    );
    let out = '';
    let err = '';
    const timer = setTimeout(
      () => reject(new Error(`serve.py did not start in time:\n${out}${err}`)),
      20_000
    );
    proc.stdout.on('data', chunk => {
      out += chunk;
      const line = out.split('\n').find(l => l.startsWith('Serving '));
      const match = line && line.match(/http:\/\/127\.0\.0\.1:(\d+)/);
      if (match) {
        clearTimeout(timer);
        resolve({ proc, port: Number(match[1]), line });
      }
    });
    proc.stderr.on('data', chunk => {
      err += chunk;
      // 404s and friends: worth seeing while checking
      process.stderr.write(chunk);
    });
    proc.on('exit', code => {
      clearTimeout(timer);
      reject(new Error(`serve.py exited with ${code}:\n${out}${err}`));
    });
  });
}
