"""Windsurf: its hooks.json validated with positions, its tool events run as the tool event
of one kind of tool (a hooks.json gate on `run_command` runs on `pre_run_command`), its
handlers run under another host with Windsurf's payload, and `--host windsurf` answers by
exit code, as Windsurf reads it (docs.windsurf.com/windsurf/cascade/hooks)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from agenthooks.combine.verdict import Verdict
from agenthooks.hosts.windsurf.render import write
from tests.support import program

REPO = Path(__file__).resolve().parents[2]
# The dialect rules of Windsurf's files, each found in a file below.
TESTED_APART = {"event-outside-hooks"}


def cli(root: Path, *args: str, payload: object = None) -> subprocess.CompletedProcess[str]:
    """`agenthooks ARGS` in `root`, with a home and XDG folders of the test's own."""
    return program(*args, cwd=root, stdin=json.dumps(payload or {}), home=root / "home",
                   env={"XDG_CONFIG_HOME": str(root / "xdg"),
                        "XDG_DATA_HOME": str(root / "xdg-data"),
                        "XDG_CACHE_HOME": str(root / "xdg-cache")})


def windsurf_file(root: Path, doc: dict[str, Any]) -> None:
    (root / ".windsurf").mkdir(parents=True, exist_ok=True)
    (root / ".windsurf" / "hooks.json").write_text(json.dumps(doc, indent=2) + "\n",
                                                  encoding="utf-8")


def run_command_payload(command: str, cwd: Path) -> dict[str, Any]:
    return {"agent_action_name": "pre_run_command", "trajectory_id": "t1",
            "execution_id": "e1", "timestamp": "2026-01-01T00:00:00Z",
            "tool_info": {"command_line": command, "cwd": str(cwd)}}


@pytest.mark.program
def test_validate_says_where_a_windsurf_file_is_wrong(tmp_path: Path) -> None:
    windsurf_file(tmp_path, {
        "hooks": {"pre_run_commnd": [{"command": "true"}],
                  "post_write_code": [{"show_output": True}],
                  "pre_read_code": [{"matcher": "Read", "hooks": [{"command": "true"}]}]},
        "pre_user_prompt": [{"command": "true"}],
    })
    done = cli(tmp_path, "validate", "--format", "json", ".")
    assert done.returncode == 1, done.stderr
    found = {(d["rule"], d["line"], d["column"])
             for d in json.loads(done.stdout)["diagnostics"]}
    assert found == {("unknown-event", 3, 5), ("command-missing", 9, 7),
                     ("group-in-flat-event", 14, 7), ("event-outside-hooks", 24, 3)}, done.stdout


@pytest.mark.program
def test_a_hooks_json_gate_on_run_command_answers_windsurf_by_exit_code(tmp_path: Path) -> None:
    (tmp_path / ".agents").mkdir()
    gate = ("cat > saw.json; echo '{\"decision\": \"deny\", \"reason\": \"no recursive "
            "deletes\"}'")
    (tmp_path / ".agents" / "hooks.json").write_text(json.dumps({"gate": {"PreToolUse": [
        {"matcher": "run_command", "hooks": [{"type": "command", "command": gate}]}]}}),
        encoding="utf-8")
    done = cli(tmp_path, "run", "pre_run_command", "--host", "windsurf",
               payload=run_command_payload("rm -rf /", tmp_path))
    assert done.returncode == 2 and "no recursive deletes" in done.stderr, done
    saw = json.loads((tmp_path / ".agents" / "saw.json").read_text())
    assert saw["toolCall"] == {"name": "run_command",
                               "args": {"CommandLine": "rm -rf /", "Cwd": str(tmp_path)}}
    # A read is another kind of tool: the gate on run_command does not run on it.
    (tmp_path / ".agents" / "saw.json").unlink()
    done = cli(tmp_path, "run", "pre_read_code", "--host", "windsurf", payload={
        "agent_action_name": "pre_read_code", "tool_info": {"file_path": "/etc/passwd"}})
    assert done.returncode == 0, done.stderr
    assert not (tmp_path / ".agents" / "saw.json").exists()


