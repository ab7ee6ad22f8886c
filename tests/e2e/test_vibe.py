"""Mistral Vibe (`vibe -p`) with agenthooks as a `[[hooks]]` entry of the project's
`.vibe/hooks.toml`.

Vibe 3.0.3 comes from PyPI into a venv of its own (scripts/install-hosts; it needs a Python >=
3.12) and speaks to the fake server as a generic OpenAI-compatible provider of its
`$VIBE_HOME/config.toml`, auto-approving every call, the workspace trusted for the run
(`--trust`: Vibe reads a project's hooks.toml only in a trusted folder). What these runs show
with the real CLI: it runs the entry with its own payload (`tool_name` "file_system.bash",
`tool_input` {command, timeout}); agenthooks' answer to a hooks.json gate's deny skips the call
and its reason is the tool result the model sees, verbatim; a post_tool answer's context reaches
the model with the result; a hook beside agenthooks' entry runs once; and --fail-closed closes
the gate on a hooks.json that cannot be read.
"""

from __future__ import annotations

import json
from pathlib import Path

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
)

HOOKS_TOML = ".vibe/hooks.toml"
# Saves what Vibe gives the hook, so a test can tell "denied" from "never ran". Vibe's payload
# ends with no newline: the echo ends its line.
SPY = '{ tee -a "$PWD/hook-payloads.jsonl"; echo >> "$PWD/hook-payloads.jsonl"; } | '
GATE = rm_gate("GATE-V3")


def hook_entry(name: str, event: str, command: str, match: str | None = "bash") -> str:
    """One `[[hooks]]` table of Vibe's hooks.toml."""
    entry = f"[[hooks]]\nname = {json.dumps(name)}\ntype = {json.dumps(event)}\n"
    if match is not None:
        entry += f"match = {json.dumps(match)}\n"
    return entry + f"command = {json.dumps(command)}\ntimeout = 30\n"


def vibe_workspace(tmp_path: Path, *entries: str) -> Path:
    """A workspace whose `.vibe/hooks.toml` holds entries, and a hooks.json gate in `.agents/`
    that logs every shell command it sees (gate-calls.jsonl) and denies `rm -rf`."""
    workspace = tmp_path / "workspace"
    (workspace / ".vibe").mkdir(parents=True)
    (workspace / HOOKS_TOML).write_text("\n".join(entries), "utf-8")
    hooks_json_handler(workspace, "gate", GATE)
    return workspace


def agenthooks_entry(option: str = "") -> str:
    command = f"agenthooks run pre_tool --host vibe{option}"
    return hook_entry("agenthooks-pre-tool", "pre_tool", SPY + command)


def test_gate_denies_rm_rf(vibe_hosts: Hosts, tmp_path: Path) -> None:
    workspace = vibe_workspace(tmp_path, agenthooks_entry())
    (workspace / "keep").mkdir()
    (workspace / "keep" / "notes.txt").write_text("notes", "utf-8")

    run = vibe_hosts.run("vibe", workspace, "Clean up.",
                         [tool_turn("vibe", "rm -rf keep; touch wiped.txt"), {"text": "Cleaned."}])

    # Vibe's own payload: its qualified tool name, Claude Code's field names.
    [payload] = payloads(workspace)
    assert payload["hook_event_name"] == "pre_tool", run.describe()
    assert payload["tool_name"] == "file_system.bash", payload
    assert payload["tool_input"]["command"] == "rm -rf keep; touch wiped.txt", payload
    assert gate_calls(workspace) == ["rm -rf keep; touch wiped.txt"], run.describe()
    assert (workspace / "keep" / "notes.txt").exists(), run.describe()
    assert not (workspace / "wiped.txt").exists(), run.describe()
    # The reason is the tool's result, verbatim.
    assert one_tool_result(run) == {"error": True, "text": "GATE-V3: recursive delete refused"}
    assert run.result["returncode"] == 0, run.describe()


def test_an_allowed_call_runs(vibe_hosts: Hosts, tmp_path: Path) -> None:
    workspace = vibe_workspace(tmp_path, agenthooks_entry())

    run = vibe_hosts.run("vibe", workspace, "Make a file.",
                         [tool_turn("vibe", "echo hi > made.txt"), {"text": "Made."}])

    assert (workspace / "made.txt").read_text("utf-8") == "hi\n", run.describe()
    assert gate_calls(workspace) == ["echo hi > made.txt"], run.describe()
    outcome = one_tool_result(run)
    assert not outcome["error"], outcome
    assert "Made." in run.result["stdout"], run.describe()
    # Nothing but the fake model: no update check, no telemetry through the proxy.
    assert run.result["connects"] == [], run.result["connects"]


def test_post_tool_context_reaches_the_model(vibe_hosts: Hosts, tmp_path: Path) -> None:
    context = "CONTEXT-V5: made.txt is generated, do not edit it by hand"
    workspace = vibe_workspace(tmp_path, agenthooks_entry(), hook_entry(
        "agenthooks-post-tool", "post_tool", "agenthooks run post_tool --host vibe"))
    answer = {"hookSpecificOutput": {"hookEventName": "PostToolUse",
                                     "additionalContext": context}}
    write_json(workspace / ".agents" / "hooks.json", hooks_json(context={"PostToolUse": [
        {"matcher": "run_command",
         "hooks": [{"type": "command", "command": f"echo '{json.dumps(answer)}'"}]}]}))

    run = vibe_hosts.run("vibe", workspace, "Make a file.",
                         [tool_turn("vibe", "echo hi > made.txt"), {"text": "Made."}])

    assert (workspace / "made.txt").read_text("utf-8") == "hi\n", run.describe()
    outcome = one_tool_result(run)
    # The command's own result, then the context, in the one tool message.
    assert not outcome["error"], outcome
    assert context in outcome["text"], outcome


def test_a_hook_beside_agenthooks_runs_once(vibe_hosts: Hosts, tmp_path: Path) -> None:
    audit = '{ cat; echo; } >> "$PWD/audit.jsonl"'
    workspace = vibe_workspace(tmp_path, agenthooks_entry(),
                               hook_entry("audit", "pre_tool", audit))

    run = vibe_hosts.run("vibe", workspace, "Make a file.",
                         [tool_turn("vibe", "echo hi > made.txt"), {"text": "Made."}])

    assert (workspace / "made.txt").read_text("utf-8") == "hi\n", run.describe()
    # Vibe runs it; agenthooks, which reads hooks.json, must not run it a second time.
    [line] = lines(workspace / "audit.jsonl")
    assert json.loads(line)["tool_input"]["command"] == "echo hi > made.txt", line
    assert len(payloads(workspace)) == 1, run.describe()
    assert gate_calls(workspace) == ["echo hi > made.txt"], run.describe()


def test_fail_closed_denies_on_a_broken_hooks_json(vibe_hosts: Hosts, tmp_path: Path) -> None:
    workspace = vibe_workspace(tmp_path, agenthooks_entry(" --fail-closed"))
    # Cut off mid-object: no hook in it can run, so nothing can vouch for the call.
    (workspace / ".agents" / "hooks.json").write_text('{"gate": {"PreToolUse": [', "utf-8")

    run = vibe_hosts.run("vibe", workspace, "Make a file.",
                         [tool_turn("vibe", "echo hi > made.txt"), {"text": "Could not."}])

    assert len(payloads(workspace)) == 1, run.describe()
    assert not (workspace / "made.txt").exists(), run.describe()
    outcome = one_tool_result(run)
    assert outcome["error"], outcome
    assert "fail-closed" in outcome["text"], outcome
    assert ".agents/hooks.json" in outcome["text"], outcome
