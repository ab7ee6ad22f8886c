"""GitHub Copilot CLI (`copilot -p`) with agenthooks as a hook in `.github/hooks/`.

Copilot speaks to the fake server as a BYOK provider (OpenAI Chat Completions,
`COPILOT_PROVIDER_BASE_URL`, `COPILOT_OFFLINE=true`: no GitHub login, no telemetry). What these
runs show with the real CLI: the camelCase payload it sends, a deny that reaches the model as
"Denied by preToolUse hook: <reason>", repository hooks skipped without a word in a folder it
does not trust, and timeouts failing open on preToolUse (github/docs@05da5bc
content/copilot/reference/hooks-reference.md, "Exit codes for command hooks"), so that
agenthooks' own `--fail-closed`, inside Copilot's `timeoutSec`, is the only closed gate.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from tests.e2e.conftest import (
    REPO,
    SPY,
    Hosts,
    build_gate,
    hooks_json,
    lines,
    tool_turn,
    wired_workspace,
    write_json,
    write_script,
)

ENTRY = "agenthooks run preToolUse --host copilot --fail-closed"


def copilot_hooks(command: str, timeout: int = 60) -> dict[str, Any]:
    """A `.github/hooks/*.json` whose one preToolUse hook is command."""
    return {"version": 1, "hooks": {"preToolUse": [
        {"type": "command", "bash": command, "timeoutSec": timeout}]}}


def documented_wiring() -> dict[str, Any]:
    """The `.github/hooks/agenthooks.json` docs/hosts.md tells users to write, its preToolUse
    entry behind the spy."""
    page = (REPO / "docs" / "hosts.md").read_text(encoding="utf-8")
    after = page.split("GitHub Copilot CLI, in `.github/hooks/agenthooks.json`", 1)[1]
    block = re.search(r"```json\n(.*?)\n```", after, re.S)
    assert block, "docs/hosts.md shows no Copilot wiring"
    wiring: dict[str, Any] = json.loads(block.group(1))
    [entry] = wiring["hooks"]["preToolUse"]
    assert entry["bash"] == ENTRY, entry
    entry["bash"] = SPY + entry["bash"]
    return wiring


def gated_workspace(tmp_path: Path, entry: str | None = None, timeout: int = 60,
                    gate: str = "./scripts/gate.py") -> Path:
    """A workspace wired as the docs say (or with one preToolUse `entry`), whose hooks.json
    gate denies any shell command naming build/."""
    workspace = tmp_path / "workspace"
    write_json(workspace / ".github" / "hooks" / "agenthooks.json",
               documented_wiring() if entry is None else copilot_hooks(entry, timeout))
    build_gate(workspace, "GATE-CP", gate, timeout=2)
    return workspace


def test_gate_denies_a_real_shell_call(hosts: Hosts, tmp_path: Path) -> None:
    workspace = gated_workspace(tmp_path)

    run = hosts.run("copilot", workspace, "Empty the object file.",
                    [tool_turn("copilot", "echo gone > build/out.o"), {"text": "Emptied."}])

    # Copilot's camelCase payload: no event name, the call as toolName and toolArgs.
    [payload] = [json.loads(line) for line in lines(workspace / "hook-payloads.jsonl")]
    assert payload["toolName"] == "bash", run.describe()
    assert payload["toolArgs"]["command"] == "echo gone > build/out.o", payload
    assert isinstance(payload["timestamp"], int) and payload["sessionId"], payload
    calls = [json.loads(line) for line in lines(workspace / "gate-calls.jsonl")]
    assert calls == [{"command": "echo gone > build/out.o"}], run.describe()
    assert (workspace / "build" / "out.o").read_text("utf-8") == "object", run.describe()
    assert len(run.main_requests) == 2, run.describe()
    [outcome] = run.tool_results(run.main_requests[1])
    assert outcome["text"] == ("Denied by preToolUse hook: GATE-CP: build/ is not yours to "
                               "touch"), outcome


def test_an_allowed_call_runs(hosts: Hosts, tmp_path: Path) -> None:
    workspace = gated_workspace(tmp_path)

    run = hosts.run("copilot", workspace, "Make a file.",
                    [tool_turn("copilot", "echo hi > made.txt"), {"text": "Made."}])

    assert (workspace / "made.txt").read_text("utf-8") == "hi\n", run.describe()
    assert len(lines(workspace / "gate-calls.jsonl")) == 1, run.describe()
    [outcome] = run.tool_results(run.main_requests[1])
    assert not outcome["error"], outcome


def test_an_untrusted_folder_skips_repository_hooks_without_a_word(hosts: Hosts,
                                                                   tmp_path: Path) -> None:
    # `copilot -p` asks nobody whether to trust the folder: outside `trustedFolders` the
    # repository's hooks never start and the call runs, as if no gate were there.
    workspace = gated_workspace(tmp_path)

    def untrusted(env: dict[str, str]) -> None:
        write_json(Path(env["COPILOT_HOME"]) / "config.json", {"trustedFolders": []})

    run = hosts.run("copilot", workspace, "Empty the object file.",
                    [tool_turn("copilot", "echo gone > build/out.o"), {"text": "Emptied."}],
                    before=untrusted)

    assert not (workspace / "hook-payloads.jsonl").exists(), run.describe()
    assert (workspace / "build" / "out.o").read_text("utf-8") == "gone\n", run.describe()


SLOW_GATE = "sleep 20; ./scripts/gate.py"


def test_a_timed_out_hook_fails_open_in_copilot(hosts: Hosts, tmp_path: Path) -> None:
    # Copilot lets the call through when its own hook times out, preToolUse included.
    workspace = gated_workspace(tmp_path, entry=f"cd .agents && {SLOW_GATE}", timeout=1)

    run = hosts.run("copilot", workspace, "Empty the object file.",
                    [tool_turn("copilot", "echo gone > build/out.o"), {"text": "Emptied."}])

    assert (workspace / "build" / "out.o").read_text("utf-8") == "gone\n", run.describe()


def test_fail_closed_inside_copilots_timeout_closes_the_gate(hosts: Hosts,
                                                             tmp_path: Path) -> None:
    # The same slow gate run by agenthooks, whose handler timeout (2 s) ends well inside
    # Copilot's timeoutSec: --fail-closed turns the timeout into a deny Copilot obeys.
    workspace = gated_workspace(tmp_path, gate=SLOW_GATE)

    run = hosts.run("copilot", workspace, "Empty the object file.",
                    [tool_turn("copilot", "echo gone > build/out.o"), {"text": "Emptied."}])

    assert (workspace / "build" / "out.o").read_text("utf-8") == "object", run.describe()
    [outcome] = run.tool_results(run.main_requests[1])
    assert outcome["text"] == ("Denied by preToolUse hook: fail-closed: hook 'gate' timed out "
                               "after 2 s"), outcome


def test_a_repository_wired_for_claude_code_is_gated_in_copilot_too(hosts: Hosts,
                                                                    tmp_path: Path) -> None:
    # Copilot CLI also runs `.claude/settings.json` hooks, with Claude Code's payload (the
    # PascalCase event, tool_name "Bash") and its matchers, and obeys Claude Code's deny: the
    # documented Claude Code wiring guards Copilot with no file of Copilot's own. (A repository
    # with both wirings runs agenthooks twice per call in Copilot: keep one.)
    workspace = wired_workspace(tmp_path, "claude")
    build_gate(workspace, "GATE-CP")

    run = hosts.run("copilot", workspace, "Empty the object file.",
                    [tool_turn("copilot", "echo gone > build/out.o"), {"text": "Emptied."}])

    assert (workspace / "build" / "out.o").read_text("utf-8") == "object", run.describe()
    [outcome] = run.tool_results(run.main_requests[1])
    assert outcome["text"] == ("Denied by preToolUse hook: GATE-CP: build/ is not yours to "
                               "touch"), outcome


COPILOT_GATE = """#!/usr/bin/env python3
import json, sys

