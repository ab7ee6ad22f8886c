"""rulesync's `.rulesync/hooks.jsonc` through the real program: validated at file:line:col,
listed, run offline, under a host with --other-hosts or named with --config (each tool's
block under its own host), converted to and from; `--host rulesync` refused."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.sources.hooksjson.plugin_trees import script, write

pytestmark = pytest.mark.program

HOOKS = """{
  // shared by every tool
  "version": 1,
  "hooks": {
    "preToolUse": [
      { "matcher": "Bash", "command": "./scripts/gate.sh", "timeout": 5, },
    ],
    "stop": [{ "command": "echo '{\\"systemMessage\\": \\"shared stop\\"}'" }],
  },
  // Claude Code alone: replaces the shared stop there
  "claudecode": {
    "hooks": { "stop": [{ "command": "echo '{\\"systemMessage\\": \\"claude stop\\"}'" }] },
  },
}
"""
# Denies and says what payload it was given (the tool name and the fields it found).
GATE = '#!/bin/sh\nread -r line\necho "gate: $line" >&2\nexit 2\n'
BASH = {"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "ls"},
        "session_id": "s1"}
STOP = {"hook_event_name": "Stop", "session_id": "s1"}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    write(root / ".rulesync" / "hooks.jsonc", HOOKS)
    script(root / "scripts" / "gate.sh", GATE)
    return root


def agenthooks(project: Path, *args: str,
               payload: object = None) -> subprocess.CompletedProcess[str]:
    home = project.parent / "home"
    env = {**os.environ, "HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config")}
    for name in ("AGENTHOOKS_REQUIRE_TRUST", "AGENTHOOKS_FAIL_CLOSED", "CLAUDE_PROJECT_DIR",
                 "XDG_CACHE_HOME"):
        env.pop(name, None)
    data = "" if payload is None else json.dumps(payload)
    return subprocess.run([sys.executable, "-m", "agenthooks", *args], cwd=project, env=env,
                          input=data, capture_output=True, text=True, check=False, timeout=60)


def test_validate_reads_jsonc_and_places_findings(project: Path) -> None:
    done = agenthooks(project, "validate")
    assert done.returncode == 0 and "no problems" in done.stdout, done.stdout
    write(project / ".rulesync" / "hooks.jsonc", HOOKS.replace('"timeout": 5', '"timeout": "5"'))
    done = agenthooks(project, "validate")
    assert done.returncode == 1
    assert ".rulesync/hooks.jsonc:6:71: error [timeout-invalid]" in done.stdout
    write(project / ".rulesync" / "hooks.jsonc", HOOKS.replace("preToolUse", "PreToolUse"))
    done = agenthooks(project, "validate")
    assert (".rulesync/hooks.jsonc:5:5: error [unknown-event] unknown event 'PreToolUse': "
            "PreToolUse is Claude Code's name; rulesync calls it 'preToolUse'") in done.stdout


def test_list_shows_every_block(project: Path) -> None:
    rows = json.loads(agenthooks(project, "list", "--format", "json").stdout)
    assert [(row["dialect"], row["event"], row["command"]) for row in rows] == [
        ("rulesync", "stop", "echo '{\"systemMessage\": \"claude stop\"}'"),
        ("rulesync", "preToolUse", "./scripts/gate.sh"),
        ("rulesync", "stop", "echo '{\"systemMessage\": \"shared stop\"}'"),
    ]


def test_offline_runs_the_shared_hooks(project: Path) -> None:
    done = agenthooks(project, "run", "Stop", payload=STOP)
    assert json.loads(done.stdout) == {"systemMessage": "shared stop"}, done.stderr


def test_under_a_host_it_runs_with_other_hosts_and_that_hosts_block(project: Path) -> None:
    done = agenthooks(project, "run", "Stop", "--host", "claude", payload=STOP)
    assert "rulesync's file, not run under Claude Code without --other-hosts" in done.stdout
    done = agenthooks(project, "run", "Stop", "--host", "claude", "--other-hosts",
                      payload=STOP)
    assert json.loads(done.stdout) == {"systemMessage": "claude stop"}, done.stderr
    done = agenthooks(project, "run", "Stop", "--host", "codex", "--config",
                      ".rulesync/hooks.jsonc", payload=STOP)
    assert json.loads(done.stdout) == {"systemMessage": "shared stop"}, done.stderr


@pytest.mark.parametrize(("host", "payload", "exit_code"), [
    ("claude", BASH, 0),  # Claude Code's deny is JSON on exit 0
    ("cursor", {"hook_event_name": "preToolUse", "tool_name": "Shell", "cursor_version": "2",
                "tool_input": {"command": "ls"}, "conversation_id": "c1"}, 2),
    ("gemini", {"hook_event_name": "BeforeTool", "tool_name": "run_shell_command",
                "tool_input": {"command": "ls"}, "session_id": "s1",
                "timestamp": "2026-01-01T00:00:00Z"}, 0),
])
def test_a_matcher_in_claude_codes_words_selects_any_hosts_shell(
        project: Path, host: str, payload: dict[str, object], exit_code: int) -> None:
    event = str(payload["hook_event_name"])
    done = agenthooks(project, "run", event, "--host", host, "--config",
                      ".rulesync/hooks.jsonc", payload=payload)
    assert done.returncode == exit_code, done.stdout + done.stderr
    # The gate got the caller's payload, with Claude Code's fields added where it lacks them.
    said = done.stderr.split("gate: ", 1)[1]
    assert '"tool_input"' in said and '"hook_event_name"' in said


def test_explain_says_which_block_runs_where(project: Path) -> None:
    done = agenthooks(project, "explain", "Stop", "--host", "cursor", "--other-hosts",
                      "--format", "json")
    whys = [(row["hook"], row["why"]) for row in json.loads(done.stdout)["handlers"]]
    assert (".rulesync/hooks.jsonc#/claudecode/hooks/stop/0",
            "written for Claude Code alone (its own block of the file): it runs under "
            "--host claude") in whys
    assert (".rulesync/hooks.jsonc#/hooks/stop/0", None) in whys
    done = agenthooks(project, "explain", "Stop", "--host", "claude", "--other-hosts",
                      "--format", "json")
    whys = [(row["hook"], row["why"]) for row in json.loads(done.stdout)["handlers"]]
    assert (".rulesync/hooks.jsonc#/hooks/stop/0",
            "Claude Code's own block of the file replaces the shared stop hooks") in whys


def test_convert_to_and_from_rulesync(project: Path) -> None:
    done = agenthooks(project, "convert", ".rulesync/hooks.jsonc", "--to", "claude")
    assert done.returncode == 0, done.stderr
    claude = json.loads(done.stdout)["hooks"]
    assert [h["command"] for h in claude["Stop"][0]["hooks"]] == [
        "echo '{\"systemMessage\": \"claude stop\"}'"]
    assert claude["PreToolUse"][0]["hooks"][0]["command"] == "./scripts/gate.sh"
    gate = '"$CLAUDE_PROJECT_DIR"/scripts/gate.sh'
    write(project / ".claude" / "settings.json", {"hooks": {"PreToolUse": [{
        "matcher": "Edit|Write", "hooks": [{"type": "command", "timeout": 10,
                                            "command": gate}]}]}})
    done = agenthooks(project, "convert", ".claude/settings.json", "--to", "rulesync",
                      "-o", "converted.jsonc")
    assert done.returncode == 0, done.stderr
    written = json.loads((project / "converted.jsonc").read_text())
    assert written == {"version": 1, "hooks": {"preToolUse": [
        {"command": "scripts/gate.sh", "timeout": 10, "matcher": "Edit|Write"}]}}
    # What was written is a rulesync file agenthooks reads back.
    done = agenthooks(project, "validate", "--dialect", "rulesync", "converted.jsonc")
    assert done.returncode == 0, done.stdout


def test_rulesync_is_no_caller(project: Path) -> None:
    done = agenthooks(project, "run", "Stop", "--host", "rulesync", payload=STOP)
    assert done.returncode != 0
    assert "rulesync runs no hooks itself, so it never calls agenthooks" in done.stderr
    write(project.parent / "home" / ".config" / "agenthooks" / "config.toml",
          'default_host = "rulesync"\n')
    done = agenthooks(project, "list")
    assert "default_host: rulesync runs no hooks itself" in done.stderr
