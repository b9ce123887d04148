#!/usr/bin/env python3
"""Start one app server for the browser tests, isolated from the user's setup.

    python ui-tests/servers/start.py {lab|notebook|lab-rtc|lite|...} PORT

Playwright's ``webServer`` runs this once per run and stops it at the end
(SIGTERM to the process group, see playwright.config.ts).

lab, notebook
    A JupyterLab 4 / Notebook 7 server on 127.0.0.1:PORT with no token and no
    password and ``expose_app_in_browser`` on. Everything it reads or writes
    lives in a fresh temporary directory (config, data, runtime, settings,
    workspaces, IPython profile and the served root), removed again when the
    server stops. The root is seeded with ``ui-tests/fixtures/*.ipynb`` under
    ``fixtures/``. The repository's built labextension
    (``jupyterlite_webmcp/labextension``) is put first on ``JUPYTER_PATH``, so
    the servers load it even if it is not installed in the environment.

    Real-time collaboration (``jupyter-collaboration``, installed for
    lab-rtc) is off in both: its server extension (``jupyter_server_ydoc``,
    with the file-id service it brings) is disabled on the command line and
    its labextensions are not linked, so they run as they did before it was
    installed: single user, documents loaded and saved through the contents
    API.

lab-rtc
    JupyterLab as ``lab``, with real-time collaboration on: the
    ``jupyter_server_ydoc`` server extension and the ``@jupyter/docprovider``
    and ``@jupyter/collaboration`` labextensions. Every browser that opens a
    notebook joins one shared document, which the server saves to disk. Its
    Yjs store and session file live in the temporary directory too.

lab-example, lite-example
    ``lab`` and ``lite`` with the example extension of
    ``examples/notebook-stats`` (its ``labextension`` build, made by
    ``npm run build:example``) loaded beside this one: a third-party
    extension that adds a tool and an Agent panel section through the
    tokens. The Lite site is the chosen site's files linked into
    ``$TMPDIR/jlwebmcp-ui-lite-site-example``, with the example's files in its
    ``extensions`` and its entry in ``federated_extensions``.

assistant-lab, assistant-nb, assistant0-lab, assistant-lite
    ``lab``, ``notebook`` and ``lite`` with an in-app AI assistant beside
    this extension: jupyter-ai-lite 0.21 (``assistant-*``) or jupyterlite-ai
    0.20 (``assistant0-lab``), their labextensions unpacked from the wheels
    pinned in ``ui-tests/assistant/*.txt`` (``ui-tests/assistant/fetch.py``,
    cached in ``ui-tests/.assistants``). The assistant's settings select the
    scripted model at ``UI_TESTS_MODEL_URL`` (an ``overrides.json`` in the
    server's own ``app_settings_dir``; for the Lite site ``settingsOverrides``
    in the shadow site's ``jupyter-lite.json``). The Lite site is the chosen
    site's files linked into ``$TMPDIR/jlwebmcp-ui-lite-site-assistant``,
    with the assistant's extensions listed after the ones they take shared
    modules from and their schemas added to
    ``build/schemas/all_federated.json``.

lite
    Serves a JupyterLite site with ``demo/serve.py`` (COOP/COEP headers):
    ``demo/_output`` when it is up to date, that is newer than all its inputs
    (the labextension build, the ``demo/`` config and notebooks, the build
    script); else the tests' own copy ``$TMPDIR/jlwebmcp-ui-lite-site``, rebuilt
    with ``demo/build.py --output`` when it is stale too (about 5 s with the
    wheel cache in ``demo/.cache``). ``demo/_output`` itself is never rebuilt or
    deleted here, so a demo being served or built from it is left alone.
    ``UI_TESTS_LITE_REBUILD=1`` forces the private build;
    ``UI_TESTS_LITE_DIR=DIR`` serves an already built site as it is. The Lite
    contents live in the browser, so nothing is seeded: the tests create their
    files through the app's contents manager.

``UI_TESTS_WITHOUT_EXTENSION=1`` starts the same app without this
extension, for the load benchmark (``ui-tests/bench/load.bench.ts``): lab and
notebook link every other labextension but not this one (neither the
checkout's build nor a copy installed in the environment); lite serves
``$TMPDIR/jlwebmcp-ui-lite-site-without``, the chosen site's files linked
into a folder whose ``jupyter-lite.json`` no longer lists the extension among
its ``federated_extensions``, so the page never fetches it.

``UI_TESTS_EXTENSION_BUILD=DIR`` serves the labextension build in ``DIR``
as this extension instead of the repository's (lab and notebook link it;
lite serves ``$TMPDIR/jlwebmcp-ui-lite-site-build``, the chosen site's files
linked, with ``DIR`` as the extension and its remote entry in
``jupyter-lite.json``): the load benchmark's empty extension
(``scripts/build-empty-extension.mjs``).

A server's output goes to ``ui-tests/.servers/{kind}.log``
(``{kind}-without.log`` without the extension, ``{kind}-build.log`` with
``UI_TESTS_EXTENSION_BUILD``; overwritten by the next run;
the end of it is printed if the server stops on its own). Set
``UI_TESTS_SERVER_LOGS=1`` to see it live, ``UI_TESTS_KEEP_SERVER_DIRS=1`` to
keep the temporary directory (its path is printed) for debugging.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

HERE = Path(__file__).resolve().parent
UI_TESTS = HERE.parent
REPO = UI_TESTS.parent
FIXTURES = UI_TESTS / "fixtures"
LABEXTENSION = REPO / "jupyterlite_webmcp" / "labextension"
EXTENSION_NAME = "jupyterlite-webmcp"
DEMO = REPO / "demo"
DEFAULT_SITE = DEMO / "_output"
#: where the tests build their own copy of the site when demo/_output is stale
#: (outside the repository: linters must not see a built site's scripts)
PRIVATE_SITE = Path(tempfile.gettempdir()) / "jlwebmcp-ui-lite-site"
SITE_MARKER = ".jupyterlite-webmcp-demo"
TMP_PREFIX = "jlwebmcp-ui-"
#: how long a server may take to stop after SIGTERM before it is killed: the
#: servers stop in about a second, but JupyterLab with real-time
#: collaboration, once its rooms were used, logs jupyter_server_ydoc's
#: "WebsocketServer not running" and, in most runs, does not exit (Playwright
#: then waited out its 15 s gracefulShutdown timeout)
STOP_GRACE_S = 5
SERVER_KINDS = (
    "lab",
    "notebook",
    "lab-rtc",
    "lab-example",
    "assistant-lab",
    "assistant-nb",
    "assistant0-lab",
)
#: the in-app assistant each assistant kind loads beside this extension (its
#: labextensions fetched by ui-tests/assistant/fetch.py)
ASSISTANT_OF = {
    "assistant-lab": "jupyter-ai-lite",
    "assistant-nb": "jupyter-ai-lite",
    "assistant-lite": "jupyter-ai-lite",
    "assistant0-lab": "jupyterlite-ai",
}
#: the settings plugin of each assistant's model providers
ASSISTANT_SETTINGS = {
    "jupyter-ai-lite": "@jupyter-ai/jupyternaut-lite:settings-model",
    "jupyterlite-ai": "@jupyternaut/persona:settings-model",
}
#: the example extension built on this one's tokens (lab-example, lite-example)
EXAMPLE = REPO / "examples" / "notebook-stats" / "labextension"
#: the server extensions of jupyter-collaboration, disabled unless kind is lab-rtc
RTC_SERVER_EXTENSIONS = ("jupyter_server_ydoc", "jupyter_server_fileid")
#: its labextensions: without the server extension they would try to join
#: rooms that do not exist, so they are linked only for lab-rtc
RTC_LABEXTENSIONS = ("@jupyter/docprovider-extension", "@jupyter/collaboration-extension")

#: the shadow Lite site without this extension (UI_TESTS_WITHOUT_EXTENSION)
SITE_WITHOUT = Path(tempfile.gettempdir()) / "jlwebmcp-ui-lite-site-without"
#: the shadow Lite site with another build of this extension (UI_TESTS_EXTENSION_BUILD)
SITE_BUILD = Path(tempfile.gettempdir()) / "jlwebmcp-ui-lite-site-build"
#: the shadow Lite site with the example extension too (lite-example)
SITE_EXAMPLE = Path(tempfile.gettempdir()) / "jlwebmcp-ui-lite-site-example"
#: the shadow Lite site with jupyter-ai-lite too (assistant-lite)
SITE_ASSISTANT = Path(tempfile.gettempdir()) / "jlwebmcp-ui-lite-site-assistant"

#: user settings written into the isolated settings dir: no news or update
#: toasts popping over the notebook while the tests run
SETTINGS = {
    "@jupyterlab/apputils-extension/notification.jupyterlab-settings": {
        "fetchNews": "false",
        "checkForUpdates": False,
    },
}

def assistant_labextensions(name: str) -> Path:
    """The assistant's labextensions, fetched from PyPI the first time."""
    sys.path.insert(0, str(UI_TESTS / "assistant"))
    from fetch import fetch  # noqa: PLC0415

    return fetch(name)


