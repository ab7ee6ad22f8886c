"""Grok Build (`grok -p`) with agenthooks as a group of the project's `.grok/hooks/*.json`.

Grok 1.0.41 comes from npm on its own (scripts/install-hosts; its package unpacks a 166 MB
native binary) and speaks to the fake server as a custom model of its `$GROK_HOME/config.toml`
(Chat Completions), every call approved (`--always-approve`), the workspace trusted for the run
(`--trust`: Grok skips a project's hooks without a word in a folder nobody trusted) and a git
repository (the project whose `.grok/hooks/` it reads is the git root). What these runs show
with the real CLI: it runs the group with its own payload (camelCase, `hookEventName`
"pre_tool_use", `toolName` "run_terminal_command", Claude Code's snake_case fields after them),
which agenthooks tells apart as Grok's; agenthooks' answer to a hooks.json gate's deny skips the
call and the model gets "Hook denied: <reason>"; its rewrite runs the rewritten command; a hook
in another of Grok's files runs once per call; a hooks.json Stop gate gets the agent one more
model call; and --fail-closed closes the gate on a hooks.json that cannot be read.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

from agenthooks.sources.payloads import detect
from tests.e2e.conftest import (
    Hosts,
    gate_calls,
    hooks_json,
    hooks_json_handler,
    lines,
    one_tool_result,
    payloads,
    rm_gate,
    tool_turn,
    write_json,
    write_script,
)

HOOKS_DIR = ".grok/hooks"
# Saves what Grok gives the hook, so a test can tell "denied" from "never ran". Grok's payload
# ends with no newline: the echo ends its line. Grok expands the variables of a command itself
# and skips the hook, letting the call through, when one is not set ("hook not executed:
# required env var(s) not set: ${PWD}": the runs' environment has no PWD), so the hooks here
# name the folder by the variable Grok sets for them (the git root, with a trailing slash).
SPY = ('{ tee -a "${GROK_WORKSPACE_ROOT}hook-payloads.jsonl"; '
       'echo >> "${GROK_WORKSPACE_ROOT}hook-payloads.jsonl"; } | ')
GATE = rm_gate("GATE-GK1")
# Rewrites every shell command, keeping the other arguments (Grok's `description`).
REWRITE = """#!/usr/bin/env python3
import json, sys

args = dict(json.load(sys.stdin)["toolCall"]["args"])
args["CommandLine"] = "echo rewritten > rewritten.txt; echo REWRITTEN-GK2"
print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse",
                                         "permissionDecision": "allow", "updatedInput": args}}))
"""
# Asks once (it keeps a count in the workspace), so a later stop is let through.
KEEP_GOING = """#!/usr/bin/env python3
import json, os, sys

payload = json.load(sys.stdin)
count = os.path.join(os.environ["GEMINI_PROJECT_DIR"], "stop-calls.jsonl")
with open(count, "a+") as f:
    f.seek(0)
    seen = len(f.read().splitlines())
    f.write(json.dumps({"reason": payload.get("reason")}) + "\\n")
if seen == 0:
    print(json.dumps({"decision": "continue", "reason": "KEEP-GOING-GK4: run the tests first"}))
else:
    print("{}")
"""


def group(command: str, matcher: str | None = "run_terminal_command") -> dict[str, Any]:
    """One group of Claude Code's shape, as Grok reads it."""
    entry: dict[str, Any] = {"hooks": [{"type": "command", "command": command, "timeout": 30}]}
    return entry if matcher is None else {"matcher": matcher, **entry}


def agenthooks_hooks(option: str = "", stop: bool = False) -> dict[str, Any]:
    """`.grok/hooks/agenthooks.json`: agenthooks behind the spy at PreToolUse (and at Stop)."""
    events = {"PreToolUse": [group(SPY + f"agenthooks run PreToolUse --host grok{option}")]}
    if stop:
        events["Stop"] = [group(f"agenthooks run Stop --host grok{option}", None)]
    return {"hooks": events}


def grok_workspace(tmp_path: Path, wiring: dict[str, Any] | None = None,
                   handler: tuple[str, str] = ("gate", GATE)) -> Path:
    """A git repository whose `.grok/hooks/agenthooks.json` is wiring (agenthooks at
    PreToolUse by default), and a hooks.json in `.agents/` whose one PreToolUse handler is
    the script handler names (the gate: it logs every shell command it sees, gate-calls.jsonl,
    and denies `rm -rf`)."""
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    subprocess.run(["git", "init", "-q", str(workspace)], check=True, timeout=60,
                   capture_output=True, stdin=subprocess.DEVNULL)
    write_json(workspace / HOOKS_DIR / "agenthooks.json", wiring or agenthooks_hooks())
    hooks_json_handler(workspace, *handler)
    return workspace


def test_gate_denies_rm_rf(grok_hosts: Hosts, tmp_path: Path) -> None:
    workspace = grok_workspace(tmp_path)
    (workspace / "keep").mkdir()
    (workspace / "keep" / "notes.txt").write_text("notes", "utf-8")

    run = grok_hosts.run("grok", workspace, "Clean up.",
                         [tool_turn("grok", "rm -rf keep; touch wiped.txt"), {"text": "Cleaned."}])

    # Grok's own payload: camelCase, the event in snake_case, Claude Code's fields after them;
    # agenthooks reads it as Grok's.
    [payload] = payloads(workspace)
    assert payload["hookEventName"] == "pre_tool_use", run.describe()
    assert payload["toolName"] == "run_terminal_command", payload
    assert payload["toolInput"]["command"] == "rm -rf keep; touch wiped.txt", payload
    assert payload["hook_event_name"] == "PreToolUse", payload
    assert payload["workspaceRoot"].rstrip("/") == str(workspace), payload
    assert detect(payload) == "grok", payload
    assert gate_calls(workspace) == ["rm -rf keep; touch wiped.txt"], run.describe()
    assert (workspace / "keep" / "notes.txt").exists(), run.describe()
    assert not (workspace / "wiped.txt").exists(), run.describe()
    # The reason reaches the model verbatim, after Grok's prefix.
    assert one_tool_result(run) == {
        "error": True, "text": "Hook denied: GATE-GK1: recursive delete refused"}
    assert run.result["returncode"] == 0, run.describe()


