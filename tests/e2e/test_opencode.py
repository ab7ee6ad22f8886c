"""OpenCode (`opencode run`) with agenthooks' plugin as `agenthooks init --host opencode`
writes it, `.opencode/plugin/agenthooks.js`.

OpenCode 1.18.33 comes from npm on its own (scripts/install-hosts; the binary is its optional
dependency `opencode-linux-x64`) and speaks to the fake server as an openai-compatible provider
of its global config (`conftest.opencode_env`), the shell allowed. It loads the plugin from the
workspace's `.opencode/plugin/` at startup; the plugin runs `agenthooks run PreToolUse --host
opencode --fail-closed` in `tool.execute.before` and `agenthooks run PostToolUse --host
opencode` in `tool.execute.after`. What these runs show with the real CLI: a hooks.json gate's
deny blocks the `bash` call and the model reads the reason verbatim as the tool's result; an
allowed call runs; a rewrite runs the rewritten command; context after a call is appended to its
result; --fail-closed closes the gate on a hooks.json that cannot be read.
"""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

from tests.e2e.conftest import (
    HostRun,
    Hosts,
    agenthooks_bin_dir,
    flatten,
    gate_calls,
    hooks_json_handler,
    rm_gate,
    scratch_env,
    tool_turn,
)

PLUGIN = ".opencode/plugin/agenthooks.js"
# Logs every shell command it sees (a hooks.json handler gets it as Antigravity's
# run_command), denies `rm -rf`.
GATE = rm_gate("GATE-OC1")
# Rewrites every shell command, keeping the other arguments.
REWRITE = """#!/usr/bin/env python3
import json, sys

args = dict(json.load(sys.stdin)["toolCall"]["args"])
args["CommandLine"] = "echo rewritten > rewritten.txt; echo REWRITTEN-OC2"
print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse",
                                         "permissionDecision": "allow", "updatedInput": args}}))
"""
# After a call: context for the model, in Claude Code's words.
NOTE = """#!/usr/bin/env python3
import json, sys

sys.stdin.read()
note = "NOTE-OC3: the tests are slow here"
print(json.dumps({"hookSpecificOutput": {"hookEventName": "PostToolUse",
                                         "additionalContext": note}}))
"""


def opencode_workspace(tmp_path: Path, handler: tuple[str, str] = ("gate", GATE),
                       event: str = "PreToolUse") -> Path:
    """A git repository wired by `agenthooks init --host opencode --yes`, and a hooks.json in
    `.agents/` whose one handler of `event` is the script `handler` names."""
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    subprocess.run(["git", "init", "-q", str(workspace)], check=True, timeout=60,
                   capture_output=True, stdin=subprocess.DEVNULL)
    hooks_json_handler(workspace, *handler, event=event)
    env = scratch_env(tmp_path / "init")
    done = subprocess.run([str(agenthooks_bin_dir() / "agenthooks"), "init", "--host", "opencode",
                           "--yes", "--workspace", str(workspace)], env=env, capture_output=True,
                          text=True, timeout=60, check=False, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr
    assert (workspace / PLUGIN).is_file(), done.stdout
    return workspace


def outcome_of(run: HostRun) -> str:
    """What the model was told after its one call: the one `tool` message's text."""
    assert len(run.main_requests) == 2, run.describe()
    told = [flatten(message.get("content")) for message in run.main_requests[1]["messages"]
            if message.get("role") == "tool"]
    assert len(told) == 1, run.describe()
    return told[0]


def tool_states(run: HostRun) -> list[dict[str, Any]]:
    """The state of each tool part OpenCode printed (`--format json`'s tool_use events)."""
    return [event["part"]["state"] for event in run.events if event.get("type") == "tool_use"]


def test_gate_denies_rm_rf(opencode_hosts: Hosts, tmp_path: Path) -> None:
    workspace = opencode_workspace(tmp_path)
    (workspace / "keep").mkdir()
    (workspace / "keep" / "notes.txt").write_text("notes", "utf-8")

    run = opencode_hosts.run("opencode", workspace, "Clean up.", [
        tool_turn("opencode", "rm -rf keep; touch wiped.txt"), {"text": "Cleaned."}])

    assert gate_calls(workspace) == ["rm -rf keep; touch wiped.txt"], run.describe()
    assert (workspace / "keep" / "notes.txt").exists(), run.describe()
    assert not (workspace / "wiped.txt").exists(), run.describe()
    # The plugin throws the reason: the model reads it as the tool's result, verbatim.
    assert outcome_of(run) == "GATE-OC1: recursive delete refused"
    [state] = tool_states(run)
    assert state["status"] == "error", state
    assert run.result["returncode"] == 0, run.describe()


def test_an_allowed_call_runs(opencode_hosts: Hosts, tmp_path: Path) -> None:
    workspace = opencode_workspace(tmp_path)

    run = opencode_hosts.run("opencode", workspace, "Make a file.", [
        tool_turn("opencode", "echo hi > made.txt; echo MADE-OC1"), {"text": "Made."}])

    assert (workspace / "made.txt").read_text("utf-8") == "hi\n", run.describe()
    assert gate_calls(workspace) == ["echo hi > made.txt; echo MADE-OC1"], run.describe()
    assert outcome_of(run).strip() == "MADE-OC1", run.describe()
    # Nothing but the fake model: no update check, no registry, no models.dev.
    assert run.result["connects"] == [], run.result["connects"]


def test_a_rewrite_runs_the_rewritten_command(opencode_hosts: Hosts, tmp_path: Path) -> None:
    workspace = opencode_workspace(tmp_path, ("rewrite", REWRITE))

    run = opencode_hosts.run("opencode", workspace, "Make a file.", [
        tool_turn("opencode", "echo hi > made.txt"), {"text": "Made."}])

    assert (workspace / "rewritten.txt").read_text("utf-8") == "rewritten\n", run.describe()
    assert not (workspace / "made.txt").exists(), run.describe()
    assert outcome_of(run).strip() == "REWRITTEN-OC2", run.describe()
    [state] = tool_states(run)
    assert state["input"]["command"] == "echo rewritten > rewritten.txt; echo REWRITTEN-OC2"


def test_context_after_a_call_reaches_the_model(opencode_hosts: Hosts, tmp_path: Path) -> None:
    workspace = opencode_workspace(tmp_path, ("note", NOTE), "PostToolUse")

    run = opencode_hosts.run("opencode", workspace, "Run the tests.", [
        tool_turn("opencode", "echo RAN-OC3"), {"text": "Ran."}])

    told = outcome_of(run)
    assert told.startswith("RAN-OC3\n"), told
    assert told.endswith("\n\nNOTE-OC3: the tests are slow here"), told


def test_fail_closed_denies_on_a_broken_hooks_json(opencode_hosts: Hosts,
                                                   tmp_path: Path) -> None:
    workspace = opencode_workspace(tmp_path)
    # Cut off mid-object: no hook in it can run, so nothing can vouch for the call.
    (workspace / ".agents" / "hooks.json").write_text('{"gate": {"PreToolUse": [', "utf-8")

    run = opencode_hosts.run("opencode", workspace, "Make a file.", [
        tool_turn("opencode", "echo hi > made.txt"), {"text": "Could not."}])

    assert not (workspace / "made.txt").exists(), run.describe()
    told = outcome_of(run)
    assert told.startswith("fail-closed"), told
    assert ".agents/hooks.json" in told, told
