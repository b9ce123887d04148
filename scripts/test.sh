#!/usr/bin/env bash
# Run every test: lint, unit tests, the wheel check, and the browser tests in
# JupyterLab, Notebook 7 and JupyterLite. Ends with "N passed, N failed" and
# exits non-zero when anything failed.
set -uo pipefail
cd "$(dirname "$0")/.."

setup_start=$SECONDS
./scripts/setup.sh || { echo "Set-up failed."; echo "0 passed, 1 failed"; exit 1; }
setup_seconds=$((SECONDS - setup_start))
# shellcheck disable=SC1091
. .venv/bin/activate
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1

results=.test-results
rm -rf "$results"
mkdir -p "$results"
passed=0
failed=0
failures=()

count() { # name passed failed
  passed=$((passed + $2))
  failed=$((failed + $3))
  if [ "$3" -gt 0 ]; then failures+=("$1: $3 failed"); fi
  printf '    %s: %s passed, %s failed\n' "$1" "$2" "$3"
}

# how long each step took, printed at the end (a CI log shows where the
# time goes)
timings=("$(printf '%6ss  %s' "$setup_seconds" "Set-up (venv, npm packages, build)")")
step_name=''
step_start=$SECONDS
end_step() {
  if [ -n "$step_name" ]; then
    timings+=("$(printf '%6ss  %s' "$((SECONDS - step_start))" "$step_name")")
  fi
}
step() {
  end_step
  step_name="$*"
  step_start=$SECONDS
  printf '\n==> %s\n' "$*"
}

step "Lint (prettier, eslint, stylelint), the wheel check beside it"
# the wheel check (pip in a new venv) runs beside lint: lint alone took
# 41.6 s, the check alone 32.2 s, both at once 66 s (one run each, stop 41);
# the check's output is printed after lint's
./scripts/check-wheel.sh >"$results/wheel.log" 2>&1 &
wheel_pid=$!
if npm run --silent lint:check; then count lint 1 0; else count lint 0 1; fi

step "Type check (src, unit tests, browser tests), unit tests (jest)"
# jest only transpiles (isolatedModules in tsconfig.test.json): one tsc run
# checks the types instead of ts-jest in every suite (jest 75 s before, 56 s
# after, the check 10 s; the browser tests' check, 8 s, was in no step)
if npm run --silent typecheck; then count typecheck 1 0; else count typecheck 0 1; fi
# two workers: the suites are independent, and on 2 cores jest's default
# (one worker) took 73 s where two take 45 (a fresh clone, no jest cache)
npx jest --ci --maxWorkers=2 --json --outputFile="$results/jest.json" >"$results/jest.log" 2>&1
tail -n 8 "$results/jest.log"
if [ -f "$results/jest.json" ]; then
  read -r jp jf < <(node -e 'const r=require(process.argv[1]);console.log(r.numPassedTests, r.numFailedTests + r.numRuntimeErrorTestSuites)' "$PWD/$results/jest.json")
  count jest "$jp" "$jf"
else
  cat "$results/jest.log"; count jest 0 1
fi

step "Wheel: pip install in a clean venv (the rest of its time)"
if wait "$wheel_pid"; then
  cat "$results/wheel.log"; count wheel 1 0
else
  cat "$results/wheel.log"; count wheel 0 1
fi

step "Demo site (JupyterLite, offline Pyodide)"
if python demo/build.py >"$results/demo-build.log" 2>&1; then
  tail -n 3 "$results/demo-build.log"
else
  cat "$results/demo-build.log"; count demo-build 0 1
fi

step "Browser tests (Playwright, Chromium with WebMCP)"
# An older Chromium (150, from stale apt lists) has a document.modelContext
# whose executeTool rejects every call with "Failed to parse input
# arguments": every agent call in the suite would fail for that reason alone
chromium_major=$(chromium --version 2>/dev/null | grep -oE '[0-9]+' | head -n 1)
if [ "${chromium_major:-0}" -lt 156 ]; then
  echo "Chromium ${chromium_major:-(none)} found; the browser tests need Debian's Chromium 156 or newer:"
  echo "  apt-get update && apt-get install -y chromium   (.ci/run does this)"
  count chromium 0 1
else
  PLAYWRIGHT_JSON_OUTPUT_NAME="$PWD/$results/playwright.json" \
    npx playwright test -c ui-tests/playwright.config.ts --reporter=list,json
fi
if [ "${chromium_major:-0}" -lt 156 ]; then
  : # not run: counted above
elif [ -f "$results/playwright.json" ]; then
  read -r bp bf bflaky < <(node -e 'const s=require(process.argv[1]).stats;console.log(s.expected + s.flaky, s.unexpected + (s.skipped||0), s.flaky)' "$PWD/$results/playwright.json")
  count browser "$bp" "$bf"
  # the app servers' warnings and errors, for a failure that began there
  if [ "$bf" -gt 0 ]; then
    for server_log in ui-tests/.servers/*.log; do
      [ -f "$server_log" ] || continue
      # errors and refused requests (5xx); the tests' own 404s are expected
      problems=$(grep -E '^\[(E|C) |^\[W [^]]*\] 5[0-9][0-9] ' "$server_log" | grep -v 'received signal 15' | tail -n 25)
      if [ -n "$problems" ]; then
        printf '    %s (errors and 5xx answers, last 25):\n' "$server_log"
        printf '%s\n' "$problems" | sed 's/^/      /'
      fi
    done
  fi
  # a test that passed only on its retry (JupyterLite) is named, not hidden
  if [ "$bflaky" -gt 0 ]; then
    printf '    browser: %s passed only on a retry (flaky):\n' "$bflaky"
    node -e '
      const walk = (s, out) => { for (const c of s.suites || []) walk(c, out);
        for (const sp of s.specs || []) for (const t of sp.tests || [])
          if (t.status === "flaky") out.push(`[${t.projectName}] ${sp.file} › ${sp.title}`);
        return out; };
      const r = require(process.argv[1]);
      for (const line of (r.suites || []).reduce((o, s) => walk(s, o), [])) console.log("      " + line);
    ' "$PWD/$results/playwright.json"
  fi
else
  count browser 0 1
fi

end_step

echo
echo "Time per step (wall clock):"
printf '  %s\n' "${timings[@]}"
if [ -f "$results/playwright.json" ]; then
  # test time (every try's duration, summed; two workers run at once)
  node -e '
    const r = require(process.argv[1]);
    const byProject = new Map(), byFile = new Map();
    const walk = s => { for (const c of s.suites || []) walk(c);
      for (const sp of s.specs || []) for (const t of sp.tests || [])
        for (const res of t.results || []) {
          byProject.set(t.projectName, (byProject.get(t.projectName) || 0) + res.duration);
          const key = `[${t.projectName}] ${sp.file}`;
          byFile.set(key, (byFile.get(key) || 0) + res.duration);
        } };
    for (const s of r.suites || []) walk(s);
    const fmt = ms => `${(ms / 1000).toFixed(0).padStart(6)}s`;
    console.log(`Browser test time per project (summed over ${r.config?.metadata?.actualWorkers ?? "the"} workers):`);
    for (const [p, ms] of [...byProject].sort((a, b) => b[1] - a[1])) console.log(`  ${fmt(ms)}  ${p}`);
    console.log("Slowest 15 spec files (per project):");
    for (const [f, ms] of [...byFile].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`  ${fmt(ms)}  ${f}`);
  ' "$PWD/$results/playwright.json" || true
fi

echo
if [ "${#failures[@]}" -gt 0 ]; then
  printf 'Failed: %s\n' "${failures[@]}"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
