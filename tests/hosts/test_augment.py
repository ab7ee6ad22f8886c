"""Augment (Auggie): agenthooks as its hook answers in the fields Augment's schema takes, and
Augment's own handlers run by its rules under another host (@augmentcode/auggie 0.36.0,
augment.mjs: the answer `zIt`, the exit codes `wao`, the payloads `B7n`...`k7n`)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.support import denied, program, workspace

pytestmark = pytest.mark.program

GATES = {"gates": {
    "PreToolUse": [{"matcher": "run_command", "hooks": [
        {"command": "grep -q 'rm -rf' && { echo 'no rm -rf here' >&2; exit 2; }; exit 0"}]}],
    "Stop": [{"command": "echo 'the tests have not run' >&2; exit 2"}],
    "PreInvocation": [{"command": "echo 'not this prompt' >&2; exit 2"}],
}}


def cli(root: Path, *args: str, payload: object) -> subprocess.CompletedProcess[str]:
    return program(*args, cwd=root, stdin=json.dumps(payload), home=root / "home")


def project(root: Path, files: dict[str, Any]) -> Path:
    return workspace(root, {".git/HEAD": "ref: refs/heads/main\n", **files})


def call(root: Path, command: str) -> dict[str, Any]:
    """A PreToolUse call as Augment sends it: no session_id nor cwd."""
    return {"hook_event_name": "PreToolUse", "conversation_id": "c1",
            "workspace_roots": [str(root)], "tool_name": "launch-process",
            "tool_input": {"command": command, "cwd": str(root), "wait": True},
            "tool_output": None, "tool_error": None, "is_mcp_tool": False}


def test_a_gate_denies_augments_shell_call_and_lets_another_through(tmp_path: Path) -> None:
    root = project(tmp_path, {".agents/hooks.json": GATES})
    done = cli(root, "run", "PreToolUse", "--host", "augment", payload=call(root, "rm -rf /"))
    answer = json.loads(done.stdout)
    assert done.returncode == 0 and denied(answer), done.stdout
    assert answer["hookSpecificOutput"] == {
        "hookEventName": "PreToolUse", "permissionDecision": "deny",
        "permissionDecisionReason": "no rm -rf here"}
    fine = cli(root, "run", "PreToolUse", "--host", "augment", payload=call(root, "ls"))
    assert fine.returncode == 0 and not denied(json.loads(fine.stdout)), fine.stdout


def test_a_stop_block_is_nested_where_augment_reads_it(tmp_path: Path) -> None:
    root = project(tmp_path, {".agents/hooks.json": GATES})
    stop = {"hook_event_name": "Stop", "conversation_id": "c1",
            "workspace_roots": [str(root)], "agent_stop_cause": "end_turn"}
    done = cli(root, "run", "Stop", "--host", "augment", payload=stop)
    assert json.loads(done.stdout) == {"hookSpecificOutput": {
        "hookEventName": "Stop", "decision": "block", "reason": "the tests have not run"}}


def test_a_block_on_prompt_submit_is_said_to_go_unheeded(tmp_path: Path) -> None:
    root = project(tmp_path, {".agents/hooks.json": GATES})
    prompt = {"hook_event_name": "PromptSubmit", "conversation_id": "c1",
              "workspace_roots": [str(root)], "user_prompt": "hi"}
    done = cli(root, "run", "PromptSubmit", "--host", "augment", payload=prompt)
    assert "hookSpecificOutput" not in json.loads(done.stdout)  # Augment's schema drops it
    assert "Augment (Auggie) cannot block there" in done.stderr, done.stderr


# Augment's handlers, run under Claude Code: (what the handler prints, its exit code) -> whether
# the Bash call is denied, as Augment reads the same answer on its own call.
@pytest.mark.parametrize(("output", "code", "blocked"), [
    ('{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny"}}',
     0, True),
    ("", 2, True),
    # Another exit code: Augment reads no JSON, and the call goes on.
    ('{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny"}}',
     1, False),
    # Claude Code's legacy top-level decision is no field of Augment's.
    ('{"decision": "block", "reason": "x"}', 0, False),
    # A word its schema does not take: Augment drops the whole answer.
    ('{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "defer"}}',
     0, False),
    # Values no schema takes, which must not end the run.
    ('{"hookSpecificOutput": {"hookEventName": ["PreToolUse"], "permissionDecision": []}}',
     0, False),
    ('{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": {}}}',
     0, False),
])
def test_augments_handlers_answer_by_its_rules(tmp_path: Path, output: str, code: int,
                                               blocked: bool) -> None:
    script = f"cat >/dev/null; printf '%s' '{output}'; exit {code}"
    settings = {"hooks": {"PreToolUse": [
        {"matcher": "launch-process", "hooks": [{"type": "command", "command": script}]}]}}
    root = project(tmp_path, {".augment/settings.json": settings})
    claude = {"hook_event_name": "PreToolUse", "session_id": "s1", "cwd": str(root),
              "tool_name": "Bash", "tool_input": {"command": "ls"}}
    done = cli(root, "run", "PreToolUse", "--host", "claude", "--other-hosts", payload=claude)
    assert denied(json.loads(done.stdout)) is blocked, (done.stdout, done.stderr)


def test_an_augment_stop_handler_blocks_in_its_nested_field(tmp_path: Path) -> None:
    answer = '{"hookSpecificOutput": {"hookEventName": "Stop", "decision": "block", ' \
             '"reason": "not done"}}'
    settings = {"hooks": {"Stop": [{"hooks": [
        {"type": "command", "command": f"cat >/dev/null; printf '%s' '{answer}'"}]}]}}
    root = project(tmp_path, {".augment/settings.json": settings})
    claude = {"hook_event_name": "Stop", "session_id": "s1", "cwd": str(root),
              "stop_hook_active": False}
    done = cli(root, "run", "Stop", "--host", "claude", "--other-hosts", payload=claude)
    assert json.loads(done.stdout) == {"decision": "block", "reason": "not done"}, done.stderr