def assistant_settings(name: str) -> dict:
    """Settings overrides: the assistant answered by the scripted model.

    The model's base URL is ``UI_TESTS_MODEL_URL`` (playwright.config.ts
    starts ui-tests/assistant/model.mjs on a port it chose). No secrets
    manager (the key is a plain setting), tools on, and JupyterLab's news
    toast off: it would sit over the chat's Send button.
    """
    url = os.environ.get("UI_TESTS_MODEL_URL")
    if not url:
        log("error: UI_TESTS_MODEL_URL is not set (the scripted model's base URL)")
        sys.exit(3)
    return {
        ASSISTANT_SETTINGS[name]: {
            "useSecretsManager": False,
            "providers": [
                {
                    "id": "scripted",
                    "name": "Scripted",
                    "provider": "generic",
                    "model": "scripted",
                    "apiKey": "none",
                    "baseURL": url,
                }
            ],
            "defaultProvider": "scripted",
            "toolsEnabled": True,
        },
        "@jupyterlab/apputils-extension:notification": {
            "fetchNews": "false",
            "checkForUpdates": False,
        },
    }


def log_path(kind: str) -> Path:
    """Where a server's output goes (git-ignored, overwritten by the next run)."""
    suffix = (
        "-without"
        if os.environ.get("UI_TESTS_WITHOUT_EXTENSION")
        else "-build" if os.environ.get("UI_TESTS_EXTENSION_BUILD") else ""
    )
    return UI_TESTS / ".servers" / f"{kind}{suffix}.log"


