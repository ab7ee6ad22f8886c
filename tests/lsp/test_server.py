"""`agenthooks lsp` end to end: a language client (pytest-lsp) drives the server, started as
an editor starts it (`python -m agenthooks lsp`), over stdio.

The files on disk and the editor's text differ on purpose: the findings are the text's.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

pytest.importorskip("pygls", reason="the lsp extra (pygls) is not installed")
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

pytestmark = pytest.mark.program

DOCS = "https://agenthooks.example/docs"
SAVED = {"gate": {"Stop": [{"command": "true"}]}}  # what is on disk: no finding
TYPED = """{
  "gate": {
    "PreToolUze": [],
    "Stop": [{"command": "true", "timeout": 5000}]
  }
}
"""


@pytest.fixture(autouse=True)
def own_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The server's user config and caches under this test's folder, never the real ones."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))


@pytest_lsp.fixture(config=ClientServerConfig(
    server_command=[sys.executable, "-m", "agenthooks", "lsp"]))
async def client(lsp_client: LanguageClient, isolated: Path) -> AsyncIterator[None]:
    params = types.InitializeParams(
        capabilities=pytest_lsp.client_capabilities("visual-studio-code"),
        root_uri=isolated.as_uri(),
        initialization_options={"docsUrl": DOCS})
    await lsp_client.initialize_session(params)
    yield
    await lsp_client.shutdown_session()


def hooks_json(work: Path) -> Path:
    path = work / ".agents" / "hooks.json"
    path.parent.mkdir(exist_ok=True)
    path.write_text(json.dumps(SAVED))
    return path


async def opened(client: LanguageClient, path: Path, text: str) -> list[types.Diagnostic]:
    """Open `path` with `text` (not what is on disk) and wait for its diagnostics."""
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        types.TextDocumentItem(uri=path.as_uri(), language_id="json", version=1, text=text)))
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    return list(client.diagnostics[path.as_uri()])


@pytest.mark.asyncio
async def test_the_editors_text_is_checked_as_validate_checks_it(
        client: LanguageClient, isolated: Path) -> None:
    path = hooks_json(isolated)
    found = await opened(client, path, TYPED)
    by_code = {d.code: d for d in found}
    assert set(by_code) == {"unknown-event", "timeout-seconds"}
    event = by_code["unknown-event"]
    # validate's 3:5 (1-based) is the protocol's 2:4, over the key and its quotes.
    assert event.range == types.Range(types.Position(2, 4), types.Position(2, 16))
    assert event.severity == types.DiagnosticSeverity.Error
    assert event.source == "agenthooks"
    assert event.code_description == types.CodeDescription(href=f"{DOCS}/validate/#rules")
    assert by_code["timeout-seconds"].severity == types.DiagnosticSeverity.Warning
    at = TYPED.splitlines()[3].index("5000")
    assert by_code["timeout-seconds"].range == types.Range(types.Position(3, at),
                                                           types.Position(3, at + 4))

    # A change is checked as typed; fixing the text clears the findings.
    fixed = TYPED.replace("PreToolUze", "PreToolUse").replace("5000", "5")
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=path.as_uri(), version=2),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=fixed)]))
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    assert list(client.diagnostics[path.as_uri()]) == []


@pytest.mark.asyncio
async def test_quick_fixes_write_the_name_meant_and_the_unit(
        client: LanguageClient, isolated: Path) -> None:
    path = hooks_json(isolated)
    found = await opened(client, path, TYPED)
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=path.as_uri()),
        range=types.Range(types.Position(0, 0), types.Position(6, 0)),
        context=types.CodeActionContext(diagnostics=found)))
    assert actions is not None
    edits = {}
    for action in actions:
        assert isinstance(action, types.CodeAction)
        assert action.kind == types.CodeActionKind.QuickFix
        assert action.edit is not None and action.edit.changes is not None
        (edit,) = action.edit.changes[path.as_uri()]
        edits[edit.new_text] = edit.range
    at = TYPED.splitlines()[3].index("5000")
    assert edits == {
        '"PreToolUse"': types.Range(types.Position(2, 4), types.Position(2, 16)),
        "5": types.Range(types.Position(3, at), types.Position(3, at + 4)),
    }


@pytest.mark.asyncio
async def test_a_settings_file_gets_its_own_hosts_rules_hover_and_completion(
        client: LanguageClient, isolated: Path) -> None:
    path = isolated / ".gemini" / "settings.json"
    path.parent.mkdir()
    text = ('{"hooks": {"BeforeTool": [{"matcher": "run_shell_comand",\n'
            '  "hooks": [{"type": "command", "command": "true", "timeout": 5}]}]}}\n')
    found = await opened(client, path, text)
    codes = {d.code: d for d in found}
    assert set(codes) == {"matcher-misspelt", "timeout-milliseconds"}
    assert codes["timeout-milliseconds"].code_description == types.CodeDescription(
        href=f"{DOCS}/dialects/#validate")

    hover = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=path.as_uri()),
        position=types.Position(0, 15)))
    assert hover is not None and isinstance(hover.contents, types.MarkupContent)
    assert "| Claude Code | `PreToolUse` |" in hover.contents.value
    assert "| Gemini CLI | `BeforeTool` |" in hover.contents.value

    completion = await client.text_document_completion_async(types.CompletionParams(
        text_document=types.TextDocumentIdentifier(uri=path.as_uri()),
        position=types.Position(0, 13)))
    items = completion.items if isinstance(completion, types.CompletionList) else completion
    assert items is not None
    labels = [item.label for item in items]
    assert "AfterTool" in labels and "PreToolUse" not in labels


@pytest.mark.asyncio
async def test_other_files_get_no_diagnostics(client: LanguageClient, isolated: Path) -> None:
    other = isolated / "package.json"
    other.write_text("{}")
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        types.TextDocumentItem(uri=other.as_uri(), language_id="json", version=1,
                               text='{"hooks": {"PreToolUze": []}}')))
    path = hooks_json(isolated)
    await opened(client, path, json.dumps(SAVED))  # answered in order: the other file first
    assert other.as_uri() not in client.diagnostics
    assert list(client.diagnostics[path.as_uri()]) == []


def test_without_the_extra_one_line_says_how_to_install_it(tmp_path: Path) -> None:
    # A `pygls` that is a plain module hides the installed package: importing the server
    # fails as it does where the extra is not installed.
    shadow = tmp_path / "shadow"
    shadow.mkdir()
    (shadow / "pygls.py").write_text("")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(shadow), *filter(None, [os.environ.get("PYTHONPATH")])])}
    done = subprocess.run([sys.executable, "-m", "agenthooks", "lsp"], env=env,
                          stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          timeout=60, check=False)
    assert done.returncode == 1
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert "lsp" in lines[0] and "'.[lsp]'" in lines[0] and "Traceback" not in lines[0]
