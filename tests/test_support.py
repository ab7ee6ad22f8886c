"""The shared test helpers of tests/support.py: the tree they write, the environment the
program gets (never the real home), and which answers are denies."""

from __future__ import annotations

import json
import os
import pwd
from pathlib import Path
from typing import Any

import pytest

from tests.support import REPO, denied, program, program_env, workspace

REAL_HOME = pwd.getpwuid(os.getuid()).pw_dir


def test_workspace_writes_text_as_is_and_values_as_json(tmp_path: Path) -> None:
    root = workspace(tmp_path / "ws", {".agents/hooks.json": {"h": {"Stop": []}},
                                       "a/b/gate.sh": "exit 2\n", "list.json": [1, 2]})
    assert root == tmp_path / "ws"
    assert (root / ".agents" / "hooks.json").read_text() == '{"h": {"Stop": []}}'
    assert (root / "a" / "b" / "gate.sh").read_text() == "exit 2\n"
    assert json.loads((root / "list.json").read_text()) == [1, 2]
    assert workspace(tmp_path / "empty", {}).is_dir()


def test_the_environment_leaves_the_callers_settings_out(monkeypatch: pytest.MonkeyPatch,
                                                          tmp_path: Path) -> None:
    monkeypatch.setenv("AGENTHOOKS_FAIL_CLOSED", "1")
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", "/elsewhere")
    monkeypatch.setenv("GEMINI_PROJECT_DIR", "/elsewhere")
    monkeypatch.setenv("XDG_CONFIG_HOME", os.path.join(REAL_HOME, ".config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    env = program_env({"AGENTHOOKS_REQUIRE_TRUST": "1"}, home=tmp_path / "home")
    assert env["HOME"] == str(tmp_path / "home")
    assert env["AGENTHOOKS_REQUIRE_TRUST"] == "1"  # what the test asks for is kept
    for name in ("AGENTHOOKS_FAIL_CLOSED", "CLAUDE_PROJECT_DIR", "GEMINI_PROJECT_DIR",
                 "XDG_CONFIG_HOME"):
        assert name not in env, name
    assert env["XDG_DATA_HOME"] == str(tmp_path / "data")  # a test's own folder stays
    assert env["PYTHONPATH"].split(os.pathsep)[0] == str(REPO)


@pytest.mark.parametrize("home", [None, Path(REAL_HOME)])
def test_the_real_home_is_refused(monkeypatch: pytest.MonkeyPatch, home: Path | None) -> None:
    monkeypatch.setenv("HOME", REAL_HOME)
    with pytest.raises(AssertionError, match="real home directory"):
        program_env(home=home)


@pytest.mark.program
def test_program_runs_agenthooks_with_the_temporary_home(tmp_path: Path) -> None:
    done = program("--version", cwd=tmp_path)
    assert (done.returncode, done.stderr) == (0, ""), done.stderr
    assert done.stdout.startswith("agenthooks "), done.stdout


@pytest.mark.parametrize(("answer", "expected"), [
    ({"hookSpecificOutput": {"permissionDecision": "deny"}}, True),
    ({"hookSpecificOutput": {"permissionDecision": "allow"}}, False),
    ({"hookSpecificOutput": {"hookEventName": "PreToolUse"}}, False),
    ({"decision": "deny", "reason": "no"}, True),
    ({"decision": "block"}, False),
    ({"decision": "allow"}, False),
    ({}, False),
])
def test_denied(answer: dict[str, Any], expected: bool) -> None:
    assert denied(answer) is expected
