#!/usr/bin/env python3
"""Build the offline JupyterLite demo site into demo/_output (or --output DIR).

    python demo/build.py [--output DIR] [--verbose] [--no-kernel-fix]

What it does, in order:

1. checks that the tools it needs are here (jupyterlite-core, the Pyodide
   kernel, ``node_modules/pyodide`` in the version the kernel was built for);
2. makes sure the pure-Python wheels the Pyodide kernel loads at start are in
   ``demo/.cache/wheels`` (``pip download`` only when something is missing, so
   a second build is offline), and adds compiled bytecode to them with
   Pyodide's own Python (see PYC_NOTE; ``--no-precompile`` leaves them as PyPI
   has them);
3. runs ``jupyter lite build`` with ``demo/`` as the lite dir: it picks up
   every prebuilt labextension of this Python environment (this project's one
   too, once it is installed), the notebooks of ``demo/notebooks`` and the
   settings of ``demo/jupyter-lite.json``;
4. vendors the Pyodide runtime and those wheels into ``static/pyodide/`` of
   the site, with a ``pyodide-lock.json`` that lists exactly the local wheels
   (with their real sha256), and fixes two races of the kernel's channel to
   its worker: a script on the app pages (see WAITASYNC_FIX) and a patch of
   the kernel extension's answer copy (see COINCIDENT_COPY);
   ``--no-kernel-fix`` leaves both out;
5. checks the result (settings, lock, files) and prints a summary.

Every build starts from an empty folder and replaces the output folder in one
rename when it has passed its checks, so it is idempotent, a failed build
leaves the previous site alone, and builds of different output folders can
run at the same time (each has its own jupyter lite state).
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from email.parser import Parser
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
NODE_PYODIDE = REPO / "node_modules" / "pyodide"
CACHE = HERE / ".cache"
WHEEL_CACHE = CACHE / "wheels"
STAGING = CACHE / "staging"
#: the wheels with bytecode added (2b), by Pyodide version, compiler and source
PYC_CACHE = CACHE / "pyc"
PYC_SCRIPT = HERE / "pyc_wheels.mjs"
LOCKS = CACHE / "locks"
DEFAULT_OUTPUT = HERE / "_output"
NOTEBOOKS = HERE / "notebooks"
SITE_CONFIG = HERE / "jupyter-lite.json"

#: a file written into the output, so a later build knows it may wipe the dir
OUTPUT_MARKER = ".jupyterlite-webmcp-demo"

#: where the runtime, the wheels and the lock go, relative to the site root
SITE_PYODIDE = "static/pyodide"

#: the files of the npm ``pyodide`` package the browser needs (no wheels in it)
PYODIDE_RUNTIME_FILES = [
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide.js",
    "package.json",
]

KERNEL_PLUGIN = "@jupyterlite/pyodide-kernel-extension:kernel"
KERNEL_EXTENSION = KERNEL_PLUGIN.split(":")[0]

#: What the 0.8.6 kernel worker loads at start (``initPackageManager`` and
#: ``initKernel`` in its bundled worker): ``micropip`` through
#: ``pyodide.loadPackage``, ``piplite`` through ``micropip.install``, then
#: ``ipykernel``, ``comm``, ``pyodide-kernel``, ``jedi`` and ``ipython``
#: through ``piplite.install``. Each name listed in
#: ``loadPyodideOptions.packages`` is skipped there and loaded (with its
#: dependencies) by ``loadPyodide`` from our lock instead, so nothing is
#: installed from an index at start. ``packaging`` is added for user code.
KERNEL_START_PACKAGES = [
    "micropip",
    "packaging",
    "piplite",
    "ipykernel",
    "comm",
    "pyodide-kernel",
    "jedi",
    "ipython",
]

#: shipped inside the kernel labextension (``static/pypi``); ``ipykernel`` is
#: the kernel's shim, not the PyPI package
EXTENSION_WHEELS = ["piplite", "ipykernel", "pyodide-kernel"]

#: taken from PyPI; versions are pinned to those of the Pyodide lock when the
#: lock has the package, else to EXTRA_PINS
PYPI_ROOTS = ["micropip", "packaging", "ipython", "jedi", "comm"]
EXTRA_PINS = {
    "comm": "0.2.3",
    "ipython-pygments-lexers": "1.1.1",
}

#: ``pip download`` options for pure-Python wheels for Pyodide's Python
PIP_TARGET = [
    "--only-binary=:all:",
    "--platform",
    "any",
    "--python-version",
    "3.14",
    "--implementation",
    "py",
    "--abi",
    "none",
]


class BuildError(Exception):
    """A missing tool or input, or an inconsistent result: stop the build."""


def log(msg: str = "") -> None:
    print(msg, flush=True)


def step(msg: str) -> None:
    log(f"==> {msg}")


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def human(size: int) -> str:
    for unit in ("B", "kB", "MB"):
        if size < 1024 or unit == "MB":
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024
    return str(size)


# --------------------------------------------------------------------------
# 1. preflight


def ensure_python_tools() -> None:
    """Re-run with the repository's venv if this interpreter lacks the tools."""
    try:
        import jupyterlite_core  # noqa: F401
        import jupyterlite_pyodide_kernel  # noqa: F401
        import packaging.markers  # noqa: F401
    except ImportError as err:
        venv = REPO / ".venv"
        venv_python = venv / "bin" / "python"
        in_venv = Path(sys.prefix).resolve() == venv.resolve()
        if venv_python.exists() and not in_venv and not os.environ.get("DEMO_BUILD_REEXEC"):
            log(f"({err.name} is not importable here; re-running with {venv_python})")
            os.environ["DEMO_BUILD_REEXEC"] = "1"
            os.execv(str(venv_python), [str(venv_python), __file__, *sys.argv[1:]])
        raise BuildError(
            f"{err.name} is not installed for {sys.executable}; run this script with "
            "the Python environment that has jupyterlite-core and "
            f"jupyterlite-pyodide-kernel (e.g. {REPO / '.venv' / 'bin' / 'python'})"
        ) from err


