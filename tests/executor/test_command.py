"""direct_argv: which commands may skip the shell, and what they exec."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from agenthooks.executor.command import direct_argv, direct_command

TRUE = shutil.which("true")
SLEEP = shutil.which("sleep")
PYTHON3 = shutil.which("python3")


@pytest.mark.parametrize(
    "command",
    [
        "exit 3",
        "FOO=1 env",
        "echo hi",
        "printf x",
        "test -f x",
        "pwd",
        "kill -0 1",
        "time true",
        "cd /tmp",
        "export A=1",
        ". ./x",
        ": nothing",
        "a|b",
        "x > y",
        "x < y",
        "$HOME",
        "echo $HOME",
        '"quoted"',
        "'quoted'",
        "cmd &",
        "true; false",
        "true && false",
        "true\nfalse",
        "true\tx",
        "ls *.py",
        "ls file?",
        "ls [ab]",
        "ls ~",
        "ls ~/x",
        "true # comment",
        "ls {a,b}",
        "`true`",
        "$(true)",
        "true \\",
        "! true",
        "if true; then :; fi",
        "for x in a; do :; done",
        "",
        "   ",
        "definitely-not-a-command-4815162342",
        "./does-not-exist",
        "/nonexistent/bin/tool",
        "caf\u00e9",
    ],
)
def test_goes_through_the_shell(command: str) -> None:
    assert direct_argv(command) is None


def test_true_is_direct() -> None:
    assert direct_argv("true") == [TRUE]


def test_arguments_are_split_on_spaces() -> None:
    assert direct_argv("sleep 1") == [SLEEP, "1"]
    assert direct_argv("  sleep   1  ") == [SLEEP, "1"]


def test_safe_punctuation_in_arguments() -> None:
    argv = direct_argv("python3 -c pass a=b x:y 1,2 +3 u@h 50% ./p_q.r")
    assert argv == [PYTHON3, "-c", "pass", "a=b", "x:y", "1,2", "+3", "u@h", "50%", "./p_q.r"]


def test_argv0_stays_as_written() -> None:
    found = direct_command("sleep 1")
    assert found == (SLEEP, ["sleep", "1"])


def test_absolute_path_is_used_as_is() -> None:
    assert TRUE is not None
    assert direct_argv(f"{TRUE} x") == [TRUE, "x"]


def _make_tool(directory: Path, name: str, mode: int = 0o755) -> Path:
    tool = directory / name
    tool.write_text("#!/bin/sh\necho tool\n")
    tool.chmod(mode)
    return tool


def test_relative_path_is_checked_against_cwd(tmp_path: Path) -> None:
    _make_tool(tmp_path, "tool")
    assert direct_argv("./tool a", cwd=str(tmp_path)) == ["./tool", "a"]
    assert direct_argv("./tool a", cwd="/") is None


def test_non_executable_file_goes_to_the_shell(tmp_path: Path) -> None:
    _make_tool(tmp_path, "tool", mode=0o644)
    if os.access(tmp_path / "tool", os.X_OK):  # pragma: no cover - e.g. odd mounts
        pytest.skip("file is executable regardless of mode here")
    assert direct_argv("./tool", cwd=str(tmp_path)) is None


def test_directory_goes_to_the_shell(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    assert direct_argv("./sub", cwd=str(tmp_path)) is None


def test_lookup_uses_the_given_path(tmp_path: Path) -> None:
    _make_tool(tmp_path, "agenthooks-test-tool")
    assert direct_argv("agenthooks-test-tool") is None
    found = direct_argv("agenthooks-test-tool x", path=f"{tmp_path}:/usr/bin")
    assert found == [f"{tmp_path}/agenthooks-test-tool", "x"]


def test_lookup_skips_directories_and_non_executables(tmp_path: Path) -> None:
    first, second = tmp_path / "a", tmp_path / "b"
    first.mkdir()
    second.mkdir()
    _make_tool(first, "tool", mode=0o644)
    (first / "tool2").mkdir()
    _make_tool(second, "tool")
    _make_tool(second, "tool2")
    path = f"{first}:{second}"
    if not os.access(first / "tool", os.X_OK):
        assert direct_argv("tool", path=path) == [f"{second}/tool"]
    assert direct_argv("tool2", path=path) == [f"{second}/tool2"]


def test_relative_path_entries_are_left_to_the_shell(tmp_path: Path) -> None:
    _make_tool(tmp_path, "tool")
    assert direct_argv("tool", cwd=str(tmp_path), path=".") is None
    assert direct_argv("tool", cwd=str(tmp_path), path=":/usr/bin") is None


def test_lookup_result_is_cached_per_path(tmp_path: Path) -> None:
    tool = _make_tool(tmp_path, "agenthooks-cached-tool")
    path = str(tmp_path)
    assert direct_argv("agenthooks-cached-tool", path=path) == [str(tool)]
    tool.unlink()
    # Cached: a vanished program is caught at exec time, which falls back to the shell.
    assert direct_argv("agenthooks-cached-tool", path=path) == [str(tool)]
    assert direct_argv("agenthooks-cached-tool", path=f"{path}:/usr/bin") is None