@pytest.mark.program
def test_windsurf_handlers_run_under_another_host_in_windsurfs_words(tmp_path: Path) -> None:
    windsurf_file(tmp_path, {"hooks": {
        "pre_run_command": [{"command": "cat > shell-saw.json; echo 'no rm' >&2; exit 2"}],
        "pre_write_code": [{"command": "cat > write-saw.json", "working_directory": "sub"}],
    }})
    (tmp_path / "sub").mkdir()
    bash = {"hook_event_name": "PreToolUse", "tool_name": "Bash", "session_id": "s1",
            "tool_input": {"command": "rm -rf /"}}
    done = cli(tmp_path, "run", "PreToolUse", "--host", "claude", "--other-hosts",
               payload=bash)
    assert done.returncode == 0, done.stderr
    decided = json.loads(done.stdout)["hookSpecificOutput"]
    assert (decided["permissionDecision"], decided["permissionDecisionReason"]) == (
        "deny", "no rm")
    assert json.loads((tmp_path / "shell-saw.json").read_text()) == {
        "trajectory_id": "s1", "agent_action_name": "pre_run_command",
        "tool_info": {"command_line": "rm -rf /"}}
    assert not (tmp_path / "sub" / "write-saw.json").exists()
    # Claude Code's Edit is a write to Windsurf: pre_write_code, in its working directory.
    edit = {"hook_event_name": "PreToolUse", "tool_name": "Edit", "session_id": "s1",
            "tool_input": {"file_path": "/a.py", "old_string": "x", "new_string": "y"}}
    done = cli(tmp_path, "run", "PreToolUse", "--host", "claude", "--other-hosts",
               payload=edit)
    assert done.returncode == 0 and done.stdout.strip() == "{}", done
    saw = json.loads((tmp_path / "sub" / "write-saw.json").read_text())
    assert saw["agent_action_name"] == "pre_write_code"
    assert saw["tool_info"]["file_path"] == "/a.py"


@pytest.mark.program
def test_windsurfs_own_file_is_left_to_windsurf(tmp_path: Path) -> None:
    windsurf_file(tmp_path, {"hooks": {"pre_run_command": [{"command": "touch ran"}]}})
    done = cli(tmp_path, "run", "pre_run_command", "--host", "windsurf", "--other-hosts",
               payload=run_command_payload("ls", tmp_path))
    assert done.returncode == 0, done.stderr
    assert not (tmp_path / "ran").exists()


def verdict(word: str | None, *, refuses: bool = False) -> Verdict:
    return Verdict(event="PreToolUse", word=word, blocked=refuses)


@pytest.mark.parametrize(("event", "word", "refuses", "code"), [
    ("pre_run_command", "deny", True, 2),
    ("pre_write_code", "ask", False, 2),  # Windsurf has no ask: the block it would be
    ("pre_user_prompt", "block", True, 2),
    ("pre_read_code", "allow", False, 0),
    ("pre_run_command", None, False, 0),
    ("post_run_command", "block", True, 0),  # after the action: nothing to block
    ("post_cascade_response", "continue", True, 0),
])
def test_the_answer_is_the_exit_code(event: str, word: str | None, refuses: bool,
                                     code: int) -> None:
    assert write(verdict(word, refuses=refuses), event)[:2] == ({}, code)


@pytest.mark.program
def test_convert_says_it_cannot_carry_windsurfs_files_yet(tmp_path: Path) -> None:
    windsurf_file(tmp_path, {"hooks": {"pre_run_command": [{"command": "true"}]}})
    (tmp_path / ".agents").mkdir()
    (tmp_path / ".agents" / "hooks.json").write_text(json.dumps({"gate": {"PreToolUse": [
        {"matcher": "run_command", "hooks": [{"command": "true"}]}]}}), encoding="utf-8")
    for file, target in ((".windsurf/hooks.json", "claude"), (".agents/hooks.json", "windsurf")):
        done = cli(tmp_path, "convert", file, "--to", target)
        assert done.returncode == 1 and not done.stdout, done
        assert "convert does not read or write Windsurf's files yet" in done.stderr