def find_kernel_extension() -> Path:
    """The installed Pyodide kernel labextension (it ships the kernel's wheels)."""
    from jupyter_core.paths import jupyter_path

    for base in jupyter_path("labextensions"):
        candidate = Path(base) / KERNEL_EXTENSION
        if (candidate / "package.json").is_file():
            return candidate
    raise BuildError(
        f"the {KERNEL_EXTENSION} labextension was not found in "
        f"{jupyter_path('labextensions')}; install jupyterlite-pyodide-kernel"
    )


def preflight() -> dict:
    from jupyterlite_core import __version__ as core_version
    from jupyterlite_pyodide_kernel import __version__ as kernel_version
    from jupyterlite_pyodide_kernel.constants import PYODIDE_VERSION

    step("checking tools and inputs")
    problems = []
    pkg_json = NODE_PYODIDE / "package.json"
    npm_version = None
    if not pkg_json.is_file():
        problems.append(
            f"{NODE_PYODIDE} is missing: run `npm ci` in {REPO} (it provides the "
            f"npm package pyodide@{PYODIDE_VERSION})"
        )
    else:
        npm_version = json.loads(pkg_json.read_text())["version"]
        if npm_version != PYODIDE_VERSION:
            problems.append(
                f"node_modules/pyodide is {npm_version}, but jupyterlite-pyodide-kernel "
                f"{kernel_version} needs Pyodide {PYODIDE_VERSION}"
            )
        for name in [*PYODIDE_RUNTIME_FILES, "pyodide-lock.json"]:
            if not (NODE_PYODIDE / name).is_file():
                problems.append(f"{NODE_PYODIDE / name} is missing")
    if not SITE_CONFIG.is_file():
        problems.append(f"{SITE_CONFIG} is missing")
    notebooks = sorted(NOTEBOOKS.glob("*.ipynb"))
    if not notebooks:
        problems.append(f"no notebooks in {NOTEBOOKS}")
    kernel_ext = find_kernel_extension()
    pypi_dir = kernel_ext / "static" / "pypi"
    ext_wheels = {}
    for whl in sorted(pypi_dir.glob("*.whl")):
        info = wheel_info(whl)
        if info["key"] in EXTENSION_WHEELS:
            ext_wheels[info["key"]] = info
    for name in EXTENSION_WHEELS:
        if name not in ext_wheels:
            problems.append(f"no {name} wheel in {pypi_dir}")
    if problems:
        raise BuildError("cannot build:\n  - " + "\n  - ".join(problems))

    log(f"    jupyterlite-core {core_version}, jupyterlite-pyodide-kernel {kernel_version}")
    log(f"    pyodide {npm_version} from {NODE_PYODIDE.relative_to(REPO)}")
    log(f"    kernel wheels from {pypi_dir}")
    log(f"    notebooks: {', '.join(p.name for p in notebooks)}")
    return {"ext_wheels": ext_wheels, "pyodide_version": npm_version}


# --------------------------------------------------------------------------
# 2. wheels

#: the environment markers of Pyodide 314 (Python 3.14 on Emscripten)
PYODIDE_MARKER_ENV = {
    "implementation_name": "cpython",
    "implementation_version": "3.14.2",
    "os_name": "posix",
    "platform_machine": "wasm32",
    "platform_python_implementation": "CPython",
    "platform_release": "5.0.3",
    "platform_system": "Emscripten",
    "platform_version": "#1",
    "python_full_version": "3.14.2",
    "python_version": "3.14",
    "sys_platform": "emscripten",
    "extra": "",
}


