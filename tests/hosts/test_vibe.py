"""Mistral Vibe: agenthooks as its hook answers in the JSON Vibe reads (exit 0 always), and
Vibe's own hooks.toml found, checked and run by its rules (PyPI mistral-vibe 3.0.3,
mistralai_vibe_local_harness/vibe/_foreign_hooks.py, _hook_matcher.py). Vibe itself is driven
in tests/e2e/test_vibe.py."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.support import REPO, program, workspace

if sys.version_info >= (3, 11):
    import tomllib
else:  # the backport, a dependency on Python 3.10
    import tomli as tomllib

pytestmark = pytest.mark.program

GATES = {"gates": {
    "PreToolUse": [{"matcher": "run_command", "hooks": [
        {"command": "grep -q 'rm -rf' && { echo 'no rm -rf here' >&2; exit 2; }; exit 0"}]}],
    "PostToolUse": [{"hooks": [{"command": (
        "echo '{\"hookSpecificOutput\": {\"hookEventName\": \"PostToolUse\", "
        "\"additionalContext\": \"lint ok\"}}'")}]}],
}}
# Vibe's own gate, in its words: a deny of a push, by the shell tool's short name.
OWN = ('[[hooks]]\nname = "no-push"\ntype = "pre_tool"\nmatch = "bash"\n'
       'command = """grep -q "git push" && echo \'{"decision": "deny", '
       '"reason": "no pushes"}\'; exit 0"""\n')


def cli(root: Path, *args: str, payload: object = None) -> subprocess.CompletedProcess[str]:
    stdin = "" if payload is None else json.dumps(payload)
    return program(*args, cwd=root, stdin=stdin, home=root / "home")


def call(root: Path, command: str, event: str = "pre_tool", **more: Any) -> dict[str, Any]:
    """A call as Vibe sends it (`_foreign_hooks.py` `_base_payload`, `_stdin_payload`)."""
    return {"session_id": "s1", "transcript_path": "", "cwd": str(root),
            "parent_session_id": None, "hook_event_name": event,
            "tool_name": "file_system.bash", "tool_call_id": "call_1",
            "tool_input": {"timeout": 120, "command": command}, **more}


def test_a_gate_denies_vibes_shell_call_in_its_json(tmp_path: Path) -> None:
    root = workspace(tmp_path, {".agents/hooks.json": GATES})
    done = cli(root, "run", "pre_tool", "--host", "vibe", payload=call(root, "rm -rf /"))
    assert (done.returncode, json.loads(done.stdout)) == (
        0, {"decision": "deny", "reason": "no rm -rf here"}), done.stderr
    fine = cli(root, "run", "pre_tool", "--host", "vibe", payload=call(root, "ls"))
    assert (fine.returncode, json.loads(fine.stdout)) == (0, {}), fine.stderr


def test_context_after_a_tool_is_vibes_additional_context(tmp_path: Path) -> None:
    root = workspace(tmp_path, {".agents/hooks.json": GATES})
    after = call(root, "ls", "post_tool", tool_status="success", tool_output={},
                 tool_output_text="", tool_error=None, duration_ms=0)
    done = cli(root, "run", "post_tool", "--host", "vibe", payload=after)
    assert json.loads(done.stdout) == {"hook_specific_output": {"additional_context": "lint ok"}}


def test_fail_closed_is_a_deny_vibe_reads(tmp_path: Path) -> None:
    """Vibe reads only exit 0: agenthooks' own failure under --fail-closed is a deny there."""
    root = workspace(tmp_path, {".agents/hooks.json": "{"})
    done = cli(root, "run", "pre_tool", "--host", "vibe", "--fail-closed",
               payload=call(root, "ls"))
    assert done.returncode == 0 and json.loads(done.stdout)["decision"] == "deny", done.stdout


def test_its_own_hooks_run_by_its_rules_under_another_host(tmp_path: Path) -> None:
    """Under Claude Code with --other-hosts, Vibe's gate gets the call in its words (the shell
    tool `file_system.bash`, selected by `bash`) and denies a push; under Vibe itself it is
    left to Vibe."""
    root = workspace(tmp_path, {".vibe/hooks.toml": OWN})
    push = {"session_id": "s1", "cwd": str(root), "hook_event_name": "PreToolUse",
            "tool_name": "Bash", "tool_input": {"command": "git push origin main"}}
    done = cli(root, "run", "PreToolUse", "--host", "claude", "--other-hosts", payload=push)
    answer = json.loads(done.stdout)["hookSpecificOutput"]
    assert (answer["permissionDecision"], answer["permissionDecisionReason"]) == (
        "deny", "no pushes"), done.stderr
    own = cli(root, "run", "pre_tool", "--host", "vibe", payload=call(root, "git push"))
    assert "decision" not in json.loads(own.stdout) and "runs this file itself" in own.stderr


def test_the_documented_entries_are_valid_and_listed(tmp_path: Path) -> None:
    section = (REPO / "docs" / "hosts.md").read_text("utf-8").split("## Mistral Vibe", 1)[1]
    [block] = re.findall(r"```toml\n(.*?)```", section.split("\n## ", 1)[0], re.S)
    assert [entry["type"] for entry in tomllib.loads(block)["hooks"]] == [
        "pre_tool", "post_tool", "post_agent"]
    root = workspace(tmp_path, {".vibe/hooks.toml": block,
                                # Vibe runs a project's hooks only in a folder it trusts
                                "home/.vibe/trusted_folders.toml": f'trusted = ["{tmp_path}"]\n'})
    checked = cli(root, "validate", "--strict")
    assert checked.returncode == 0, checked.stdout
    listed = json.loads(cli(root, "list", "--format", "json").stdout)
    assert [(h["dialect"], h["event"], h["hook"]) for h in listed] == [
        ("vibe", "pre_tool", "agenthooks-pre-tool"), ("vibe", "post_tool", "agenthooks-post-tool"),
        ("vibe", "post_agent", "agenthooks-post-agent")]
