"""A block the calling host cannot act on is said on stderr at every run: the answer stays
the host's own (it carries on), and nothing lets the user believe the gate held."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support import program, workspace

BLOCKING = {"gate": {"PreInvocation": [{"command": "echo secret found >&2; exit 2"}],
                     "PostToolUse": [{"matcher": "*", "hooks": [
                         {"command": "echo lint failed >&2; exit 2"}]}],
                     "PreToolUse": [{"matcher": "*", "hooks": [
                         {"command": "echo no >&2; exit 2"}]}]}}
WARNING = "cannot block there (`agenthooks hosts --host {host}`): the action goes on"


@pytest.mark.program
@pytest.mark.parametrize(("host", "word", "call", "unheeded"), [
    ("copilot", "userPromptSubmitted",
     {"sessionId": "s", "timestamp": 1700000000000, "prompt": "my key is sk-1"}, True),
    ("claude", "PostToolUse", {"hook_event_name": "PostToolUse", "session_id": "s",
                               "tool_name": "Bash", "tool_input": {"command": "make"},
                               "tool_response": {"stdout": ""}}, True),
    ("gemini", "AfterTool", {"hook_event_name": "AfterTool", "session_id": "s",
                             "timestamp": "2026-01-01T00:00:00Z", "tool_name":
                             "run_shell_command", "tool_input": {"command": "make"},
                             "tool_response": {}}, True),
    ("claude", "PreToolUse", {"hook_event_name": "PreToolUse", "session_id": "s",
                              "tool_name": "Bash", "tool_input": {"command": "rm -rf x"}}, False),
])
def test_a_block_the_host_cannot_act_on_is_said(tmp_path: Path, host: str, word: str,
                                                call: dict[str, object], unheeded: bool) -> None:
    project = workspace(tmp_path / "project", {".agents/hooks.json": BLOCKING})
    done = program("run", word, "--host", host, stdin=json.dumps({"cwd": str(project), **call}),
                   cwd=project)
    said = WARNING.format(host=host)
    assert (said in done.stderr) is unheeded, done
    if unheeded:
        assert f"a hook blocks {word}, but " in done.stderr
        assert done.stderr.count("agenthooks: warning:") == 1, done
