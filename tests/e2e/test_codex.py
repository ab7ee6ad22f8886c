"""Codex (`codex exec --json`) with agenthooks as the one hook in `.codex/hooks.json`.

Codex reads a project's `.codex/hooks.json` only in a trusted project, and runs a hook only when
its hash is recorded as trusted in config.toml (`[hooks.state."<key>"] trusted_hash`) or
`--dangerously-bypass-hook-trust` is given; otherwise the hook is skipped without a word
(openai/codex codex-rs/hooks/src/engine/discovery.rs). Both are shown here with the real CLI.
"""

from __future__ import annotations

import json
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import (
    SPY,
    Hosts,
    agenthooks_bin_dir,
    build_gate,
    hooks_json,
    lines,
    tool_turn,
    write_json,
    write_script,
)


def codex_hooks(command: str) -> dict[str, Any]:
    """A `.codex/hooks.json` whose one PreToolUse hook (on Codex's shell, `Bash`) is command."""
    return {"hooks": {"PreToolUse": [
        {"matcher": "Bash", "hooks": [{"type": "command", "command": command, "timeout": 60}]}]}}


def gated_workspace(tmp_path: Path, entry: str) -> Path:
    workspace = tmp_path / "workspace"
    write_json(workspace / ".codex" / "hooks.json", codex_hooks(SPY + entry))
    build_gate(workspace, "GATE-CX")
    return workspace


ENTRY = "agenthooks run PreToolUse --host codex --fail-closed"


def test_gate_denies_a_real_shell_call(hosts: Hosts, tmp_path: Path) -> None:
    workspace = gated_workspace(tmp_path, ENTRY)

    # (Not `rm -rf`: Codex refuses that one by itself, hook or no hook.)
    run = hosts.run("codex", workspace, "Empty the object file.",
                    [tool_turn("codex", "echo gone > build/out.o"), {"text": "Emptied."}])

    payloads = [json.loads(line) for line in lines(workspace / "hook-payloads.jsonl")]
    assert [p["tool_name"] for p in payloads] == ["Bash"], run.describe()
    assert payloads[0]["tool_input"] == {"command": "echo gone > build/out.o"}
    calls = [json.loads(line) for line in lines(workspace / "gate-calls.jsonl")]
    assert calls == [{"command": "echo gone > build/out.o"}], run.describe()
    assert (workspace / "build" / "out.o").read_text("utf-8") == "object", run.describe()
    assert len(run.main_requests) == 2, run.describe()
    [outcome] = run.tool_results(run.main_requests[1])
    assert outcome["error"], outcome
    assert "GATE-CX: build/ is not yours to touch" in outcome["text"], outcome


def test_an_allowed_call_runs(hosts: Hosts, tmp_path: Path) -> None:
    workspace = gated_workspace(tmp_path, ENTRY)

    run = hosts.run("codex", workspace, "Make a file.",
                    [tool_turn("codex", "echo hi > made.txt"), {"text": "Made."}])

    assert (workspace / "made.txt").read_text("utf-8") == "hi\n", run.describe()
    assert len(lines(workspace / "gate-calls.jsonl")) == 1, run.describe()
    [outcome] = run.tool_results(run.main_requests[1])
    assert not outcome["error"], outcome


def test_an_untrusted_hook_is_skipped_without_a_word(hosts: Hosts, tmp_path: Path) -> None:
    # The trap validate warns of: without a recorded hash (or the bypass flag) Codex runs the
    # call as if no hook were there.
    workspace = gated_workspace(tmp_path, ENTRY)

    run = hosts.run("codex", workspace, "Empty the object file.",
                    [tool_turn("codex", "echo gone > build/out.o"), {"text": "Emptied."}],
                    bypass_hook_trust=False)

    assert not (workspace / "hook-payloads.jsonl").exists(), run.describe()
    assert (workspace / "build" / "out.o").read_text("utf-8") == "gone\n", run.describe()


def trust_with_agenthooks(workspace: Path) -> Callable[[dict[str, str]], None]:
    """Runs `agenthooks trust --host codex --yes` in the run's home, as a user would."""
    def trust(env: dict[str, str]) -> None:
        done = subprocess.run(
            [str(agenthooks_bin_dir() / "agenthooks"), "trust", "--host", "codex", "--yes",
             "--workspace", str(workspace)],
            env=env, cwd=workspace, capture_output=True, text=True, timeout=60, check=False,
            stdin=subprocess.DEVNULL)
        assert done.returncode == 0, done.stderr
        assert "untrusted PreToolUse 'Bash'" in done.stdout, done.stdout
    return trust


def test_hooks_trusted_by_agenthooks_run_without_the_bypass(hosts: Hosts,
                                                            tmp_path: Path) -> None:
    # The key and hash agenthooks writes are the ones Codex computes: the hook runs and denies.
    workspace = gated_workspace(tmp_path, ENTRY)

    run = hosts.run("codex", workspace, "Empty the object file.",
                    [tool_turn("codex", "echo gone > build/out.o"), {"text": "Emptied."}],
                    bypass_hook_trust=False, before=trust_with_agenthooks(workspace))

    assert len(lines(workspace / "hook-payloads.jsonl")) == 1, run.describe()
    assert (workspace / "build" / "out.o").read_text("utf-8") == "object", run.describe()
    [outcome] = run.tool_results(run.main_requests[1])
    assert "GATE-CX" in outcome["text"], outcome