def log(msg: str) -> None:
    print(f"[start.py] {msg}", file=sys.stderr, flush=True)


def pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def prune_stale_dirs() -> None:
    """Remove temp dirs left behind by launchers that were killed outright."""
    for path in Path(tempfile.gettempdir()).glob(f"{TMP_PREFIX}*"):
        pid_file = path / "launcher.pid"
        try:
            pid = int(pid_file.read_text())
        except (OSError, ValueError):
            continue
        if not pid_alive(pid):
            shutil.rmtree(path, ignore_errors=True)


def is_lite_only(package: dict) -> bool:
    """An extension that needs a module only JupyterLite provides (it fails on a server)."""
    shared = package.get("jupyterlab", {}).get("sharedPackages", {})
    return any(
        name.startswith("@jupyterlite/") and isinstance(spec, dict) and spec.get("bundled") is False
        for name, spec in shared.items()
    )


def without_extension() -> bool:
    """Whether to start the app without this extension (the load benchmark's baseline)."""
    return bool(os.environ.get("UI_TESTS_WITHOUT_EXTENSION"))


def extension_build() -> Path | None:
    """The build to serve as this extension (UI_TESTS_EXTENSION_BUILD), if any."""
    value = os.environ.get("UI_TESTS_EXTENSION_BUILD")
    if not value:
        return None
    build = Path(value).resolve()
    if not (build / "package.json").is_file():
        log(f"error: UI_TESTS_EXTENSION_BUILD={value} has no package.json: not a labextension build")
        sys.exit(3)
    return build


def example_package() -> dict:
    """The example extension's built package.json; exits when it is not built."""
    pkg_json = EXAMPLE / "package.json"
    if not pkg_json.is_file():
        log(f"error: {EXAMPLE} is not built (run `npm run build:example`)")
        sys.exit(3)
    return json.loads(pkg_json.read_text(encoding="utf-8"))


