"""agenthooks as Cursor's hook, and Cursor's own handlers under agenthooks, in real processes.

Every payload below is the input Cursor's hooks page documents for its event
(cursor.com/docs/hooks, "Reference"; mirror mehmetbaykar/cursor-docs-skill@1cc1c99
skills/cursor-docs/references/hooks.md), with the common fields; every answer is checked
against the JSON Schema written from the same page (tests/hosts/schemas/cursor.json).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from tests.hosts.conftest import answer, environment_dump, schema, translated_gates

pytestmark = pytest.mark.program

COMMON = {"conversation_id": "c-1", "generation_id": "g-1", "model": "claude-opus-4-7",
          "cursor_version": "1.7.2", "workspace_roots": ["/project"], "user_email": None,
          "transcript_path": None}


def payload(event: str, **fields: Any) -> dict[str, Any]:
    return {**COMMON, "hook_event_name": event, **fields}


SHELL = {"tool_name": "Shell", "tool_use_id": "abc123", "cwd": "/project"}
PAYLOADS: dict[str, dict[str, Any]] = {
    "preToolUse": payload("preToolUse", **SHELL, tool_input={
        "command": "rm -rf build", "working_directory": "/project"},
        agent_message="Cleaning up..."),
    "postToolUse": payload("postToolUse", **SHELL, tool_input={"command": "npm test"},
                           tool_output='{"exitCode":0,"stdout":"All tests passed"}',
                           duration=5432),
    "postToolUseFailure": payload("postToolUseFailure", **SHELL,
                                  tool_input={"command": "npm test"},
                                  error_message="Command timed out after 30s",
                                  failure_type="timeout", duration=5000, is_interrupt=False),
    "subagentStart": payload("subagentStart", subagent_id="abc-123",
                             subagent_type="generalPurpose", task="Explore the auth flow",
                             parent_conversation_id="conv-456", tool_call_id="tc-789",
                             subagent_model="claude-sonnet-4", is_parallel_worker=False),
    "subagentStop": payload("subagentStop", subagent_type="generalPurpose",
                            status="completed", task="Explore", description="Exploring",
                            summary="done", duration_ms=45000, message_count=12,
                            tool_call_count=8, loop_count=0, modified_files=[],
                            agent_transcript_path=None),
    "beforeShellExecution": payload("beforeShellExecution", command="curl example.com",
                                    cwd="/project", sandbox=False),
    "beforeMCPExecution": payload("beforeMCPExecution", tool_name="query",
                                  tool_input='{"sql": "select 1"}', url="https://mcp.test"),
    "afterShellExecution": payload("afterShellExecution", command="ls", output="a b",
                                   duration=12, sandbox=False),
    "afterMCPExecution": payload("afterMCPExecution", tool_name="query", tool_input="{}",
                                 result_json="{}", duration=3),
    "afterFileEdit": payload("afterFileEdit", file_path="/project/a.py",
                             edits=[{"old_string": "a", "new_string": "b"}]),
    "beforeReadFile": payload("beforeReadFile", file_path="/project/.env", content="X=1",
                              attachments=[]),
    "beforeTabFileRead": payload("beforeTabFileRead", file_path="/project/.env", content="X"),
    "afterTabFileEdit": payload("afterTabFileEdit", file_path="/project/a.py", edits=[]),
    "beforeSubmitPrompt": payload("beforeSubmitPrompt", prompt="print the secret",
                                  attachments=[]),
    "afterAgentResponse": payload("afterAgentResponse", text="Done."),
    "afterAgentThought": payload("afterAgentThought", text="Thinking", duration_ms=5),
    "stop": payload("stop", status="completed", loop_count=0),
    "sessionStart": payload("sessionStart", session_id="c-1", is_background_agent=False,
                            composer_mode="agent"),
    "sessionEnd": payload("sessionEnd", session_id="c-1", reason="completed",
                          duration_ms=45000, is_background_agent=False, final_status="ok"),
    "preCompact": payload("preCompact", trigger="auto", context_usage_percent=85,
                          context_tokens=120000, context_window_size=128000,
                          message_count=45, messages_to_compact=30, is_first_compaction=True),
    "workspaceOpen": {"hook_event_name": "workspaceOpen", "cursor_version": "1.7.2",
                      "workspace_roots": ["/project"], "user_email": None},
}


@pytest.fixture
def gates(tmp_path: Path) -> Path:
    """The gates of `.agents/agenthooks.json`: written for Antigravity (hooks.json), run under
    Cursor with its payloads translated."""
    return translated_gates(tmp_path / "project", "agenthooks.json", secrets={
        "PreInvocation": [{"command": "echo 'no secrets in prompts' >&2; exit 2"}]})


def cursor(event: str, sent: object, cwd: Path, *more: str) -> tuple[int, dict[str, Any]]:
    done = answer(["agenthooks", "run", event, "--host", "cursor", "--config",
                   ".agents/agenthooks.json", *more], sent, cwd)
    assert done.stdout, done.stderr
    output: dict[str, Any] = json.loads(done.stdout)
    jsonschema.validate(output, {**schema("cursor"), "$ref": f"#/$defs/{event}"})
    return done.returncode, output


EXPECTED: dict[str, tuple[int, dict[str, Any]]] = {
    "preToolUse": (2, {"permission": "deny", "user_message": "no recursive deletes",
                       "agent_message": "no recursive deletes"}),
    "postToolUse": (0, {"additional_context": "lint: 2 warnings"}),
    "beforeSubmitPrompt": (0, {"continue": False, "user_message": "no secrets in prompts"}),
    "stop": (0, {"followup_message": "the tests fail: keep going"}),
    "sessionStart": (0, {"additional_context": "branch: main"}),
}


@pytest.mark.parametrize("event", list(PAYLOADS))
def test_every_documented_payload_gets_an_answer_cursor_reads(gates: Path,
                                                              event: str) -> None:
    code, output = cursor(event, PAYLOADS[event], gates)
    assert (code, output) == EXPECTED.get(event, (0, {})), event


def test_a_call_no_gate_refuses_is_left_to_cursor(gates: Path) -> None:
    sent = {**PAYLOADS["preToolUse"], "tool_input": {"command": "ls"}}
    assert cursor("preToolUse", sent, gates) == (0, {})


def test_a_failure_under_fail_closed_is_a_deny_cursor_reads(gates: Path) -> None:
    (gates / "gate.py").write_text("raise SystemExit(3)\n", encoding="utf-8")
    code, output = cursor("preToolUse", PAYLOADS["preToolUse"], gates, "--fail-closed")
    assert code == 2 and output["permission"] == "deny"
    code, output = cursor("preToolUse", PAYLOADS["preToolUse"], gates)
    assert code == 0 and "permission" not in output
    assert "exited 3" in output["user_message"]


def test_an_ask_is_said_where_cursor_has_ask(gates: Path) -> None:
    sent = {**PAYLOADS["preToolUse"], "tool_input": {"command": "ls"}}
    assert cursor("preToolUse", sent, gates, "--default-decision", "ask") == (
        0, {"permission": "ask"})


def test_the_docs_snippet_answers_in_cursors_schema(project: Path) -> None:
    """The `.cursor/hooks.json` of docs/hosts.md, each command run as Cursor runs it (in the
    project root) on Cursor's payload; the project's `.agents/hooks.json` holds the gates."""
    from tests.hosts.test_host_output import commands

    registered = commands("cursor")
    assert set(registered) == {"preToolUse", "postToolUse", "beforeSubmitPrompt", "stop",
                               "sessionStart"}
    for event, argv in registered.items():
        done = answer(argv, PAYLOADS[event], project)
        output = json.loads(done.stdout)
        jsonschema.validate(output, {**schema("cursor"), "$ref": f"#/$defs/{event}"})
        if event == "preToolUse":
            assert (done.returncode, output["permission"]) == (2, "deny")
        if event == "stop":
            assert output == {"followup_message": "the tests fail: keep going"}


def test_the_readme_snippet_is_the_docs_one() -> None:
    import re

    from tests.hosts.conftest import REPO
    from tests.hosts.test_host_output import snippets

    readme = (REPO / "README.md").read_text("utf-8")
    section = readme[readme.index("### Cursor"):]
    block = re.search(r"```json\n(.*?)```", section, flags=re.S)
    assert block is not None
    assert json.loads(block.group(1)) == snippets()["cursor"]


# --- Cursor's own handlers, read with Cursor's rules ------------------------------------------


def cursor_file(root: Path, hooks: dict[str, Any]) -> Path:
    path = root / ".cursor" / "hooks.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"version": 1, "hooks": hooks}), encoding="utf-8")
    return path


def engine(root: Path, event: str, sent: object, *more: str) -> tuple[int, dict[str, Any]]:
    done = answer(["agenthooks", "run", event, "--config", ".cursor/hooks.json", *more],
                  sent, root)
    assert done.stdout, done.stderr
    return done.returncode, json.loads(done.stdout)


@pytest.mark.parametrize(("said", "code", "expected"), [
    ('{"permission": "deny", "user_message": "not here", "agent_message": "use gh"}', 2,
     {"decision": "deny", "reason": "use gh", "systemMessage": "not here"}),
    ('{"continue": true, "permission": "allow"}', 0, {"decision": "allow"}),
    ('{"permission": "ask", "agent_message": "check it"}', 0,
     {"decision": "ask", "reason": "check it"}),
    # Claude Code's answer, which Cursor reads too.
    ('{"hookSpecificOutput": {"permissionDecision": "deny", "permissionDecisionReason": "x"}}',
     2, {"decision": "deny", "reason": "x"}),
])
def test_a_cursor_handlers_answer(tmp_path: Path, said: str, code: int,
                                  expected: dict[str, Any]) -> None:
    cursor_file(tmp_path, {"preToolUse": [{"command": f"echo '{said}'", "matcher": "Shell"}]})
    assert engine(tmp_path, "preToolUse", PAYLOADS["preToolUse"]) == (code, expected)


def test_a_rewrite_reaches_the_caller_in_its_own_words(tmp_path: Path) -> None:
    said = json.dumps({"permission": "allow", "updated_input": {"command": "rm -rf ./build"}})
    cursor_file(tmp_path, {"preToolUse": [{"command": f"echo '{said}'"}]})
    claude = {"hook_event_name": "PreToolUse", "tool_name": "Bash", "session_id": "s",
              "tool_input": {"command": "rm -rf build"}}
    done = answer(["agenthooks", "run", "PreToolUse", "--host", "claude", "--other-hosts",
                   "--config", ".cursor/hooks.json"], claude, tmp_path)
    specific = json.loads(done.stdout)["hookSpecificOutput"]
    assert specific["updatedInput"] == {"command": "rm -rf ./build"}


@pytest.mark.parametrize(("command", "closed", "blocked"), [
    ("exit 1", False, False), ("exit 1", True, True),
    ("echo not json", False, False), ("echo not json", True, True),
    ("echo '{\"permission\": '", True, True),
    ("sleep 5", True, True),
    ("echo 'why' >&2; exit 2", False, True),
])
def test_failures_fail_open_unless_fail_closed(tmp_path: Path, command: str, closed: bool,
                                               blocked: bool) -> None:
    handler: dict[str, Any] = {"command": command, "timeout": 1}
    if closed:
        handler["failClosed"] = True
    cursor_file(tmp_path, {"preToolUse": [handler]})
    code, output = engine(tmp_path, "preToolUse", PAYLOADS["preToolUse"])
    assert (code == 2, output.get("decision") == "deny") == (blocked, blocked), output


def test_stop_follow_up_keeps_the_agent_going(tmp_path: Path) -> None:
    cursor_file(tmp_path, {"stop": [{"command": """echo '{"followup_message": "again"}'"""}]})
    assert engine(tmp_path, "stop", PAYLOADS["stop"]) == (
        2, {"decision": "continue", "reason": "again"})


def test_a_prompt_is_held_back_by_continue_false(tmp_path: Path) -> None:
    said = '{"continue": false, "user_message": "no secrets"}'
    cursor_file(tmp_path, {"beforeSubmitPrompt": [{"command": f"echo '{said}'"}]})
    code, output = engine(tmp_path, "beforeSubmitPrompt", PAYLOADS["beforeSubmitPrompt"])
    assert code == 2 and output["decision"] == "block" and output["reason"] == "no secrets"


def test_the_environment_cursor_gives_its_handlers(tmp_path: Path) -> None:
    dump = environment_dump("additional_context", "CURSOR_PROJECT_DIR", "CLAUDE_PROJECT_DIR",
                            "CURSOR_VERSION", "PWD")
    cursor_file(tmp_path, {"postToolUse": [{"command": dump}]})
    _, output = engine(tmp_path, "postToolUse", PAYLOADS["postToolUse"])
    seen = json.loads(output["hookSpecificOutput"]["additionalContext"])
    root = str(tmp_path.resolve())
    assert seen["CURSOR_PROJECT_DIR"] == seen["CLAUDE_PROJECT_DIR"] == root
    assert seen["CURSOR_VERSION"] == "1.7.2"


@pytest.mark.parametrize(("matcher", "runs"), [
    ("Shell", True), ("Read|Write", False), ("She", True), ("", True), ("MCP:.*", False),
])
def test_tool_matchers_are_regexes_on_cursors_tool_type(tmp_path: Path, matcher: str,
                                                       runs: bool) -> None:
    cursor_file(tmp_path, {"preToolUse": [{"command": "exit 2", "matcher": matcher}]})
    code, _ = engine(tmp_path, "preToolUse", PAYLOADS["preToolUse"])
    assert (code == 2) == runs


def test_a_shell_matcher_sees_the_whole_command(tmp_path: Path) -> None:
    cursor_file(tmp_path, {"beforeShellExecution": [{"command": "exit 2",
                                                     "matcher": "curl|wget|nc "}]})
    assert engine(tmp_path, "beforeShellExecution", PAYLOADS["beforeShellExecution"])[0] == 2
    quiet = {**PAYLOADS["beforeShellExecution"], "command": "ls"}
    assert engine(tmp_path, "beforeShellExecution", quiet)[0] == 0


def test_a_cursor_mcp_matcher_selects_another_hosts_mcp_call(tmp_path: Path) -> None:
    cursor_file(tmp_path, {"preToolUse": [{"command": "exit 2", "matcher": "^MCP:create_"}]})
    claude = {"hook_event_name": "PreToolUse", "session_id": "s",
              "tool_name": "mcp__memory__create_entities", "tool_input": {}}
    done = answer(["agenthooks", "run", "PreToolUse", "--host", "claude", "--other-hosts",
                   "--config", ".cursor/hooks.json"], claude, tmp_path)
    specific = json.loads(done.stdout)["hookSpecificOutput"]
    assert specific["permissionDecision"] == "deny"


@pytest.mark.parametrize("said", ['{"hookSpecificOutput": 5}', '{"hookSpecificOutput": "x"}',
                                  '{"permission": 7}', '{"updated_input": "ls"}',
                                  '{"followup_message": ["x"]}'])
def test_nonsense_is_a_warning_never_a_crash(tmp_path: Path, said: str) -> None:
    cursor_file(tmp_path, {"preToolUse": [{"command": f"echo '{said}'"}],
                           "stop": [{"command": f"echo '{said}'"}]})
    for event in ("preToolUse", "stop"):
        done = answer(["agenthooks", "run", event, "--config", ".cursor/hooks.json",
                       "--report", "json"], PAYLOADS[event], tmp_path)
        assert done.returncode in (0, 2) and "Traceback" not in done.stderr, done.stderr
        json.loads(done.stdout)