def test_an_allowed_call_runs(grok_hosts: Hosts, tmp_path: Path) -> None:
    workspace = grok_workspace(tmp_path)

    run = grok_hosts.run("grok", workspace, "Make a file.",
                         [tool_turn("grok", "echo hi > made.txt; echo MADE-GK1"),
                          {"text": "Made."}])

    assert (workspace / "made.txt").read_text("utf-8") == "hi\n", run.describe()
    assert gate_calls(workspace) == ["echo hi > made.txt; echo MADE-GK1"], run.describe()
    # The shell's result reaches the model.
    assert one_tool_result(run) == {"error": False, "text": "exit: 0\nMADE-GK1\n"}
    assert "Made." in run.result["stdout"], run.describe()
    # Nothing but the fake model: no update check, no telemetry through the proxy.
    assert run.result["connects"] == [], run.result["connects"]


def test_a_rewrite_runs_the_rewritten_command(grok_hosts: Hosts, tmp_path: Path) -> None:
    workspace = grok_workspace(tmp_path, handler=("rewrite", REWRITE))

    run = grok_hosts.run("grok", workspace, "Make a file.",
                         [tool_turn("grok", "echo hi > made.txt"), {"text": "Made."}])

    assert len(payloads(workspace)) == 1, run.describe()
    assert (workspace / "rewritten.txt").read_text("utf-8") == "rewritten\n", run.describe()
    assert not (workspace / "made.txt").exists(), run.describe()
    assert one_tool_result(run) == {"error": False, "text": "exit: 0\nREWRITTEN-GK2\n"}


def test_a_hook_beside_agenthooks_runs_once(grok_hosts: Hosts, tmp_path: Path) -> None:
    workspace = grok_workspace(tmp_path)
    # Another of Grok's files, with a group of its own: Grok runs it; agenthooks, which reads
    # Grok's files too, must not run it a second time.
    write_json(workspace / HOOKS_DIR / "audit.json", {"hooks": {"PreToolUse": [
        group('{ cat; echo; } >> "${GROK_WORKSPACE_ROOT}audit.jsonl"')]}})

    run = grok_hosts.run("grok", workspace, "Make two files.",
                         [tool_turn("grok", "echo hi > one.txt"),
                          tool_turn("grok", "echo hi > two.txt"), {"text": "Made them."}])

    assert (workspace / "two.txt").read_text("utf-8") == "hi\n", run.describe()
    audited = [json.loads(line)["toolInput"]["command"]
               for line in lines(workspace / "audit.jsonl")]
    assert audited == ["echo hi > one.txt", "echo hi > two.txt"], run.describe()
    assert len(payloads(workspace)) == 2, run.describe()
    assert gate_calls(workspace) == ["echo hi > one.txt", "echo hi > two.txt"], run.describe()


def test_stop_gate_gets_one_more_model_call(grok_hosts: Hosts, tmp_path: Path) -> None:
    workspace = grok_workspace(tmp_path, agenthooks_hooks(stop=True))
    write_script(workspace / ".agents" / "scripts" / "keep_going.py", KEEP_GOING)
    write_json(workspace / ".agents" / "hooks.json", hooks_json(
        keep_going={"Stop": [{"type": "command", "command": "./scripts/keep_going.py"}]}))

    run = grok_hosts.run("grok", workspace, "Fix the bug.",
                         [{"text": "First answer."}, {"text": "Second answer, tests run."}])

    assert len(run.main_requests) == 2, run.describe()
    assert "KEEP-GOING-GK4" not in run.prompt_text(run.main_requests[0])
    said = run.prompt_text(run.main_requests[1])
    assert "Stop hook feedback" in said and "KEEP-GOING-GK4: run the tests first" in said, said
    # Grok stops at each turn's end, then once more when `-p` exits: only the first is held.
    reasons = [json.loads(line)["reason"] for line in lines(workspace / "stop-calls.jsonl")]
    assert reasons == ["end_turn", "end_turn", "shutdown"], run.describe()
    assert "Second answer, tests run." in run.result["stdout"], run.describe()


def test_fail_closed_denies_on_a_broken_hooks_json(grok_hosts: Hosts, tmp_path: Path) -> None:
    workspace = grok_workspace(tmp_path, agenthooks_hooks(" --fail-closed"))
    # Cut off mid-object: no hook in it can run, so nothing can vouch for the call.
    (workspace / ".agents" / "hooks.json").write_text('{"gate": {"PreToolUse": [', "utf-8")

    run = grok_hosts.run("grok", workspace, "Make a file.",
                         [tool_turn("grok", "echo hi > made.txt"), {"text": "Could not."}])

    assert len(payloads(workspace)) == 1, run.describe()
    assert not (workspace / "made.txt").exists(), run.describe()
    outcome = one_tool_result(run)
    assert outcome["error"], outcome
    assert outcome["text"].startswith("Hook denied: fail-closed"), outcome
    assert ".agents/hooks.json" in outcome["text"], outcome
