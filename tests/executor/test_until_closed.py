"""A handler whose host reads its output until the pipes close (Claude Code, Gemini CLI,
Codex) is read so by agenthooks too, within its timeout: a child it left running that writes
its answer again is heard, as the host hears it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agenthooks.executor import ProcessSpec, run_processes
from tests.support import program

# The hook exits at once; the child it forked writes after it.
LATE = "(sleep 1; echo late) & echo early"


def test_output_is_read_until_the_pipes_close() -> None:
    [result] = run_processes([ProcessSpec(LATE, "/", 30.0, until_closed=True)], b"")
    assert (result.status, result.exit_code) == ("exited", 0)
    assert result.stdout == b"early\nlate\n"


def test_pipes_still_open_at_the_timeout_are_a_timeout() -> None:
    [result] = run_processes([ProcessSpec("sleep 30 & echo early", "/", 1.0,
                                          until_closed=True)], b"")
    assert result.status == "timeout"
    assert result.stdout == b"early\n"


@pytest.mark.program
def test_a_claude_stop_hooks_late_answer_keeps_the_agent_going(tmp_path: Path) -> None:
    settings = tmp_path / ".claude" / "settings.json"
    settings.parent.mkdir()
    late = ("(sleep 1; echo '{\"decision\": \"block\", \"reason\": \"run the tests\"}') & "
            "exit 0")
    settings.write_text(json.dumps({"hooks": {"Stop": [{"hooks": [
        {"type": "command", "command": late}]}]}}))
    payload = {"session_id": "s", "hook_event_name": "Stop", "stop_hook_active": False}
    done = program("run", "Stop", "--host", "gemini", "--other-hosts", "--workspace",
                   str(tmp_path), "--no-user", cwd=tmp_path,
                   stdin=json.dumps({**payload, "hook_event_name": "AfterAgent",
                                     "timestamp": "t", "prompt_response": "done"}))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["decision"] in ("block", "deny")
    assert "run the tests" in done.stdout
