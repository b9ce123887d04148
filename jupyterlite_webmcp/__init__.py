"""The jupyterlite-webmcp prebuilt labextension.

The extension is frontend-only: it registers WebMCP tools in the browser and needs
no server, so this package only ships the built assets and tells JupyterLab where
they are.
"""

try:
    from ._version import __version__
except ImportError:  # pragma: no cover - only when the package was not built
    import warnings

    warnings.warn(
        "Importing 'jupyterlite_webmcp' outside a proper installation.",
        stacklevel=2,
    )
    __version__ = "dev"


def _jupyter_labextension_paths():
    return [{"src": "labextension", "dest": "jupyterlite-webmcp"}]
