#!/usr/bin/env bash
# The reliability suite (issue 13) at the full counts of its table, through
# native WebMCP in real apps, then a table of its figures.
#
#   ./scripts/reliability.sh                  # lab, notebook, lite and rtc, full counts
#   ./scripts/reliability.sh --project=lab    # one app (any playwright arguments)
#   RELIABILITY_SCALE=ci ./scripts/reliability.sh   # the small counts CI runs
#   RELIABILITY_SEED=123 ./scripts/reliability.sh   # replay a fast-check seed
#
# The same specs (ui-tests/tests/reliability-*.spec.ts and review-rtc.spec.ts)
# run at small counts in the normal browser test run (scripts/test.sh,
# .ci/run). Each runs in the apps its tags name (docs/testing.md).
set -uo pipefail
cd "$(dirname "$0")/.."

[ -d .venv ] || ./scripts/setup.sh || exit 1
# shellcheck disable=SC1091
. .venv/bin/activate
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
export RELIABILITY_SCALE="${RELIABILITY_SCALE:-full}"
export UI_TESTS_WORKERS="${UI_TESTS_WORKERS:-1}"

out=.test-results/reliability
mkdir -p "$out"
figures="$PWD/$out/figures.jsonl"
: >"$figures"
export RELIABILITY_FIGURES="$figures"

args=("$@")
if [ "${#args[@]}" -eq 0 ]; then
  args=(--project=lab --project=notebook --project=lite --project=rtc)
fi

started=$(date +%s)
# review-rtc.spec.ts: the review threads under collaboration, whose thread
# counts follow RELIABILITY_SCALE too (a sample in the test command)
npx playwright test -c ui-tests/playwright.config.ts "${args[@]}" \
  ui-tests/tests/reliability- ui-tests/tests/review-rtc 2>&1 | tee "$out/run.log"
status=${PIPESTATUS[0]}
elapsed=$(($(date +%s) - started))

echo
echo "Reliability figures ($RELIABILITY_SCALE counts), $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, $(free -g | awk '/^Mem:/ {print $2}') GiB, ${elapsed} s in all"
node -e '
  const fs = require("fs");
  const rows = fs.readFileSync(process.argv[1], "utf-8").split("\n").filter(Boolean).map(l => JSON.parse(l));
  const head = ["row", "app", "count", "failures", "seconds", "unit"];
  const table = [head, ...rows.map(r => [r.row, r.app, String(r.count), String(r.failures), String(r.seconds), r.unit])];
  const widths = head.map((_, i) => Math.max(...table.map(t => t[i].length)));
  const line = cells => "| " + cells.map((c, i) => c.padEnd(widths[i])).join(" | ") + " |";
  console.log(line(head));
  console.log("|" + widths.map(w => "-".repeat(w + 2)).join("|") + "|");
  for (const t of table.slice(1)) console.log(line(t));
  console.log();
  for (const r of rows) if (r.notes) console.log(`${r.row} (${r.app}): ${r.notes}`);
' "$figures"
exit "$status"
