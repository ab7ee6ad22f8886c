"""Gemini CLI handlers' `env` under `run`: set last, over every variable the host sets, with
the values expanded as Gemini CLI expands the file they come from (hookRunner.ts,
utils/envVarResolver.ts, config/extensions/variables.ts)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from agenthooks.api import load_hooks
from agenthooks.sources.dialects.gemini import expand_settings_value, hydrate
from tests.sources.dialects.run.conftest import cmd, group, write_settings

SHELL = {"tool_name": "run_shell_command", "tool_input": {"command": "ls"},
         "session_id": "s-1", "cwd": "/somewhere"}


def printed(project: Path, env: dict[str, str], names: str) -> list[str]:
    out = project / "env.txt"
    line = "|".join(f"${{{n}-unset}}" for n in names.split())
    write_settings(project, "gemini", {"BeforeTool": [group(
        cmd(f'printf "%s" "{line}" > {out}', env=env))]})
    load_hooks(workspaces=[str(project)], no_user=True).run("PreToolUse", SHELL)
    return out.read_text().split("|")


def test_env_reaches_the_command(project: Path) -> None:
    assert printed(project, {"GREETING": "hello world"}, "GREETING") == ["hello world"]


def test_env_wins_over_every_variable_the_host_sets(project: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("INHERITED", "from-parent")
    env = {"GEMINI_SESSION_ID": "mine", "GEMINI_CWD": "/mine", "GEMINI_PROJECT_DIR": "/p",
           "CLAUDE_PROJECT_DIR": "/c", "INHERITED": "from-hook"}
    assert printed(project, env, "GEMINI_SESSION_ID GEMINI_CWD GEMINI_PROJECT_DIR "
                                 "CLAUDE_PROJECT_DIR INHERITED") == [
        "mine", "/mine", "/p", "/c", "from-hook"]


def test_settings_values_are_expanded_from_the_environment(
        project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TOKEN", "t0k")
    monkeypatch.setenv("EMPTY", "")
    monkeypatch.delenv("NOT_SET_ANYWHERE", raising=False)
    env = {"A": "Bearer $TOKEN", "B": "${TOKEN}/x", "C": "${NOT_SET_ANYWHERE:-fallback}",
           "D": "$NOT_SET_ANYWHERE", "E": "${EMPTY:-fallback}"}
    assert printed(project, env, "A B C D E") == [
        "Bearer t0k", "t0k/x", "fallback", "$NOT_SET_ANYWHERE", ""]


def test_only_the_handler_that_names_env_gets_it(project: Path) -> None:
    out = project / "env.txt"
    write_settings(project, "gemini", {"BeforeTool": [group(
        cmd(f'echo "a:${{ONLY-unset}}" >> {out}', env={"ONLY": "1"}),
        cmd(f'echo "b:${{ONLY-unset}}" >> {out}'))]})
    load_hooks(workspaces=[str(project)], no_user=True).run("PreToolUse", SHELL)
    assert sorted(out.read_text().split()) == ["a:1", "b:unset"]


def test_extension_values_are_hydrated_not_expanded(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TOKEN", "t0k")
    project = tmp_path / "project"
    project.mkdir()
    extension = tmp_path / "ext"
    (extension / "hooks").mkdir(parents=True)
    (extension / "gemini-extension.json").write_text('{"name": "ext", "version": "1"}')
    out = tmp_path / "env.txt"
    env = {"ROOT": "${extensionPath}${/}bin", "RAW": "$TOKEN", "KEPT": "${unknown}"}
    (extension / "hooks" / "hooks.json").write_text(json.dumps({"hooks": {"BeforeTool": [
        group(cmd(f'printf "%s" "$ROOT|$RAW|$KEPT" > {out}', env=env))]}}))
    hooks = load_hooks(configs=[str(extension / "hooks" / "hooks.json")], no_user=True,
                       workspaces=[str(project)])
    hooks.run("PreToolUse", SHELL)
    real = os.path.realpath(extension)
    assert out.read_text().split("|") == [f"{real}{os.sep}bin", "$TOKEN", "${unknown}"]


@pytest.mark.parametrize(("value", "expected"), [
    ("plain", "plain"),
    ("$HOME_X/y", "/h/y"),
    ("${HOME_X}y", "/hy"),
    ("${MISSING:-d}", "d"),
    ("${MISSING:-}", ""),
    ("${MISSING}", "${MISSING}"),
    ("$MISSING", "$MISSING"),
    ("${SET_EMPTY:-d}", ""),
    ("$$", "$$"),
    ("${}", "${}"),
    ("cost: $5", "cost: $5"),  # a digit is a name: unset, so kept
])
def test_settings_expansion_table(value: str, expected: str) -> None:
    environ = {"HOME_X": "/h", "SET_EMPTY": ""}
    assert expand_settings_value(value, environ) == expected


def test_hydration_table() -> None:
    context = {"extensionPath": "/e", "/": "/"}
    assert hydrate("${extensionPath}${/}x ${other} $extensionPath", context) == \
        "/e/x ${other} $extensionPath"