def curate_labextensions(
    target: Path, rtc: bool, example: bool = False, assistant: str | None = None
) -> list[str]:
    """Link the labextensions the server should load into ``target``.

    The repository's build comes first (whether or not it is installed), then
    every prebuilt extension of the environment except the JupyterLite-only
    ones (the Pyodide kernel's extension is installed here for the Lite build;
    on a Jupyter server it only throws a console error on every page load),
    and, unless ``rtc``, jupyter-collaboration's.
    """
    from jupyter_core.paths import jupyter_path

    target.mkdir()
    linked: list[str] = []
    skipped = {EXTENSION_NAME} if without_extension() else set()

    def link(name: str, source: Path) -> None:
        dest = target / name
        if name in linked or dest.exists():
            return
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.symlink_to(source.resolve(), target_is_directory=True)
        linked.append(name)

    build = extension_build()
    if skipped:
        log(f"without {EXTENSION_NAME} (UI_TESTS_WITHOUT_EXTENSION)")
    elif build:
        log(f"{EXTENSION_NAME} from {build} (UI_TESTS_EXTENSION_BUILD)")
        link(EXTENSION_NAME, build)
    elif (LABEXTENSION / "package.json").is_file():
        link(EXTENSION_NAME, LABEXTENSION)
    else:
        log(f"warning: {LABEXTENSION} is not built (run `npm run build`); the app runs without it")
    if example:
        link(example_package()["name"], EXAMPLE)
    bases = list(map(Path, jupyter_path("labextensions")))
    if assistant:
        # first: its jupyterlab-chat and friends win over any in the environment
        bases.insert(0, assistant_labextensions(assistant))
    for base in bases:
        for pkg_json in sorted([*base.glob("*/package.json"), *base.glob("@*/*/package.json")]):
            try:
                package = json.loads(pkg_json.read_text())
            except (OSError, ValueError):
                continue
            name = package.get("name")
            if (
                name
                and name not in skipped
                and not is_lite_only(package)
                and (rtc or name not in RTC_LABEXTENSIONS)
            ):
                link(name, pkg_json.parent)
    return linked


def make_sandbox(kind: str, port: int) -> dict[str, Path]:
    base = Path(tempfile.mkdtemp(prefix=f"{TMP_PREFIX}{kind}-{port}-"))
    (base / "launcher.pid").write_text(str(os.getpid()))
    dirs = {
        name: base / name
        for name in ("root", "config", "data", "runtime", "settings", "workspaces", "ipython")
    }
    for path in dirs.values():
        path.mkdir()
    dirs["base"] = base
    dirs["labextensions"] = base / "labextensions"
    dirs["app-settings"] = base / "app-settings"
    if kind in ASSISTANT_OF:
        dirs["app-settings"].mkdir()
        (dirs["app-settings"] / "overrides.json").write_text(
            json.dumps(assistant_settings(ASSISTANT_OF[kind]), indent=2)
        )

    for rel, content in SETTINGS.items():
        target = dirs["settings"] / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(content, indent=2))

    seeded = dirs["root"] / "fixtures"
    seeded.mkdir()
    for nb in sorted(FIXTURES.glob("*.ipynb")):
        shutil.copy2(nb, seeded / nb.name)
    return dirs


def server_env(dirs: dict[str, Path]) -> dict[str, str]:
    env = dict(os.environ)
    for var in ("JUPYTER_PATH", "JUPYTER_PLATFORM_DIRS", "JUPYTER_NO_CONFIG"):
        env.pop(var, None)
    env.update(
        {
            "JUPYTER_CONFIG_DIR": str(dirs["config"]),
            "JUPYTER_DATA_DIR": str(dirs["data"]),
            "JUPYTER_RUNTIME_DIR": str(dirs["runtime"]),
            "JUPYTERLAB_SETTINGS_DIR": str(dirs["settings"]),
            "JUPYTERLAB_WORKSPACES_DIR": str(dirs["workspaces"]),
            "IPYTHONDIR": str(dirs["ipython"]),
            "PYTHONUNBUFFERED": "1",
            # the contents manager of listing_contents.py, beside this file
            "PYTHONPATH": os.pathsep.join(
                filter(None, [str(HERE), os.environ.get("PYTHONPATH")])
            ),
        }
    )
    return env


