#!/usr/bin/env bash
# Prepare a checkout for the demo and the tests: a Python venv from the lock,
# npm packages from the lock, the built extension installed into the venv.
# Idempotent: a second run only redoes what changed.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

log() { printf '\n==> %s\n' "$*"; }

python=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  log "Creating the Python venv (.venv)"
  "$python" -m venv .venv
fi
# shellcheck disable=SC1091
. .venv/bin/activate

stamp=.venv/.requirements-dev.sha
want=$(sha256sum requirements-dev.txt | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  log "Installing Python dependencies from requirements-dev.txt"
  python -m pip install --quiet --disable-pip-version-check --upgrade pip
  python -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
  echo "$want" > "$stamp"
fi

export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  log "Installing npm dependencies from package-lock.json"
  npm ci --no-audit --no-fund --loglevel=error
fi

log "Building the extension"
npm run --silent build:lib:prod
npm run --silent build:labextension
# the example extension built on this one's tokens (its browser tests load it)
npm run --silent build:example >/dev/null

# The in-app assistants' labextensions for the assistant-* browser tests
# (jupyter-ai-lite 0.21, jupyterlite-ai 0.20): wheels pinned in
# ui-tests/assistant/*.txt, downloaded once into ui-tests/.assistants and
# unpacked there, never installed into .venv (the two conflict)
python ui-tests/assistant/fetch.py

if ! python -c 'import jupyterlite_webmcp' 2>/dev/null; then
  log "Installing the Python package (editable)"
  python -m pip install --quiet --disable-pip-version-check --no-deps --no-build-isolation -e .
fi
# Point the venv's labextension directory at this checkout's build.
jupyter-builder develop --overwrite . >/dev/null
if ! jupyter labextension list 2>&1 | grep -q 'jupyterlite-webmcp.*enabled.*OK'; then
  echo "The extension is not enabled in .venv; see 'jupyter labextension list'." >&2
  exit 1
fi
log "Ready: $(jupyter labextension list 2>&1 | grep jupyterlite-webmcp | sed 's/\x1b\[[0-9;]*m//g' | xargs)"
cd "$root"
