"""The language server: pygls over stdio, each feature one function of `features`.

Diagnostics are published when a hook file opens, changes or is saved (never for another
file); they read the editor's text, so an unsaved change is checked as typed. The client may
say where the documentation lives (`initializationOptions.docsUrl`): each diagnostic then
links to its rule there.
"""

from __future__ import annotations

import os

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from agenthooks._version import __version__
from agenthooks.lsp import features

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any


class HooksServer(LanguageServer):
    """The server, and what the client said at initialization."""

    docs_url: str | None = None


def _path(uri: str) -> str | None:
    return to_fs_path(uri) if uri.startswith("file:") else None


def publish(server: HooksServer, uri: str) -> None:
    """The diagnostics of a hook file as the editor holds it (none for another file)."""
    path = _path(uri)
    if path is None or not features.is_hook_file(path):
        return
    document = server.workspace.get_text_document(uri)
    found = features.diagnostics(path, document.source, server.docs_url,
                                 cwd=_root(server, path))
    server.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
        uri=uri, diagnostics=found, version=document.version))


def _root(server: HooksServer, path: str) -> str:
    """Where `validate` would run: the workspace folder that holds the file, else its own."""
    roots = [_path(folder.uri) for folder in server.workspace.folders.values()]
    roots.append(str(server.workspace.root_path or ""))
    for root in roots:
        if root and os.path.commonpath([root, path]) == root:
            return root
    return os.path.dirname(path)


def initialize(server: HooksServer, params: types.InitializeParams) -> None:
    options = params.initialization_options
    if isinstance(options, dict) and isinstance(options.get("docsUrl"), str):
        server.docs_url = options["docsUrl"]


def opened(server: HooksServer, params: types.DidOpenTextDocumentParams) -> None:
    publish(server, params.text_document.uri)


def changed(server: HooksServer, params: types.DidChangeTextDocumentParams) -> None:
    publish(server, params.text_document.uri)


def saved(server: HooksServer, params: types.DidSaveTextDocumentParams) -> None:
    publish(server, params.text_document.uri)


def closed(server: HooksServer, params: types.DidCloseTextDocumentParams) -> None:
    """A closed file's findings leave the editor's list with it."""
    if _path(params.text_document.uri) is not None:
        server.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
            uri=params.text_document.uri, diagnostics=[]))


def code_action(server: HooksServer, params: types.CodeActionParams) -> list[types.CodeAction]:
    document = server.workspace.get_text_document(params.text_document.uri)
    return features.quick_fixes(params.text_document.uri, document.source,
                                params.context.diagnostics)


def hover(server: HooksServer, params: types.HoverParams) -> types.Hover | None:
    path = _path(params.text_document.uri)
    if path is None or not features.is_hook_file(path):
        return None
    document = server.workspace.get_text_document(params.text_document.uri)
    return features.hover(path, document.source, params.position)


def completion(server: HooksServer, params: types.CompletionParams
               ) -> list[types.CompletionItem]:
    path = _path(params.text_document.uri)
    if path is None or not features.is_hook_file(path):
        return []
    document = server.workspace.get_text_document(params.text_document.uri)
    return features.completions(path, document.source, params.position)


# Each method the server answers: its handler, and the options it advertises.
FEATURES: tuple[tuple[str, Any, Callable[..., Any]], ...] = (
    (types.INITIALIZE, None, initialize),
    (types.TEXT_DOCUMENT_DID_OPEN, None, opened),
    (types.TEXT_DOCUMENT_DID_CHANGE, None, changed),
    (types.TEXT_DOCUMENT_DID_SAVE, None, saved),
    (types.TEXT_DOCUMENT_DID_CLOSE, None, closed),
    (types.TEXT_DOCUMENT_CODE_ACTION,
     types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]), code_action),
    (types.TEXT_DOCUMENT_HOVER, None, hover),
    (types.TEXT_DOCUMENT_COMPLETION, types.CompletionOptions(trigger_characters=['"']),
     completion),
)


def make_server() -> HooksServer:
    """A server with every feature registered."""
    server = HooksServer("agenthooks", __version__)
    for method, options, handler in FEATURES:
        server.feature(method, options)(handler)
    return server


def serve() -> None:
    """Serve one client over stdin and stdout until it exits."""
    make_server().start_io()
