"""Charm Crush: agenthooks as its hook, answering in Crush's envelope (exit 0 always), and
Crush's own crush.json run by its rules: each answer of a Crush hook's process read as Crush
reads it (charmbracelet/crush internal/hooks/runner.go@37f36e9, internal/hooks/input.go@37f36e9
`parseStdout`). Real files and real processes; Crush itself cannot be installed here (its npm
package downloads its binary from GitHub at install), so nothing drives it end to end."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
from pathlib import Path
from typing import Any

import pytest

from agenthooks.combine.verdict import Verdict
from agenthooks.hosts.crush.render import write
from agenthooks.hosts.writers import HostAnswer
from agenthooks.model.decision import Decision
from tests.support import program, workspace

pytestmark = pytest.mark.program

GATES = {"gates": {"PreToolUse": [{"matcher": "run_command", "hooks": [
    {"command": "grep -q 'rm -rf' && { echo 'no rm -rf here' >&2; exit 2; }; exit 0"}]}]}}


def cli(root: Path, *args: str, payload: object = None) -> subprocess.CompletedProcess[str]:
    stdin = "" if payload is None else json.dumps(payload)
    return program(*args, cwd=root, stdin=stdin, home=root / "home")


def call(root: Path, command: str, tool: str = "bash") -> dict[str, Any]:
    """A call as Crush sends it (internal/hooks/input.go@37f36e9 `BuildPayload`)."""
    return {"event": "PreToolUse", "session_id": "s1", "cwd": str(root), "tool_name": tool,
            "tool_input": {"command": command, "description": "d"}}


def claude_call(root: Path, command: str) -> dict[str, Any]:
    return {"session_id": "s1", "cwd": str(root), "hook_event_name": "PreToolUse",
            "tool_name": "Bash", "tool_input": {"command": command, "description": "d"}}


# --- agenthooks answering Crush ---------------------------------------------------------------

def test_a_gate_denies_crushs_shell_call_in_its_envelope(tmp_path: Path) -> None:
    root = workspace(tmp_path, {".agents/hooks.json": GATES})
    done = cli(root, "run", "PreToolUse", "--host", "crush", payload=call(root, "rm -rf /"))
    assert (done.returncode, json.loads(done.stdout)) == (
        0, {"version": 1, "decision": "deny", "reason": "no rm -rf here"}), done.stderr
    fine = cli(root, "run", "PreToolUse", "--host", "crush", payload=call(root, "ls"))
    assert (fine.returncode, json.loads(fine.stdout)) == (0, {"version": 1}), fine.stderr


def test_crushs_payload_is_told_apart_without_host(tmp_path: Path) -> None:
    root = workspace(tmp_path, {".agents/hooks.json": GATES})
    done = cli(root, "run", "PreToolUse", "--host", "crush", "--fail-closed",
               payload=call(root, "rm -rf /"))
    assert json.loads(done.stdout)["decision"] == "deny"


def test_fail_closed_is_a_deny_crush_reads(tmp_path: Path) -> None:
    root = workspace(tmp_path, {".agents/hooks.json": "{"})
    done = cli(root, "run", "PreToolUse", "--host", "crush", "--fail-closed",
               payload=call(root, "ls"))
    assert done.returncode == 0 and json.loads(done.stdout)["decision"] == "deny", done.stdout


def test_crushs_own_file_is_left_to_crush(tmp_path: Path) -> None:
    root = workspace(tmp_path, {"crush.json": {"hooks": {"PreToolUse": [
        {"command": "echo '{\"decision\": \"deny\"}'"}]}}})
    own = cli(root, "run", "PreToolUse", "--host", "crush", payload=call(root, "ls"))
    assert "decision" not in json.loads(own.stdout) and "runs this file itself" in own.stderr


# (name, verdict, the answer): the writer over verdicts.
DENY = Verdict("PreToolUse", Decision.deny("no"), word="deny", reason="no", blocked=True)
TABLE: list[tuple[str, Verdict, HostAnswer]] = [
    ("nothing", Verdict("PreToolUse"), HostAnswer({"version": 1}, 0)),
    ("deny", DENY, HostAnswer({"version": 1, "decision": "deny", "reason": "no"}, 0)),
    ("allow", Verdict("PreToolUse", Decision.approve(), word="allow"),
     HostAnswer({"version": 1, "decision": "allow"}, 0)),
    # No ask in Crush: the deny it would be, never the call let through.
    ("ask", Verdict("PreToolUse", Decision.ask("sure?"), word="ask", reason="sure?"),
     HostAnswer({"version": 1, "decision": "deny", "reason": (
         "a hook asks a person to confirm this call, which Crush cannot ask from a hook: "
         "sure?")}, 0)),
    ("stopped", Verdict("PreToolUse", blocked=True, stopped=True, stop_reason="enough"),
     HostAnswer({"version": 1, "decision": "deny", "reason": "enough", "halt": True}, 0)),
    ("rewritten", Verdict("PreToolUse", Decision.approve(), word="allow",
                          updated_args={"command": "ls"}),
     HostAnswer({"version": 1, "decision": "allow", "updated_input": {"command": "ls"}}, 0)),
    ("context", Verdict("PreToolUse", context="mind the branch"),
     HostAnswer({"version": 1, "context": "mind the branch"}, 0)),
    ("a warning", Verdict("PreToolUse", warnings=("hook 'x' timed out",)),
     HostAnswer({"version": 1, "context": "agenthooks: warning: hook 'x' timed out"}, 0)),
]


@pytest.mark.parametrize(("verdict", "expected"), [(v, a) for _, v, a in TABLE],
                         ids=[name for name, _, _ in TABLE])
def test_the_writer(verdict: Verdict, expected: HostAnswer) -> None:
    assert write(verdict, "PreToolUse") == expected


# --- a Crush hook's answer, read as Crush reads it --------------------------------------------

def hook(script: str) -> dict[str, Any]:
    """A crush.json of one hook on the shell tool running `script` (sh)."""
    return {"hooks": {"PreToolUse": [{"name": "gate", "matcher": "^bash$",
                                      "command": script, "timeout": 5}]}}


def under_claude(tmp_path: Path, script: str, command: str = "rm -rf x") -> tuple[
        dict[str, Any], str]:
    """Claude Code's answer when Crush's hook (`script`) answers its call, and the stderr."""
    root = workspace(tmp_path, {"crush.json": hook(script)})
    done = cli(root, "run", "PreToolUse", "--host", "claude", "--other-hosts",
               payload=claude_call(root, command))
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout).get("hookSpecificOutput") or {}, done.stderr


def said(text: str) -> str:
    """A command writing `text` on stdout."""
    return "printf '%s' " + shlex.quote(text)


ANSWERS: list[tuple[str, str, dict[str, Any]]] = [
    ("deny", said('{"decision": "DENY", "reason": "no"}'),
     {"permissionDecision": "deny", "permissionDecisionReason": "no"}),
    ("allow", said('{"version": 1, "decision": "allow", "reason": "unread"}'),
     {"permissionDecision": "allow"}),
    ("another word", said('{"decision": "block", "reason": "no"}'), {}),
    ("claude's answer", said('{"hookSpecificOutput": {"permissionDecision": "deny", '
                             '"permissionDecisionReason": "cc"}, "decision": "allow"}'),
     {"permissionDecision": "deny", "permissionDecisionReason": "cc"}),
    ("claude's ask", said('{"hookSpecificOutput": {"permissionDecision": "ask"}}'), {}),
    ("rewrite", said('{"updated_input": {"command": "ls"}}'),
     {"updatedInput": {"command": "ls", "description": "d"}}),
    ("rewrite as text", said('{"updated_input": "{\\"command\\": \\"ls\\"}"}'),
     {"updatedInput": {"command": "ls", "description": "d"}}),
    ("context", said('{"context": ["one", "", "two"]}'), {"additionalContext": "one\ntwo"}),
    ("exit 2", "echo 'not here' >&2; exit 2",
     {"permissionDecision": "deny", "permissionDecisionReason": "not here"}),
    ("exit 2 silent", "exit 2",
     {"permissionDecision": "deny", "permissionDecisionReason": "blocked by hook"}),
    ("other exit", "echo boom >&2; exit 1", {}),
    ("bad json", "echo '{\"decision\": \"deny\"'", {}),
    ("log line first", "echo starting; echo '{\"decision\": \"deny\"}'", {}),
    ("wrong type", said('{"decision": "deny", "halt": "true"}'), {}),
]


@pytest.mark.parametrize(("script", "expected"), [(s, e) for _, s, e in ANSWERS],
                         ids=[name for name, _, _ in ANSWERS])
def test_a_crush_hooks_answer(tmp_path: Path, script: str, expected: dict[str, Any]) -> None:
    answer, _ = under_claude(tmp_path, script)
    answer.pop("hookEventName", None)
    assert answer == expected


def test_halt_stops_the_agent(tmp_path: Path) -> None:
    for script, reason in ((said('{"halt": true, "reason": "stop now"}'), "stop now"),
                           ("exit 49", "turn halted by hook")):
        root = workspace(tmp_path / str(len(reason)), {"crush.json": hook(script)})
        done = cli(root, "run", "PreToolUse", "--host", "claude", "--other-hosts",
                   payload=claude_call(root, "ls"))
        answer = json.loads(done.stdout)
        assert (answer.get("continue"), answer.get("stopReason")) == (False, reason), done.stdout


def test_a_failure_lets_the_call_through_with_a_warning(tmp_path: Path) -> None:
    answer, stderr = under_claude(tmp_path, "echo boom >&2; exit 1")
    assert answer == {} and "exited 1: boom" in stderr
    _, stderr = under_claude(tmp_path, said('{"decision": 1}'))
    assert "voids its whole answer" in stderr


def test_its_hooks_get_crushs_payload_and_variables(tmp_path: Path) -> None:
    seen = tmp_path / "seen"
    script = (f"cat > {seen}/stdin; env > {seen}/env")
    seen.mkdir()
    under_claude(tmp_path / "p", script, "git status")
    assert json.loads((seen / "stdin").read_text()) == {
        "session_id": "s1", "cwd": str(tmp_path / "p"), "event": "PreToolUse",
        "tool_name": "bash", "tool_input": {"command": "git status", "description": "d"}}
    env = dict(line.split("=", 1) for line in (seen / "env").read_text().splitlines()
               if "=" in line)
    assert {key: env.get(key) for key in (
        "CRUSH", "AGENT", "AI_AGENT", "CRUSH_EVENT", "CRUSH_TOOL_NAME", "CRUSH_SESSION_ID",
        "CRUSH_CWD", "CRUSH_PROJECT_DIR", "CRUSH_TOOL_INPUT_COMMAND")} == {
        "CRUSH": "1", "AGENT": "crush", "AI_AGENT": "crush", "CRUSH_EVENT": "PreToolUse",
        "CRUSH_TOOL_NAME": "bash", "CRUSH_SESSION_ID": "s1",
        "CRUSH_CWD": str(tmp_path / "p"), "CRUSH_PROJECT_DIR": str(tmp_path / "p"),
        "CRUSH_TOOL_INPUT_COMMAND": "git status"}


def test_the_documented_hook_is_valid_and_listed(tmp_path: Path) -> None:
    from tests.support import REPO

    section = (REPO / "docs" / "hosts.md").read_text("utf-8").split("## Charm Crush", 1)[1]
    [block] = re.findall(r"```json\n(.*?)```", section.split("\n## ", 1)[0], re.S)
    root = workspace(tmp_path, {"crush.json": block})
    checked = cli(root, "validate", "--strict")
    assert checked.returncode == 0, checked.stdout
    listed = json.loads(cli(root, "list", "--format", "json").stdout)
    assert [(h["dialect"], h["event"]) for h in listed] == [("crush", "PreToolUse")]
