"""convert to and from GitHub Copilot CLI's hooks files: what each handler selects is kept,
what the other host cannot say is reported."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.sources.dialects.test_convert_cursor import convert
from tests.support import workspace

pytestmark = pytest.mark.program


def test_claude_code_settings_into_copilot(tmp_path: Path) -> None:
    workspace(tmp_path, {".claude/settings.json": {"hooks": {
        "PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": '"$CLAUDE_PROJECT_DIR"/.claude/hooks/gate.sh'}]}],
        "Stop": [{"hooks": [{"type": "command", "command": "echo done", "timeout": 30}]}]}}})
    code, doc, err = convert(tmp_path, ".claude/settings.json", "--to", "copilot")
    assert code == 0, err
    # Under the PascalCase keys Copilot sends Claude Code's payload and reads Claude Code's
    # matchers and answers: the gate script runs as written for Claude Code.
    assert doc == {"version": 1, "hooks": {
        "PreToolUse": [{"command": '"$COPILOT_PROJECT_DIR"/.claude/hooks/gate.sh',
                        "timeout": 600, "matcher": "Bash"}],
        "Stop": [{"command": "echo done"}]}}


def test_a_claude_code_regex_is_searched_anywhere_in_copilot_too(tmp_path: Path) -> None:
    workspace(tmp_path, {".claude/settings.json": {"hooks": {"PreToolUse": [
        {"matcher": "mcp__.*__write", "hooks": [{"type": "command", "command": "true"}]}]}}})
    code, doc, err = convert(tmp_path, ".claude/settings.json", "--to", "copilot")
    assert code == 0, err
    assert doc["hooks"]["PreToolUse"][0]["matcher"] == ".*(?:mcp__.*__write).*"


def test_gemini_cli_settings_into_copilot_take_camel_case(tmp_path: Path) -> None:
    workspace(tmp_path, {".gemini/settings.json": {"hooks": {"BeforeTool": [
        {"matcher": "run_shell_command", "hooks": [{"type": "command", "command": "true"}]}]}}})
    code, doc, err = convert(tmp_path, ".gemini/settings.json", "--to", "copilot")
    assert code == 0, err
    [gate] = doc["hooks"]["preToolUse"]
    # Copilot matches whole names: Gemini CLI's shell is its bash and powershell.
    from agenthooks.sources.dialects.matching import matches

    assert [name for name in ("bash", "powershell", "view")
            if matches("copilot", gate["matcher"], "preToolUse", name)] == ["bash", "powershell"]


def test_copilot_into_claude_code_reports_the_order_it_loses(tmp_path: Path) -> None:
    workspace(tmp_path, {".github/hooks/gates.json": {"version": 1, "hooks": {
        "preToolUse": [{"bash": "./gate.sh", "powershell": ".\\gate.ps1",
                        "matcher": "bash|edit"}, {"bash": "./log.sh"}]}}})
    code, doc, err = convert(tmp_path, ".github/hooks/gates.json", "--to", "claude")
    assert code == 1 and doc is None
    assert "`powershell` has no counterpart in Claude Code" in err
    assert err.count("Claude Code runs handlers in parallel") == 2


# (a Copilot file's hooks: whether their order is lost in Claude Code, which runs an event's
# handlers in parallel): order matters only where two hooks of one event may run on one call.
ORDER_LOST = [
    ({"preToolUse": [{"bash": "./gate.sh", "matcher": "bash|edit"}]}, False),
    ({"preToolUse": [{"bash": "./gate.sh"}], "agentStop": [{"bash": "./done.sh"}]}, False),
    ({"preToolUse": [{"bash": "./a.sh", "matcher": "bash"},
                     {"bash": "./b.sh", "matcher": "view|edit"}]}, False),
    ({"preToolUse": [{"bash": "./a.sh", "matcher": "bash"},
                     {"bash": "./b.sh", "matcher": "b.*"}]}, True),
    ({"preToolUse": [{"bash": "./a.sh", "matcher": "bash|view"},
                     {"bash": "./b.sh", "matcher": "view"}]}, True),
    ({"agentStop": [{"bash": "./a.sh"}, {"bash": "./b.sh"}]}, True),
    ({"preToolUse": [{"bash": "./a.sh", "matcher": "bash"}],
      "PreToolUse": [{"bash": "./b.sh", "matcher": "Bash"}]}, True),
]


@pytest.mark.parametrize(("hooks", "lost"), ORDER_LOST)
def test_copilot_into_claude_code_loses_order_only_where_it_matters(
        tmp_path: Path, hooks: dict[str, object], lost: bool) -> None:
    workspace(tmp_path, {".github/hooks/gates.json": {"version": 1, "hooks": hooks}})
    code, doc, err = convert(tmp_path, ".github/hooks/gates.json", "--to", "claude")
    assert ("runs handlers in parallel" in err, code) == (lost, 1 if lost else 0), err
    assert (doc is None) == lost


def test_a_copilot_file_converts_into_itself(tmp_path: Path) -> None:
    original = {"version": 1, "hooks": {
        "preToolUse": [{"command": "./gate.sh", "timeout": 10, "matcher": "bash|edit"}],
        "agentStop": [{"command": "echo hi"}]}}
    workspace(tmp_path, {".github/hooks/gates.json": original})
    code, doc, err = convert(tmp_path, ".github/hooks/gates.json", "--to", "copilot")
    assert (code, doc) == (0, original), err
    assert json.dumps(doc)
