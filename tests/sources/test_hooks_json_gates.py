"""A hooks.json gate copied from Claude Code's or Gemini CLI's docs gates under every caller:
it reads `tool_input.command` (Claude Code's and Gemini CLI's field) and answers in its own
host's words, run by the real `agenthooks run` under Claude Code, Gemini CLI and Antigravity."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.sources.dialects.run.conftest import write_hooks_json
from tests.support import program

pytestmark = pytest.mark.program

# Each gate reads the call as Claude Code's and Gemini CLI's docs do, and blocks in one
# host's words: exit 2 with the reason on stderr, Claude Code's permissionDecision, Gemini
# CLI's decision.
READ = ("import json,sys; d=json.load(sys.stdin); c=d.get('tool_input',{}).get('command','');"
        " bad='rm -rf' in c;")
GATES = {
    "exit 2": f"{READ} print('no rm -rf', file=sys.stderr) if bad else None;"
              " sys.exit(2 if bad else 0)",
    "claude json": f"{READ} print(json.dumps({{'hookSpecificOutput': {{"
                   "'hookEventName': 'PreToolUse', 'permissionDecision': 'deny',"
                   " 'permissionDecisionReason': 'no rm -rf'}} if bad else {{}}))",
    "gemini json": f"{READ} print(json.dumps({{'decision': 'deny', 'reason': 'no rm -rf'}}"
                   " if bad else {{}}))",
}
PAYLOADS: dict[str, tuple[str, dict[str, Any]]] = {
    "claude": ("PreToolUse", {
        "session_id": "s1", "cwd": "/w", "hook_event_name": "PreToolUse",
        "tool_name": "Bash", "tool_input": {"command": "rm -rf victim"}}),
    "gemini": ("BeforeTool", {
        "session_id": "s1", "cwd": "/w", "hook_event_name": "BeforeTool",
        "timestamp": "2026-11-24T00:00:00Z", "tool_name": "run_shell_command",
        "tool_input": {"command": "rm -rf victim"}}),
    "antigravity": ("PreToolUse", {
        "conversationId": "s1", "workspacePaths": ["/w"],
        "toolCall": {"name": "run_command", "args": {"CommandLine": "rm -rf victim"}}}),
}


def denial(host: str, answer: dict[str, Any]) -> tuple[str, str]:
    """(decision, reason) of a host's answer."""
    if host == "claude":
        specific = answer["hookSpecificOutput"]
        return specific["permissionDecision"], specific["permissionDecisionReason"]
    return answer["decision"], answer["reason"]


@pytest.mark.parametrize("gate", list(GATES))
@pytest.mark.parametrize("host", list(PAYLOADS))
def test_a_claude_style_gate_in_hooks_json_denies_under_every_caller(
        tmp_path: Path, host: str, gate: str) -> None:
    project = tmp_path / "project"
    project.mkdir()
    file = write_hooks_json(project, {"gate": {"PreToolUse": [
        {"matcher": "run_command", "hooks": [{"command": "python3 gate.py"}]}]}})
    (project / ".agents" / "gate.py").write_text(GATES[gate], encoding="utf-8")
    # Antigravity runs its own hooks.json: its wiring names the gates' file with --config.
    if host == "antigravity":
        file = file.rename(file.with_name("agenthooks.json"))
    where = ["--config", str(file)] if host == "antigravity" else []
    event, payload = PAYLOADS[host]
    done = program("run", event, "--host", host, "--workspace", str(project), "--no-user",
                   *where, stdin=json.dumps(payload), cwd=project)
    # Antigravity's answer to a deny exits 2 as well (its render), the others' exit 0.
    assert done.returncode == (2 if host == "antigravity" else 0), done.stderr
    assert denial(host, json.loads(done.stdout)) == ("deny", "no rm -rf")


# A gate that checks the tool's name as its own host calls it: it acts only where it is
# handed that host's payload. Matched with that host's names, a hooks.json handler is.
NAMED = {
    "Bash": "claude",  # Claude Code's (and Codex's) name for the shell tool
    "run_shell_command": "gemini",
    "bash": "copilot",
}
NAMED_GATE = ("import json,sys; d=json.load(sys.stdin);"
              " t=d.get('tool_name') or d.get('toolName');"
              " a=d.get('tool_input') or d.get('toolArgs') or {};"
              " a=json.loads(a) if isinstance(a, str) else a;"
              " bad=t==NAME and 'rm -rf' in a.get('command','');"
              " print('no rm -rf', file=sys.stderr) if bad else None; sys.exit(2 if bad else 0)")


@pytest.mark.parametrize("name", list(NAMED))
@pytest.mark.parametrize("host", ["claude", "gemini"])
def test_a_gate_matched_with_one_hosts_names_gets_that_hosts_payload(
        tmp_path: Path, host: str, name: str) -> None:
    project = tmp_path / "project"
    project.mkdir()
    write_hooks_json(project, {"gate": {"PreToolUse": [
        {"matcher": name, "hooks": [{"command": "python3 gate.py"}]}]}})
    gate = NAMED_GATE.replace("NAME", repr(name))
    (project / ".agents" / "gate.py").write_text(gate, encoding="utf-8")
    event, payload = PAYLOADS[host]
    done = program("run", event, "--host", host, "--workspace", str(project), "--no-user",
                   stdin=json.dumps(payload), cwd=project)
    assert done.returncode == 0, done.stderr
    assert denial(host, json.loads(done.stdout)) == ("deny", "no rm -rf")
