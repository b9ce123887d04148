#!/usr/bin/env bash
# Set everything up and run the demo: a JupyterLite site with this extension
# and the sample notebooks, its Python kernel working offline, served on
# 127.0.0.1 (PORT, default 8000).
set -euo pipefail
cd "$(dirname "$0")/.."

./scripts/setup.sh
# shellcheck disable=SC1091
. .venv/bin/activate

printf '\n==> Building the JupyterLite demo site (demo/_output)\n'
python demo/build.py

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
