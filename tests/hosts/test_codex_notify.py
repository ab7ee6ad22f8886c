"""Codex's legacy `notify` program: the finished turn (JSON as the last argument, as
openai/codex codex-rs/hooks/src/legacy_notify.rs writes it) runs agenthooks' Stop handlers."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from agenthooks.hosts.codex.notify import stop_payload

pytestmark = pytest.mark.program

TURN = {"type": "agent-turn-complete", "thread-id": "b5f6c1c2", "turn-id": "12345",
        "cwd": "/Users/example/project", "client": "codex-tui",
        "input-messages": ["Rename `foo` to `bar`."], "last-assistant-message": "Renamed."}


def test_the_turn_is_a_stop_payload() -> None:
    assert stop_payload(TURN) == {
        "hook_event_name": "Stop", "stop_hook_active": False, "session_id": "b5f6c1c2",
        "turn_id": "12345", "cwd": "/Users/example/project",
        "last_assistant_message": "Renamed.", "prompt": "Rename `foo` to `bar`."}


@pytest.mark.parametrize("other", [{"type": "approval-requested"}, {}])
def test_another_notification_runs_nothing(other: dict[str, str]) -> None:
    assert stop_payload(other) is None


def notify(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "agenthooks.hosts.codex.notify", *args],
                          cwd=cwd, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          timeout=60, check=False)


def test_the_stop_handlers_run_on_the_turn(tmp_path: Path) -> None:
    (tmp_path / ".agents").mkdir()
    (tmp_path / ".agents" / "hooks.json").write_text(json.dumps({"record": {"Stop": [
        {"command": f"{sys.executable} -c \"import sys; "
                    f"open('../turn.json', 'w').write(sys.stdin.read())\""}]}}))
    done = notify(tmp_path, json.dumps({**TURN, "cwd": str(tmp_path)}))
    assert done.returncode == 0, done.stderr
    assert json.loads((tmp_path / "turn.json").read_text())["conversationId"] == "b5f6c1c2"


@pytest.mark.parametrize(("args", "said"), [((), "none was given"), (("{",), "is not JSON")])
def test_a_missing_or_broken_argument_is_one_line(tmp_path: Path, args: tuple[str, ...],
                                                  said: str) -> None:
    done = notify(tmp_path, *args)
    assert done.returncode == 2
    assert said in done.stderr and len(done.stderr.strip().splitlines()) == 1
