"""Cline (`cline --json "prompt"`, its CLI) with agenthooks as the scripts `agenthooks init --host
cline` writes: `.clinerules/hooks/PreToolUse` and `.clinerules/hooks/PostToolUse`.

Cline 3.0.65 comes from npm on its own (`cline`, its binary in the optional dependency
`@cline/cli-linux-x64`) and speaks to the fake server as its `openai-compatible` provider
(`conftest.cline_env`), every tool call approved. It runs every file of the workspace's
`.clinerules/hooks/` named after an event, with the program its `#!` line names (no exec bit
needed), and reads the stdout of its PreToolUse and PostToolUse hooks alone. What these runs
show with the real CLI: agenthooks reads Cline's own payload (`hookName: "tool_call"`, the call
as `tool_call: {name: "run_commands", input: {commands: [...]}}`) and gives a hooks.json gate the
shell command as `toolCall.args.CommandLine`; a gate's deny is `{"cancel": true}`, which ends
the whole task (the call is not made, no model turn follows, the reason is in Cline's log
alone); an allowed call runs; a gate's context reaches the model as Cline's `<hook_context>`
message; a gate's rewrite runs the rewritten command; a second Cline hook beside agenthooks'
runs once per call (agenthooks leaves Cline's own files to Cline); and --fail-closed ends the
task on a hooks.json that cannot be read.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

from agenthooks.sources.payloads import detect
from tests.e2e.conftest import (
    HostRun,
    Hosts,
    agenthooks_bin_dir,
    flatten,
    hooks_json,
    lines,
    scratch_env,
    tool_turn,
    write_json,
    write_script,
)

WIRED = ".clinerules/hooks"
# Logs every shell command it sees (a hooks.json handler gets Cline's run_commands as
# Antigravity's run_command, its commands one text) and denies `rm -rf`.
GATE = """#!/usr/bin/env python3
import json, os, sys

payload = json.load(sys.stdin)
command = ((payload.get("toolCall") or {}).get("args") or {}).get("CommandLine", "")
with open(os.path.join(os.environ["GEMINI_PROJECT_DIR"], "gate-calls.jsonl"), "a") as log:
    log.write(json.dumps({"command": command}) + "\\n")
if "rm -rf" in command:
    print(json.dumps({"decision": "deny", "reason": "GATE-CL1: recursive delete refused"}))
"""
# Context for the model, in Claude Code's words.
NOTE = """#!/usr/bin/env python3
import json, sys

sys.stdin.read()
print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse",
                                         "additionalContext": "NOTE-CL3: the tests are slow"}}))
"""
# Rewrites every shell command, keeping the other arguments.
REWRITE = """#!/usr/bin/env python3
import json, sys

args = dict(json.load(sys.stdin)["toolCall"]["args"])
args["CommandLine"] = "echo rewritten > rewritten.txt; echo REWRITTEN-CL4"
print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse",
                                         "permissionDecision": "allow", "updatedInput": args}}))
"""
# A Cline hook of the project's own beside agenthooks': Python with no exec bit, its payload
# logged.
AUDIT = """import json, sys

with open("audit.jsonl", "a") as log:
    log.write(json.dumps(json.load(sys.stdin)) + "\\n")
"""


def cline_workspace(tmp_path: Path, handler: tuple[str, str] = ("gate", GATE)) -> Path:
    """A git repository wired by `agenthooks init --host cline --yes`, and a hooks.json in
    `.agents/` whose one PreToolUse handler is the script `handler` names."""
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    subprocess.run(["git", "init", "-q", str(workspace)], check=True, timeout=60,
                   capture_output=True, stdin=subprocess.DEVNULL)
    name, script = handler
    write_script(workspace / ".agents" / "scripts" / f"{name}.py", script)
    write_json(workspace / ".agents" / "hooks.json", hooks_json(**{name: {"PreToolUse": [
        {"matcher": "run_command",
         "hooks": [{"type": "command", "command": f"./scripts/{name}.py", "timeout": 10}]}]}}))
    done = subprocess.run([str(agenthooks_bin_dir() / "agenthooks"), "init", "--host", "cline",
                           "--yes", "--workspace", str(workspace)],
                          env=scratch_env(tmp_path / "init"), capture_output=True, text=True,
                          timeout=60, check=False, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr
    assert (workspace / WIRED / "PreToolUse").is_file(), done.stdout
    return workspace


def gate_calls(workspace: Path) -> list[str]:
    return [json.loads(line)["command"] for line in lines(workspace / "gate-calls.jsonl")]


def told(run: HostRun, request: int = 1) -> list[dict[str, Any]]:
    """The messages a model request added after the first (the prompt): each role and text."""
    return [{"role": message.get("role"), "text": flatten(message.get("content"))}
            for message in run.main_requests[request]["messages"][2:]]


def outcome_of(run: HostRun) -> dict[str, Any]:
    """What Cline's run_commands returned for its one command: {query, result, success}."""
    assert len(run.main_requests) == 2, run.describe()
    [tool] = [m for m in told(run) if m["role"] == "tool"]
    [result] = json.loads(tool["text"])
    return dict(result)


def ended(run: HostRun) -> bool:
    """Whether Cline's run ended aborted (a hook's `cancel`), as its JSON stream says."""
    return any(event.get("type") == "run_result" and event.get("finishReason") == "aborted"
               for event in run.events)


def cline_log(hosts: Hosts) -> str:
    """Cline's own log of the last run (under the run's home)."""
    log = hosts.tmp_path / f"run{hosts.count}-cline" / "home" / ".cline" / "data" / "logs" \
        / "cline.log"
    return log.read_text("utf-8") if log.exists() else ""