payload = json.load(sys.stdin)
if payload["toolName"] == "bash" and ".env" in payload["toolArgs"]["command"]:
    print(json.dumps({"permissionDecision": "deny",
                      "permissionDecisionReason": "COPILOT-GATE: secrets stay put"}))
"""


def test_a_copilot_gate_guards_claude_code(hosts: Hosts, tmp_path: Path) -> None:
    # A gate written for Copilot's `.github/hooks/` runs under Claude Code through agenthooks
    # (--other-hosts): it sees the call in Copilot's words (toolName "bash", toolArgs) and its
    # deny is written in Claude Code's.
    workspace = wired_workspace(tmp_path, "claude", option="--other-hosts")
    write_script(workspace / "scripts" / "gate.py", COPILOT_GATE)
    write_json(workspace / ".github" / "hooks" / "gate.json", {"version": 1, "hooks": {
        "preToolUse": [{"type": "command", "bash": "./scripts/gate.py", "matcher": "bash"}]}})
    (workspace / ".env").write_text("TOKEN=1\n", "utf-8")

    run = hosts.run("claude", workspace, "Show the settings.",
                    [tool_turn("claude", "cp .env leaked.txt"), {"text": "Shown."}])

    assert not (workspace / "leaked.txt").exists(), run.describe()
    [outcome] = run.tool_results(run.main_requests[1])
    assert "COPILOT-GATE: secrets stay put" in outcome["text"], outcome


CONTEXT = "CONTEXT-CP: the staging database is read-only"


def test_session_start_context_reaches_the_model(hosts: Hosts, tmp_path: Path) -> None:
    # Copilot drops what a command hook answers on userPromptSubmitted (its hooks reference):
    # context for the model goes in at sessionStart, before the first prompt is sent.
    workspace = gated_workspace(tmp_path)
    write_json(workspace / ".agents" / "hooks.json", hooks_json(context={"SessionStart": [
        {"type": "command", "command": "echo '" + json.dumps(
            {"hookSpecificOutput": {"additionalContext": CONTEXT}}) + "'"}]}))

    run = hosts.run("copilot", workspace, "Migrate the database.", [{"text": "Understood."}])

    assert len(run.main_requests) == 1, run.describe()
    sent = run.prompt_text(run.main_requests[0])
    assert CONTEXT in sent, sent[-3000:]
    assert "Migrate the database." in sent


def test_post_tool_use_context_reaches_the_model_with_the_result(hosts: Hosts,
                                                                  tmp_path: Path) -> None:
    # The documented wiring's postToolUse: what a hooks.json PostToolUse handler says for the
    # model comes back as Copilot's additionalContext, after the tool's output.
    workspace = gated_workspace(tmp_path)
    write_json(workspace / ".agents" / "hooks.json", hooks_json(lint={"PostToolUse": [
        {"matcher": "run_command", "hooks": [{"type": "command", "command": "echo '" + json.dumps(
            {"hookSpecificOutput": {"additionalContext": "LINT-CP: 2 warnings"}}) + "'"}]}]}))

    run = hosts.run("copilot", workspace, "Make a file.",
                    [tool_turn("copilot", "echo hi > made.txt"), {"text": "Made."}])

    [outcome] = run.tool_results(run.main_requests[1])
    assert "LINT-CP: 2 warnings" in outcome["text"], outcome
    assert "exit code 0" in outcome["text"], outcome
