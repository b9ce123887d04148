#!/usr/bin/env bash
# Build the wheel from this checkout and install it into a brand-new venv with
# JupyterLab: the extension must be listed as enabled and OK. Prints one line
# "PASS ..." or "FAIL ..." and exits non-zero on failure.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

. .venv/bin/activate
python -m pip wheel --quiet --disable-pip-version-check --no-deps -w "$work/dist" . >"$work/wheel.log" 2>&1 || {
  cat "$work/wheel.log"; echo "FAIL wheel: could not build the wheel"; exit 1; }
wheel=$(ls "$work"/dist/jupyterlite_webmcp-*.whl)
contents=$(unzip -l "$wheel")
if ! grep -q 'share/jupyter/labextensions/jupyterlite-webmcp/package.json' <<<"$contents"; then
  echo "FAIL wheel: $wheel lacks the prebuilt labextension"; exit 1
fi
deactivate
python3 -m venv "$work/venv"
jl=$(grep -E '^jupyterlab==' requirements-dev.txt)
"$work/venv/bin/python" -m pip install --quiet --disable-pip-version-check "$wheel" "$jl" >"$work/install.log" 2>&1 || {
  cat "$work/install.log"; echo "FAIL wheel: pip install failed"; exit 1; }
listing=$("$work/venv/bin/jupyter" labextension list 2>&1 | sed 's/\x1b\[[0-9;]*m//g')
line=$(printf '%s\n' "$listing" | grep 'jupyterlite-webmcp' || true)
if printf '%s' "$line" | grep -qE 'jupyterlite-webmcp v[0-9.]+ enabled +OK'; then
  echo "PASS wheel: $(basename "$wheel") in a clean venv lists:$(printf '%s' "$line" | tr -s ' ')"
else
  printf '%s\n' "$listing"
  echo "FAIL wheel: jupyterlite-webmcp is not listed as enabled OK"; exit 1
fi