def wheel_info(path: Path) -> dict:
    """Name, version, requirements and top-level imports of a pure wheel."""
    from packaging.utils import parse_wheel_filename

    name, version, _build, tags = parse_wheel_filename(path.name)
    pure = all(t.abi == "none" and t.platform == "any" for t in tags) and any(
        t.interpreter in ("py3", "py314") for t in tags
    )
    with zipfile.ZipFile(path) as zf:
        names = zf.namelist()
        meta_name = next(
            (n for n in names if n.count("/") == 1 and n.endswith(".dist-info/METADATA")),
            None,
        )
        if meta_name is None:
            raise BuildError(f"{path} has no .dist-info/METADATA")
        meta = Parser().parsestr(zf.read(meta_name).decode("utf-8"))
        top_level_name = meta_name.replace("METADATA", "top_level.txt")
        if top_level_name in names:
            imports = zf.read(top_level_name).decode().split()
        else:
            imports = top_level_modules(names)
    return {
        "key": canonical(str(name)),
        "name": meta["Name"],
        "version": str(version),
        "requires": meta.get_all("Requires-Dist") or [],
        "requires_python": meta.get("Requires-Python"),
        "imports": sorted(set(imports)),
        "pure": pure,
        "path": path,
    }


def top_level_modules(names: list[str]) -> list[str]:
    found = set()
    for entry in names:
        head, _, rest = entry.partition("/")
        if head.endswith((".dist-info", ".data")) or head == "__pycache__":
            continue
        if rest:
            if rest.endswith(".py") or rest.endswith(".so"):
                found.add(head)
        elif head.endswith(".py"):
            found.add(head[:-3])
    return sorted(found)


def scan_cache() -> dict[tuple[str, str], dict]:
    found = {}
    if WHEEL_CACHE.is_dir():
        for whl in sorted(WHEEL_CACHE.glob("*.whl")):
            try:
                info = wheel_info(whl)
            except (zipfile.BadZipFile, ValueError, BuildError) as err:
                log(f"    ignoring unreadable cached wheel {whl.name}: {err}")
                continue
            if info["pure"]:
                found[(info["key"], info["version"])] = info
    return found


def pins_from_upstream_lock() -> dict[str, str]:
    """name -> version for every pure package in Pyodide's own lock."""
    lock = json.loads((NODE_PYODIDE / "pyodide-lock.json").read_text())
    pins = {}
    for key, pkg in lock["packages"].items():
        if pkg.get("package_type") == "package" and pkg["file_name"].endswith(
            "-none-any.whl"
        ):
            pins[canonical(key)] = pkg["version"]
    pins.update(EXTRA_PINS)
    return pins


def resolve(ext_wheels: dict, cached: dict, pins: dict) -> tuple[dict, list[str]]:
    """Walk the dependency graph from the kernel's start packages.

    Returns the chosen wheels (key -> info, with ``depends``) and a list of
    problems (missing or unsatisfiable requirements).
    """
    from packaging.requirements import Requirement
    from packaging.specifiers import SpecifierSet
    from packaging.version import Version

    chosen: dict[str, dict] = {}
    problems: list[str] = []
    wanted: dict[str, SpecifierSet] = {}
    queue = [*EXTENSION_WHEELS, *PYPI_ROOTS]
    seen = set()
    while queue:
        key = queue.pop(0)
        if key in seen:
            continue
        seen.add(key)
        if key in ext_wheels:
            info = ext_wheels[key]
        else:
            versions = [v for (k, v) in cached if k == key]
            if key in pins:
                versions = [v for v in versions if v == pins[key]]
            if not versions:
                pin = f"=={pins[key]}" if key in pins else " (unpinned)"
                problems.append(f"missing wheel: {key}{pin}")
                continue
            best = max(versions, key=Version)
            info = cached[(key, best)]
        depends = []
        for raw in info["requires"]:
            req = Requirement(raw)
            if req.marker is not None and not req.marker.evaluate(PYODIDE_MARKER_ENV):
                continue
            dep = canonical(req.name)
            depends.append(dep)
            wanted.setdefault(dep, SpecifierSet())
            wanted[dep] &= req.specifier
            queue.append(dep)
        chosen[key] = {**info, "depends": sorted(set(depends))}

    for key, spec in wanted.items():
        if key in chosen and not spec.contains(chosen[key]["version"], prereleases=True):
            problems.append(
                f"{key} {chosen[key]['version']} does not satisfy {key}{spec}"
            )
    for key, info in chosen.items():
        rp = info.get("requires_python")
        if rp and not SpecifierSet(rp).contains("3.14.2", prereleases=True):
            problems.append(f"{key} {info['version']} does not support Python 3.14")
    return chosen, problems