def server_command(kind: str, port: int, dirs: dict[str, Path]) -> list[str]:
    lab = kind in ("lab", "lab-rtc", "lab-example", "assistant-lab", "assistant0-lab")
    app = "LabApp" if lab else "JupyterNotebookApp"
    module = "jupyterlab" if lab else "notebook"
    extra = ["--LabApp.extension_manager=readonly"] if lab else []
    if not lab:
        # The jupyterlab server extension, loaded by the notebook server too,
        # serves /lab/extensions/ from LabApp's path: without this, a
        # labextension linked in the Python environment (another checkout's
        # build) answered for this one's files, whose hashes it lacks (404).
        extra += [f"--LabApp.labextensions_path={dirs['labextensions']}"]
    if kind == "lab-rtc":
        extra += [
            f"--SQLiteYStore.db_path={dirs['base'] / 'ystore.db'}",
            f"--YDocExtension.session_store_path={dirs['base'] / 'collaboration_sessions.json'}",
        ]
    else:
        # a key given here wins over the config files that enable it
        extra += [f"--ServerApp.jpserver_extensions={name}=False" for name in RTC_SERVER_EXTENSIONS]
    # the assistant kinds' overrides.json, not the environment's
    # (Notebook 7's settings come from the jupyterlab server extension, so
    # LabApp's too)
    extra_settings = (
        [
            f"--{name}.app_settings_dir={dirs['app-settings']}"
            for name in sorted({app, "LabApp"})
        ]
        if kind in ASSISTANT_OF
        else []
    )
    return [
        sys.executable,
        "-m",
        module,
        *extra,
        "--no-browser",
        "--ServerApp.allow_root=True",
        "--ServerApp.ip=127.0.0.1",
        f"--ServerApp.port={port}",
        "--ServerApp.port_retries=0",
        "--IdentityProvider.token=",
        "--PasswordIdentityProvider.hashed_password=",
        f"--ServerApp.root_dir={dirs['root']}",
        "--ServerApp.terminals_enabled=False",
        "--ServerApp.log_level=INFO",
        "--ServerApp.disable_check_xsrf=True",
        "--FileContentsManager.delete_to_trash=False",
        "--FileContentsManager.always_delete_dir=True",
        # a listing survives a child another worker's test deletes meanwhile
        "--ServerApp.contents_manager_class=listing_contents.ListingContentsManager",
        f"--{app}.expose_app_in_browser=True",
        f"--{app}.user_settings_dir={dirs['settings']}",
        f"--{app}.workspaces_dir={dirs['workspaces']}",
        f"--{app}.labextensions_path={dirs['labextensions']}",
        *extra_settings,
    ]


def run_until_stopped(
    cmd: list[str], env: dict[str, str] | None, cleanup: Path | None, log_file: Path
) -> int:
    """Run the server until SIGTERM/SIGINT, let it stop cleanly, then clean up.

    The server's output goes to ``log_file`` (``UI_TESTS_SERVER_LOGS=1`` also
    echoes it to stderr, which Playwright shows); when the server exits on its
    own, the end of the log is printed to explain why.
    """
    log_file.parent.mkdir(parents=True, exist_ok=True)
    echo = bool(os.environ.get("UI_TESTS_SERVER_LOGS"))
    stopping = False
    with log_file.open("w", encoding="utf-8") as out:
        child = subprocess.Popen(
            cmd,
            env=env,
            cwd=str(REPO),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            errors="replace",
        )

        def kill_if_running() -> None:
            if child.poll() is None:
                log(f"the server did not stop within {STOP_GRACE_S} s; killed")
                child.kill()

        def forward(signum: int, _frame: object) -> None:
            nonlocal stopping
            if child.poll() is None:
                child.send_signal(signum)
                if not stopping:
                    timer = threading.Timer(STOP_GRACE_S, kill_if_running)
                    timer.daemon = True
                    timer.start()
            stopping = True

        signal.signal(signal.SIGTERM, forward)
        signal.signal(signal.SIGINT, forward)
        tail: list[str] = []
        try:
            assert child.stdout is not None
            for line in child.stdout:
                out.write(line)
                out.flush()
                tail = [*tail[-59:], line]
                if echo:
                    sys.stderr.write(line)
            code = child.wait()
        finally:
            if cleanup is not None:
                if os.environ.get("UI_TESTS_KEEP_SERVER_DIRS"):
                    log(f"kept {cleanup}")
                else:
                    shutil.rmtree(cleanup, ignore_errors=True)
    if not stopping and not echo:
        log(f"the server exited with code {code}; the end of {log_file}:")
        sys.stderr.write("".join(tail))
    return code


