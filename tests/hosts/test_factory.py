"""Factory Droid: its files validated with positions (a `hooks` wrapper in a hooks.json, where
Droid finds no event), and a gate of its settings file run with Droid's payload under `--host
factory`, answered in Claude Code's fields, which Droid reads (docs.factory.ai/harness/hooks,
docs.factory.ai/reference/hooks-reference)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.support import denied, program, workspace

pytestmark = pytest.mark.program

# A gate on Droid's shell tool: exit 2, with the reason on stderr, for a command holding rm -rf.
GATE = {"type": "command",
        "command": "grep -q 'rm -rf' && { echo 'no rm -rf here' >&2; exit 2; }; exit 0"}


def cli(root: Path, *args: str, payload: object = None) -> subprocess.CompletedProcess[str]:
    """`agenthooks ARGS` in `root`, with a home and XDG folders of the test's own."""
    return program(*args, cwd=root, stdin=json.dumps(payload or {}), home=root / "home",
                   env={"XDG_CONFIG_HOME": str(root / "xdg"),
                        "XDG_DATA_HOME": str(root / "xdg-data"),
                        "XDG_CACHE_HOME": str(root / "xdg-cache")})


def project(root: Path, files: dict[str, str]) -> Path:
    return workspace(root, {".git/HEAD": "ref: refs/heads/main\n", **files})


def droid_payload(root: Path, tool: str, tool_input: dict[str, Any]) -> dict[str, Any]:
    """A PreToolUse call as Droid sends it: Claude Code's fields, its own tool names."""
    return {"session_id": "s1", "transcript_path": str(root / "t.jsonl"), "cwd": str(root),
            "permission_mode": "default", "hook_event_name": "PreToolUse",
            "tool_name": tool, "tool_input": tool_input}


def test_validate_says_where_a_hooks_wrapper_hides_every_event(tmp_path: Path) -> None:
    wrapped = {"hooks": {"PreToolUse": [{"matcher": "Execute", "hooks": [GATE]}]}}
    root = project(tmp_path, {".factory/hooks.json": json.dumps(wrapped, indent=2) + "\n"})
    done = cli(root, "validate", ".factory/hooks.json")
    assert done.stdout.startswith(".factory/hooks.json:2:3: warning [factory-hooks-wrapper] "
                                  "Factory Droid's hooks.json is keyed by event name"), \
        done.stdout
    listed = cli(root, "list", "--format", "json", "--config", ".factory/hooks.json")
    assert json.loads(listed.stdout) == [], listed.stdout  # Droid runs none: nor does agenthooks
    bare = {"PreToolUse": [{"matcher": "Execute", "hooks": [GATE]}]}
    (root / ".factory" / "hooks.json").write_text(json.dumps(bare, indent=2) + "\n",
                                                   encoding="utf-8")
    fixed = cli(root, "validate", ".factory/hooks.json")
    assert fixed.returncode == 0 and "warning" not in fixed.stdout, fixed.stdout


def test_validate_says_settings_hooks_beside_a_hooks_json_never_run(tmp_path: Path) -> None:
    settings = {"hooks": {"PreToolUse": [{"matcher": "Execute", "hooks": [GATE]}]}}
    root = project(tmp_path, {".factory/settings.json": json.dumps(settings, indent=2) + "\n",
                              ".factory/hooks.json": "{}\n"})
    done = cli(root, "validate", "--format", "json", ".")
    found = {(d["file"].replace(os.sep, "/"), d["rule"], d["line"], d["column"])
             for d in json.loads(done.stdout)["diagnostics"]}
    assert (".factory/settings.json", "factory-settings-ignored", 2, 3) in found, done.stdout


def test_a_settings_gate_denies_droids_shell_call(tmp_path: Path) -> None:
    settings = {"hooks": {"PreToolUse": [{"matcher": "Execute", "hooks": [GATE]}]}}
    root = project(tmp_path, {".factory/settings.json": json.dumps(settings)})
    named = ("run", "PreToolUse", "--host", "factory", "--config", ".factory/settings.json")
    refused = cli(root, *named, payload=droid_payload(root, "Execute", {"command": "rm -rf x"}))
    assert refused.returncode == 0, refused.stderr
    assert json.loads(refused.stdout)["hookSpecificOutput"] == {
        "hookEventName": "PreToolUse", "permissionDecision": "deny",
        "permissionDecisionReason": "no rm -rf here"}
    allowed = cli(root, *named, payload=droid_payload(root, "Execute", {"command": "ls"}))
    assert "hookSpecificOutput" not in json.loads(allowed.stdout or "{}"), allowed.stdout
    # The matcher names Droid's shell tool: its write tool `Create` is not it.
    other = cli(root, *named, payload=droid_payload(root, "Create", {"file_path": "rm -rf"}))
    assert "hookSpecificOutput" not in json.loads(other.stdout or "{}"), other.stdout
    # Unnamed, its own file is Droid's to run: agenthooks leaves it.
    left = cli(root, "run", "PreToolUse", "--host", "factory",
               payload=droid_payload(root, "Execute", {"command": "rm -rf x"}))
    assert "permissionDecision" not in left.stdout
    assert "Factory Droid runs this file itself" in left.stderr, left.stderr


