#!/usr/bin/env python3
"""Serve the built JupyterLite demo site on 127.0.0.1 (standard library only).

The site needs a cross-origin isolated page so the Pyodide kernel gets a
SharedArrayBuffer, hence every response carries COOP/COEP/CORP headers.

    python demo/serve.py                 # serves demo/_output on port 8000
    python demo/serve.py --port 0        # any free port
    python demo/serve.py --dir some/site --port 9000

The first line on stdout starts with ``Serving`` and holds the URLs; the
server then runs until it is killed (Ctrl+C or SIGTERM).
"""

from __future__ import annotations

import argparse
import errno
import functools
import http.server
import signal
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_DIR = HERE / "_output"
HOST = "127.0.0.1"

#: explicit types, so the result does not depend on the machine's mime.types
MIME_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".htm": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".cjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".map": "application/json",
    ".webmanifest": "application/manifest+json",
    ".ipynb": "application/x-ipynb+json",
    ".wasm": "application/wasm",
    ".whl": "application/zip",
    ".zip": "application/zip",
    ".tgz": "application/gzip",
    ".gz": "application/gzip",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".gif": "image/gif",
    ".woff": "font/woff",
    ".woff2": "font/woff2",
    ".ttf": "font/ttf",
    ".otf": "font/otf",
    ".eot": "application/vnd.ms-fontobject",
    ".txt": "text/plain; charset=utf-8",
    ".md": "text/markdown; charset=utf-8",
    ".py": "text/x-python; charset=utf-8",
    ".csv": "text/csv; charset=utf-8",
    ".xml": "application/xml",
    ".yaml": "application/x-yaml",
    ".yml": "application/x-yaml",
    ".toml": "application/toml",
    "": "application/octet-stream",
}

#: headers that make the page cross-origin isolated; nothing else is needed
#: because the whole site (Pyodide and its wheels included) is same-origin
ISOLATION_HEADERS = {
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Embedder-Policy": "require-corp",
    "Cross-Origin-Resource-Policy": "same-origin",
}


class DemoRequestHandler(http.server.SimpleHTTPRequestHandler):
    """Static files with isolation headers, revalidated caching and quiet logs."""

    protocol_version = "HTTP/1.1"  # keep-alive: the app loads hundreds of files
    extensions_map = MIME_TYPES
    timeout = 300  # drop keep-alive connections that stay idle this long
    verbose = False

    def end_headers(self) -> None:
        for name, value in ISOLATION_HEADERS.items():
            self.send_header(name, value)
        # always revalidate (Last-Modified / If-Modified-Since gives cheap 304s),
        # so a rebuilt site is never hidden behind a stale cached copy
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def log_request(self, code="-", size="-") -> None:
        # only errors are worth a line; a lab page load is ~300 requests
        status = getattr(code, "value", code)
        if self.verbose or (isinstance(status, int) and status >= 400):
            super().log_request(code, size)

    def log_error(self, format: str, *args) -> None:  # noqa: A002
        if format.startswith("Request timed out"):
            return  # an idle keep-alive connection being dropped
        if format.startswith("code ") and not self.verbose:
            return  # send_error(): log_request() reports the same request
        super().log_error(format, *args)

    def log_message(self, format: str, *args) -> None:  # noqa: A002
        sys.stderr.write(f"[serve] {self.address_string()} {format % args}\n")
        sys.stderr.flush()

    def handle_one_request(self) -> None:
        try:
            super().handle_one_request()
        except (BrokenPipeError, ConnectionResetError):
            # the browser went away (page reload, aborted fetch): not an error
            self.close_connection = True


class DemoServer(http.server.ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 256

    def handle_error(self, request, client_address) -> None:
        exc = sys.exc_info()[1]
        if isinstance(exc, (BrokenPipeError, ConnectionResetError, TimeoutError)):
            return
        super().handle_error(request, client_address)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--dir",
        type=Path,
        default=DEFAULT_DIR,
        help=f"directory to serve (default: {DEFAULT_DIR})",
    )
    parser.add_argument(
        "--port",
        type=int,
        default=8000,
        help="port on 127.0.0.1; 0 picks a free port (default: 8000)",
    )
    parser.add_argument(
        "--verbose", action="store_true", help="log every request to stderr"
    )
    return parser.parse_args(argv)


def _stop(signum, frame) -> None:
    raise KeyboardInterrupt


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    root = args.dir.resolve()
    if not root.is_dir():
        print(
            f"serve.py: {root} is not a directory; build the site first with "
            "`python demo/build.py`",
            file=sys.stderr,
        )
        return 2
    if not (root / "lab" / "index.html").is_file():
        print(
            f"serve.py: warning: {root} has no lab/index.html; is it a JupyterLite site?",
            file=sys.stderr,
        )

    DemoRequestHandler.verbose = args.verbose
    handler = functools.partial(DemoRequestHandler, directory=str(root))
    try:
        server = DemoServer((HOST, args.port), handler)
    except OSError as err:
        if err.errno == errno.EADDRINUSE:
            print(
                f"serve.py: port {args.port} is in use; pick another with --port "
                "(0 = any free port)",
                file=sys.stderr,
            )
            return 2
        raise

    # a plain SIGTERM should stop the server cleanly, like Ctrl+C
    signal.signal(signal.SIGTERM, _stop)

    port = server.server_address[1]
    base = f"http://{HOST}:{port}"
    print(
        f"Serving {base}/lab/index.html and {base}/notebooks/index.html?path=analysis.ipynb"
        f" from {root}",
        flush=True,
    )
    try:
        server.serve_forever(poll_interval=0.25)
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
