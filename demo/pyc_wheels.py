"""Add compiled bytecode to pure-Python wheels, run inside Pyodide's CPython.

demo/pyc_wheels.mjs runs this file in Pyodide under Node, with the host's
wheel folders mounted, and calls ``compile_wheel(source, target)`` once per
wheel. It must run in Pyodide's own interpreter: bytecode is specific to a
Python version (3.14 here), and the host's Python is usually another one.

Each ``.py`` of the wheel keeps its place and gains
``__pycache__/<name>.<cache tag>.pyc`` beside it, an unchecked hash-based pyc
(PEP 552): the import system loads it without comparing it with the source,
whose timestamp an unpacked wheel does not keep. A kernel then imports
IPython, jedi and the rest without compiling them at each start, and
tracebacks, ``inspect`` and jedi still have the source. The pyc files are
listed in the wheel's RECORD. The output is the same bytes for the same input
(entries in the input's order, with its timestamps), so its sha256 is stable.
"""

from __future__ import annotations

import base64
import hashlib
import importlib.util
import posixpath
import sys
import zipfile
from importlib._bootstrap_external import _code_to_hash_pyc


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
    return f"{name},sha256={digest.decode()},{len(data)}\n"


def _pyc_name(name: str) -> str:
    folder, base = posixpath.split(name)
    return posixpath.join(folder, "__pycache__", f"{base[:-3]}.{sys.implementation.cache_tag}.pyc")


def compile_wheel(source: str, target: str) -> dict:
    """Write ``target``: the wheel ``source`` with a pyc for each module.

    Returns the counts and the cache tag, for the build's log.
    """
    compiled = 0
    record: tuple[zipfile.ZipInfo, bytes] | None = None
    entries: list[tuple[zipfile.ZipInfo, bytes]] = []
    added: list[tuple[zipfile.ZipInfo, bytes]] = []
    with zipfile.ZipFile(source) as zin:
        for info in zin.infolist():
            data = zin.read(info)
            entries.append((info, data))
            if info.filename.endswith(".dist-info/RECORD") and info.filename.count("/") == 1:
                record = (info, data)
            if not info.filename.endswith(".py") or "/__pycache__/" in f"/{info.filename}":
                continue
            if info.filename.split("/", 1)[0].endswith((".dist-info", ".data")):
                continue
            # the file name is relative here; importlib replaces it with the
            # module's real path when it loads the pyc (checked: tracebacks
            # through traitlets show /lib/python3.14/site-packages/... lines)
            code = compile(data, info.filename, "exec", dont_inherit=True)
            pyc = _code_to_hash_pyc(code, importlib.util.source_hash(data), False)
            pyc_info = zipfile.ZipInfo(_pyc_name(info.filename), date_time=info.date_time)
            pyc_info.compress_type = zipfile.ZIP_DEFLATED
            pyc_info.external_attr = info.external_attr
            added.append((pyc_info, pyc))
            compiled += 1
    if record is None:
        raise ValueError(f"{source} has no .dist-info/RECORD")
    record_info, record_data = record
    with zipfile.ZipFile(target, "w") as zout:
        for info, data in entries:
            if info is not record_info:
                zout.writestr(info, data)
        for info, data in added:
            zout.writestr(info, data)
        extra = "".join(_record_line(i.filename, d) for i, d in added)
        zout.writestr(record_info, record_data.decode("utf-8").rstrip("\n") + "\n" + extra)
    return {"compiled": compiled, "cache_tag": sys.implementation.cache_tag}
