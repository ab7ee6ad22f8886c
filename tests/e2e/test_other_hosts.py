"""With --other-hosts, the hooks written for the other host run too, each with its own host's
payload: a Gemini CLI hook under Claude Code, a Claude Code hook under Gemini CLI."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.e2e.conftest import (
    Hosts,
    stream_text,
    tool_turn,
    wired_workspace,
    write_json,
    write_script,
)

# Each hook keeps the payload it got, and reads the fields only its own host sends: a payload of
# the other host would make it crash instead of answering.
GEMINI_GATE = """#!/usr/bin/env python3
import json, os, sys

payload = json.load(sys.stdin)
with open(os.path.join(os.environ["GEMINI_PROJECT_DIR"], "seen-BeforeTool.json"), "w") as f:
    json.dump(payload, f)
if payload["tool_name"] == "run_shell_command" and "rm -rf" in payload["tool_input"]["command"]:
    print(json.dumps({"decision": "deny", "reason": "GEMINI-GATE-4W: no recursive delete"}))
"""
GEMINI_AFTER_AGENT = """#!/usr/bin/env python3
import json, os, sys

payload = json.load(sys.stdin)
with open(os.path.join(os.environ["GEMINI_PROJECT_DIR"], "seen-AfterAgent.json"), "w") as f:
    json.dump({"event": payload["hook_event_name"], "answer": payload["prompt_response"]}, f)
print("{}")
"""
CLAUDE_GATE = """#!/usr/bin/env python3
import json, os, sys

payload = json.load(sys.stdin)
with open(os.path.join(os.environ["CLAUDE_PROJECT_DIR"], "seen-PreToolUse.json"), "w") as f:
    json.dump(payload, f)
if payload["tool_name"] == "Bash" and "rm -rf" in payload["tool_input"]["command"]:
    print(json.dumps({"hookSpecificOutput": {
        "hookEventName": "PreToolUse", "permissionDecision": "deny",
        "permissionDecisionReason": "CLAUDE-GATE-8M: no recursive delete"}}))
"""
CLAUDE_STOP = """#!/usr/bin/env python3
import json, os, sys

payload = json.load(sys.stdin)
with open(os.path.join(os.environ["CLAUDE_PROJECT_DIR"], "seen-Stop.json"), "w") as f:
    json.dump({"event": payload["hook_event_name"],
               "answer": payload["last_assistant_message"]}, f)
print("{}")
"""

FINAL = "The build stays."


def read(path: Path) -> Any:
    return json.loads(path.read_text("utf-8")) if path.exists() else None


def gemini_hooks(workspace: Path) -> dict[str, Any]:
    write_script(workspace / "hooks" / "gemini_gate.py", GEMINI_GATE)
    write_script(workspace / "hooks" / "gemini_after_agent.py", GEMINI_AFTER_AGENT)
    return {"hooks": {
        "BeforeTool": [{"matcher": "run_shell_command", "hooks": [
            {"name": "gate", "type": "command", "timeout": 10000,
             "command": "$GEMINI_PROJECT_DIR/hooks/gemini_gate.py"}]}],
        "AfterAgent": [{"hooks": [
            {"name": "after-agent", "type": "command", "timeout": 10000,
             "command": "$GEMINI_PROJECT_DIR/hooks/gemini_after_agent.py"}]}],
    }}


def claude_hooks(workspace: Path) -> dict[str, Any]:
    write_script(workspace / "hooks" / "claude_gate.py", CLAUDE_GATE)
    write_script(workspace / "hooks" / "claude_stop.py", CLAUDE_STOP)
    return {"hooks": {
        "PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "timeout": 10,
             "command": "$CLAUDE_PROJECT_DIR/hooks/claude_gate.py"}]}],
        "Stop": [{"hooks": [
            {"type": "command", "timeout": 10,
             "command": "$CLAUDE_PROJECT_DIR/hooks/claude_stop.py"}]}],
    }}


def test_gemini_hooks_run_under_claude(hosts: Hosts, tmp_path: Path) -> None:
    workspace = wired_workspace(tmp_path, "claude", option="--other-hosts")
    write_json(workspace / ".gemini" / "settings.json", gemini_hooks(workspace))
    (workspace / "build").mkdir()

    run = hosts.run("claude", workspace, "Clean the build.",
                    [tool_turn("claude", "rm -rf build"), {"text": FINAL}])

    assert (workspace / "build").is_dir(), run.describe()
    seen = read(workspace / "seen-BeforeTool.json")
    assert seen is not None, run.describe()
    assert seen["hook_event_name"] == "BeforeTool"
    assert seen["tool_name"] == "run_shell_command"
    assert seen["tool_input"]["command"] == "rm -rf build"
    [outcome] = run.tool_results(run.main_requests[1])
    assert outcome["error"] and "GEMINI-GATE-4W" in outcome["text"], outcome
    assert "GEMINI-GATE-4W" in stream_text(run)
    assert read(workspace / "seen-AfterAgent.json") == {"event": "AfterAgent", "answer": FINAL}


def test_claude_hooks_run_under_gemini(hosts: Hosts, tmp_path: Path) -> None:
    workspace = wired_workspace(tmp_path, "gemini", option="--other-hosts")
    write_json(workspace / ".claude" / "settings.json", claude_hooks(workspace))
    (workspace / "build").mkdir()

    run = hosts.run("gemini", workspace, "Clean the build.",
                    [tool_turn("gemini", "rm -rf build"), {"text": FINAL}])

    assert (workspace / "build").is_dir(), run.describe()
    seen = read(workspace / "seen-PreToolUse.json")
    assert seen is not None, run.describe()
    assert seen["hook_event_name"] == "PreToolUse"
    assert seen["tool_name"] == "Bash"
    assert seen["tool_input"]["command"] == "rm -rf build"
    [outcome] = run.tool_results(run.main_requests[1])
    assert outcome["error"] and "CLAUDE-GATE-8M" in outcome["text"], outcome
    assert "CLAUDE-GATE-8M" in stream_text(run)
    assert read(workspace / "seen-Stop.json") == {"event": "Stop", "answer": FINAL}
