#!/usr/bin/env python3
"""Fetch the in-app assistants' labextensions for the browser tests.

    python ui-tests/assistant/fetch.py [NAME ...]

For each assistant NAME (``jupyter-ai-lite``, ``jupyterlite-ai``; all when
none is given) the wheels pinned in ``ui-tests/assistant/NAME.txt`` are
downloaded from PyPI with ``pip download --no-deps`` and their prebuilt
labextensions (``share/jupyter/labextensions/...``) unpacked into
``ui-tests/.assistants/NAME/labextensions/``. Nothing is installed into the
Python environment: the two assistants pin different versions of the same
packages. ``servers/start.py`` links these folders into the ``assistant-*``
servers and sites.

Idempotent: a folder whose stamp matches its requirements file is left
alone, so a second run does not touch the network.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
CACHE = HERE.parent / ".assistants"
ASSISTANTS = ("jupyter-ai-lite", "jupyterlite-ai")
MARKER = "/share/jupyter/labextensions/"


def requirements(name: str) -> list[str]:
    lines = (HERE / f"{name}.txt").read_text(encoding="utf-8").splitlines()
    return [line.split("#")[0].strip() for line in lines if line.split("#")[0].strip()]


def fetch(name: str) -> Path:
    reqs = requirements(name)
    stamp_value = hashlib.sha256("\n".join(reqs).encode()).hexdigest()
    root = CACHE / name
    stamp = root / ".stamp"
    target = root / "labextensions"
    if stamp.is_file() and stamp.read_text() == stamp_value and target.is_dir():
        return target
    wheels = root / "wheels"
    wheels.mkdir(parents=True, exist_ok=True)
    print(f"[assistants] {name}: downloading {len(reqs)} wheels", file=sys.stderr)
    subprocess.run(
        [
            sys.executable, "-m", "pip", "download", "--quiet", "--disable-pip-version-check",
            "--no-deps", "--only-binary=:all:", "--dest", str(wheels), *reqs,
        ],
        check=True,
    )
    if target.exists():
        shutil.rmtree(target)
    target.mkdir()
    names = []
    for req in reqs:
        project, version = req.split("==")
        stem = f"{project.replace('-', '_')}-{version}-"
        found = [w for w in wheels.glob("*.whl") if w.name.lower().startswith(stem.lower())]
        if len(found) != 1:
            raise SystemExit(f"[assistants] {name}: no single wheel for {req} in {wheels}")
        with zipfile.ZipFile(found[0]) as wheel:
            for member in wheel.namelist():
                if MARKER not in member or member.endswith("/"):
                    continue
                rel = member.split(MARKER, 1)[1]
                dest = target / rel
                dest.parent.mkdir(parents=True, exist_ok=True)
                with wheel.open(member) as src, dest.open("wb") as out:
                    shutil.copyfileobj(src, out)
    for pkg_json in sorted([*target.glob("*/package.json"), *target.glob("@*/*/package.json")]):
        package = json.loads(pkg_json.read_text(encoding="utf-8"))
        names.append(f"{package['name']}@{package['version']}")
    stamp.write_text(stamp_value)
    print(f"[assistants] {name}: {', '.join(names)}", file=sys.stderr)
    return target


def main(argv: list[str]) -> int:
    for name in argv or ASSISTANTS:
        if name not in ASSISTANTS:
            print(__doc__, file=sys.stderr)
            return 2
        fetch(name)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
