"""Codex's payloads both ways: a Codex call in every other host's words, and every other host's
call in Codex's, through the tables (`sources.payloads`, `model.tools`, `model.events`)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from agenthooks.sources.payloads import Translation, detect

# A PreToolUse as codex exec 0.169.0 sent it (tests/e2e/test_codex.py records one).
CODEX_BASH = {"session_id": "019a", "turn_id": "019b", "transcript_path": "/t.jsonl",
              "cwd": "/w", "hook_event_name": "PreToolUse", "model": "gpt-5.1-codex",
              "permission_mode": "bypassPermissions", "tool_name": "Bash",
              "tool_input": {"command": "rm -rf build"}, "tool_use_id": "call_1"}
CLAUDE_EDIT = {"session_id": "s1", "transcript_path": "/t.jsonl", "cwd": "/w",
               "permission_mode": "default", "hook_event_name": "PreToolUse",
               "tool_name": "Edit", "tool_input": {"file_path": "/w/a.py", "old_string": "a",
                                                   "new_string": "b"}}


def translated(caller: str, doc: dict[str, Any], host: str, word: str) -> dict[str, Any]:
    name = doc.get("tool_name")
    args = doc.get("tool_input", {})
    words = Translation(caller, doc, json.dumps(doc).encode(), name, args)
    return words.built(host, word)


def test_a_codex_payload_is_known_by_its_turn_id() -> None:
    assert detect(CODEX_BASH) == "codex"
    assert detect({k: v for k, v in CODEX_BASH.items() if k != "turn_id"}) == "claude"


@pytest.mark.parametrize(("host", "word", "expected"), [
    ("claude", "PreToolUse", {
        "session_id": "019a", "transcript_path": "/t.jsonl", "cwd": "/w",
        "permission_mode": "bypassPermissions", "tool_use_id": "call_1", "model": "gpt-5.1-codex",
        "hook_event_name": "PreToolUse", "tool_name": "Bash",
        "tool_input": {"command": "rm -rf build"}}),
    ("gemini", "BeforeTool", {
        "session_id": "019a", "transcript_path": "/t.jsonl", "cwd": "/w",
        "hook_event_name": "BeforeTool", "tool_name": "run_shell_command",
        "tool_input": {"command": "rm -rf build"}}),
    ("antigravity", "PreToolUse", {
        "conversationId": "019a", "transcriptPath": "/t.jsonl", "workspacePaths": ["/w"],
        "toolCall": {"name": "run_command", "args": {"CommandLine": "rm -rf build"}}}),
])
def test_a_codex_call_in_other_hosts_words(host: str, word: str,
                                           expected: dict[str, Any]) -> None:
    assert translated("codex", CODEX_BASH, host, word) == expected


def test_other_hosts_calls_in_codex_words() -> None:
    agy = {"toolCall": {"name": "run_command", "args": {"CommandLine": "make", "Cwd": "/w"}},
           "conversationId": "c1", "workspacePaths": ["/w"]}
    words = Translation("antigravity", agy, json.dumps(agy).encode(), "run_command",
                        agy["toolCall"]["args"])
    assert json.loads(words.payload("codex", "PreToolUse")) == {
        "session_id": "c1", "cwd": "/w", "hook_event_name": "PreToolUse", "tool_name": "Bash",
        "tool_input": {"command": "make", "cwd": "/w"}}
    # Claude Code's Edit is Codex's apply_patch; its arguments have no counterpart in a patch
    # and keep their names.
    edit = translated("claude", CLAUDE_EDIT, "codex", "PreToolUse")
    assert (edit["tool_name"], edit["tool_input"]) == ("apply_patch", CLAUDE_EDIT["tool_input"])


def test_mcp_names_are_the_same_as_claude_codes() -> None:
    call = {**CODEX_BASH, "tool_name": "mcp__memory__create", "tool_input": {"x": 1}}
    assert translated("codex", call, "claude", "PreToolUse")["tool_name"] == "mcp__memory__create"
    assert translated("codex", call, "gemini", "BeforeTool")["tool_name"] == "mcp_memory_create"
