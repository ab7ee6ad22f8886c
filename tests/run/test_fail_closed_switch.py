"""`AGENTHOOKS_FAIL_CLOSED`: a word it does not know is an error naming the words it knows,
and a deny when the run fails closed by the flag or the user config. Real `agenthooks run`."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests import support

pytestmark = pytest.mark.program

ALLOW_ALL = {"gate": {"PreToolUse": [{"matcher": "", "hooks": [{"command": "true"}]}]}}
PAYLOAD = json.dumps({"tool_name": "run_command", "tool_input": {"command": "ls"}})
WORDS = "give 1, true, yes (fail closed) or 0, false, no"


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    return support.workspace(tmp_path / "ws", {".agents/hooks.json": ALLOW_ALL})


def run(workspace: Path, switch: str, *args: str,
        config: str | None = None) -> subprocess.CompletedProcess[str]:
    xdg = workspace.parent / "xdg"
    if config is not None:
        (xdg / "agenthooks").mkdir(parents=True, exist_ok=True)
        (xdg / "agenthooks" / "config.toml").write_text(config)
    return support.program("run", "PreToolUse", *args, stdin=PAYLOAD, cwd=workspace,
                           env={"AGENTHOOKS_FAIL_CLOSED": switch, "XDG_CONFIG_HOME": str(xdg)})


@pytest.mark.parametrize("switch", ["on", "enabled", "ture", "2"])
def test_an_unknown_word_is_an_error_naming_the_words(workspace: Path, switch: str) -> None:
    done = run(workspace, switch)
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == (f"agenthooks: error: AGENTHOOKS_FAIL_CLOSED={switch!r} is not a "
                           f"switch: {WORDS}\n")


@pytest.mark.parametrize(("args", "config"), [(["--fail-closed"], None),
                                              ([], "fail_closed = true\n")])
def test_an_unknown_word_denies_when_the_run_fails_closed_otherwise(
    workspace: Path, args: list[str], config: str | None
) -> None:
    done = run(workspace, "on", *args, config=config)
    assert done.returncode == 2, done.stderr
    answer = json.loads(done.stdout)
    assert answer["decision"] == "deny"
    assert "AGENTHOOKS_FAIL_CLOSED='on' is not a switch" in answer["reason"]


@pytest.mark.parametrize(("switch", "code"), [("TRUE", 0), (" yes ", 0), ("1", 0),
                                              ("no", 0), ("0", 0), ("", 0), ("  ", 0)])
def test_known_words_and_nothing_still_work(workspace: Path, switch: str, code: int) -> None:
    done = run(workspace, switch)
    assert done.returncode == code, done.stderr
    assert "is not a switch" not in done.stderr


def test_the_switch_still_turns_fail_closed_on(workspace: Path) -> None:
    failing = workspace / ".agents" / "hooks.json"
    failing.write_text(json.dumps({"gate": {"PreToolUse": [
        {"matcher": "", "hooks": [{"command": "exit 7"}]}]}}))
    assert run(workspace, "yes").returncode == 2
    assert run(workspace, "no").returncode == 0
