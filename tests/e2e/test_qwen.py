"""Qwen Code (`qwen -p`) with agenthooks wired by `agenthooks init --host qwen`.

Qwen Code speaks to the fake server as an OpenAI-compatible provider (OPENAI_BASE_URL, Chat
Completions), in yolo approval mode so that only the hook decides. What these runs show with the
real CLI: it runs the `.qwen/settings.json` hooks `init` writes with Claude Code's payload
(`tool_name` "run_shell_command", `tool_input`), tells the model a deny's reason as the tool's
result, passes on what SessionStart and UserPromptSubmit answers add for the model, and fires
UserPromptSubmit before every model call, not once per prompt.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import (
    SPY,
    Hosts,
    add_hooks,
    agenthooks_bin_dir,
    hooks_json,
    lines,
    scratch_env,
    tool_turn,
    write_json,
)

SETTINGS = ".qwen/settings.json"
PROMPT_SPY = 'tee -a "$PWD/prompt-payloads.jsonl" | '


def init_workspace(tmp_path: Path) -> Path:
    """A workspace wired by `agenthooks init --host qwen --yes` (run in a scratch home), its
    PreToolUse entry behind the spy; init's starter gate denies any `rm -rf`."""
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    done = subprocess.run([str(agenthooks_bin_dir() / "agenthooks"), "init", "--host", "qwen",
                           "--workspace", str(workspace), "--yes"],
                          env=scratch_env(tmp_path / "init"), capture_output=True, text=True,
                          timeout=60, stdin=subprocess.DEVNULL, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    settings = json.loads((workspace / SETTINGS).read_text("utf-8"))
    [group] = settings["hooks"]["PreToolUse"]
    [entry] = group["hooks"]
    assert entry["command"] == "agenthooks run PreToolUse --host qwen --fail-closed", entry
    entry["command"] = SPY + entry["command"]
    write_json(workspace / SETTINGS, settings)
    return workspace


def payloads(path: Path) -> list[dict[str, Any]]:
    """The payloads a spy saved: Qwen Code ends them with no newline, so they run together."""
    text, found, at = path.read_text("utf-8") if path.exists() else "", [], 0
    decoder = json.JSONDecoder()
    while at < len(text):
        payload, at = decoder.raw_decode(text, at)
        found.append(payload)
        while at < len(text) and text[at].isspace():
            at += 1
    return found


def test_init_gate_denies_rm_rf(hosts: Hosts, tmp_path: Path) -> None:
    workspace = init_workspace(tmp_path)
    (workspace / "keep").mkdir()
    (workspace / "keep" / "notes.txt").write_text("notes", "utf-8")

    run = hosts.run("qwen", workspace, "Clean up.",
                    [tool_turn("qwen", "rm -rf keep; touch wiped.txt"), {"text": "Cleaned."}])

    # Claude Code's payload, with Qwen Code's tool name.
    [payload] = payloads(workspace / "hook-payloads.jsonl")
    assert payload["hook_event_name"] == "PreToolUse", run.describe()
    assert payload["tool_name"] == "run_shell_command", payload
    assert payload["tool_input"]["command"] == "rm -rf keep; touch wiped.txt", payload
    assert (workspace / "keep" / "notes.txt").exists(), run.describe()
    assert not (workspace / "wiped.txt").exists(), run.describe()
    assert len(run.main_requests) == 2, run.describe()
    [outcome] = run.tool_results(run.main_requests[1])
    assert outcome == {"error": True, "text": "rm -rf needs a human (the no-rm-rf gate of "
                                              "agenthooks init)"}, outcome


def test_an_allowed_call_runs(hosts: Hosts, tmp_path: Path) -> None:
    workspace = init_workspace(tmp_path)

    run = hosts.run("qwen", workspace, "Make a file.",
                    [tool_turn("qwen", "echo hi > made.txt"), {"text": "Made."}])

    assert (workspace / "made.txt").read_text("utf-8") == "hi\n", run.describe()
    assert len(payloads(workspace / "hook-payloads.jsonl")) == 1, run.describe()
    [outcome] = run.tool_results(run.main_requests[1])
    assert not outcome["error"], outcome
    # Nothing but the fake model: no update check, no telemetry through the proxy.
    assert run.result["connects"] == [], run.result["connects"]


def context_answer(event: str, context: str) -> dict[str, Any]:
    """What a hooks.json handler prints to add context: Claude Code's words at SessionStart,
    Antigravity's own at PreInvocation (when a prompt is submitted)."""
    if event == "SessionStart":
        return {"hookSpecificOutput": {"additionalContext": context}}
    return {"injectSteps": [{"ephemeralMessage": context}]}


@pytest.mark.parametrize("event", ["SessionStart", "PreInvocation"])
def test_added_context_reaches_the_model(hosts: Hosts, tmp_path: Path, event: str) -> None:
    workspace = init_workspace(tmp_path)
    context = f"CONTEXT-QW-{event}: the staging database is read-only"
    write_json(workspace / ".agents" / "hooks.json", hooks_json(context={event: [
        {"type": "command", "command": f"echo '{json.dumps(context_answer(event, context))}'"}]}))

    run = hosts.run("qwen", workspace, "Migrate the database.", [{"text": "Understood."}])

    assert len(run.main_requests) == 1, run.describe()
    sent = run.prompt_text(run.main_requests[0])
    assert context in sent, sent[-3000:]
    assert "Migrate the database." in sent


def counting_hooks() -> dict[str, list[Any]]:
    """A tool hook and a prompt hook that each add one line to a file per run."""
    def handler(name: str) -> dict[str, Any]:
        return {"type": "command", "command": f"echo {name} >> $QWEN_PROJECT_DIR/{name}-count.txt"}
    return {"PreToolUse": [{"matcher": "run_shell_command", "hooks": [handler("tool")]}],
            "UserPromptSubmit": [{"hooks": [handler("prompt")]}]}


def test_a_hook_beside_agenthooks_runs_once_per_event(hosts: Hosts, tmp_path: Path) -> None:
    workspace = init_workspace(tmp_path)
    settings = json.loads((workspace / SETTINGS).read_text("utf-8"))
    [group] = settings["hooks"]["UserPromptSubmit"]
    group["hooks"][0]["command"] = PROMPT_SPY + group["hooks"][0]["command"]
    write_json(workspace / SETTINGS, add_hooks(settings, counting_hooks()))

    run = hosts.run("qwen", workspace, "Make two files.",
                    [tool_turn("qwen", "echo hi > one.txt"), tool_turn("qwen", "echo hi > two.txt"),
                     {"text": "Made them."}])

    assert (workspace / "two.txt").read_text("utf-8") == "hi\n", run.describe()
    assert len(payloads(workspace / "hook-payloads.jsonl")) == 2, run.describe()
    assert lines(workspace / "tool-count.txt") == ["tool", "tool"], run.describe()
    # Qwen Code fires UserPromptSubmit before every model call, the prompt empty after a
    # tool's result: the hook beside agenthooks runs as often as agenthooks' entry, no more.
    prompts = [p["prompt"] for p in payloads(workspace / "prompt-payloads.jsonl")]
    assert prompts == ["Make two files.", "", ""], run.describe()
    assert lines(workspace / "prompt-count.txt") == ["prompt"] * 3, run.describe()


def qwen_hook(command: str, timeout: int) -> dict[str, Any]:
    """`.qwen/settings.json` whose one PreToolUse hook is command, asking Claude Code's
    `onFailure: "block"`."""
    return {"hooks": {"PreToolUse": [{"matcher": "run_shell_command", "hooks": [
        {"type": "command", "command": command, "timeout": timeout, "onFailure": "block"}]}]}}


@pytest.mark.parametrize("command", ["sleep 20", "echo broken >&2; exit 1"])
def test_a_failing_hook_fails_open_in_qwen(hosts: Hosts, tmp_path: Path, command: str) -> None:
    # A hook that times out or exits 1 is a non-blocking error to Qwen Code: the call runs,
    # and Claude Code's `onFailure: "block"` changes nothing.
    workspace = tmp_path / "workspace"
    write_json(workspace / SETTINGS, qwen_hook(f"echo ran >> ran.txt; {command}", timeout=1))

    run = hosts.run("qwen", workspace, "Make a file.",
                    [tool_turn("qwen", "echo hi > made.txt"), {"text": "Made."}])

    assert lines(workspace / "ran.txt") == ["ran"], run.describe()
    assert (workspace / "made.txt").read_text("utf-8") == "hi\n", run.describe()


def test_fail_closed_inside_qwens_timeout_closes_the_gate(hosts: Hosts, tmp_path: Path) -> None:
    # A slow hooks.json gate run by agenthooks, whose handler timeout (2 s) ends well inside
    # Qwen Code's own (600 s by default): --fail-closed turns the timeout into a deny.
    workspace = init_workspace(tmp_path)
    write_json(workspace / ".agents" / "hooks.json", hooks_json(gate={"PreToolUse": [
        {"matcher": "run_command", "hooks": [{"type": "command", "command": "sleep 20",
                                              "timeout": 2}]}]}))

    run = hosts.run("qwen", workspace, "Make a file.",
                    [tool_turn("qwen", "echo hi > made.txt"), {"text": "Made."}])

    assert not (workspace / "made.txt").exists(), run.describe()
    [outcome] = run.tool_results(run.main_requests[1])
    assert outcome == {"error": True, "text": "fail-closed: hook 'gate' timed out after 2 s"}, \
        outcome
