#!/usr/bin/env bash
# Measure the latency of the cell tools through the browser's WebMCP API:
# jupyter_get_cells (20 and 100 cells, with and without outputs) and
# jupyter_update_cell on notebooks of 50, 1,000 and 5,000 cells, against an
# empty registered tool, in JupyterLab and headless Chromium with WebMCP.
# Prints the table and writes it to .bench/results.md. Also (run.bench.ts) the
# overhead of running 100 trivial cells with jupyter_run_cells against the
# notebook's own Run All, on the same kernel: .bench/run-results.md. And
# (review.bench.ts) jupyter_list_comments and jupyter_get_comment with 500
# review threads on 5,000 cells against 5 threads on 50 cells:
# .bench/review-results.md. And (load.bench.ts) the page's load time with and
# without the extension, and from the app's restored to the last tool
# registered, in JupyterLab, Notebook 7 and JupyterLite: .bench/load-results.md.
# Run one with e.g. `./scripts/bench.sh run.bench.ts`. Informational: it fails only
# when the run itself breaks, never on a timing. See docs/benchmarks.md.
#
# First it prints the size of the built labextension (every file gzipped
# alone, summed: scripts/bundle-size.mjs), also written to .bench/size.txt;
# `./scripts/bench.sh --size` (or `npm run size`) prints only that, without
# starting a browser.
#
# Builds nothing: run ./scripts/setup.sh first (venv, npm packages, build);
# the size is meaningful for the production build that setup.sh makes.
# Knobs: BENCH_SIZES (default 50,1000,5000), BENCH_WARMUPS (5), BENCH_REPS (30);
# for the run benchmark BENCH_RUN_WARMUPS (2), BENCH_RUN_REPS (10).
# Extra arguments go to `playwright test` (e.g. --headed is not available here).
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -f jupyterlite_webmcp/labextension/package.json ]; then
  echo "The extension is not built: run ./scripts/setup.sh (or npm run build) first." >&2
  exit 1
fi
mkdir -p .bench
node scripts/bundle-size.mjs | tee .bench/size.txt
if [ "${1:-}" = "--size" ]; then
  exit 0
fi
echo

# UI_TESTS_PYTHON names another checkout's venv (a git worktree has none of
# its own); the servers are started with that Python
if [ -z "${UI_TESTS_PYTHON:-}" ]; then
  if [ ! -f .venv/bin/activate ]; then
    echo "No .venv: run ./scripts/setup.sh first (or set UI_TESTS_PYTHON)." >&2
    exit 1
  fi
  # shellcheck disable=SC1091
  . .venv/bin/activate
fi

if [ ! -x "${UI_TESTS_CHROMIUM:-/usr/bin/chromium}" ]; then
  echo "No Chromium at ${UI_TESTS_CHROMIUM:-/usr/bin/chromium} (apt-get install chromium)." >&2
  exit 1
fi

export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
npx playwright test -c ui-tests/bench/playwright.config.ts "$@"