def pip_download(requirements: list[str], pins: dict) -> None:
    WHEEL_CACHE.mkdir(parents=True, exist_ok=True)
    STAGING.mkdir(parents=True, exist_ok=True)
    # download beside the cache, then move each wheel in with one rename:
    # a concurrent build never sees a half-written wheel
    dest = Path(tempfile.mkdtemp(prefix="pip-", dir=STAGING))
    try:
        _pip_download(requirements, pins, dest)
        for whl in dest.glob("*.whl"):
            os.replace(whl, WHEEL_CACHE / whl.name)
    finally:
        shutil.rmtree(dest, ignore_errors=True)


def _pip_download(requirements: list[str], pins: dict, dest: Path) -> None:
    constraints = dest / "constraints.txt"
    constraints.write_text(
        "# generated by demo/build.py: Pyodide's own versions, plus EXTRA_PINS\n"
        + "".join(f"{k}=={v}\n" for k, v in sorted(pins.items()))
    )
    cmd = [
        sys.executable,
        "-m",
        "pip",
        "download",
        "--disable-pip-version-check",
        "--no-input",
        "--quiet",
        *PIP_TARGET,
        "--dest",
        str(dest),
        "--constraint",
        str(constraints),
        *requirements,
    ]
    log(f"    $ pip download {' '.join(PIP_TARGET)} ... {' '.join(requirements)}")
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if proc.returncode != 0:
        raise BuildError(
            "pip download failed (is PyPI reachable? a first build needs it):\n"
            + proc.stdout[-4000:]
        )


def ensure_wheels(ext_wheels: dict) -> dict:
    step(f"making sure the kernel's wheels are in {WHEEL_CACHE.relative_to(REPO)}")
    pins = pins_from_upstream_lock()
    chosen, problems = resolve(ext_wheels, scan_cache(), pins)
    rounds = 0
    while problems and rounds < 3:
        rounds += 1
        missing = sorted(
            {re.split(r"[=( ]", p.split(": ", 1)[1])[0] for p in problems if p.startswith("missing")}
        )
        if not missing:
            break
        if rounds == 1:
            log(f"    not cached: {', '.join(missing)}")
            requirements = [f"{k}=={pins[k]}" if k in pins else k for k in PYPI_ROOTS]
        else:
            requirements = []
        requirements += [f"{k}=={pins[k]}" if k in pins else k for k in missing]
        pip_download(sorted(set(requirements)), pins)
        chosen, problems = resolve(ext_wheels, scan_cache(), pins)
    if problems:
        raise BuildError("the kernel's wheels are incomplete:\n  - " + "\n  - ".join(problems))
    if rounds == 0:
        log("    all cached, no download needed")

    unpinned = [
        k for k in chosen if k not in EXTENSION_WHEELS and k not in pins
    ]
    if unpinned:
        log(f"    warning: unpinned (add them to EXTRA_PINS): {', '.join(sorted(unpinned))}")
    for key in KERNEL_START_PACKAGES:
        if key not in chosen:
            raise BuildError(f"{key} is loaded at kernel start but was not resolved")
    return chosen


# --------------------------------------------------------------------------
# 3. jupyter lite build


def check_replaceable(output: Path) -> None:
    """Only ever replace an empty folder or a JupyterLite site."""
    if not output.exists():
        return
    if not output.is_dir():
        raise BuildError(f"{output} exists and is not a directory")
    ours = (output / OUTPUT_MARKER).exists() or (output / "jupyter-lite.json").is_file()
    if not ours and any(output.iterdir()):
        raise BuildError(f"refusing to replace {output}: it is not empty and not a JupyterLite site")


@contextlib.contextmanager
def output_lock(output: Path):
    """One build per output folder at a time; builds of other folders run freely."""
    LOCKS.mkdir(parents=True, exist_ok=True)
    digest = hashlib.sha256(str(output).encode()).hexdigest()[:16]
    with (LOCKS / f"{digest}.lock").open("w") as fh:
        try:
            fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            log(f"    waiting for another build of {output} to finish")
            fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def staging_dirs(output: Path) -> tuple[Path, Path]:
    """A fresh folder to build in, and a private work folder for jupyter lite.

    The site is built next to nothing that is served, then moved into place in
    one rename, so a failed build never leaves a half-built site behind and a
    server sees the old site or the new one. The work folder holds jupyter
    lite's doit database and cache: private, so concurrent builds (of other
    output folders) cannot disturb each other.
    """
    output.parent.mkdir(parents=True, exist_ok=True)
    STAGING.mkdir(parents=True, exist_ok=True)
    if os.stat(STAGING).st_dev == os.stat(output.parent).st_dev:
        parent = STAGING
    else:  # a rename cannot cross file systems: stage beside the output
        parent = output.parent
    stage = Path(tempfile.mkdtemp(prefix=f".{output.name}.building-", dir=parent))
    os.chmod(stage, 0o755)  # mkdtemp makes it private; the site is meant to be served
    work = Path(tempfile.mkdtemp(prefix="lite-work-", dir=STAGING))
    return stage, work