def test_its_gate_runs_under_claude_code_on_bash(tmp_path: Path) -> None:
    """With --other-hosts, Droid's `Execute` matcher selects Claude Code's shell tool."""
    settings = {"hooks": {"PreToolUse": [{"matcher": "Execute", "hooks": [GATE]}]}}
    root = project(tmp_path, {".factory/settings.json": json.dumps(settings)})
    payload = droid_payload(root, "Bash", {"command": "rm -rf x"})
    done = cli(root, "run", "PreToolUse", "--host", "claude", "--other-hosts", payload=payload)
    assert json.loads(done.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny", \
        done.stdout


def test_a_hooks_json_added_later_shadows_the_settings_read_before(tmp_path: Path) -> None:
    """A settings file read (and cached) while alone stops running once a hooks.json is
    beside it, as Droid then reads that file instead, and runs again when it goes."""
    settings = {"hooks": {"PreToolUse": [{"matcher": "Execute", "hooks": [GATE]}]}}
    root = project(tmp_path, {".factory/settings.json": json.dumps(settings)})
    payload = droid_payload(root, "Bash", {"command": "rm -rf x"})  # Claude Code's call
    def answer() -> dict[str, Any]:
        done = cli(root, "run", "PreToolUse", "--host", "claude", "--other-hosts",
                   payload=payload)
        assert done.returncode == 0, done.stderr
        found: dict[str, Any] = json.loads(done.stdout or "{}")
        return found

    for _ in range(2):  # the second run reads the cached entry
        assert denied(answer())
    hooks_json = root / ".factory" / "hooks.json"
    hooks_json.write_text("{}\n", encoding="utf-8")
    assert not denied(answer())
    hooks_json.unlink()
    assert denied(answer())


def test_a_command_regex_narrows_its_group_to_the_commands_it_matches(tmp_path: Path) -> None:
    """As Factory's own settings do: `matcher` picks Droid's shell tool, `commandRegex` the
    commands among its calls."""
    deny = {"type": "command", "command": "echo 'no push' >&2; exit 2"}
    settings = {"hooks": {"PreToolUse": [
        {"matcher": "Execute", "commandRegex": r"\bgit\s+push\b", "hooks": [deny]}]}}
    root = project(tmp_path, {".factory/settings.json": json.dumps(settings)})
    named = ("run", "PreToolUse", "--host", "factory", "--config", ".factory/settings.json")

    def answer(command: str) -> str:
        done = cli(root, *named, payload=droid_payload(root, "Execute", {"command": command}))
        assert done.returncode == 0, done.stderr
        return done.stdout

    assert '"permissionDecision": "deny"' in answer("git push origin main")
    assert "permissionDecision" not in answer("git status")
    assert "permissionDecision" not in answer("echo git pushed")


def test_convert_says_a_command_regex_has_no_place_elsewhere(tmp_path: Path) -> None:
    """No other host has a group filter on the command: the converted hook would run on
    every command, so convert writes nothing without --lossy."""
    bare = {"PreToolUse": [{"matcher": "Execute", "commandRegex": "^git push",
                            "hooks": [GATE]}]}
    root = project(tmp_path, {".factory/hooks.json": json.dumps(bare)})
    done = cli(root, "convert", ".factory/hooks.json", "--to", "claude")
    assert done.returncode == 1 and done.stdout == "", done.stdout
    assert "lossy: the condition '^git push' of its group has no place" in done.stderr, \
        done.stderr
    lossy = cli(root, "convert", ".factory/hooks.json", "--to", "claude", "--lossy")
    group = json.loads(lossy.stdout)["hooks"]["PreToolUse"][0]
    assert group["matcher"] == "Bash|PowerShell" and "commandRegex" not in group
