"""Devin CLI: its files validated with positions (a `hooks` wrapper in a hooks.v1.json, where
Devin finds no event; a matcher in Claude Code's tool names), gates run with Devin's payload
under `--host devin`, a Devin hook's `"decision": "deny"` read as the block Devin reads it as,
and Claude Code's settings, which Devin runs itself, left to it
(docs.devin.ai/cli/extensibility/hooks/overview, .../lifecycle-hooks)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.support import denied, program, workspace

pytestmark = pytest.mark.program

# A gate on Devin's shell tool: exit 2, with the reason on stderr, for a command holding rm -rf.
GATE = {"type": "command",
        "command": "grep -q 'rm -rf' && { echo 'no rm -rf here' >&2; exit 2; }; exit 0"}
# A Devin hook answering in its own words: `decision` "deny", which Claude Code has not.
DENY = {"type": "command",
        "command": "grep -q 'rm -rf' && echo '{\"decision\": \"deny\", \"reason\": \"not here\"}';"
                   " exit 0"}


def cli(root: Path, *args: str, payload: object = None) -> subprocess.CompletedProcess[str]:
    """`agenthooks ARGS` in `root`, with a home and XDG folders of the test's own."""
    return program(*args, cwd=root, stdin=json.dumps(payload or {}), home=root / "home",
                   env={"XDG_CONFIG_HOME": str(root / "xdg"),
                        "XDG_DATA_HOME": str(root / "xdg-data"),
                        "XDG_CACHE_HOME": str(root / "xdg-cache")})


def project(root: Path, files: dict[str, str]) -> Path:
    return workspace(root, {".git/HEAD": "ref: refs/heads/main\n", **files})


def devin_payload(tool: str, tool_input: dict[str, Any]) -> dict[str, Any]:
    """A PreToolUse call as Devin sends it (lifecycle-hooks, "PreToolUse"): no `cwd`."""
    return {"hook_event_name": "PreToolUse", "session_id": "bramble-scorpion",
            "prompt_id": "5f0c3b9e", "tool_name": tool, "tool_input": tool_input,
            "tool_use_id": "chatcmpl-tool-1"}


def test_validate_says_where_a_hooks_wrapper_hides_every_event(tmp_path: Path) -> None:
    wrapped = {"hooks": {"PreToolUse": [{"matcher": "exec", "hooks": [GATE]}]}}
    root = project(tmp_path, {".devin/hooks.v1.json": json.dumps(wrapped, indent=2) + "\n"})
    done = cli(root, "validate", ".devin/hooks.v1.json")
    assert done.stdout.startswith(".devin/hooks.v1.json:2:3: warning [devin-hooks-wrapper] "
                                  "Devin CLI's hooks.v1.json is keyed by event name"), \
        done.stdout
    listed = cli(root, "list", "--format", "json", "--config", ".devin/hooks.v1.json")
    assert json.loads(listed.stdout) == [], listed.stdout  # Devin runs none: nor does agenthooks
    bare = {"PreToolUse": [{"matcher": "exec", "hooks": [GATE]}]}
    (root / ".devin" / "hooks.v1.json").write_text(json.dumps(bare, indent=2) + "\n",
                                                   encoding="utf-8")
    fixed = cli(root, "validate", ".devin/hooks.v1.json")
    assert fixed.returncode == 0 and "warning" not in fixed.stdout, fixed.stdout


def test_validate_says_a_claude_code_tool_name_selects_nothing(tmp_path: Path) -> None:
    settings = {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [GATE]}]}}
    root = project(tmp_path, {".devin/config.json": json.dumps(settings) + "\n"})
    done = cli(root, "validate", ".devin/config.json")
    assert done.returncode == 1
    assert (".devin/config.json:1:39: error [matcher-wrong-host] 'Bash' is "
            in done.stdout), done.stdout
    assert "Devin CLI calls it 'exec', so Devin CLI never selects it by this matcher: " \
           "write 'exec'" in done.stdout


