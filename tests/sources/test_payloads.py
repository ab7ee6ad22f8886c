"""Each handler gets the payload its own host would send, and answers in the caller's words:
the tables of `sources.payloads`, then real runs across hosts."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from agenthooks.sources.payloads import (
    SHAPES,
    Translation,
    build,
    detect,
    fields_of,
    tool_call,
)
from tests.sources.dialects.run.conftest import cmd, group, write_hooks_json, write_settings
from tests.support import program

pytestmark = pytest.mark.program

CLAUDE_BASH = {"session_id": "s1", "transcript_path": "/t.jsonl", "cwd": "/w",
               "permission_mode": "default", "hook_event_name": "PreToolUse",
               "tool_name": "Bash", "tool_input": {"command": "rm -rf build", "description": "d"},
               "tool_use_id": "toolu_1"}
GEMINI_SHELL = {"session_id": "s1", "transcript_path": "/t.jsonl", "cwd": "/w",
                "hook_event_name": "BeforeTool", "timestamp": "2026-11-24T00:00:00Z",
                "tool_name": "run_shell_command",
                "tool_input": {"command": "rm -rf build", "dir_path": "/w/sub"}}
AGY_RUN = {"toolCall": {"name": "run_command", "args": {"CommandLine": "rm -rf build",
                                                        "Cwd": "/w/sub"}},
           "stepIdx": 3, "conversationId": "s1", "workspacePaths": ["/w"],
           "transcriptPath": "/t.jsonl"}
CLAUDE_STOP = {"session_id": "s1", "transcript_path": "/t.jsonl", "cwd": "/w",
               "hook_event_name": "Stop", "stop_hook_active": False,
               "last_assistant_message": "All done."}


COPILOT_CREATE = {"sessionId": "s1", "timestamp": 1, "cwd": "/w", "toolName": "create",
                  "toolArgs": {"path": "/w/.env", "file_text": "password=hunter2"}}
COPILOT_EDIT = {"sessionId": "s1", "timestamp": 1, "cwd": "/w", "toolName": "edit",
                "toolArgs": {"path": "/w/a.py", "old_str": "x = 1",
                             "new_str": "password = 'hunter2'"}}


@pytest.fixture(autouse=True)
def no_project_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    """The caller's project variable names the workspace: none leaks in from the shell."""
    from agenthooks.model.hosts import HOST_TABLE

    for row in HOST_TABLE:
        if row.project_var is not None:
            monkeypatch.delenv(row.project_var, raising=False)


@pytest.mark.parametrize(("doc", "given", "host"), [
    (CLAUDE_BASH, None, "claude"),
    (GEMINI_SHELL, None, "gemini"),
    (AGY_RUN, None, "antigravity"),
    # A hooks.json handler's payload (Claude Code's fields beside Antigravity's): an
    # `agenthooks run` it starts answers in hooks.json's words.
    ({**CLAUDE_BASH, "conversationId": "s1", "toolCall": {"name": "run_command", "args": {}}},
     None, "antigravity"),
    ({"hook_event_name": "SessionStart", "source": "startup"}, None, "claude"),
    ({"hook_event_name": "SessionStart", "timestamp": "t"}, None, "gemini"),
    ({"tool_name": "Bash", "tool_input": {}}, None, "claude"),
    ({"tool_name": "write_file"}, None, "gemini"),
    ({"tool_name": "run_command"}, None, "antigravity"),
    ({"tool_name": "my_own_tool"}, None, "claude"),
    ({}, "BeforeTool", "gemini"),
    ({}, "UserPromptSubmit", "claude"),
    ({}, "PreToolUse", "antigravity"),
    ({}, None, "antigravity"),
    # Charm Crush names the event in `event`, and its own tools: a payload in that field
    # naming another host's tool is that host's (Goose's is marked by `matcher_context`).
    ({"event": "PreToolUse", "tool_name": "bash", "tool_input": {}}, None, "crush"),
    ({"event": "PreToolUse", "tool_name": "mcp_docs_search"}, None, "crush"),
    ({"event": "PreToolUse", "tool_name": "Bash", "tool_input": {}}, None, "claude"),
    ({"event": "PreToolUse", "tool_name": "run_shell_command"}, None, "gemini"),
    ({"event": "PreToolUse", "tool_name": "Bash", "matcher_context": "x"}, None, "goose"),
])
def test_the_caller_is_read_off_the_payload(doc: dict[str, Any], given: str | None,
                                            host: str) -> None:
    assert detect(doc, given) == host