# --------------------------------------------------------------------------
# lite


def newest_mtime(paths: list[Path]) -> float:
    newest = 0.0
    for root in paths:
        if root.is_file():
            newest = max(newest, root.stat().st_mtime)
        elif root.is_dir():
            for path in root.rglob("*"):
                if path.is_file():
                    newest = max(newest, path.stat().st_mtime)
    return newest


def lite_site_problem(site: Path) -> str | None:
    """Why the site must be rebuilt, or None when it is up to date."""
    marker = site / SITE_MARKER
    if not marker.is_file():
        return f"{site} is missing or incomplete"
    built = marker.stat().st_mtime
    inputs = [
        LABEXTENSION,
        DEMO / "build.py",
        DEMO / "pyc_wheels.mjs",
        DEMO / "pyc_wheels.py",
        DEMO / "jupyter-lite.json",
        DEMO / "jupyter_lite_config.json",
        DEMO / "notebooks",
    ]
    if newest_mtime(inputs) > built:
        return f"{site} is older than its inputs"
    if (LABEXTENSION / "package.json").is_file() and not (
        site / "extensions" / EXTENSION_NAME / "package.json"
    ).is_file():
        return f"{site} lacks the {EXTENSION_NAME} labextension"
    return None


def choose_lite_site() -> tuple[Path | None, str]:
    """The site to serve, or None and the reason to build the private copy."""
    override = os.environ.get("UI_TESTS_LITE_DIR")
    if override:
        return Path(override).resolve(), "UI_TESTS_LITE_DIR"
    if os.environ.get("UI_TESTS_LITE_REBUILD"):
        return None, "UI_TESTS_LITE_REBUILD is set"
    for site in (DEFAULT_SITE, PRIVATE_SITE):
        if lite_site_problem(site) is None:
            return site, "up to date"
    return None, lite_site_problem(DEFAULT_SITE) or ""


def site_without_extension(site: Path) -> Path:
    """A copy of ``site`` that does not load this extension, made of links.

    Every top-level entry of the site is a symbolic link to the original
    except ``jupyter-lite.json``, rewritten without this extension in its
    ``federated_extensions``: the same app, which never fetches our files.
    """
    if SITE_WITHOUT.exists():
        shutil.rmtree(SITE_WITHOUT)
    SITE_WITHOUT.mkdir()
    for entry in site.iterdir():
        if entry.name != "jupyter-lite.json":
            (SITE_WITHOUT / entry.name).symlink_to(entry.resolve())
    config = json.loads((site / "jupyter-lite.json").read_text(encoding="utf-8"))
    data = config.get("jupyter-config-data", {})
    data["federated_extensions"] = [
        ext for ext in data.get("federated_extensions", []) if ext.get("name") != EXTENSION_NAME
    ]
    (SITE_WITHOUT / "jupyter-lite.json").write_text(json.dumps(config, indent=2), encoding="utf-8")
    return SITE_WITHOUT


def site_with_labextension(site: Path, dest: Path, name: str, build: Path) -> Path:
    """A copy of ``site`` in ``dest``, made of links, that loads ``build`` as ``name``.

    As ``site_without_extension``: links to the original, except
    ``extensions/`` (links to each of its extensions but ``name``, and
    ``build``) and ``jupyter-lite.json`` (``name`` in ``federated_extensions``
    described as ``jupyter lite build`` describes an extension: its name, its
    remote entry and what it exposes, from the build's package.json).
    """
    package = json.loads((build / "package.json").read_text(encoding="utf-8"))
    described = package["jupyterlab"]["_build"]
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir()
    for entry in site.iterdir():
        if entry.name not in ("jupyter-lite.json", "extensions"):
            (dest / entry.name).symlink_to(entry.resolve())
    extensions = dest / "extensions"
    extensions.mkdir()
    for entry in (site / "extensions").iterdir():
        if entry.name != name:
            (extensions / entry.name).symlink_to(entry.resolve())
    (extensions / name).symlink_to(build, target_is_directory=True)
    config = json.loads((site / "jupyter-lite.json").read_text(encoding="utf-8"))
    data = config.setdefault("jupyter-config-data", {})
    entries = data.get("federated_extensions", [])
    at = next((i for i, ext in enumerate(entries) if ext.get("name") == name), len(entries))
    entries = [ext for ext in entries if ext.get("name") != name]
    # in the same place: Lite loads its extensions one after the other
    entries.insert(at, {"name": name, **described})
    data["federated_extensions"] = entries
    (dest / "jupyter-lite.json").write_text(json.dumps(config, indent=2), encoding="utf-8")
    return dest