def test_gate_denies_rm_rf_and_ends_the_task(cline_hosts: Hosts, tmp_path: Path) -> None:
    workspace = cline_workspace(tmp_path)
    (workspace / "keep").mkdir()
    (workspace / "keep" / "notes.txt").write_text("notes", "utf-8")

    run = cline_hosts.run("cline", workspace, "Clean up the workspace.",
                          [tool_turn("cline", "rm -rf keep; touch wiped.txt"),
                           {"text": "Cleaned."}])

    assert gate_calls(workspace) == ["rm -rf keep; touch wiped.txt"], run.describe()
    assert (workspace / "keep" / "notes.txt").exists(), run.describe()
    assert not (workspace / "wiped.txt").exists(), run.describe()
    # `cancel` ends the whole task: no model turn after the call, the run aborted, and the
    # reason in Cline's log alone.
    assert len(run.main_requests) == 1, run.describe()
    assert ended(run), run.describe()
    assert "GATE-CL1" not in run.result["stdout"], run.describe()
    assert "GATE-CL1: recursive delete refused" in cline_log(cline_hosts), run.describe()
    # Nothing but the fake model, and Cline's feature flags (PostHog at data.cline.bot, asked
    # whatever the settings say, refused here): no update check, no telemetry.
    assert set(run.result["connects"]) <= {"data.cline.bot:443"}, run.result["connects"]


def test_an_allowed_call_runs(cline_hosts: Hosts, tmp_path: Path) -> None:
    workspace = cline_workspace(tmp_path)

    run = cline_hosts.run("cline", workspace, "Make a file.", [
        tool_turn("cline", "echo hi > made.txt; echo MADE-CL2"), {"text": "Made."}])

    assert (workspace / "made.txt").read_text("utf-8") == "hi\n", run.describe()
    assert gate_calls(workspace) == ["echo hi > made.txt; echo MADE-CL2"], run.describe()
    outcome = outcome_of(run)
    assert outcome["success"] and outcome["result"].strip() == "MADE-CL2", outcome
    assert not ended(run), run.describe()


def test_context_reaches_the_model(cline_hosts: Hosts, tmp_path: Path) -> None:
    workspace = cline_workspace(tmp_path, ("note", NOTE))

    run = cline_hosts.run("cline", workspace, "Run the tests.", [
        tool_turn("cline", "echo RAN-CL3"), {"text": "Ran."}])

    assert outcome_of(run)["result"].strip() == "RAN-CL3", run.describe()
    # Cline's message after the tool's result, the context inside its tag.
    [note] = [m["text"] for m in told(run) if m["role"] == "user"]
    assert note.startswith('<hook_context source="PreToolUse"'), note
    assert "\nNOTE-CL3: the tests are slow\n" in note, note


def test_a_rewrite_runs_the_rewritten_command(cline_hosts: Hosts, tmp_path: Path) -> None:
    workspace = cline_workspace(tmp_path, ("rewrite", REWRITE))

    run = cline_hosts.run("cline", workspace, "Make a file.", [
        tool_turn("cline", "echo hi > made.txt"), {"text": "Made."}])

    assert (workspace / "rewritten.txt").read_text("utf-8") == "rewritten\n", run.describe()
    assert not (workspace / "made.txt").exists(), run.describe()
    outcome = outcome_of(run)
    assert outcome["query"] == "echo rewritten > rewritten.txt; echo REWRITTEN-CL4", outcome
    assert outcome["result"].strip() == "REWRITTEN-CL4", outcome


def test_a_hook_beside_agenthooks_runs_once(cline_hosts: Hosts, tmp_path: Path) -> None:
    workspace = cline_workspace(tmp_path)
    # The project's own Cline hook: Cline runs it; agenthooks, which reads Cline's folders
    # too, must not run it a second time.
    audit = workspace / WIRED / "PreToolUse.py"
    audit.write_text(AUDIT, "utf-8")
    os.chmod(audit, 0o644)

    run = cline_hosts.run("cline", workspace, "Make two files.", [
        tool_turn("cline", "echo hi > one.txt"), tool_turn("cline", "echo hi > two.txt"),
        {"text": "Made them."}])

    assert (workspace / "two.txt").read_text("utf-8") == "hi\n", run.describe()
    payloads = [json.loads(line) for line in lines(workspace / "audit.jsonl")]
    assert [p["tool_call"]["input"]["commands"] for p in payloads] == [
        ["echo hi > one.txt"], ["echo hi > two.txt"]], run.describe()
    # Cline's own payload, which agenthooks reads as Cline's.
    first = payloads[0]
    assert first["hookName"] == "tool_call", first
    assert first["preToolUse"] == {"toolName": "run_commands",
                                   "parameters": {"commands": '["echo hi > one.txt"]'}}, first
    assert first["workspaceRoots"] == [str(workspace.resolve())], first
    assert detect(first) == "cline", first
    assert gate_calls(workspace) == ["echo hi > one.txt", "echo hi > two.txt"], run.describe()


def test_fail_closed_ends_the_task_on_a_broken_hooks_json(cline_hosts: Hosts,
                                                          tmp_path: Path) -> None:
    workspace = cline_workspace(tmp_path)
    # Cut off mid-object: no hook in it can run, so nothing can vouch for the call.
    (workspace / ".agents" / "hooks.json").write_text('{"gate": {"PreToolUse": [', "utf-8")

    run = cline_hosts.run("cline", workspace, "Make a file.", [
        tool_turn("cline", "echo hi > made.txt"), {"text": "Could not."}])

    assert not (workspace / "made.txt").exists(), run.describe()
    assert ended(run), run.describe()
    assert "fail-closed" in cline_log(cline_hosts), run.describe()
