"""deepagents-code: agenthooks as its hook answers in Claude Code's JSON as deepagents-code
reads it, and deepagents-code's own hooks.json files found and run by its rules (PyPI
deepagents-code 0.2.2, deepagents_code/hooks: `loading.py`, `snapshot.py`, `reducer.py`).

deepagents-code 0.2.2 needs Python 3.14, which this machine lacks: it is not driven end to
end here (the note of the change says so)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.support import denied, program, workspace

pytestmark = pytest.mark.program

GATES = {"gates": {"PreToolUse": [{"matcher": "run_command", "hooks": [
    {"command": "grep -q 'rm -rf' && { echo 'no rm -rf here' >&2; exit 2; }; exit 0"}]}]}}
# deepagents-code's own gate: Claude Code's shape, its shell tool seen as Bash.
OWN = {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{
    "type": "command", "command": (
        "grep -q 'git push' && echo '{\"hookSpecificOutput\": {\"hookEventName\": "
        "\"PreToolUse\", \"permissionDecision\": \"deny\", \"permissionDecisionReason\": "
        "\"no pushes\"}}'; exit 0")}]}]}}


def cli(root: Path, *args: str, payload: object = None) -> subprocess.CompletedProcess[str]:
    stdin = "" if payload is None else json.dumps(payload)
    return program(*args, cwd=root, stdin=stdin, home=root / "home")


def call(root: Path, command: str) -> dict[str, Any]:
    """A PreToolUse as deepagents-code sends it (`hooks/projection.py`)."""
    return {"session_id": "t1", "transcript_path": "/t", "cwd": str(root),
            "hook_event_name": "PreToolUse", "permission_mode": "default",
            "tool_name": "Bash", "tool_input": {"command": command, "timeout": 120000},
            "tool_use_id": "call_1"}


def test_a_gate_denies_deepagents_shell_call_in_its_json(tmp_path: Path) -> None:
    root = workspace(tmp_path, {".agents/hooks.json": GATES})
    done = cli(root, "run", "PreToolUse", "--host", "deepagents", payload=call(root, "rm -rf /"))
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert denied(answer) and "no rm -rf here" in answer["hookSpecificOutput"][
        "permissionDecisionReason"]
    fine = cli(root, "run", "PreToolUse", "--host", "deepagents", payload=call(root, "ls"))
    assert (fine.returncode, json.loads(fine.stdout)) == (0, {}), fine.stderr


def test_its_own_file_is_found_validated_and_listed(tmp_path: Path) -> None:
    root = workspace(tmp_path, {".deepagents/hooks.json": OWN})
    checked = cli(root, "validate")
    assert checked.returncode == 0, checked.stdout
    listed = json.loads(cli(root, "list", "--format", "json").stdout)
    assert [(h["dialect"], h["event"], h["matcher"]) for h in listed] == [
        ("deepagents", "PreToolUse", "Bash")]


def test_under_another_host_its_gate_runs_by_its_rules(tmp_path: Path) -> None:
    """Under Claude Code with --other-hosts, its handler gets the call with its shell tool
    named Bash and denies a push; under deepagents-code itself it is left to deepagents-code."""
    root = workspace(tmp_path, {".deepagents/hooks.json": OWN})
    push = call(root, "git push origin main")
    done = cli(root, "run", "PreToolUse", "--host", "claude", "--other-hosts", payload=push)
    assert denied(json.loads(done.stdout)), (done.stdout, done.stderr)
    own = cli(root, "run", "PreToolUse", "--host", "deepagents", payload=push)
    assert not denied(json.loads(own.stdout)) and "runs this file itself" in own.stderr


def test_a_hook_it_would_never_run_is_an_error(tmp_path: Path) -> None:
    hooks = {"hooks": {"Stop": [{"matcher": "x", "hooks": [
        {"type": "command", "command": "true"}]}], "PreToolUse": [{"matcher": "execute",
                                                                   "hooks": [{
        "type": "command", "command": "true", "async": True}]}]}}
    root = workspace(tmp_path, {".deepagents/hooks.json": hooks})
    checked = cli(root, "validate")
    assert checked.returncode == 1
    for rule in ("matcher-never-runs", "deepagents-async", "matcher-misspelt"):
        assert f"[{rule}]" in checked.stdout, checked.stdout
