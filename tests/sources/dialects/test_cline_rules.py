"""Cline's hook files (cline@3.0.65, @cline/core 0.0.86 `toHookConfigFileName`,
`resolveHookCommand`, `listHookConfigFiles`): each entry of a hooks folder is one hook named
after its event, run with the program of its `#!` line or of its extension; what Cline never
runs is a finding."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from agenthooks.sources.dialects.cline import event_of, program_of
from tests.sources.dialects.conftest import check_file

FOLDER = ".clinerules/hooks"

# (file name, its text, the findings: rule, severity).
CASES: list[tuple[str, str, list[tuple[str, str]]]] = [
    ("PreToolUse", "#!/bin/sh\ncat\n", []),
    ("pretooluse.sh", "cat\n", []),
    ("POSTTOOLUSE.PY", "print()\n", []),
    ("PreToolUse.mjs", "", []),
    # Names Cline never runs.
    ("pre-tool-use.sh", "cat\n", [("cline-hook-never-runs", "warning")]),
    ("PreToolUse.rb", "puts 1\n", [("cline-hook-never-runs", "warning")]),
    ("Pre_Tool_Use", "cat\n", [("cline-hook-never-runs", "warning")]),
    ("README.md", "# hooks\n", [("cline-not-a-hook", "note")]),
    ("helpers.sh", "f() { :; }\n", [("cline-not-a-hook", "note")]),
    # Events it never fires, or whose answers it never reads.
    ("PreCompact", "cat\n", [("cline-event-never-fires", "warning")]),
    ("TaskStart.sh", "cat\n", [("cline-answer-unread", "note")]),
    ("UserPromptSubmit", "cat\n", [("cline-answer-unread", "note")]),
    ("TaskComplete.py", "pass\n", [("cline-answer-unread", "note")]),
]


@pytest.mark.parametrize(("name", "text", "expected"), CASES,
                         ids=[name for name, _, _ in CASES])
def test_what_cline_never_runs(tmp_path: Path, name: str, text: str,
                               expected: list[tuple[str, str]]) -> None:
    hook_file = check_file(tmp_path, f"{FOLDER}/{name}", "cline", text)
    assert [(d.rule, d.severity) for d in hook_file.diagnostics] == expected
    assert (d.line, d.column) == (1, 1) if (d := next(iter(hook_file.diagnostics), None)) \
        else True
    runs = event_of(name) is not None and not any(
        rule in ("cline-event-never-fires",) for rule, _ in expected)
    assert len(hook_file.handlers) == (1 if runs else 0)


def test_the_fix_is_the_name_cline_reads(tmp_path: Path) -> None:
    for name, fix in (("pre-tool-use.sh", "PreToolUse.sh"), ("PreToolUse.rb", "PreToolUse"),
                      ("task_complete.py", "TaskComplete.py")):
        [finding] = check_file(tmp_path, f"{FOLDER}/{name}", "cline", "x\n").diagnostics
        assert finding.fix == fix, name
        assert f"name it {fix}" in finding.message


def test_a_link_is_skipped(tmp_path: Path) -> None:
    target = tmp_path / "scripts" / "gate.sh"
    target.parent.mkdir()
    target.write_text("cat\n", encoding="utf-8")
    link = tmp_path / FOLDER / "PreToolUse.sh"
    link.parent.mkdir(parents=True)
    os.symlink(target, link)
    from agenthooks.sources.dialects.load import check_dialect_file
    from agenthooks.sources.discovery import dialect_source

    hook_file = check_dialect_file(dialect_source(str(link), "cline", str(tmp_path),
                                                  str(tmp_path))).hook_file
    assert [d.rule for d in hook_file.diagnostics] == ["cline-link-skipped"]
    assert hook_file.handlers == ()


def test_the_hook_is_the_command_cline_runs(tmp_path: Path) -> None:
    """The program of the `#!` line (past `env`; bash, sh, zsh and Python by name), else of the
    extension, then the file; 120 s; a detached event's hook runs in the background."""
    cases = {
        "PreToolUse": ("#!/usr/bin/env python3\nimport sys\n", "python3 {}", False),
        "PreToolUse.py": ("import sys\n", "python3 {}", False),
        "PreToolUse.sh": ("#!/bin/bash -e\ncat\n", "bash -e {}", False),
        "PreToolUse.js": ("console.log(1)\n", "node {}", False),
        "PostToolUse": ("cat\n", "bash {}", False),
        "TaskStart.ts": ("1\n", "bun run {}", True),
    }
    for name, (text, command, background) in cases.items():
        [handler] = check_file(tmp_path, f"{FOLDER}/{name}", "cline", text).handlers
        path = str(tmp_path / FOLDER / name)
        assert handler.command == command.format(path), name
        assert (handler.event, handler.matcher, handler.timeout, handler.background) == (
            event_of(name), None, 120.0, background), name


