"""`executor.command`: programs found on PATH (a handler's shell) without `shutil`."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from agenthooks.executor import ProcessSpec, run_processes
from agenthooks.executor.command import lookup, same_directory, which


def _make_tool(directory: Path, name: str, mode: int = 0o755) -> Path:
    tool = directory / name
    tool.write_text("#!/bin/sh\necho tool\n")
    tool.chmod(mode)
    return tool


def test_lookup_finds_the_first_executable_file(tmp_path: Path) -> None:
    first, second = tmp_path / "a", tmp_path / "b"
    first.mkdir()
    second.mkdir()
    _make_tool(first, "tool", mode=0o644)
    (first / "tool2").mkdir()
    _make_tool(second, "tool")
    _make_tool(second, "tool2")
    path = f"{first}:{second}"
    if not os.access(first / "tool", os.X_OK):
        assert lookup("tool", path) == f"{second}/tool"
    assert lookup("tool2", path) == f"{second}/tool2"
    assert lookup("agenthooks-missing-4815162342", path) is None


def test_relative_path_entries_find_nothing(tmp_path: Path) -> None:
    _make_tool(tmp_path, "tool")
    assert lookup("tool", ".") is None
    assert lookup("tool", f":{tmp_path}") is None


def test_which_is_shutils(tmp_path: Path) -> None:
    tool = _make_tool(tmp_path, "agenthooks-which-tool")
    path = f"/nonexistent:{tmp_path}"
    assert which("agenthooks-which-tool", path) == shutil.which("agenthooks-which-tool",
                                                                  path=path) == str(tool)
    assert which(str(tool)) == str(tool)
    assert which("agenthooks-which-missing", path) is None


def test_same_directory(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "real")
    assert same_directory(str(tmp_path / "link"), str(tmp_path / "real"))
    assert not same_directory("link", str(tmp_path / "real"))
    assert not same_directory("/nonexistent", str(tmp_path))


@pytest.mark.parametrize("command", ["true --help", "./tool", "tool"])
def test_a_command_without_shell_syntax_still_runs_through_its_shell(
    tmp_path: Path, command: str
) -> None:
    """The program's parent is the shell (dash forks it): there is no direct exec."""
    tool = tmp_path / "tool"
    tool.write_text('#!/bin/sh\ncat /proc/$PPID/comm\n')
    tool.chmod(0o755)
    env = {"PATH": f"{tmp_path}:{os.environ['PATH']}"}
    [result] = run_processes([ProcessSpec(command, str(tmp_path), 30, env)], b"")
    assert result.exit_code == 0
    assert result.stdout == (b"" if command == "true --help" else b"sh\n")
