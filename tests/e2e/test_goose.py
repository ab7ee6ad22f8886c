"""Goose (`goose run -t`) with agenthooks as an Open Plugins plugin of the project:
`.agents/plugins/agenthooks/hooks/hooks.json`.

Goose 1.52.0 comes from npm on its own (@aaif/goose-binary-linux-x64, the 300 MB binary in the
package) and speaks to the fake server as its `openai` provider, every call approved
(GOOSE_MODE=auto), its config, logs and sessions under the run's home. It reads the plugins of
`.agents/plugins/` in the folder it starts in, the workspace here, without asking. What these
runs show with the real CLI: it runs the plugin's PreToolUse hook with its own payload (`event`,
`matcher_context`, `tool_name` "shell", `working_dir`), which agenthooks tells apart as Goose's
(not Charm Crush's, whose payload names the event in `event` too); agenthooks' answer to a
hooks.json gate's deny skips the call and the model gets Goose's "Tool call denied by policy
hook `agenthooks`: <reason>"; an allowed call runs; a hook of another plugin runs once per call;
and --fail-closed closes the gate on a hooks.json that cannot be read.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from agenthooks.sources.payloads import detect
from tests.e2e.conftest import (
    Hosts,
    gate_calls,
    hooks_json_handler,
    lines,
    one_tool_result,
    payloads,
    rm_gate,
    tool_turn,
    write_json,
)

PLUGIN = ".agents/plugins/agenthooks/hooks/hooks.json"
# Saves what Goose gives the hook, so a test can tell "denied" from "never ran". Goose runs a
# hook with `sh -c` in its own working folder, the workspace.
SPY = "{ tee -a hook-payloads.jsonl; echo >> hook-payloads.jsonl; } | "
GATE = rm_gate("GATE-GS1")
DENIED = ("The tool call returned the following error:\n-32603: Tool call denied by policy "
          "hook `agenthooks`: ")


def plugin_hooks(command: str, matcher: str = "^shell$") -> dict[str, Any]:
    """A plugin's hooks/hooks.json: one PreToolUse group of Claude Code's shape."""
    return {"hooks": {"PreToolUse": [{"matcher": matcher, "hooks": [
        {"type": "command", "command": command, "timeout": 30}]}]}}


def goose_workspace(tmp_path: Path, option: str = "") -> Path:
    """A folder whose plugin `agenthooks` runs `agenthooks run PreToolUse --host goose` behind
    the spy, and a hooks.json in `.agents/` whose one PreToolUse handler is the gate (it logs
    every shell command it sees, gate-calls.jsonl, and denies `rm -rf`)."""
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    write_json(workspace / PLUGIN,
               plugin_hooks(SPY + f"agenthooks run PreToolUse --host goose{option}"))
    hooks_json_handler(workspace, "gate", GATE)
    return workspace


def test_gate_denies_rm_rf(goose_hosts: Hosts, tmp_path: Path) -> None:
    workspace = goose_workspace(tmp_path)
    (workspace / "keep").mkdir()
    (workspace / "keep" / "notes.txt").write_text("notes", "utf-8")

    run = goose_hosts.run("goose", workspace, "Clean up.",
                          [tool_turn("goose", "rm -rf keep; touch wiped.txt"),
                           {"text": "Cleaned."}])

    # Goose's own payload, which agenthooks reads as Goose's.
    [payload] = payloads(workspace)
    assert payload["event"] == "PreToolUse", run.describe()
    assert payload["tool_name"] == "shell" == payload["matcher_context"], payload
    assert payload["tool_input"]["command"] == "rm -rf keep; touch wiped.txt", payload
    assert detect(payload) == "goose", payload
    assert gate_calls(workspace) == ["rm -rf keep; touch wiped.txt"], run.describe()
    assert (workspace / "keep" / "notes.txt").exists(), run.describe()
    assert not (workspace / "wiped.txt").exists(), run.describe()
    # The reason reaches the model verbatim, inside Goose's words.
    outcome = one_tool_result(run)
    assert outcome["error"], outcome
    assert outcome["text"] == (DENIED + "GATE-GS1: recursive delete refused. Do not retry; "
                               "this is a policy denial, not a transient failure."), outcome
    assert run.result["returncode"] == 0, run.describe()


def test_an_allowed_call_runs(goose_hosts: Hosts, tmp_path: Path) -> None:
    workspace = goose_workspace(tmp_path)

    run = goose_hosts.run("goose", workspace, "Make a file.",
                          [tool_turn("goose", "echo hi > made.txt; echo MADE-GS1"),
                           {"text": "Made."}])

    assert (workspace / "made.txt").read_text("utf-8") == "hi\n", run.describe()
    assert gate_calls(workspace) == ["echo hi > made.txt; echo MADE-GS1"], run.describe()
    outcome = one_tool_result(run)
    assert not outcome["error"] and "MADE-GS1" in outcome["text"], outcome
    assert "Made." in run.result["stdout"], run.describe()


def test_a_hook_beside_agenthooks_runs_once(goose_hosts: Hosts, tmp_path: Path) -> None:
    workspace = goose_workspace(tmp_path)
    # Another plugin, with a hook of its own: Goose runs it; agenthooks, which reads Goose's
    # plugins too, must not run it a second time.
    write_json(workspace / ".agents/plugins/audit/hooks/hooks.json",
               plugin_hooks("{ cat; echo; } >> audit.jsonl"))

    run = goose_hosts.run("goose", workspace, "Make two files.",
                          [tool_turn("goose", "echo hi > one.txt"),
                           tool_turn("goose", "echo hi > two.txt"), {"text": "Made them."}])

    assert (workspace / "two.txt").read_text("utf-8") == "hi\n", run.describe()
    audited = [json.loads(line)["tool_input"]["command"]
               for line in lines(workspace / "audit.jsonl") if line]
    assert audited == ["echo hi > one.txt", "echo hi > two.txt"], run.describe()
    assert len(payloads(workspace)) == 2, run.describe()
    assert gate_calls(workspace) == ["echo hi > one.txt", "echo hi > two.txt"], run.describe()


def test_fail_closed_denies_on_a_broken_hooks_json(goose_hosts: Hosts, tmp_path: Path) -> None:
    workspace = goose_workspace(tmp_path, " --fail-closed")
    # Cut off mid-object: no hook in it can run, so nothing can vouch for the call.
    (workspace / ".agents" / "hooks.json").write_text('{"gate": {"PreToolUse": [', "utf-8")

    run = goose_hosts.run("goose", workspace, "Make a file.",
                          [tool_turn("goose", "echo hi > made.txt"), {"text": "Could not."}])

    assert len(payloads(workspace)) == 1, run.describe()
    assert not (workspace / "made.txt").exists(), run.describe()
    outcome = one_tool_result(run)
    assert outcome["error"], outcome
    assert outcome["text"].startswith(DENIED + "fail-closed"), outcome
    assert ".agents/hooks.json" in outcome["text"], outcome
