"""convert to and from Cursor's hooks.json: what each handler selects is kept, what Cursor (or
the other host) cannot say is reported."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.support import program, workspace

pytestmark = pytest.mark.program

def convert(root: Path, source: str, *args: str) -> tuple[int, Any, str]:
    done = program("convert", source, *args, cwd=root, home=root / "home",
                   env={"XDG_CONFIG_HOME": str(root / "xdg")})
    return done.returncode, json.loads(done.stdout) if done.stdout else None, done.stderr


def test_claude_code_settings_into_cursor(tmp_path: Path) -> None:
    workspace(tmp_path, {".claude/settings.json": {"hooks": {
        "PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": '"$CLAUDE_PROJECT_DIR"/.claude/hooks/gate.sh',
             "timeout": 30}]}],
        "UserPromptSubmit": [{"hooks": [{"type": "command", "command": "echo hi"}]}]}}})
    code, doc, err = convert(tmp_path, ".claude/settings.json", "--to", "cursor")
    assert code == 0, err
    assert doc == {"version": 1, "hooks": {
        # Bash is Cursor's Shell, and Cursor searches a matcher anywhere: anchored.
        "preToolUse": [{"command": '"$CURSOR_PROJECT_DIR"/.claude/hooks/gate.sh',
                        "timeout": 30, "matcher": "^Shell$"}],
        "beforeSubmitPrompt": [{"command": "echo hi", "timeout": 30}]}}


def test_what_cursor_cannot_say_is_reported(tmp_path: Path) -> None:
    workspace(tmp_path, {".claude/settings.json": {"hooks": {
        "Notification": [{"hooks": [{"type": "command", "command": "notify-send hi"}]}],
        "Stop": [{"hooks": [{"type": "http", "url": "https://example.com/stop"}]}]}}})
    code, doc, err = convert(tmp_path, ".claude/settings.json", "--to", "cursor")
    assert code == 1 and doc is None
    assert "Notification has no counterpart in Cursor" in err
    assert "a http handler cannot be written for Cursor" in err


def test_cursor_into_hooks_json_keeps_the_selection_and_reports_cursors_options(
        tmp_path: Path) -> None:
    workspace(tmp_path, {".cursor/hooks.json": {"version": 1, "hooks": {
        "preToolUse": [{"command": "exit 2", "matcher": "^Shell$", "failClosed": True}],
        "stop": [{"command": "echo '{}'", "loop_limit": 3}]}}})
    code, doc, err = convert(tmp_path, ".cursor/hooks.json", "--to", "antigravity", "--lossy")
    assert code == 0, err
    [gate] = [d for d in doc.values() if "PreToolUse" in d]
    assert gate["PreToolUse"][0]["matcher"] == "run_command"
    assert "`failClosed` has no counterpart in hooks.json" in err
    assert "`loop_limit` has no counterpart in hooks.json" in err


def test_a_cursor_file_converts_into_itself_unchanged(tmp_path: Path) -> None:
    original = {"version": 1, "hooks": {
        "preToolUse": [{"command": "exit 2", "matcher": "^Shell$", "timeout": 5,
                        "failClosed": True}],
        "stop": [{"command": "echo '{}'", "loop_limit": 3}]}}
    workspace(tmp_path, {".cursor/hooks.json": original})
    code, doc, err = convert(tmp_path, ".cursor/hooks.json", "--to", "cursor")
    assert (code, doc) == (0, original), err


@pytest.mark.program
@pytest.mark.parametrize("target", ["antigravity", "claude", "gemini", "codex", "copilot"])
def test_a_cursor_mcp_matcher_converts_for_every_target(tmp_path: Path, target: str) -> None:
    """Cursor's `MCP:<tool>` names no server: convert carries it as the tool of any server
    where the target names servers, and says that this is not exact, never crashing."""
    import re

    workspace(tmp_path, {".cursor/hooks.json": {"version": 1, "hooks": {
        "preToolUse": [{"command": "./gate.sh", "matcher": "MCP:create_entities"}]}}})
    code, doc, err = convert(tmp_path, ".cursor/hooks.json", "--to", target, "--lossy")
    assert code == 0, err
    assert "Error" not in err and "error:" not in err
    if target in ("claude", "gemini", "codex"):
        assert "lossy: the matcher 'MCP:create_entities'" in err
        matcher = doc["hooks"]["PreToolUse" if target != "gemini" else "BeforeTool"][0][
            "matcher"]
        named = {"gemini": "mcp_memory_create_entities"}.get(
            target, "mcp__memory__create_entities")
        assert re.search(matcher, named)
        assert not re.search(matcher, named.replace("create", "delete"))
