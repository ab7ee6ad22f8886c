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


REWRITE = """---
event: tool.pre
script: |
  def handle(event, payload):
      return modify({"args": {"command": payload["args"]["command"] + " --dry-run"}})
---
"""


@pytest.mark.program
@pytest.mark.parametrize(("host", "unheeded"), [("kimi", True), ("claude", False)])
def test_a_rewrite_the_host_cannot_make_is_said(tmp_path: Path, host: str,
                                                unheeded: bool) -> None:
    project = workspace(tmp_path / "project", {".harness/hooks/rewrite.md": REWRITE})
    call = {"hook_event_name": "PreToolUse", "session_id": "s", "cwd": str(project),
            "tool_name": "Bash", "tool_input": {"command": "make deploy"}}
    done = program("run", "PreToolUse", "--host", host, stdin=json.dumps(call), cwd=project)
    said = (f"a hook rewrites the arguments of PreToolUse, but Kimi Code cannot rewrite them "
            f"there (`agenthooks hosts --host {host}`): the call runs as the agent wrote it")
    assert (said in done.stderr) is unheeded, done
    assert done.returncode == 0, done
    if not unheeded:
        updated = json.loads(done.stdout)["hookSpecificOutput"]["updatedInput"]
        assert updated == {"command": "make deploy --dry-run"}
