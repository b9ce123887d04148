#!/usr/bin/env bash
# Set everything up and run the demo: a JupyterLite site with this extension
# and the sample notebooks, its Python kernel working offline, served on
# 127.0.0.1 (PORT, default 8000).
#
#   ./scripts/demo.sh --tour   the same site, then a scripted agent drives it
#                              through chrome-devtools-mcp (scripts/tour.mjs)
#                              and the script exits 0 when every step answered
set -euo pipefail
cd "$(dirname "$0")/.."

tour=false
case "${1:-}" in
  --tour) tour=true ;;
  "") ;;
  *) echo "usage: $0 [--tour]" >&2; exit 2 ;;
esac

./scripts/setup.sh
# shellcheck disable=SC1091
. .venv/bin/activate

printf '\n==> Building the JupyterLite demo site (demo/_output)\n'
python demo/build.py

if [ "$tour" = true ]; then
  printf '\n==> The tour: a scripted agent on the demo through chrome-devtools-mcp\n'
  exec node scripts/tour.mjs
fi

port=${PORT:-8000}
cat <<MSG

==> Serving the demo on http://127.0.0.1:$port/
    JupyterLab:  http://127.0.0.1:$port/lab/index.html
    Notebook:    http://127.0.0.1:$port/notebooks/index.html?path=analysis.ipynb

    Open it in Chromium with WebMCP turned on:
      chromium --enable-features=WebMCP http://127.0.0.1:$port/lab/index.html
    The status bar then shows how many tools are registered. Ctrl+C stops.

MSG
exec python demo/serve.py --port "$port" --dir demo/_output
