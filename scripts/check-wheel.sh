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
# every third-party package bundled (a vendor-<package> chunk, one per
# package: webpack.config.js) has its license in third-party-licenses.json
missing=$(python - "$wheel" <<'PY'
import json, re, sys, zipfile
wheel = zipfile.ZipFile(sys.argv[1])
names = [n for n in wheel.namelist() if '/labextensions/jupyterlite-webmcp/static/' in n]
report = next((n for n in names if n.endswith('/third-party-licenses.json')), None)
listed = set()
if report:
    for package in json.loads(wheel.read(report))['packages']:
        if package.get('licenseId') and package.get('extractedText'):
            listed.add(package['name'].replace('/', '_').replace('@', '_'))
bundled = {m.group(1) for n in names
           for m in [re.search(r'/static/vendor-(.+?)\.[0-9a-f]+\.js$', n)] if m}
print(' '.join(sorted(bundled - listed)) if report and bundled else 'no vendor chunks or no license report')
PY
)
if [ -n "$missing" ]; then
  echo "FAIL wheel: bundled packages without a license in third-party-licenses.json: $missing"; exit 1
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
