"""Gemini CLI handlers under `run`: seed 001's protocol, its matchers, env and sequential."""

from __future__ import annotations

import json
import os
from pathlib import Path

from agenthooks.api import EventResult, load_hooks
from tests.sources.dialects.run.conftest import cmd, group, write_settings

SHELL = {"tool_name": "run_shell_command", "tool_input": {"command": "ls"},
         "session_id": "s-1", "cwd": "/somewhere"}


def run(project: Path, event: str, payload: dict[str, object]) -> EventResult:
    return load_hooks(workspaces=[str(project)], no_user=True).run(event, payload)


def gemini(project: Path, event: str, *groups: dict[str, object]) -> None:
    write_settings(project, "gemini", {event: list(groups)})


def test_exit_2_blocks_before_tool(project: Path) -> None:
    gemini(project, "BeforeTool", group(cmd("echo nope >&2; exit 2"), matcher="shell"))
    result = run(project, "PreToolUse", SHELL)
    assert result.blocked and result.output["reason"] == "nope"


def test_tool_matchers_are_unanchored_regexes(project: Path) -> None:
    gemini(project, "BeforeTool", group(cmd("exit 2"), matcher="read_file"))
    assert run(project, "PreToolUse", {"tool_name": "mcp_x_read_file_v2"}).blocked
    assert not run(project, "PreToolUse", {"tool_name": "write_file"}).blocked


def test_lifecycle_matchers_are_exact_text(project: Path) -> None:
    gemini(project, "SessionStart", group(cmd("echo '{\"systemMessage\": \"hi\"}'"),
                                          matcher="startup|resume"))
    assert run(project, "SessionStart", {"source": "startup"}).output == {}


def test_exit_1_is_a_warning_and_json_decision_on_exit_0(project: Path) -> None:
    gemini(project, "BeforeTool", group(cmd("exit 1"), cmd(
        'echo \'{"decision": "deny", "reason": "json deny"}\'')))
    result = run(project, "PreToolUse", SHELL)
    assert result.blocked and result.output["reason"] == "json deny"
    assert any("exited 1" in w for w in result.warnings)


def test_after_agent_block_keeps_going(project: Path) -> None:
    gemini(project, "AfterAgent", group(cmd('echo \'{"decision": "block", "reason": "more"}\'')))
    result = run(project, "Stop", {})
    assert result.blocked and result.output["decision"] == "continue"


def test_tool_input_rewrite_reaches_the_answer(project: Path) -> None:
    answer = {"hookSpecificOutput": {"tool_input": {"command": "ls -a"}}}
    gemini(project, "BeforeTool", group(cmd(f"echo '{json.dumps(answer)}'")))
    result = run(project, "PreToolUse", SHELL)
    assert result.updated_args == {"command": "ls -a"}


def test_environment_from_the_payload(project: Path) -> None:
    out = project / "env.txt"
    gemini(project, "BeforeTool", group(cmd(
        f'echo "$GEMINI_SESSION_ID|$GEMINI_CWD|$GEMINI_PROJECT_DIR|$CLAUDE_PROJECT_DIR|$(pwd)"'
        f" > {out}")))
    run(project, "PreToolUse", SHELL)
    real = os.path.realpath(project)
    assert out.read_text().strip() == f"s-1|/somewhere|{real}|{real}|{real}"


def test_dedup_by_name_and_command(project: Path) -> None:
    marker = project / "count"
    handler = cmd(f"echo x >> {marker}", name="same")
    gemini(project, "AfterAgent", group(handler), group(handler))
    run(project, "Stop", {})
    assert marker.read_text() == "x\n"


def test_disabled_by_hooks_config(project: Path) -> None:
    write_settings(project, "gemini", {"BeforeTool": [group(cmd("exit 2", name="gate"))]},
                   hooksConfig={"disabled": ["gate"]})
    assert not run(project, "PreToolUse", SHELL).blocked


def test_timeout_is_in_milliseconds(project: Path) -> None:
    gemini(project, "BeforeTool", group(cmd("sleep 5", timeout=300)))
    result = run(project, "PreToolUse", SHELL)
    assert result.handlers[0].status == "timeout"
    assert result.handlers[0].duration_ms < 4000


def test_sequential_handlers_see_the_previous_tool_input(project: Path) -> None:
    first = {"hookSpecificOutput": {"tool_input": {"command": "ls -a"}}}
    seen = project / "seen.json"
    gemini(project, "BeforeTool", group(
        cmd(f"echo '{json.dumps(first)}'", name="first"),
        cmd(f"cat > {seen}", name="second"), sequential=True))
    run(project, "PreToolUse", SHELL)
    assert json.loads(seen.read_text())["tool_input"] == {"command": "ls -a"}


def test_without_sequential_handlers_see_the_original_input(project: Path) -> None:
    first = {"hookSpecificOutput": {"tool_input": {"command": "ls -a"}}}
    seen = project / "seen.json"
    gemini(project, "BeforeTool", group(
        cmd(f"echo '{json.dumps(first)}'", name="first"), cmd(f"cat > {seen}", name="second")))
    run(project, "PreToolUse", SHELL)
    assert json.loads(seen.read_text())["tool_input"] == {"command": "ls"}