def test_a_gate_denies_devins_shell_call(tmp_path: Path) -> None:
    bare = {"PreToolUse": [{"matcher": "exec", "hooks": [GATE]}]}
    root = project(tmp_path, {".devin/hooks.v1.json": json.dumps(bare)})
    named = ("run", "PreToolUse", "--host", "devin", "--config", ".devin/hooks.v1.json")
    refused = cli(root, *named, payload=devin_payload("exec", {"command": "rm -rf x"}))
    assert refused.returncode == 0, refused.stderr
    assert json.loads(refused.stdout)["hookSpecificOutput"] == {
        "hookEventName": "PreToolUse", "permissionDecision": "deny",
        "permissionDecisionReason": "no rm -rf here"}
    allowed = cli(root, *named, payload=devin_payload("exec", {"command": "ls"}))
    assert not denied(json.loads(allowed.stdout or "{}")), allowed.stdout
    # The matcher names Devin's shell tool: its `edit` is not it.
    other = cli(root, *named, payload=devin_payload("edit", {"file_path": "rm -rf"}))
    assert not denied(json.loads(other.stdout or "{}")), other.stdout
    # Unnamed, its own file is Devin's to run: agenthooks leaves it.
    left = cli(root, "run", "PreToolUse", "--host", "devin",
               payload=devin_payload("exec", {"command": "rm -rf x"}))
    assert "permissionDecision" not in left.stdout
    assert "Devin CLI runs this file itself" in left.stderr, left.stderr


def test_a_hooks_json_gate_selects_exec_by_its_shell_matcher(tmp_path: Path) -> None:
    """The gate `init` starts with (`run_command`) refuses Devin's `exec` call."""
    gates = {"no-rm-rf": {"PreToolUse": [{"matcher": "run_command", "hooks": [
        {"command": "grep -q 'rm -rf' && { echo nope >&2; exit 2; }; exit 0"}]}]}}
    root = project(tmp_path, {".agents/hooks.json": json.dumps(gates)})
    done = cli(root, "run", "PreToolUse", "--host", "devin", "--fail-closed",
               payload=devin_payload("exec", {"command": "rm -rf /", "shell_id": "main"}))
    assert done.returncode == 0, done.stderr
    assert denied(json.loads(done.stdout)), done.stdout


def test_a_devin_hooks_deny_word_blocks(tmp_path: Path) -> None:
    """`"decision": "deny"` is Devin's (not Claude Code's): under Claude Code with
    --other-hosts, Devin's hook denies Claude Code's Bash call, its `exec` matcher selecting it."""
    bare = {"PreToolUse": [{"matcher": "exec", "hooks": [DENY]}]}
    root = project(tmp_path, {".devin/hooks.v1.json": json.dumps(bare)})
    payload = {"hook_event_name": "PreToolUse", "session_id": "s1", "cwd": str(root),
               "tool_name": "Bash", "tool_input": {"command": "rm -rf x"}}
    done = cli(root, "run", "PreToolUse", "--host", "claude", "--other-hosts", payload=payload)
    assert json.loads(done.stdout)["hookSpecificOutput"] == {
        "hookEventName": "PreToolUse", "permissionDecision": "deny",
        "permissionDecisionReason": "not here"}, done.stdout
    assert "unknown for PreToolUse" not in done.stderr, done.stderr
    allowed = cli(root, "run", "PreToolUse", "--host", "claude", "--other-hosts",
                  payload={**payload, "tool_input": {"command": "ls"}})
    assert not denied(json.loads(allowed.stdout or "{}")), allowed.stdout


def test_claude_code_settings_are_left_to_devin(tmp_path: Path) -> None:
    """Devin runs a project's Claude Code hooks itself: under --host devin, even with
    --other-hosts, agenthooks does not run them a second time."""
    settings = {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [GATE]}]}}
    root = project(tmp_path, {".claude/settings.json": json.dumps(settings)})
    done = cli(root, "run", "PreToolUse", "--host", "devin", "--other-hosts",
               payload=devin_payload("exec", {"command": "rm -rf x"}))
    assert done.returncode == 0, done.stderr
    assert not denied(json.loads(done.stdout or "{}")), done.stdout
    claude = cli(root, "run", "PreToolUse", "--host", "gemini", "--other-hosts",
                 payload={"hook_event_name": "BeforeTool", "session_id": "s",
                          "cwd": str(root), "tool_name": "run_shell_command",
                          "tool_input": {"command": "rm -rf x"}})
    assert denied(json.loads(claude.stdout or "{}")), claude.stdout  # another host runs it