@pytest.mark.parametrize(("caller", "doc", "host", "word", "expected"), [
    ("claude", CLAUDE_BASH, "antigravity", "PreToolUse", {
        "conversationId": "s1", "transcriptPath": "/t.jsonl", "workspacePaths": ["/w"],
        "toolCall": {"name": "run_command", "args": {"CommandLine": "rm -rf build",
                                                     "description": "d"}}}),
    ("claude", CLAUDE_BASH, "gemini", "BeforeTool", {
        "session_id": "s1", "transcript_path": "/t.jsonl", "cwd": "/w",
        "hook_event_name": "BeforeTool", "tool_name": "run_shell_command",
        "tool_input": {"command": "rm -rf build", "description": "d"}}),
    ("antigravity", AGY_RUN, "claude", "PreToolUse", {
        "session_id": "s1", "transcript_path": "/t.jsonl", "cwd": "/w",
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash", "tool_input": {"command": "rm -rf build", "cwd": "/w/sub"}}),
    ("gemini", GEMINI_SHELL, "antigravity", "PreToolUse", {
        "conversationId": "s1", "transcriptPath": "/t.jsonl", "workspacePaths": ["/w"],
        "toolCall": {"name": "run_command", "args": {"CommandLine": "rm -rf build",
                                                     "Cwd": "/w/sub"}}}),
    # Claude Code's Stop as Gemini CLI's AfterAgent: the last message is prompt_response;
    # Gemini's `prompt` has no counterpart in Claude's Stop, so it is left out.
    ("claude", CLAUDE_STOP, "gemini", "AfterAgent", {
        "session_id": "s1", "transcript_path": "/t.jsonl", "cwd": "/w",
        "stop_hook_active": False, "prompt_response": "All done.",
        "hook_event_name": "AfterAgent"}),
    ("claude", CLAUDE_STOP, "antigravity", "Stop", {
        "conversationId": "s1", "transcriptPath": "/t.jsonl", "workspacePaths": ["/w"]}),
    # Copilot's create: its file_text is the content a secret scanner reads.
    ("copilot", COPILOT_CREATE, "claude", "PreToolUse", {
        "session_id": "s1", "cwd": "/w", "hook_event_name": "PreToolUse",
        "tool_name": "Write", "tool_input": {"file_path": "/w/.env",
                                             "content": "password=hunter2"}}),
    ("copilot", COPILOT_EDIT, "gemini", "BeforeTool", {
        "session_id": "s1", "timestamp": 1, "cwd": "/w", "hook_event_name": "BeforeTool",
        "tool_name": "replace", "tool_input": {"file_path": "/w/a.py", "old_string": "x = 1",
                                               "new_string": "password = 'hunter2'"}}),
])
def test_a_payload_in_another_hosts_words(caller: str, doc: dict[str, Any], host: str,
                                          word: str, expected: dict[str, Any]) -> None:
    words = Translation(caller, doc, json.dumps(doc).encode(), *tool_call(doc, caller))
    assert words.built(host, word) == expected


AGY_CALL = {"name": "run_command", "args": {"CommandLine": "rm -rf build"}}


@pytest.mark.parametrize(("caller", "doc", "expected"), [
    # The caller's own payload, with Antigravity's fields beside it.
    ("claude", CLAUDE_BASH, {**CLAUDE_BASH, "conversationId": "s1",
                             "transcriptPath": "/t.jsonl", "workspacePaths": ["/w"],
                             "toolCall": {**AGY_CALL, "args": {**AGY_CALL["args"],
                                                               "description": "d"}}}),
    ("gemini", GEMINI_SHELL, {**GEMINI_SHELL, "conversationId": "s1",
                              "transcriptPath": "/t.jsonl", "workspacePaths": ["/w"],
                              "toolCall": {**AGY_CALL, "args": {**AGY_CALL["args"],
                                                                "Cwd": "/w/sub"}}}),
    # Antigravity's own payload, with Claude Code's fields in Claude Code's words.
    ("antigravity", AGY_RUN, {**AGY_RUN, "session_id": "s1", "transcript_path": "/t.jsonl",
                              "cwd": "/w", "hook_event_name": "PreToolUse",
                              "tool_name": "Bash",
                              "tool_input": {"command": "rm -rf build", "cwd": "/w/sub"}}),
    # Copilot's payload is neither shape: both are added.
    ("copilot", COPILOT_CREATE, {
        **COPILOT_CREATE, "session_id": "s1", "cwd": "/w", "hook_event_name": "PreToolUse",
        "tool_name": "Write",
        "tool_input": {"file_path": "/w/.env", "content": "password=hunter2"},
        "conversationId": "s1", "workspacePaths": ["/w"],
        "toolCall": {"name": "write_to_file", "args": {"TargetFile": "/w/.env",
                                                       "CodeContent": "password=hunter2"}}}),
])
def test_a_hooks_json_handler_gets_every_hosts_fields(caller: str, doc: dict[str, Any],
                                                      expected: dict[str, Any]) -> None:
    words = Translation(caller, doc, json.dumps(doc).encode(), *tool_call(doc, caller))
    assert json.loads(words.payload("antigravity", "PreToolUse")) == expected


def test_the_workspace_is_the_callers_project_variable(monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", "/root-of-w")
    words = Translation("claude", CLAUDE_BASH, b"{}", "Bash", CLAUDE_BASH["tool_input"])
    assert words.built("antigravity", "PreToolUse")["workspacePaths"] == ["/root-of-w"]


def test_the_callers_own_host_gets_the_exact_bytes() -> None:
    data = b'{"hook_event_name":"PreToolUse",  "tool_name":"Bash","tool_input":{}}'
    words = Translation("claude", json.loads(data), data, "Bash", {})
    assert words.payload("claude", "PreToolUse") is data


@pytest.mark.parametrize(("host", "rewritten", "back"), [
    ("antigravity", {"CommandLine": "ls -la", "Cwd": "/w"}, {"command": "ls -la", "cwd": "/w"}),
    ("gemini", {"command": "ls -la", "dir_path": "/w"}, {"command": "ls -la", "cwd": "/w"}),
    ("claude", {"command": "ls -la"}, {"command": "ls -la"}),
])
def test_rewritten_arguments_come_back_in_the_callers_names(
        host: str, rewritten: dict[str, Any], back: dict[str, Any]) -> None:
    words = Translation("claude", CLAUDE_BASH, b"{}", "Bash", CLAUDE_BASH["tool_input"])
    assert words.args_back(host, rewritten) == back


def test_every_shape_round_trips_its_own_fields() -> None:
    """Each host's own fields, and its event word (snake_case where the host writes it so,
    Grok Build's `pre_tool_use`; camelCase, Kiro's `preToolUse`); a host that sends another's
    fields too (`Shape.companion`) sends them after its own, each one it has not written
    itself."""
    for host, shape in SHAPES.items():
        doc = {key: f"v-{key}" for _, key in shape.fields}
        built = build(host, "PreToolUse", fields_of(doc, host), None, None)
        # (Cline's payload says `tool_call` for its PreToolUse file: `Shape.by_word`.)
        word = "pre_tool_use" if shape.snake_event else "preToolUse" if shape.camel_event \
            else shape.by_word.get("PreToolUse", ("PreToolUse",))[0]
        own = {**doc, **({shape.event_key: word} if shape.event_key else {})}
        assert {key: built[key] for key in own} == own, host
        also = build(shape.companion, "PreToolUse", fields_of(doc, host), None, None) \
            if shape.companion else {}
        # (Goose's `matcher_context`, always sent, says the prompt where there is no tool.)
        context = {shape.context_key: fields_of(doc, host).get("prompt")} \
            if shape.context_key else {}
        assert built == {**own, **context,
                         **{k: v for k, v in also.items() if k not in own}}, host


# --- real runs ---------------------------------------------------------------------------

DUMP = f"{sys.executable} -c \"import sys; open(sys.argv[1], 'w').write(sys.stdin.read())\""


def run(project: Path, event: str, payload: dict[str, Any], *extra: str
        ) -> subprocess.CompletedProcess[str]:
    return program("run", event, "--workspace", str(project), "--no-user", *extra,
                   stdin=json.dumps(payload), cwd=project)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    return root


@pytest.mark.parametrize(("host", "payload"), [("claude", CLAUDE_BASH),
                                               ("gemini", GEMINI_SHELL)])
def test_a_hooks_json_gate_fires_under_claude_and_gemini(project: Path, host: str,
                                                         payload: dict[str, Any]) -> None:
    gate = ("python3 -c \"import json,sys; a=json.load(sys.stdin)['toolCall']['args'];"
            " sys.exit(2 if 'rm -rf' in a['CommandLine'] else 0)\"")
    write_hooks_json(project, {"gate": {"PreToolUse": [
        {"matcher": "run_command", "hooks": [{"command": gate}]}]}})
    done = run(project, payload["hook_event_name"], payload, "--host", host, "--fail-closed")
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    decision = (answer["hookSpecificOutput"]["permissionDecision"] if host == "claude"
                else answer["decision"])
    assert decision == "deny"


def test_a_gemini_after_agent_hook_under_claudes_stop(project: Path) -> None:
    seen = project / "seen.json"
    write_settings(project, "gemini", {"AfterAgent": [group(cmd(f"{DUMP} {seen}"))]})
    done = run(project, "Stop", CLAUDE_STOP, "--host", "claude", "--other-hosts")
    assert done.returncode == 0, done.stderr
    got = json.loads(seen.read_text())
    assert got["hook_event_name"] == "AfterAgent"
    assert got["prompt_response"] == "All done."
    assert "last_assistant_message" not in got


def test_a_hosts_own_file_is_left_to_the_host(project: Path) -> None:
    marks = project / "marks"
    write_settings(project, "claude", {"PreToolUse": [group(cmd(f"echo claude >> {marks}"),
                                                            matcher="Bash")]})
    write_settings(project, "gemini", {"BeforeTool": [group(cmd(f"echo gemini >> {marks}"))]})
    write_hooks_json(project, {"h": {"PreToolUse": [
        {"matcher": "run_command", "hooks": [{"command": f"echo agy >> {marks}"}]}]}})
    assert run(project, "PreToolUse", CLAUDE_BASH, "--host", "claude").returncode == 0
    assert marks.read_text().split() == ["agy"]
    marks.unlink()
    assert run(project, "PreToolUse", CLAUDE_BASH, "--host", "claude",
               "--other-hosts").returncode == 0
    assert sorted(marks.read_text().split()) == ["agy", "gemini"]
    marks.unlink()
    assert run(project, "PreToolUse", CLAUDE_BASH).returncode == 0  # offline: everything
    assert sorted(marks.read_text().split()) == ["agy", "claude", "gemini"]


def test_dry_run_names_what_a_host_leaves_out(project: Path) -> None:
    write_settings(project, "claude", {"PreToolUse": [group(cmd("true"))]})
    done = run(project, "PreToolUse", CLAUDE_BASH, "--host", "claude", "--dry-run")
    assert done.returncode == 0, done.stderr
    plan = json.loads(done.stdout)
    assert plan["handlers"] == []
    assert plan["leftOut"] == [{"source": ".claude/settings.json",
                                "why": "Claude Code runs this file itself"}]


def test_a_hooks_json_rewrite_reaches_claude_as_updated_input(project: Path) -> None:
    rewrite = ("python3 -c \"import json,sys; a=json.load(sys.stdin)['toolCall']['args'];"
               " print(json.dumps({'hookSpecificOutput': {'updatedInput':"
               " {**a, 'CommandLine': a['CommandLine'] + ' --dry-run'}}}))\"")
    write_hooks_json(project, {"h": {"PreToolUse": [
        {"matcher": "run_command", "hooks": [{"command": rewrite}]}]}})
    done = run(project, "PreToolUse", CLAUDE_BASH, "--host", "claude")
    assert done.returncode == 0, done.stderr
    specific = json.loads(done.stdout)["hookSpecificOutput"]
    assert specific["updatedInput"] == {"command": "rm -rf build --dry-run", "description": "d"}


@pytest.mark.parametrize(("doc", "host", "expected"), [
    (AGY_RUN, "antigravity", {**AGY_RUN, "toolCall": {"name": "run_command",
                                                     "args": {"CommandLine": "ls"}}}),
    (CLAUDE_BASH, "claude", {**CLAUDE_BASH, "tool_input": {"CommandLine": "ls"}}),
    # A hand-written flat payload read as Antigravity's keeps its flat shape.
    ({"tool_name": "run_command", "tool_input": {}}, "antigravity",
     {"tool_name": "run_command", "tool_input": {"CommandLine": "ls"}}),
])
def test_rewritten_arguments_go_back_in_the_payloads_own_shape(
        doc: dict[str, Any], host: str, expected: dict[str, Any]) -> None:
    from agenthooks.sources.payloads import with_args

    assert with_args(doc, {"CommandLine": "ls"}, host) == expected