CLAUDE_GATE = """#!/usr/bin/env python3
import json, sys

payload = json.load(sys.stdin)
command = payload["tool_input"]["command"]
if payload["tool_name"] == "Bash" and ".env" in command:
    print(json.dumps({"hookSpecificOutput": {
        "hookEventName": "PreToolUse", "permissionDecision": "deny",
        "permissionDecisionReason": "CLAUDE-GATE: secrets stay put"}}))
"""


def test_a_claude_code_gate_guards_codex(hosts: Hosts, tmp_path: Path) -> None:
    # A gate written for Claude Code's settings runs under Codex through agenthooks
    # (--other-hosts), sees the call in Claude Code's words and denies it in Codex's.
    workspace = tmp_path / "workspace"
    write_json(workspace / ".codex" / "hooks.json",
               codex_hooks("agenthooks run PreToolUse --host codex --other-hosts --fail-closed"))
    write_script(workspace / ".claude" / "gate.py", CLAUDE_GATE)
    write_json(workspace / ".claude" / "settings.json", {"hooks": {"PreToolUse": [
        {"matcher": "Bash", "hooks": [{"type": "command",
                                       "command": '"$CLAUDE_PROJECT_DIR"/.claude/gate.py'}]}]}})
    (workspace / ".env").write_text("TOKEN=1\n", "utf-8")

    run = hosts.run("codex", workspace, "Show the settings.",
                    [tool_turn("codex", "cp .env leaked.txt"), {"text": "Shown."}])

    assert not (workspace / "leaked.txt").exists(), run.describe()
    [outcome] = run.tool_results(run.main_requests[1])
    assert "CLAUDE-GATE: secrets stay put" in outcome["text"], outcome


def test_the_legacy_notify_program_runs_stop_handlers(hosts: Hosts, tmp_path: Path) -> None:
    # config.toml's `notify` gets the finished turn as its last argument. Codex starts it and
    # does not wait, and the run's process group ends with Codex: so the argument Codex gave
    # is kept, and agenthooks' notify program is run on it as Codex runs it.
    workspace = tmp_path / "workspace"
    write_script(workspace / ".agents" / "scripts" / "record.py",
                 "#!/usr/bin/env python3\nimport json, os, sys\n"
                 "open(os.path.join(os.environ['GEMINI_PROJECT_DIR'], 'turn.json'), 'w')"
                 ".write(sys.stdin.read())\n")
    write_json(workspace / ".agents" / "hooks.json", hooks_json(
        record={"Stop": [{"command": "./scripts/record.py", "timeout": 10}]}))
    kept = workspace / "notify-argument.json"

    def with_notify(env: dict[str, str]) -> None:
        config = Path(env["CODEX_HOME"]) / "config.toml"
        notify = json.dumps(["sh", "-c", f'printf %s "$1" > {kept}', "notify"])
        config.write_text(f"notify = {notify}\n" + config.read_text("utf-8"), "utf-8")

    run = hosts.run("codex", workspace, "Say hello.", [{"text": "Hello."}], before=with_notify)

    for _ in range(50):  # Codex starts notify without waiting for it
        if kept.exists() and kept.read_text("utf-8"):
            break
        time.sleep(0.1)
    argument = kept.read_text("utf-8")
    assert json.loads(argument)["type"] == "agent-turn-complete", run.describe()
    done = subprocess.run([str(agenthooks_bin_dir() / "python"), "-m",
                           "agenthooks.hosts.codex.notify", argument], cwd=workspace,
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60,
                          check=False)
    assert done.returncode == 0, done.stderr
    recorded = json.loads((workspace / "turn.json").read_text("utf-8"))
    assert recorded["conversationId"] == json.loads(argument)["thread-id"]


INLINE = f"""
[[hooks.PreToolUse]]
matcher = "Bash"
[[hooks.PreToolUse.hooks]]
type = "command"
command = {json.dumps(SPY + ENTRY)}
timeout = 60
"""


@pytest.mark.parametrize("place", ["project config.toml", "user hooks.json"])
def test_trusted_hooks_of_every_codex_file_run(hosts: Hosts, tmp_path: Path,
                                               place: str) -> None:
    # The key names the file that holds the hook: agenthooks computes it for config.toml's
    # inline [hooks] and for $CODEX_HOME's hooks.json as Codex does, or the hook is skipped.
    workspace = gated_workspace(tmp_path, ENTRY)
    (workspace / ".codex" / "hooks.json").unlink()
    if place == "project config.toml":
        (workspace / ".codex" / "config.toml").write_text(INLINE, "utf-8")

    def place_and_trust(env: dict[str, str]) -> None:
        if place == "user hooks.json":
            write_json(Path(env["CODEX_HOME"]) / "hooks.json",
                       codex_hooks(f"cd {workspace} && {SPY}{ENTRY}"))
        trust_with_agenthooks(workspace)(env)

    run = hosts.run("codex", workspace, "Empty the object file.",
                    [tool_turn("codex", "echo gone > build/out.o"), {"text": "Emptied."}],
                    bypass_hook_trust=False, before=place_and_trust)

    assert len(lines(workspace / "hook-payloads.jsonl")) == 1, run.describe()
    assert (workspace / "build" / "out.o").read_text("utf-8") == "object", run.describe()