def site_with_example(site: Path) -> Path:
    """A copy of ``site`` that loads the example extension too (``site_with_labextension``)."""
    return site_with_labextension(site, SITE_EXAMPLE, example_package()["name"], EXAMPLE.resolve())


def dependencies_first(source: Path) -> list[tuple[Path, dict]]:
    """The labextensions in ``source``, each after those it depends on.

    JupyterLite loads its federated extensions one after the other, each
    taking its shared modules from the extensions loaded before it: an
    extension that needs ``@jupyter/chat`` from ``jupyterlab-chat-extension``
    must come after it, or it gets a token of its own that nothing provides
    (jupyter-ai-lite's persona then never sees a chat).
    """
    found = {}
    for pkg_json in sorted([*source.glob("*/package.json"), *source.glob("@*/*/package.json")]):
        package = json.loads(pkg_json.read_text(encoding="utf-8"))
        found[package["name"]] = (pkg_json, package)
    # the shared modules each one ships (bundled) for the others
    provides = {
        shared: name
        for name, (_, package) in found.items()
        for shared, spec in package.get("jupyterlab", {}).get("sharedPackages", {}).items()
        if isinstance(spec, dict) and spec.get("bundled", True)
    }
    ordered: list[str] = []

    def visit(name: str, seen: tuple[str, ...] = ()) -> None:
        if name in ordered or name in seen:
            return
        package = found[name][1]
        needs = [*package.get("dependencies", {}), *package.get("jupyterlab", {}).get("sharedPackages", {})]
        for dep in needs:
            provider = dep if dep in found else provides.get(dep)
            if provider and provider != name:
                visit(provider, (*seen, name))
        ordered.append(name)

    for name in found:
        visit(name)
    return [found[name] for name in ordered]


def site_with_assistant(site: Path, name: str) -> Path:
    """A copy of ``site`` with an assistant's labextensions, made of links.

    As ``site_with_example``, for every labextension the assistant's wheels
    ship; ``jupyter-lite.json`` also gets the assistant's settings in
    ``settingsOverrides``, which JupyterLite reads as JupyterLab reads
    ``overrides.json``.
    """
    source = assistant_labextensions(name)
    if SITE_ASSISTANT.exists():
        shutil.rmtree(SITE_ASSISTANT)
    SITE_ASSISTANT.mkdir()
    for entry in site.iterdir():
        if entry.name not in ("jupyter-lite.json", "extensions", "build"):
            (SITE_ASSISTANT / entry.name).symlink_to(entry.resolve())
    # build/schemas/all_federated.json: the federated extensions' settings
    # schemas, which `jupyter lite build` collects (a plugin whose schema is
    # missing there fails to load its settings)
    build = SITE_ASSISTANT / "build"
    build.mkdir()
    for entry in (site / "build").iterdir():
        if entry.name != "schemas":
            (build / entry.name).symlink_to(entry.resolve())
    schemas = build / "schemas"
    schemas.mkdir()
    for entry in (site / "build" / "schemas").iterdir():
        if entry.name != "all_federated.json":
            (schemas / entry.name).symlink_to(entry.resolve())
    federated_file = site / "build" / "schemas" / "all_federated.json"
    federated = (
        json.loads(federated_file.read_text(encoding="utf-8")) if federated_file.is_file() else []
    )
    extensions = SITE_ASSISTANT / "extensions"
    extensions.mkdir()
    for entry in (site / "extensions").iterdir():
        (extensions / entry.name).symlink_to(entry.resolve())
    config = json.loads((site / "jupyter-lite.json").read_text(encoding="utf-8"))
    data = config.setdefault("jupyter-config-data", {})
    entries = data.get("federated_extensions", [])
    for pkg_json, package in dependencies_first(source):
        pkg_name = package["name"]
        dest = extensions / pkg_name
        if dest.exists() or dest.is_symlink():
            dest.unlink()
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.symlink_to(pkg_json.parent.resolve(), target_is_directory=True)
        entries = [ext for ext in entries if ext.get("name") != pkg_name]
        entries.append({"name": pkg_name, **package["jupyterlab"]["_build"]})
        for schema in sorted((pkg_json.parent / "schemas" / pkg_name).glob("*.json")):
            if schema.name == "package.json.orig":
                continue
            plugin_id = f"{pkg_name}:{schema.stem}"
            federated = [item for item in federated if item.get("id") != plugin_id]
            federated.append(
                {
                    "id": plugin_id,
                    "raw": "{}",
                    "schema": json.loads(schema.read_text(encoding="utf-8")),
                    "settings": {},
                    "version": package["version"],
                }
            )
    (schemas / "all_federated.json").write_text(json.dumps(federated), encoding="utf-8")
    data["federated_extensions"] = entries
    overrides = data.setdefault("settingsOverrides", {})
    for plugin, values in assistant_settings(name).items():
        overrides.setdefault(plugin, {}).update(values)
    (SITE_ASSISTANT / "jupyter-lite.json").write_text(json.dumps(config, indent=2), encoding="utf-8")
    return SITE_ASSISTANT


