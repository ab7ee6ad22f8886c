"""Antigravity CLI's two documented answers, read from real handler processes.

Antigravity's hooks page documents `{"decision": "deny", "reason": ...}`; Google's migration
guide from Gemini CLI (google-gemini/gemini-cli@a69d422
docs/resources/migrating-to-antigravity-cli.md, "Hooks") documents
`{"allowTool": false, "denyReason": ...}` for the same block. A handler that answers either way
must block: ignoring `allowTool: false` would let the tool run.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from agenthooks.api import EventResult, load_hooks
from agenthooks.hosts.antigravity.protocol import read_decision


def ran(tmp_path: Path, output: dict[str, Any], event: str = "PreToolUse") -> EventResult:
    """One hooks.json handler (a real `/bin/sh` process) that prints `output`."""
    handler = [{"command": f"echo '{json.dumps(output)}'"}]
    group: Any = [{"matcher": "", "hooks": handler}] if event == "PreToolUse" else handler
    path = tmp_path / "hooks.json"
    path.write_text(json.dumps({"h": {event: group}}), encoding="utf-8")
    payload = {"toolCall": {"name": "run_command", "args": {"CommandLine": "rm -rf /"}}}
    return load_hooks(configs=[str(path)]).run(event, json.dumps(payload).encode())


def test_allow_tool_false_is_a_deny_with_its_reason(tmp_path: Path) -> None:
    result = ran(tmp_path, {"allowTool": False, "denyReason": "no recursive deletes"})
    assert result.blocked
    assert (result.decision.word, result.decision.reason) == ("deny", "no recursive deletes")


def test_allow_tool_false_without_a_reason_still_denies(tmp_path: Path) -> None:
    result = ran(tmp_path, {"allowTool": False})
    assert result.blocked and result.decision.word == "deny"


def test_allow_tool_true_is_an_allow(tmp_path: Path) -> None:
    result = ran(tmp_path, {"allowTool": True})
    assert not result.blocked and result.decision.word == "allow"


@pytest.mark.parametrize(("output", "expected"), [
    # The two vocabularies agree, or one is silent.
    ({"allowTool": False, "denyReason": "r"}, ("deny", "r", None)),
    ({"allowTool": True}, ("allow", None, None)),
    ({"decision": "deny", "reason": "r", "allowTool": False}, ("deny", "r", None)),
    # They disagree: the more restrictive one wins, never the allow.
    ({"decision": "allow", "allowTool": False, "denyReason": "r"}, ("deny", "r", None)),
    ({"decision": "deny", "reason": "r", "allowTool": True}, ("deny", "r", None)),
    ({"decision": "ask", "allowTool": False}, ("deny", None, None)),
    # Not a boolean: unknown, reported, ignored (as an unknown decision word is).
    ({"allowTool": "false"}, (None, None, 'allowTool: "false"')),
    ({"allowTool": 0}, (None, None, "allowTool: 0")),
])
def test_read_decision_reads_both_vocabularies(output: dict[str, Any],
                                               expected: tuple[Any, ...]) -> None:
    assert read_decision(output, "PreToolUse") == expected


def test_allow_tool_is_read_on_pre_tool_use_only() -> None:
    assert read_decision({"allowTool": False}, "PostToolUse") == (None, None, None)


def test_a_string_allow_tool_is_a_warning(tmp_path: Path) -> None:
    result = ran(tmp_path, {"allowTool": "no"})
    assert not result.blocked
    assert any("allowTool" in w for w in result.warnings), result.warnings
