"""direct_argv: which commands may skip the shell, and what they exec."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from agenthooks.executor.command import (
    direct_argv,
    direct_command,
    shell_environment,
    shell_kind,
)

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


# --- the environment the shell would give --------------------------------------------------

BASH = shutil.which("bash")


def test_known_shells_by_the_file_they_resolve_to(tmp_path: Path) -> None:
    assert shell_kind("/nonexistent/zsh") is None
    if BASH is not None:
        link = tmp_path / "sh"
        link.symlink_to(BASH)
        assert shell_kind(str(link)) == "bash"


@pytest.mark.parametrize(
    ("variables", "expected"),
    [
        ({"PATH": "/bin"}, {"PATH": "/bin", "PWD": "/"}),  # dash exports PWD
        ({"PWD": "/"}, {"PWD": "/"}),
        ({"PWD": "/nonexistent"}, {"PWD": "/"}),  # not the directory: getcwd's
        ({"PWD": "relative"}, {"PWD": "/"}),
        ({"SHLVL": "x", "OLDPWD": "/nonexistent"}, {"SHLVL": "x", "OLDPWD": "/nonexistent",
                                                     "PWD": "/"}),  # dash leaves them
        ({"A-B": "1"}, None),  # dash drops it
        ({"BASH_FUNC_f%%": "() { :; }"}, None),
    ],
)
def test_what_dash_gives(variables: dict[str, str], expected: dict[str, str] | None) -> None:
    assert shell_environment("dash", variables, "/", "true", "/bin/true") == expected


@pytest.mark.parametrize(
    ("variables", "expected"),
    [
        ({}, {"PWD": "/", "SHLVL": "0", "_": "/bin/true"}),
        ({"SHLVL": "3"}, {"PWD": "/", "SHLVL": "3", "_": "/bin/true"}),
        ({"SHLVL": "998"}, {"PWD": "/", "SHLVL": "998", "_": "/bin/true"}),
        ({"SHLVL": "999"}, None),  # bash warns on stderr
        ({"SHLVL": "03"}, None),
        ({"SHLVL": "-1"}, None),
        ({"OLDPWD": "/"}, {"OLDPWD": "/", "PWD": "/", "SHLVL": "0", "_": "/bin/true"}),
        ({"OLDPWD": "/nonexistent"}, {"PWD": "/", "SHLVL": "0", "_": "/bin/true"}),
        ({"OLDPWD": "relative"}, None),
        ({"A-B": "1"}, {"A-B": "1", "PWD": "/", "SHLVL": "0", "_": "/bin/true"}),
        ({"BASH_ENV": "/x"}, None),  # sourced before the command
        ({"SHELLOPTS": "xtrace"}, None),
        ({"BASH_FUNC_true%%": "() { false; }"}, None),  # an exported function
    ],
)
def test_what_bash_gives(variables: dict[str, str], expected: dict[str, str] | None) -> None:
    assert shell_environment("bash", variables, "/", "true", "/bin/true") == expected


def test_bash_with_a_path_as_the_word_and_other_shells_are_asked() -> None:
    assert shell_environment("bash", {}, "/", "./tool", "./tool") is None
    assert shell_environment(None, {}, "/", "true", "/bin/true") is None


def test_percent_in_path_goes_to_the_shell() -> None:
    assert direct_argv("true", path="/usr/bin%builtin:/usr/bin") is None
