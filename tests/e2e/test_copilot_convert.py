"""`agenthooks convert --to copilot` of a Claude Code gate, run by the real `copilot -p`: the
converted file must deny the call the Claude Code file denies.

The gate is written for Claude Code: it reads `tool_input.command` and answers with
`hookSpecificOutput.permissionDecision`. Copilot gives hooks under a PascalCase event key
Claude Code's payload, tool names, matchers and answers, and ignores Claude Code's answer under
a camelCase key (measured with Copilot CLI 1.0.102, tests/e2e/test_copilot_rules.py): a
conversion that kept the gate's words but not its key would let the call through.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from tests.e2e.conftest import Hosts, agenthooks_bin_dir, tool_turn, write_json, write_script

CLAUDE_GATE = """#!/usr/bin/env python3
import json, sys

payload = json.load(sys.stdin)
if "build" in payload["tool_input"]["command"]:
    print(json.dumps({"hookSpecificOutput": {
        "hookEventName": "PreToolUse", "permissionDecision": "deny",
        "permissionDecisionReason": "CLAUDE-GATE: build/ stays"}}))
"""


def test_a_converted_claude_code_gate_denies_in_copilot(hosts: Hosts, tmp_path: Path) -> None:
    source = tmp_path / "claude-settings.json"
    write_json(source, {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": '"$CLAUDE_PROJECT_DIR"/scripts/gate.py',
         "timeout": 10}]}]}})
    workspace = tmp_path / "workspace"
    write_script(workspace / "scripts" / "gate.py", CLAUDE_GATE)
    target = workspace / ".github" / "hooks" / "converted.json"
    target.parent.mkdir(parents=True)
    done = subprocess.run([str(agenthooks_bin_dir() / "agenthooks"), "convert", str(source),
                           "--dialect", "claude", "--to", "copilot", "-o", str(target)],
                          capture_output=True, text=True, timeout=60, check=False,
                          stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr
    (workspace / "build").mkdir()
    (workspace / "build" / "out.o").write_text("object", "utf-8")

    run = hosts.run("copilot", workspace, "Empty the object file, then make a file.",
                    [tool_turn("copilot", "echo gone > build/out.o", "echo hi > made.txt"),
                     {"text": "Done."}])

    assert (workspace / "build" / "out.o").read_text("utf-8") == "object", (
        target.read_text("utf-8") + run.describe())
    assert (workspace / "made.txt").read_text("utf-8") == "hi\n", (
        target.read_text("utf-8") + run.describe())
    denied, made = run.tool_results(run.main_requests[1])
    assert denied["text"] == "Denied by preToolUse hook: CLAUDE-GATE: build/ stays", denied
    assert not made["error"], made