def test_agenthooks_own_script_is_its_wiring(tmp_path: Path) -> None:
    """A shell script whose one command is `agenthooks run` is that command: a run never
    starts itself from it (`plan.select.fans_out`)."""
    from agenthooks.hosts.cline.wiring import script_text
    from agenthooks.plan.select import fans_out

    command = "agenthooks run PreToolUse --host cline --fail-closed"
    [handler] = check_file(tmp_path, f"{FOLDER}/PreToolUse", "cline",
                           script_text("PreToolUse", command)).handlers
    assert handler.command == f"exec {command}" and fans_out(handler)
    [other] = check_file(tmp_path, f"{FOLDER}/PostToolUse", "cline",
                         f"#!/bin/sh\n./check.sh\n{command}\n").handlers
    assert not fans_out(other)


@pytest.mark.parametrize(("name", "first", "program"), [
    ("x", "#!/usr/bin/env bash", ("bash",)),
    ("x", "#!/usr/local/bin/python3 -u", ("python3", "-u")),
    ("x", "#!/opt/node/bin/node", ("/opt/node/bin/node",)),
    ("x.ps1", None, ("pwsh", "-File")),
    ("x.zsh", None, ("bash",)),
    ("x.CJS", None, ("node",)),
    ("x.txt", "not a shebang", ("bash",)),
])
def test_the_program_cline_starts(name: str, first: str | None,
                                  program: tuple[str, ...]) -> None:
    assert program_of(name, first) == program


def test_discovery_reads_every_folder_as_cline_reads_them(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The project's `.clinerules/hooks/` and `.cline/hooks/` (a folder in them passed over),
    `~/Documents/Cline/Hooks/` and `$CLINE_DIR/hooks/` (`~/.cline/hooks/` unless set); a file
    named by path in a user folder is Cline's too."""
    from agenthooks.sources.discovery import detect, discover_all

    home, project = tmp_path / "home", tmp_path / "project"
    for folder in (project / ".clinerules" / "hooks", project / ".cline" / "hooks",
                   home / "Documents" / "Cline" / "Hooks", home / "cline-dir" / "hooks",
                   home / ".cline" / "hooks"):
        folder.mkdir(parents=True)
        (folder / "PreToolUse").write_text("cat\n", encoding="utf-8")
    (project / ".clinerules" / "hooks" / "lib").mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("CLINE_DIR", str(home / "cline-dir"))
    found = discover_all(cwd=str(project), dialects=True)
    shown = [(s.level, s.dialect, Path(s.file).relative_to(tmp_path).as_posix())
             for s in found.dialect_sources]
    assert shown == [
        ("user", "cline", "home/Documents/Cline/Hooks/PreToolUse"),
        ("user", "cline", "home/cline-dir/hooks/PreToolUse"),
        ("workspace", "cline", "project/.clinerules/hooks/PreToolUse"),
        ("workspace", "cline", "project/.cline/hooks/PreToolUse")]
    assert detect(str(home / "Documents" / "Cline" / "Hooks" / "PreToolUse")) == "cline"


def test_a_folder_below_the_git_root_is_never_read(tmp_path: Path) -> None:
    """Cline reads the hooks of the git root, its workspace, alone."""
    (tmp_path / ".git").mkdir()
    package = tmp_path / "packages" / "a"
    hook_file = check_file(package, f"{FOLDER}/PreToolUse", "cline", "cat\n")
    assert [d.rule for d in hook_file.diagnostics] == ["cline-folder-unread"]
    assert check_file(tmp_path, f"{FOLDER}/PreToolUse", "cline", "cat\n").diagnostics == ()
