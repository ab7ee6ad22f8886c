"""Kiro: agenthooks as its hook, answering with the exit code and text (never JSON), and Kiro's
own `.kiro/hooks/*.json` run by its rules: each answer of a Kiro hook's process read as Kiro
reads it (kiro.dev/docs/cli/v3/hooks, "Two action types", "Trigger reference";
kiro.dev/docs/cli/hooks, "Hook output"). Real files and real processes; Kiro itself installs
from AWS's servers, with no registry package, so nothing drives it end to end."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest

from agenthooks.combine.verdict import Verdict
from agenthooks.hosts.kiro.render import write
from agenthooks.hosts.writers import HostAnswer
from agenthooks.model.decision import Decision
from tests.support import REPO, program, workspace

pytestmark = pytest.mark.program

GATES = {"gates": {
    "PreToolUse": [{"matcher": "run_command", "hooks": [
        {"command": "grep -q 'rm -rf' && { echo 'no rm -rf here' >&2; exit 2; }; exit 0"}]}],
    "SessionStart": [{"command": "echo '{\"hookSpecificOutput\": {\"hookEventName\": "
                                 "\"SessionStart\", \"additionalContext\": \"on main\"}}'"}]}}


def cli(root: Path, *args: str, payload: object = None) -> subprocess.CompletedProcess[str]:
    stdin = "" if payload is None else json.dumps(payload)
    return program(*args, cwd=root, stdin=stdin, home=root / "home")


def call(root: Path, command: str, tool: str = "execute_bash") -> dict[str, Any]:
    """A call as Kiro sends it (kiro.dev/docs/cli/hooks, "PreToolUse")."""
    return {"hook_event_name": "preToolUse", "cwd": str(root), "tool_name": tool,
            "tool_input": {"command": command}}


def claude_call(root: Path, command: str) -> dict[str, Any]:
    return {"session_id": "s1", "cwd": str(root), "hook_event_name": "PreToolUse",
            "tool_name": "Bash", "tool_input": {"command": command, "description": "d"}}


# --- agenthooks answering Kiro ----------------------------------------------------------------

def test_a_gate_blocks_kiros_shell_call_with_exit_2(tmp_path: Path) -> None:
    root = workspace(tmp_path, {".agents/hooks.json": GATES})
    done = cli(root, "run", "PreToolUse", "--host", "kiro", payload=call(root, "rm -rf /"))
    assert (done.returncode, done.stdout) == (2, ""), done.stderr
    assert "no rm -rf here" in done.stderr
    fine = cli(root, "run", "PreToolUse", "--host", "kiro", payload=call(root, "ls"))
    assert (fine.returncode, fine.stdout) == (0, ""), fine.stderr


def test_context_is_text_on_stdout_at_session_start(tmp_path: Path) -> None:
    root = workspace(tmp_path, {".agents/hooks.json": GATES})
    done = cli(root, "run", "SessionStart", "--host", "kiro",
               payload={"hook_event_name": "agentSpawn", "cwd": str(root)})
    assert (done.returncode, done.stdout) == (0, "on main\n"), done.stderr


def test_fail_closed_is_an_exit_2(tmp_path: Path) -> None:
    root = workspace(tmp_path, {".agents/hooks.json": "{"})
    done = cli(root, "run", "PreToolUse", "--host", "kiro", "--fail-closed",
               payload=call(root, "ls"))
    assert (done.returncode, done.stdout) == (2, ""), done.stderr


def test_kiros_own_file_is_left_to_kiro(tmp_path: Path) -> None:
    root = workspace(tmp_path, {".kiro/hooks/mine.json": {"version": "v1", "hooks": [
        {"trigger": "PreToolUse", "action": {"type": "command", "command": "exit 2"}}]}})
    own = cli(root, "run", "PreToolUse", "--host", "kiro", payload=call(root, "ls"))
    assert own.returncode == 0 and "runs this file itself" in own.stderr


# (name, verdict, event, the answer): the writer over verdicts.
DENY = Verdict("PreToolUse", Decision.deny("no"), word="deny", reason="no", blocked=True)
TABLE: list[tuple[str, Verdict, str, HostAnswer]] = [
    ("nothing", Verdict("PreToolUse"), "PreToolUse", HostAnswer({}, 0, "")),
    ("deny", DENY, "PreToolUse", HostAnswer({}, 2, "")),
    # No ask in Kiro: the block it would be, never the call let through.
    ("ask", Verdict("PreToolUse", Decision.ask("sure?"), word="ask", reason="sure?"),
     "PreToolUse", HostAnswer({}, 2, "")),
    ("stopped", Verdict("PreToolUse", blocked=True, stopped=True, stop_reason="enough"),
     "PreToolUse", HostAnswer({}, 2, "")),
    ("a blocked prompt", Verdict("PreInvocation", Decision.deny("no"), word="block",
                                 reason="no", blocked=True),
     "UserPromptSubmit", HostAnswer({}, 2, "")),
    # After the tool nothing can be blocked: exit 0, and no text Kiro would show no one.
    ("after the tool", Verdict("PostToolUse", Decision.deny("no"), word="block",
                               blocked=True, context="x"),
     "PostToolUse", HostAnswer({}, 0, "")),
    ("context", Verdict("SessionStart", context="mind the branch"), "SessionStart",
     HostAnswer({}, 0, "mind the branch\n")),
    ("a warning", Verdict("PreInvocation", warnings=("hook 'x' timed out",)),
     "UserPromptSubmit", HostAnswer({}, 0, "agenthooks: warning: hook 'x' timed out\n")),
]


@pytest.mark.parametrize(("verdict", "event", "expected"), [(v, e, a) for _, v, e, a in TABLE],
                         ids=[name for name, _, _, _ in TABLE])
def test_the_writer(verdict: Verdict, event: str, expected: HostAnswer) -> None:
    assert write(verdict, event) == expected


# --- a Kiro hook's answer, read as Kiro reads it ----------------------------------------------

def hook(script: str, trigger: str = "PreToolUse") -> dict[str, Any]:
    """A Kiro hooks file of one hook running `script` (sh)."""
    matcher = {"matcher": "execute_bash"} if "Tool" in trigger else {}
    return {"version": "v1", "hooks": [
        {"name": "gate", "trigger": trigger, **matcher,
         "action": {"type": "command", "command": script}, "timeout": 5}]}


def under_claude(tmp_path: Path, script: str, event: str = "PreToolUse",
                 payload: dict[str, Any] | None = None) -> tuple[dict[str, Any], str]:
    """Claude Code's answer when Kiro's hook (`script`) answers its call, and the stderr."""
    root = workspace(tmp_path, {".kiro/hooks/gates.json": hook(script, event)})
    done = cli(root, "run", event, "--host", "claude", "--other-hosts",
               payload=payload or claude_call(root, "rm -rf x"))
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout).get("hookSpecificOutput") or {}, done.stderr


ANSWERS: list[tuple[str, str, dict[str, Any]]] = [
    ("exit 2", "echo 'not here' >&2; exit 2",
     {"permissionDecision": "deny", "permissionDecisionReason": "not here"}),
    ("exit 2 silent", "exit 2",
     {"permissionDecision": "deny", "permissionDecisionReason": "hook 'gate' blocked (exit 2)"}),
    # Kiro reads no JSON answer: a Claude Code deny on stdout is nothing to it.
    ("claude's json", "echo '{\"hookSpecificOutput\": {\"permissionDecision\": \"deny\"}}'",
     {}),
    ("other exit", "echo boom >&2; exit 1", {}),
]


@pytest.mark.parametrize(("script", "expected"), [(s, e) for _, s, e in ANSWERS],
                         ids=[name for name, _, _ in ANSWERS])
def test_a_kiro_hooks_answer(tmp_path: Path, script: str, expected: dict[str, Any]) -> None:
    answer, _ = under_claude(tmp_path, script)
    answer.pop("hookEventName", None)
    assert answer == expected


def test_a_failure_lets_the_call_through_with_a_warning(tmp_path: Path) -> None:
    answer, stderr = under_claude(tmp_path, "echo boom >&2; exit 1")
    assert answer == {} and "exited 1: boom" in stderr


def test_a_prompt_hooks_stdout_is_context_and_its_exit_2_a_block(tmp_path: Path) -> None:
    prompt = {"session_id": "s1", "cwd": str(tmp_path), "hook_event_name": "UserPromptSubmit",
              "prompt": "hello"}
    answer, _ = under_claude(tmp_path / "a", 'echo "you said $USER_PROMPT"', "UserPromptSubmit",
                             {**prompt, "cwd": str(tmp_path / "a")})
    assert answer.get("additionalContext") == "you said hello"
    root = workspace(tmp_path / "b", {".kiro/hooks/gates.json": hook(
        "echo 'not that' >&2; exit 2", "UserPromptSubmit")})
    done = cli(root, "run", "UserPromptSubmit", "--host", "claude", "--other-hosts",
               payload={**prompt, "cwd": str(root)})
    said = json.loads(done.stdout)
    assert (said.get("decision"), said.get("reason")) == ("block", "not that"), done.stdout


def test_its_hooks_get_kiros_payload(tmp_path: Path) -> None:
    seen = tmp_path / "seen"
    seen.mkdir()
    under_claude(tmp_path / "p", f"cat > {seen}/stdin")
    assert json.loads((seen / "stdin").read_text()) == {
        "hook_event_name": "preToolUse", "cwd": str(tmp_path / "p"),
        "tool_name": "execute_bash", "tool_input": {"command": "rm -rf x", "description": "d"}}


def test_an_agent_action_and_a_disabled_hook_never_run(tmp_path: Path) -> None:
    root = workspace(tmp_path, {".kiro/hooks/gates.json": {"version": "v1", "hooks": [
        {"name": "steer", "trigger": "PreToolUse", "action": {"type": "agent", "prompt": "x"}},
        {"name": "off", "trigger": "PreToolUse", "enabled": False,
         "action": {"type": "command", "command": "exit 2"}}]}})
    done = cli(root, "run", "PreToolUse", "--host", "claude", "--other-hosts",
               payload=claude_call(root, "ls"))
    assert "permissionDecision" not in done.stdout, done.stdout
    assert "agent handlers need Kiro's model" in done.stderr
    listed = json.loads(cli(root, "list", "--format", "json").stdout)
    assert [(h["hook"], h["enabled"]) for h in listed] == [("steer", True), ("off", False)]
    explained = cli(root, "explain", "PreToolUse", "--tool", "Bash", "--host", "claude",
                    "--other-hosts")
    assert "disabled" in explained.stdout, explained.stdout


def test_the_documented_file_is_what_init_writes(tmp_path: Path) -> None:
    from agenthooks.hosts.kiro.wiring import hooks_text

    section = (REPO / "docs" / "hosts.md").read_text("utf-8").split("\n## Kiro\n", 1)[1]
    [block] = re.findall(r"```json\n(.*?)```", section.split("\n## ", 1)[0], re.S)
    assert block == hooks_text()
    root = workspace(tmp_path, {".kiro/hooks/agenthooks.json": block})
    checked = cli(root, "validate", "--strict")
    assert checked.returncode == 0, checked.stdout
    listed = json.loads(cli(root, "list", "--format", "json").stdout)
    assert [(h["dialect"], h["event"]) for h in listed] == [
        ("kiro", "PreToolUse"), ("kiro", "PostToolUse"), ("kiro", "UserPromptSubmit"),
        ("kiro", "Stop"), ("kiro", "SessionStart")]
