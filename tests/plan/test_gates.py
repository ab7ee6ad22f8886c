"""A fail-closed `agenthooks run` entry on an event its host documents as unable to block
gates nothing: `validate` says so (`gate-cannot-block`), only where the table is certain."""

from __future__ import annotations

import json
import os
import shlex
from pathlib import Path

import pytest

from tests.support import program

RULE = "gate-cannot-block"


def claude_project(root: Path, entries: dict[str, str]) -> Path:
    (root / ".claude").mkdir(parents=True)
    hooks = {event: [{"hooks": [{"type": "command", "command": command}]}]
             for event, command in entries.items()}
    (root / ".claude" / "settings.json").write_text(json.dumps({"hooks": hooks}, indent=1))
    return root


def findings(agenthooks, root: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[int, list]:
    monkeypatch.chdir(root)
    done = agenthooks("validate", "--format", "json", "--no-user")
    diagnostics = json.loads(done.out)["diagnostics"]
    return done.code, [d for d in diagnostics if d["rule"] == RULE]


@pytest.mark.parametrize(("event", "command", "said"), [
    ("PostToolUse", "agenthooks run PostToolUse --host claude --fail-closed", True),
    ("SessionStart", "agenthooks run SessionStart --host claude --fail-closed", True),
    ("PostToolUse", "agenthooks run PostToolUse --host claude", False),
    ("PreToolUse", "agenthooks run PreToolUse --host claude --fail-closed", False),
    ("Stop", "agenthooks run Stop --host claude --fail-closed", False),
    # a handler that starts a run among other commands is a handler, not the entry
    ("PostToolUse", "./check.sh && agenthooks run PostToolUse --fail-closed", False),
])
def test_a_claude_gate_where_claude_cannot_block(agenthooks, tmp_path: Path, event: str,
                                                 command: str, said: bool,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    code, found = findings(agenthooks, claude_project(tmp_path / "p", {event: command}),
                           monkeypatch)
    assert bool(found) is said, found
    if said:
        (finding,) = found
        assert code == 1
        assert finding["file"] == os.path.join(".claude", "settings.json")
        assert finding["severity"] == "error"
        assert finding["pointer"] == f"/hooks/{event}/0/hooks/0/command"
        assert finding["line"] > 1
        assert f"Claude Code cannot block on {event}" in finding["message"]
        assert "put the gate on PreToolUse" in finding["message"]


def test_cursor_stop_and_copilot_session_start(agenthooks, tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "p"
    (root / ".cursor").mkdir(parents=True)
    (root / ".github" / "hooks").mkdir(parents=True)
    (root / ".cursor" / "hooks.json").write_text(json.dumps({"version": 1, "hooks": {
        "stop": [{"command": "agenthooks run stop --host cursor --fail-closed"}],
        "preToolUse": [{"command": "agenthooks run preToolUse --host cursor --fail-closed"}],
    }}))
    (root / ".github" / "hooks" / "agenthooks.json").write_text(json.dumps({
        "version": 1, "hooks": {"sessionStart": [
            {"type": "command", "bash": "agenthooks run sessionStart --host copilot "
                                        "--fail-closed"}]}}))
    _, found = findings(agenthooks, root, monkeypatch)
    said = sorted((d["file"], d["pointer"]) for d in found)
    assert said == [(os.path.join(".cursor", "hooks.json"), "/hooks/stop/0/command"),
                    (os.path.join(".github", "hooks", "agenthooks.json"),
                     "/hooks/sessionStart/0/command")], found


def test_an_event_the_table_does_not_know_is_not_said(agenthooks, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Antigravity documents no SessionStart: whether it can block there is unknown."""
    root = tmp_path / "p"
    (root / ".agents").mkdir(parents=True)
    (root / ".agents" / "hooks.json").write_text(json.dumps({"agenthooks": {
        "SessionStart": [{"command": "agenthooks run SessionStart --host antigravity "
                                     "--config .agents/agenthooks.json --fail-closed"}],
        "PostToolUse": [{"matcher": "", "hooks": [{
            "command": "agenthooks run PostToolUse --host antigravity --config "
                       ".agents/agenthooks.json --fail-closed"}]}]}}))
    (root / ".agents" / "agenthooks.json").write_text('{"g": {"Stop": [{"command": "true"}]}}')
    _, found = findings(agenthooks, root, monkeypatch)
    assert [d["pointer"] for d in found] == ["/agenthooks/PostToolUse/0/hooks/0/command"]


@pytest.mark.program
@pytest.mark.parametrize(("command", "refused"), [
    ("agenthooks run PreToolUse2 --host claude --fail-closed", "unknown event 'PreToolUse2'"),
    ("agenthooks run PreToolUse --host claud", "--host 'claud' names no host"),
    ("agenthooks run PreToolUse --host rulesync", "rulesync runs no hooks itself"),
    ("agenthooks run PreToolUse --host claude --fail-closed", None),
    # any host's word for an event is the event (`agenthooks run BeforeTool` is PreToolUse)
    ("agenthooks run BeforeTool --host claude", None),
    # a handler that starts a run among other commands is a handler, not the entry
    ("./check.sh && agenthooks run PreToolUse2", None),
])
def test_an_entry_whose_run_refuses_its_words(agenthooks, tmp_path: Path, command: str,
                                              refused: str | None,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    root = claude_project(tmp_path / "p", {"PreToolUse": command})
    monkeypatch.chdir(root)
    done = agenthooks("validate", "--format", "json", "--no-user")
    found = [d for d in json.loads(done.out)["diagnostics"] if d["rule"] == "run-refused"]
    if refused is None:
        assert found == [], found
        return
    (finding,) = found
    assert done.code == 1 and finding["severity"] == "error"
    assert finding["pointer"] == "/hooks/PreToolUse/0/hooks/0/command"
    assert refused in finding["message"], finding["message"]
    assert finding["message"].endswith("Claude Code reads exit 1 as a non-blocking error: the "
                                       "call goes through, so this gate is off")
    # What the message says is what the run does.
    ran = program(*shlex.split(command)[1:], cwd=root, stdin="{}")
    assert ran.returncode == 1 and ran.stdout == "", ran.stderr
