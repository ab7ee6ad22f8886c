"""The README's `--host` snippets, run as each host runs them, answer in that host's schema.

Each snippet of "As the one hook of Antigravity, Gemini CLI or Claude Code" is read from the
README; every command it registers gets a payload shaped as its host sends it (the hosts'
reference pages) through a real `python -m agenthooks run` process, and the answer is checked
against the host's documented output schema (tests/hosts/schemas, each citing its page).
"""

from __future__ import annotations

import json
import re
import shlex
import sys
from pathlib import Path
from typing import Any

import jsonschema

if sys.version_info >= (3, 11):
    import tomllib
else:  # the backport, a dependency on Python 3.10
    import tomli as tomllib
import pytest

from agenthooks.model.hosts import has_no_files, host_ids, host_row, in_scripts
from tests.hosts.conftest import REPO, answer, schema

pytestmark = pytest.mark.program

SCHEMA_OF = {"claude": "claude_code", "gemini": "gemini_cli", "antigravity": "antigravity"}


def snippets() -> dict[str, dict[str, Any]]:
    """host -> the settings object of its snippet on the documentation's hosts page."""
    section = (REPO / "docs" / "hosts.md").read_text("utf-8")
    found: dict[str, dict[str, Any]] = {}
    for language, block in re.findall(r"```(json|toml)\n(.*?)```", section, flags=re.S):
        doc = json.loads(block) if language == "json" else tomllib.loads(block)
        host = re.search(r"--host (\w+)", block)
        if host is None:  # the page's gates, not a host's wiring
            continue
        found[host.group(1)] = doc
    return found


def commands(host: str) -> dict[str, list[str]]:
    """The host's event -> the argv of the command the snippet registers for it."""
    doc = snippets()[host]
    # A file keyed by event name has no `hooks` (Devin CLI's hooks.v1.json).
    events = doc["agenthooks"] if host == "antigravity" else doc.get("hooks", doc)
    if isinstance(events, list):  # the [[hooks]] entries of Kimi Code and Mistral Vibe,
        # Kiro's hooks with their `trigger` and `action`
        events = {entry.get("event") or entry.get("trigger") or entry["type"]: [entry]
                  for entry in events}
    found = {}
    for event, entries in events.items():
        handler = entries[0]["hooks"][0] if "hooks" in entries[0] else \
            entries[0].get("action") or entries[0]
        found[event] = shlex.split(handler.get("command") or handler["bash"])  # Copilot: bash
    return found


# --- payloads as each host sends them -------------------------------------------------------


def claude_payload(event: str, cwd: Path, **fields: Any) -> dict[str, Any]:
    """Claude Code's common input fields (hooks reference, "Common input fields") and more."""
    return {"session_id": "abc123", "transcript_path": str(cwd / "transcript.jsonl"),
            "cwd": str(cwd), "permission_mode": "default", "hook_event_name": event, **fields}


def gemini_payload(event: str, cwd: Path, **fields: Any) -> dict[str, Any]:
    """Gemini CLI's base input schema (docs/hooks/reference.md) and the event's fields."""
    return {"session_id": "abc123", "transcript_path": str(cwd / "chat.json"), "cwd": str(cwd),
            "hook_event_name": event, "timestamp": "2026-11-22T08:00:00.000Z", **fields}


def claude_payloads(cwd: Path) -> dict[str, dict[str, Any]]:
    return {
        "PreToolUse": claude_payload("PreToolUse", cwd, tool_name="Bash",
                                     tool_input={"command": "rm -rf build"},
                                     tool_use_id="toolu_01"),
        "PostToolUse": claude_payload("PostToolUse", cwd, tool_name="Bash",
                                      tool_input={"command": "make"},
                                      tool_response={"stdout": "ok"}, tool_use_id="toolu_02"),
        "UserPromptSubmit": claude_payload("UserPromptSubmit", cwd, prompt="fix the build"),
        "Stop": claude_payload("Stop", cwd, stop_hook_active=False),
        "SessionStart": claude_payload("SessionStart", cwd, source="startup"),
    }


def gemini_payloads(cwd: Path) -> dict[str, dict[str, Any]]:
    return {
        "BeforeTool": gemini_payload("BeforeTool", cwd, tool_name="run_shell_command",
                                     tool_input={"command": "rm -rf build"}),
        "AfterTool": gemini_payload("AfterTool", cwd, tool_name="run_shell_command",
                                    tool_input={"command": "make"},
                                    tool_response={"llmContent": "ok", "returnDisplay": "ok"}),
        "BeforeAgent": gemini_payload("BeforeAgent", cwd, prompt="fix the build"),
        "AfterAgent": gemini_payload("AfterAgent", cwd, prompt="fix the build",
                                     prompt_response="done", stop_hook_active=False),
        "SessionStart": gemini_payload("SessionStart", cwd, source="startup"),
    }