def start_lite(port: int, example: bool = False, assistant: str | None = None) -> int:
    site, reason = choose_lite_site()
    if site is None:
        # never rebuild demo/_output itself: someone may be serving or building it
        log(f"{reason}: building the site into {PRIVATE_SITE} with demo/build.py")
        proc = subprocess.run(
            [sys.executable, str(DEMO / "build.py"), "--output", str(PRIVATE_SITE)],
            cwd=str(REPO),
            stdout=sys.stderr,
        )
        if proc.returncode != 0:
            log("demo/build.py failed")
            return proc.returncode
        site = PRIVATE_SITE
    if not (site / "extensions" / EXTENSION_NAME / "package.json").is_file():
        log(
            f"error: the Lite site {site} has no {EXTENSION_NAME} labextension: "
            "demo/build.py takes it from this Python environment, so install the "
            "package (`pip install -e .` or `jupyter labextension develop --overwrite .`)"
        )
        return 3
    build = extension_build()
    if without_extension():
        site = site_without_extension(site)
        log(f"without {EXTENSION_NAME} (UI_TESTS_WITHOUT_EXTENSION)")
    elif build:
        site = site_with_labextension(site, SITE_BUILD, EXTENSION_NAME, build)
        log(f"{EXTENSION_NAME} from {build} (UI_TESTS_EXTENSION_BUILD)")
    kind = "lite"
    if example:
        site = site_with_example(site)
        kind = "lite-example"
    if assistant:
        site = site_with_assistant(site, assistant)
        kind = "assistant-lite"
    cmd = [sys.executable, str(DEMO / "serve.py"), "--port", str(port), "--dir", str(site)]
    log(f"{kind} on http://127.0.0.1:{port}/ serving {site} (log: {log_path(kind)})")
    return run_until_stopped(cmd, None, None, log_path(kind))


# --------------------------------------------------------------------------


def main(argv: list[str]) -> int:
    if (
        len(argv) != 2
        or argv[0] not in (*SERVER_KINDS, "lite", "lite-example", "assistant-lite")
        or not argv[1].isdigit()
    ):
        print(__doc__, file=sys.stderr)
        return 2
    kind, port = argv[0], int(argv[1])
    if kind in ("lite", "lite-example", "assistant-lite"):
        return start_lite(
            port, example=kind == "lite-example", assistant=ASSISTANT_OF.get(kind)
        )
    try:
        import ipykernel  # noqa: F401
    except ImportError:
        log(f"error: ipykernel is not installed for {sys.executable}")
        return 3
    prune_stale_dirs()
    dirs = make_sandbox(kind, port)
    env = server_env(dirs)
    # the extension list is resolved with the server's own (isolated) paths
    os.environ.clear()
    os.environ.update(env)
    curate_labextensions(
        dirs["labextensions"],
        rtc=kind == "lab-rtc",
        example=kind == "lab-example",
        assistant=ASSISTANT_OF.get(kind),
    )
    log(f"{kind} on http://127.0.0.1:{port}/ serving {dirs['root']} (log: {log_path(kind)})")
    return run_until_stopped(server_command(kind, port, dirs), env, dirs["base"], log_path(kind))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
