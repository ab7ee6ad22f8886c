"""`agenthooks lsp`: the language server over stdio (`agenthooks.lsp`), for editors.

It needs pygls and lsprotocol, which the `lsp` extra installs; without them the command says
so in one line and exits 1.
"""

from __future__ import annotations

from agenthooks.errors import AgentHooksError

# The packages the server imports: a missing one is the extra not installed.
NEEDS = ("pygls", "lsprotocol", "cattrs", "attrs")
INSTALL = ("agenthooks lsp needs the `lsp` extra (pygls, lsprotocol): from the clone, "
           "pipx install --force '.[lsp]' (or uv tool install --reinstall '.[lsp]', "
           "or pip install '.[lsp]')")


class LspMissing(AgentHooksError):
    """The language server's packages are not installed."""


def serve_lsp() -> int:
    """Serve one editor over stdin and stdout until it exits; 0 after a clean exit."""
    try:
        from agenthooks.lsp.server import serve
    except ModuleNotFoundError as exc:
        if (exc.name or "").split(".")[0] in NEEDS:
            raise LspMissing(f"{INSTALL} ({exc.name} is missing)") from None
        raise
    serve()
    return 0
