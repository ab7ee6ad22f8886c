"""`check_text`: one hook file's findings from an editor's bytes, never from the file on disk,
as `validate PATH` reports them for the same content."""

from __future__ import annotations

from pathlib import Path

import pytest

from agenthooks.sources.formats import check_text
from tests.support import program

SAVED = '{"gate": {"Stop": [{"command": "true"}]}}'
UNKNOWN_EVENT = '{"gate": {"PreToolUze": []}}'
SHAPE_GEMINI = '{"hooks": {"BeforeTol": []}}'  # a place that says nothing: the shape decides

# (file, what is on disk or None, the editor's text, its dialect, the rules found)
CASES = [
    (".agents/hooks.json", SAVED, UNKNOWN_EVENT, "antigravity", ["unknown-event"]),
    (".agents/hooks.json", UNKNOWN_EVENT, SAVED, "antigravity", []),
    (".agents/hooks.json", None, "{", "antigravity", ["json-syntax"]),  # never saved
    (".gemini/settings.json", None, SHAPE_GEMINI, "gemini", ["unknown-event"]),
    ("hooks/hooks.json", SAVED, '{"hooks": {"BeforeTool": [], "BeforeTol": []}}', "gemini",
     ["unknown-event"]),
    (".harness/hooks/a.md", None, "---\nevent: tool.pree\n---\n", "antigravity",
     ["starlark-script-missing", "event-invalid"]),
    (".codex/config.toml", None, "[hooks\n", "codex", ["toml-syntax"]),
]


@pytest.mark.parametrize(("file", "disk", "text", "dialect", "rules"), CASES)
def test_the_text_is_checked_not_the_file(tmp_path: Path, file: str, disk: str | None,
                                          text: str, dialect: str, rules: list[str]) -> None:
    path = tmp_path / file
    if disk is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(disk)
    checked = check_text(file, text.encode(), cwd=str(tmp_path))
    found = checked.hook_file
    assert (checked.markdown is not None) == file.endswith(".md")
    assert found.source.dialect == dialect
    assert found.source.path == file
    assert [d.rule for d in found.diagnostics] == rules


@pytest.mark.program
def test_the_findings_are_validates(tmp_path: Path) -> None:
    path = tmp_path / ".agents" / "hooks.json"
    path.parent.mkdir()
    text = ('{\n  "gate": {\n    "PreToolUze": [],\n'
            '    "Stop": [{"command": "x", "timeout": 5000}]}}\n')
    path.write_text(text)
    done = program("validate", ".agents/hooks.json", cwd=tmp_path)
    shown = [line for line in done.stdout.splitlines() if line.startswith(".agents/")]
    found = check_text(".agents/hooks.json", text.encode(), cwd=str(tmp_path)).hook_file
    assert shown == [str(d) for d in found.diagnostics]