# What the handlers of tests/hosts/conftest.py make each host read, event by event.
CLAUDE_EXPECTED: dict[str, dict[str, Any]] = {
    "PreToolUse": {"hookSpecificOutput": {
        "hookEventName": "PreToolUse", "permissionDecision": "deny",
        "permissionDecisionReason": "no recursive deletes: rm -rf build"}},
    "PostToolUse": {"hookSpecificOutput": {
        "hookEventName": "PostToolUse", "additionalContext": "lint: 2 warnings"}},
    "UserPromptSubmit": {"hookSpecificOutput": {
        "hookEventName": "UserPromptSubmit", "additionalContext": "run the tests first"}},
    "Stop": {"decision": "block", "reason": "the tests fail: keep going"},
    "SessionStart": {"hookSpecificOutput": {
        "hookEventName": "SessionStart", "additionalContext": "branch: main"}},
}
GEMINI_EXPECTED: dict[str, dict[str, Any]] = {
    "BeforeTool": {"decision": "deny", "reason": "no recursive deletes: rm -rf build"},
    "AfterTool": {"hookSpecificOutput": {
        "hookEventName": "AfterTool", "additionalContext": "lint: 2 warnings"}},
    "BeforeAgent": {"hookSpecificOutput": {
        "hookEventName": "BeforeAgent", "additionalContext": "run the tests first"}},
    "AfterAgent": {"decision": "deny", "reason": "the tests fail: keep going"},
    "SessionStart": {"hookSpecificOutput": {
        "hookEventName": "SessionStart", "additionalContext": "branch: main"}},
}


def test_every_host_has_a_snippet_that_names_it() -> None:
    """Each host's hook file entries (a host with no hook files, OpenCode, is wired by a plugin
    whose docs block tests/hosts/test_opencode.py reads; one whose hooks are scripts, Cline,
    by scripts whose docs blocks tests/hosts/test_cline.py reads)."""
    found = snippets()
    assert set(found) == {host for host in host_ids() if not has_no_files(host_row(host))
                          and not in_scripts(host_row(host))}
    for host in found:
        for event, argv in commands(host).items():
            assert argv[argv.index("--host") + 1] == host
            assert argv[2] == event  # each event named with the registering host's own word


@pytest.mark.parametrize(("host", "payloads", "expected"), [
    ("claude", claude_payloads, CLAUDE_EXPECTED),
    ("gemini", gemini_payloads, GEMINI_EXPECTED),
])
def test_snippet_answers_in_the_hosts_schema(
    project: Path, host: str, payloads: Any, expected: dict[str, dict[str, Any]]
) -> None:
    registered = commands(host)
    sent = payloads(project)
    assert set(registered) == set(sent) == set(expected)
    # Where the README puts the snippet: a settings file of the project agenthooks runs in.
    # Should `run` read that file's handlers, it must not run the snippet's `agenthooks run`
    # itself (here it would exit 127, on a machine with agenthooks installed run itself again).
    settings = project / f".{host}" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(json.dumps(snippets()[host]), encoding="utf-8")
    for event, argv in registered.items():
        done = answer(argv, sent[event], project)
        assert done.returncode == 0, (event, done.stderr)
        output = json.loads(done.stdout)
        jsonschema.validate(output, schema(SCHEMA_OF[host]))
        assert output == expected[event], event


def test_antigravity_snippet_answers_in_both_vocabularies(project: Path) -> None:
    registered = commands("antigravity")
    payload = {"toolCall": {"name": "run_command", "args": {"CommandLine": "rm -rf build"}},
               "stepIdx": 3, "conversationId": "c1", "workspacePaths": [str(project)]}
    done = answer(registered["PreToolUse"], payload, project)
    assert done.returncode == 2
    output = json.loads(done.stdout)
    jsonschema.validate(output, schema("antigravity"))
    reason = "no recursive deletes: rm -rf build"
    assert output == {"decision": "deny", "reason": reason, "allowTool": False,
                      "denyReason": reason}
    done = answer(registered["Stop"], {"executionNum": 1, "fullyIdle": True}, project)
    assert (done.returncode, json.loads(done.stdout)) == (
        2, {"decision": "continue", "reason": "the tests fail: keep going"})
    jsonschema.validate(json.loads(done.stdout), schema("antigravity"))
    # The same run without --host says it in the hooks page's words only.
    bare = [word for word in registered["PreToolUse"] if word not in ("--host", "antigravity")]
    again = answer(bare, payload, project)
    assert (again.returncode, json.loads(again.stdout)) == (
        2, {"decision": "deny", "reason": reason})


@pytest.mark.parametrize("host", ["claude", "gemini"])
def test_a_rewrite_reaches_the_host_as_its_own_field(project: Path, host: str) -> None:
    event = "PreToolUse" if host == "claude" else "BeforeTool"
    payload = (claude_payloads if host == "claude" else gemini_payloads)(project)[event]
    payload["tool_input"] = {"command": "ls"}
    done = answer(commands(host)[event], payload, project)
    output = json.loads(done.stdout)
    jsonschema.validate(output, schema(SCHEMA_OF[host]))
    key = "updatedInput" if host == "claude" else "tool_input"
    assert done.returncode == 0
    assert output == {"hookSpecificOutput": {"hookEventName": event,
                                             key: {"command": "ls -la"}}}