def swap_into_place(stage: Path, output: Path) -> None:
    old = None
    if output.exists():
        old = stage.parent / f"{stage.name}.old"
        os.rename(output, old)
    os.rename(stage, output)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


def lite_build(output: Path, work: Path, verbose: bool) -> None:
    step("jupyter lite build")
    env = dict(os.environ)
    # these would make the Pyodide addon fetch or move things behind our back
    for var in ("JUPYTERLITE_PYODIDE_URL", "JUPYTERLITE_OUTPUT_DIR", "JUPYTERLITE_CACHE_DIR"):
        env.pop(var, None)
    env["JUPYTERLITE_CACHE_DIR"] = str(work / "cache")
    cmd = [
        sys.executable,
        "-m",
        "jupyterlite_core",
        "build",
        "--lite-dir",
        str(HERE),
        "--output-dir",
        str(output),
    ]
    started = time.monotonic()
    proc = subprocess.run(
        cmd,
        cwd=work,  # doit keeps its database in the working directory
        env=env,
        stdout=None if verbose else subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    if proc.returncode != 0:
        raise BuildError(
            f"jupyter lite build failed with exit code {proc.returncode}"
            + (":\n" + proc.stdout[-6000:] if proc.stdout else "")
        )
    log(f"    done in {time.monotonic() - started:.1f}s")


def use_this_checkout(output: Path) -> None:
    """Ship this checkout's labextension build, whatever the environment has.

    ``jupyter lite build`` copies the labextensions installed in the Python
    environment, which may link another checkout's build (a git worktree
    sharing the main checkout's environment): the site would then run that
    code. When this checkout is built, its build replaces the copied one and
    the site's ``jupyter-lite.json`` loads its entry point.
    """
    built = REPO / "jupyterlite_webmcp" / "labextension"
    if not (built / "package.json").is_file():
        return
    package = json.loads((built / "package.json").read_text())
    name = package["name"]
    target = output / "extensions" / name
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(built, target, ignore=shutil.ignore_patterns("*.map"))
    config_path = output / "jupyter-lite.json"
    config = json.loads(config_path.read_text())
    entries = config["jupyter-config-data"].setdefault("federated_extensions", [])
    entries[:] = [entry for entry in entries if entry.get("name") != name]
    entries.append({"name": name, **package["jupyterlab"]["_build"]})
    config_path.write_text(json.dumps(config, indent=2) + "\n")


# --------------------------------------------------------------------------
# 2b. bytecode for the kernel's wheels

#: PYC_NOTE: the wheels from PyPI hold only ``.py`` files, so every kernel
#: start compiled IPython, jedi, prompt_toolkit, pygments and the rest again,
#: in WebAssembly. demo/pyc_wheels.mjs adds an unchecked hash-based pyc beside
#: each module (demo/pyc_wheels.py says how), compiled by Pyodide's own
#: Python, as the bytecode must match its version. demo/bench_kernel_start.mjs
#: measures it: from a kernel's start to its answer to ``import IPython``,
#: medians of 6 starts, B/A 0.80, 0.84 and 0.86 in three runs (2 cores).
def precompile(chosen: dict, pyodide_version: str) -> dict:
    """The chosen wheels with bytecode, from PYC_CACHE or compiled now."""
    node = shutil.which("node")
    if node is None:
        raise BuildError("node is not on PATH: it runs Pyodide to compile the wheels' bytecode")
    # a change to the compiler (pyc_wheels.*) makes new wheels, not stale ones
    compiler = hashlib.sha256()
    for part in (PYC_SCRIPT, PYC_SCRIPT.with_suffix(".py")):
        compiler.update(part.read_bytes())
    cache = PYC_CACHE / f"pyodide-{pyodide_version}-{compiler.hexdigest()[:12]}"
    result = {}
    todo = []
    for key, info in chosen.items():
        target = cache / sha256_of(info["path"])[:20] / info["path"].name
        result[key] = {**info, "path": target}
        if not target.is_file():
            todo.append((info["path"], target))
    step(
        f"adding bytecode to {len(chosen)} wheels "
        f"({len(chosen) - len(todo)} in {cache.relative_to(REPO)}, {len(todo)} to compile)"
    )
    if not todo:
        return result
    STAGING.mkdir(parents=True, exist_ok=True)
    # compile beside the cache, then move each wheel in with one rename: a
    # concurrent build never sees a half-written wheel
    dest = Path(tempfile.mkdtemp(prefix="pyc-", dir=STAGING))
    try:
        pairs = [f"{source}={dest / source.name}" for source, _ in todo]
        done = subprocess.run(
            [node, str(PYC_SCRIPT), str(NODE_PYODIDE), *pairs],
            capture_output=True,
            text=True,
        )
        if done.returncode != 0:
            raise BuildError(f"{PYC_SCRIPT.name} failed:\n{done.stderr.strip()}")
        reports = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
        if len(reports) != len(todo):
            raise BuildError(
                f"{PYC_SCRIPT.name} reported {len(reports)} wheels of {len(todo)}:\n{done.stderr}"
            )
        for (source, target), report in zip(todo, reports):
            target.parent.mkdir(parents=True, exist_ok=True)
            os.replace(dest / source.name, target)
            log(f"    {source.name}: {report['compiled']} modules ({report['cacheTag']})")
    finally:
        shutil.rmtree(dest, ignore_errors=True)
    return result


# --------------------------------------------------------------------------
# 4. vendor pyodide, wheels and lock


def make_lock(chosen: dict) -> dict:
    upstream = json.loads((NODE_PYODIDE / "pyodide-lock.json").read_text())
    packages = {}
    for key in sorted(chosen):
        info = chosen[key]
        packages[key] = {
            "name": info["name"],
            "version": info["version"],
            "file_name": info["path"].name,
            "install_dir": "site",
            "sha256": sha256_of(info["path"]),
            "package_type": "package",
            "imports": info["imports"],
            "depends": info["depends"],
            "unvendored_tests": False,
        }
    # keep Pyodide's own description of the runtime (ABI, Python version):
    # Pyodide refuses a lock whose info does not match it
    return {"info": upstream["info"], "packages": packages}


def vendor_pyodide(output: Path, chosen: dict) -> Path:
    target = output / SITE_PYODIDE
    step(f"vendoring Pyodide and {len(chosen)} wheels into {SITE_PYODIDE}/")
    target.mkdir(parents=True, exist_ok=True)
    for name in PYODIDE_RUNTIME_FILES:
        shutil.copy2(NODE_PYODIDE / name, target / name)
    for info in chosen.values():
        shutil.copy2(info["path"], target / info["path"].name)
    lock = make_lock(chosen)
    lock_path = target / "pyodide-lock.json"
    lock_path.write_text(json.dumps(lock, indent=2, sort_keys=True) + "\n")
    return lock_path


# --------------------------------------------------------------------------
# 4b. work around a kernel hang on cross-origin isolated pages

#: In a cross-origin isolated page (which serve.py gives, for SharedArrayBuffer)
#: the 0.8.6 kernel talks to its worker through ``coincident``, which calls
#: ``Atomics.waitAsync(...).value.then(...)``. When the worker answers before
#: the page starts waiting, ``waitAsync`` returns synchronously with a string
#: value, ``.then`` throws ("A(...).value.then is not a function"), and the
#: kernel stays busy for good: measured here, a hang within ~10 quick
#: executions. This shim makes every result asynchronous, as coincident expects.
WAITASYNC_FIX_ID = "demo-atomics-waitasync-fix"
WAITASYNC_FIX = f"""<script id="{WAITASYNC_FIX_ID}">
      /* added by demo/build.py: see WAITASYNC_FIX there */
      (function () {{
        var native = typeof Atomics !== 'undefined' && Atomics.waitAsync;
        if (!native || native.demoFixed) {{
          return;
        }}
        var fixed = function () {{
          var result = native.apply(Atomics, arguments);
          return result.async
            ? result
            : {{ async: true, value: Promise.resolve(result.value) }};
        }};
        fixed.demoFixed = true;
        Atomics.waitAsync = fixed;
      }})();
    </script>
    """
CONFIG_SCRIPT_TAG = '<script id="jupyter-config-data"'


def patch_app_pages(output: Path) -> list[str]:
    step("adding the Atomics.waitAsync fix to the app pages")
    patched = []
    for page in sorted(output.glob("*/index.html")):
        html = page.read_text(encoding="utf-8")
        if CONFIG_SCRIPT_TAG not in html:
            continue
        if WAITASYNC_FIX_ID not in html:
            html = html.replace(CONFIG_SCRIPT_TAG, WAITASYNC_FIX + CONFIG_SCRIPT_TAG, 1)
            page.write_text(html, encoding="utf-8")
        patched.append(page.parent.name)
    if "lab" not in patched or "notebooks" not in patched:
        raise BuildError(f"could not patch lab/ and notebooks/ index.html (patched: {patched})")
    log(f"    {', '.join(f'{name}/index.html' for name in patched)}")
    return patched


#: The other half of the kernel's ``coincident`` channel has a race of its
#: own. A call's answer comes back in two steps: first its length, then its
#: text, which the answering side copies into the caller's shared buffer one
#: UTF-16 unit at a time, starting at index 0, and then wakes the caller. The
#: caller waits only while the buffer's first 32-bit word is 0, so once the
#: first two characters are copied, a caller that starts waiting late (a
#: worker thread descheduled under load) does not wait at all: it decodes
#: the buffer while the copy is still running, and reads zeros (control
#: characters) where the text was not copied yet. Seen as the Pyodide kernel's
#: fatal "Bad control character in string literal in JSON" during a file
#: system ``stat`` at start-up, leaving the kernel's status "unknown" for good.
#: The fix copies the text from its end, and writes the first two characters
#: last with one ``Atomics.store``, which also makes the earlier writes
#: visible to the caller before it can see that word change.
COINCIDENT_COPY = re.compile(
    r"for\(let (\w+)=new (\w+)\((\w+)\.buffer\),(\w+)=0;\4<(\w+)\.length;\4\+\+\)"
    r"\1\[\4\]=\5\.charCodeAt\(\4\)"
)
COINCIDENT_FIX = (
    r"{let \1=new \2(\3.buffer);for(let \4=\5.length-1;\4>=2;\4--)\1[\4]=\5.charCodeAt(\4);"
    r"Atomics.store(\3,0,(\5.charCodeAt(0)|0)|(\5.charCodeAt(1)|0)<<16)}"
)
KERNEL_STATIC = Path("extensions") / "@jupyterlite" / "pyodide-kernel-extension" / "static"


def patch_coincident(output: Path) -> list[str]:
    step("fixing the order of the kernel channel's answer copy (coincident)")
    patched = []
    for script in sorted((output / KERNEL_STATIC).glob("*.js")):
        code = script.read_text(encoding="utf-8")
        fixed, count = COINCIDENT_COPY.subn(COINCIDENT_FIX, code)
        if count:
            script.write_text(fixed, encoding="utf-8")
            patched.append(f"{script.name} ({count})")
    # the page's side and the worker's side each answer calls
    if len(patched) < 2:
        raise BuildError(
            f"expected the coincident answer copy in the page's and the worker's scripts "
            f"under {KERNEL_STATIC}, patched only: {patched}"
        )
    log(f"    {', '.join(patched)}")
    return patched


# --------------------------------------------------------------------------
# 5. check


def missing_bytecode(whl: Path, cache_tag: str) -> list[str]:
    """The modules of a wheel without their pyc for ``cache_tag``."""
    with zipfile.ZipFile(whl) as zf:
        names = set(zf.namelist())
    missing = []
    for name in sorted(names):
        if not name.endswith(".py") or name.split("/", 1)[0].endswith((".dist-info", ".data")):
            continue
        folder, _, base = name.rpartition("/")
        pyc = f"{folder}/__pycache__/" if folder else "__pycache__/"
        if f"{pyc}{base[:-3]}.{cache_tag}.pyc" not in names:
            missing.append(name)
    return missing


def check_site(output: Path, lock_path: Path, precompiled: bool) -> dict:
    step("checking the site")
    problems = []
    config = json.loads((output / "jupyter-lite.json").read_text())["jupyter-config-data"]
    if config.get("exposeAppInBrowser") is not True:
        problems.append("jupyter-lite.json: exposeAppInBrowser is not true")
    settings = config.get("litePluginSettings", {}).get(KERNEL_PLUGIN, {})
    pyodide_url = settings.get("pyodideUrl", "")
    if pyodide_url != f"./{SITE_PYODIDE}/pyodide.mjs":
        problems.append(f"{KERNEL_PLUGIN}: pyodideUrl is {pyodide_url!r}")
    if settings.get("disablePyPIFallback") is not True:
        problems.append(f"{KERNEL_PLUGIN}: disablePyPIFallback is not true")
    options = settings.get("loadPyodideOptions", {})
    lock_url = options.get("lockFileURL", "")
    if lock_url.lstrip("./") != f"{SITE_PYODIDE}/pyodide-lock.json":
        problems.append(f"{KERNEL_PLUGIN}: loadPyodideOptions.lockFileURL is {lock_url!r}")
    lock = json.loads(lock_path.read_text())
    preload = options.get("packages", [])
    for key in KERNEL_START_PACKAGES:
        if key not in preload:
            problems.append(f"loadPyodideOptions.packages lacks {key!r} (it would be fetched)")
    for key in preload:
        if key not in lock["packages"]:
            problems.append(f"loadPyodideOptions.packages has {key!r}, which is not in the lock")
    for key, pkg in lock["packages"].items():
        whl = lock_path.parent / pkg["file_name"]
        if not whl.is_file():
            problems.append(f"lock: {key}: {whl} is missing")
        elif sha256_of(whl) != pkg["sha256"]:
            problems.append(f"lock: {key}: sha256 mismatch")
        elif precompiled:
            major, minor = lock["info"]["python"].split(".")[:2]
            missing = missing_bytecode(whl, f"cpython-{major}{minor}")
            if missing:
                problems.append(
                    f"{pkg['file_name']}: no bytecode for {len(missing)} modules ({missing[0]}, ...)"
                )
        for dep in pkg["depends"]:
            if dep not in lock["packages"]:
                problems.append(f"lock: {key} depends on {dep}, which is not in the lock")
    for nb in sorted(NOTEBOOKS.glob("*.ipynb")):
        if not (output / "files" / nb.name).is_file():
            problems.append(f"notebook {nb.name} is not in files/")
    if not (output / "lab" / "index.html").is_file():
        problems.append("lab/index.html is missing")
    if problems:
        raise BuildError("the built site is inconsistent:\n  - " + "\n  - ".join(problems))

    extensions = sorted(
        json.loads(p.read_text())["name"]
        for p in [
            *(output / "extensions").glob("*/package.json"),
            *(output / "extensions").glob("@*/*/package.json"),
        ]
    )
    compiled = ", bytecode in every wheel" if precompiled else ""
    log(
        f"    ok: settings, lock ({len(lock['packages'])} packages, sha256 verified{compiled}), notebooks"
    )
    return {"extensions": extensions}


# --------------------------------------------------------------------------


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="Build the offline JupyterLite demo site (see demo/README.md)."
    )
    parser.add_argument(
        "--output",
        type=Path,
        default=DEFAULT_OUTPUT,
        help=f"output directory, wiped and rebuilt (default: {DEFAULT_OUTPUT.relative_to(REPO)})",
    )
    parser.add_argument(
        "--verbose", action="store_true", help="show the output of jupyter lite build"
    )
    parser.add_argument(
        "--no-kernel-fix",
        dest="kernel_fix",
        action="store_false",
        help="leave the site as JupyterLite makes it, without the "
        "Atomics.waitAsync and coincident fixes (the Pyodide kernel then hangs now and then)",
    )
    parser.add_argument(
        "--no-precompile",
        dest="precompile",
        action="store_false",
        help="vendor the kernel's wheels as PyPI has them, without bytecode "
        "(each kernel start then compiles them again)",
    )
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    output = args.output.resolve()
    started = time.monotonic()
    try:
        ensure_python_tools()
        facts = preflight()
        chosen = ensure_wheels(facts["ext_wheels"])
        if args.precompile:
            chosen = precompile(chosen, facts["pyodide_version"])
        check_replaceable(output)
        with output_lock(output):
            stage, work = staging_dirs(output)
            try:
                lite_build(stage, work, args.verbose)
                use_this_checkout(stage)
                lock_path = vendor_pyodide(stage, chosen)
                if args.kernel_fix:
                    patch_app_pages(stage)
                    patch_coincident(stage)
                else:
                    log("==> NOT adding the Atomics.waitAsync fix (--no-kernel-fix): kernels may hang")
                result = check_site(stage, lock_path, args.precompile)
                (stage / OUTPUT_MARKER).write_text("built by demo/build.py; safe to delete\n")
                check_replaceable(output)
                swap_into_place(stage, output)
            finally:
                shutil.rmtree(work, ignore_errors=True)
                shutil.rmtree(stage, ignore_errors=True)
    except BuildError as err:
        print(f"\nbuild.py: error: {err}", file=sys.stderr, flush=True)
        return 1

    log("")
    log(f"Built {output} in {time.monotonic() - started:.1f}s")
    log(f"  labextensions: {', '.join(result['extensions'])}")
    if "jupyterlite-webmcp" not in result["extensions"]:
        log(
            "  note: the jupyterlite-webmcp labextension is not installed in this Python "
            "environment, so the site does not include it (install the package, then rebuild)"
        )
    log(f"  Pyodide runtime, wheels and lock: {SITE_PYODIDE}/")
    for key in sorted(chosen):
        info = chosen[key]
        origin = "kernel extension" if key in EXTENSION_WHEELS else "PyPI"
        log(f"    {info['path'].name:<48} {human(info['path'].stat().st_size):>9}  ({origin})")
    log(f"  settings: jupyter-lite.json -> litePluginSettings -> {KERNEL_PLUGIN}")
    log("  serve it: python demo/serve.py" + ("" if output == DEFAULT_OUTPUT else f" --dir {output}"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
