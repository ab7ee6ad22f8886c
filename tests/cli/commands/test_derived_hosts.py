"""Every host derived from another by one row of `model.hosts.HOST_TABLE` converts, wires and
validates as its parent does, in its own words and files: a table test over the rows, so that
a host added by a row is covered without a test of its own."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from agenthooks.cli.commands.init import WIRING
from agenthooks.model.events import counterpart
from agenthooks.model.hosts import (
    HOST_TABLE,
    HostRow,
    has_no_files,
    in_flat_entries,
    in_toml_alone,
    unwritable,
)
from agenthooks.sources.dialects import dialect_spec
from tests.cli.commands.test_init import documented
from tests.conftest import Run
from tests.docs.pages import page

# Hosts that run hooks; a generator's files (rulesync's) are its own format, tested apart
# (tests/sources/dialects/test_rulesync*.py).
DERIVED = [row for row in HOST_TABLE if row.derived_from is not None and not row.generator]
# Of those, the hosts with a JSON file in a project, which convert and init write; a host whose
# files are TOML (Kimi Code's config.toml, the user's alone; Mistral Vibe's hooks.toml) is
# refused by both, each in one line, as is one whose entries are flat (Charm Crush's) and one
# that runs no hook of a project's file (JetBrains Junie).
WRITTEN = [row for row in DERIVED if row.project_files and not in_toml_alone(row)
           and not in_flat_entries(row) and row.project_hooks_run]
# A host with no hook files at all (OpenCode's plugins) is neither: init writes its plugin.
NO_FILES = [row for row in DERIVED if has_no_files(row)]
# A host of flat entries of its own in a folder of files (Kiro's `.kiro/hooks/*.json`) has its
# own row of WIRING: init writes agenthooks' file there whole, convert still refuses.
OWN_FILE = [row for row in DERIVED if row not in WRITTEN and row not in NO_FILES
            and row.id in WIRING]
USER_ONLY = [row for row in DERIVED if row not in WRITTEN and row not in NO_FILES
             and row not in OWN_FILE]
# A Claude Code settings file of the events init wires, a script named on the project-dir
# variable, a tool matcher.
CLAUDE = {"hooks": {
    "PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": '"$CLAUDE_PROJECT_DIR"/.claude/hooks/check.sh',
         "timeout": 20}]}],
    "UserPromptSubmit": [{"hooks": [{"type": "command", "command": "true"}]}],
    "Stop": [{"hooks": [{"type": "command", "command": "true"}]}],
}}


def own_file(root: Path, row: HostRow) -> Path:
    """The host's first project file (a pattern's `*` named as convert names it)."""
    return root / row.project_files[0].replace("*", "hooks")


def events_of(path: Path, row: HostRow) -> dict[str, Any]:
    """A host's file's events: under `hooks`, or at its top level where the host reads the
    file as a bare map (`Dialect.bare_files`: Devin CLI's hooks.v1.json)."""
    document = json.loads(path.read_text())
    events: dict[str, Any] = (document if dialect_spec(row.id).bare_rule(str(path))
                              else document["hooks"])
    return events


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    (root / ".git").mkdir(parents=True)
    (root / ".claude" / "hooks").mkdir(parents=True)
    (root / ".claude" / "hooks" / "check.sh").write_text("#!/bin/sh\nexit 0\n")
    (root / ".claude" / "hooks" / "check.sh").chmod(0o755)
    (root / ".claude" / "settings.json").write_text(json.dumps(CLAUDE), encoding="utf-8")
    return root


def test_the_table_has_derived_hosts() -> None:
    assert DERIVED, "no derived host in HOST_TABLE: the tests below would test nothing"


@pytest.mark.parametrize("row", WRITTEN, ids=[row.id for row in WRITTEN])
def test_a_claude_file_converts_to_a_derived_host_and_back(
        agenthooks: Run, project: Path, row: HostRow) -> None:
    target = own_file(project, row)
    target.parent.mkdir(parents=True, exist_ok=True)
    done = agenthooks("convert", str(project / ".claude" / "settings.json"), "--to", row.id,
                      "-o", str(target), "--lossy")
    assert done.code == 0, done.err
    hooks = events_of(target, row)
    # In the host's own event words; the script on its own project-dir variable.
    assert set(hooks) == {word for event in CLAUDE["hooks"]
                          if (word := counterpart(event, row.derived_from or "", row.id))}
    command = hooks[counterpart("PreToolUse", "claude", row.id)][0]["hooks"][0]["command"]
    assert command == f'"${row.project_var}"/.claude/hooks/check.sh' if row.project_var \
        else command.endswith("/.claude/hooks/check.sh")
    checked = agenthooks("validate", str(target))
    assert checked.code == 0, checked.out
    listed = agenthooks("list", "--format", "json", "--config", str(target))
    assert {h["dialect"] for h in json.loads(listed.out)} == {row.id}, listed.out
    back = agenthooks("convert", str(target), "--to", "claude", "--lossy")
    assert back.code == 0, back.err
    returned = json.loads(back.out)["hooks"]
    assert set(returned) == {event for event in CLAUDE["hooks"]
                             if counterpart(event, "claude", row.id)}
    # A host with no project-dir variable (deepagents-code) has the script found from the
    # git root, which Claude Code reads alike: the path comes back in that form.
    root = '"$CLAUDE_PROJECT_DIR"' if row.project_var else '"$(git rev-parse --show-toplevel)"'
    assert returned["PreToolUse"][0]["hooks"][0]["command"] == \
        f"{root}/.claude/hooks/check.sh"
    assert returned["PreToolUse"][0]["hooks"][0]["timeout"] == 20


@pytest.mark.parametrize("row", WRITTEN, ids=[row.id for row in WRITTEN])
def test_init_wires_a_derived_host_in_its_file_and_words(
        agenthooks: Run, tmp_path: Path, row: HostRow) -> None:
    root = tmp_path / "w"
    (root / ".git").mkdir(parents=True)
    done = agenthooks("init", "--host", row.id, "--yes", "--workspace", str(root))
    assert done.code == 0, done.err
    settings = root / row.project_files[0].replace("*", "agenthooks")
    hooks = events_of(settings, row)
    pre = counterpart("PreToolUse", "claude", row.id)
    assert pre in hooks
    assert hooks[pre][0]["hooks"][0]["command"] == \
        f"agenthooks run {pre} --host {row.id} --fail-closed"
    assert all(f"--host {row.id}" in group["hooks"][0]["command"]
               for groups in hooks.values() for group in groups)
    assert agenthooks("validate", str(settings)).code == 0
    if f"--host {row.id}" in page("hosts.md"):  # docs/hosts.md shows what init writes
        assert json.loads(settings.read_text()) == documented(row.id)
    again = agenthooks("init", "--host", row.id, "--yes", "--workspace", str(root))
    assert again.code == 0 and events_of(settings, row) == hooks


@pytest.mark.parametrize("row", USER_ONLY, ids=[row.id for row in USER_ONLY])
def test_a_host_with_no_json_project_file_is_neither_converted_to_nor_wired(
        agenthooks: Run, project: Path, row: HostRow) -> None:
    converted = agenthooks("convert", str(project / ".claude" / "settings.json"), "--to", row.id)
    assert converted.code == 1 and converted.out == ""
    why = unwritable(row)
    assert why is not None and why.startswith(f"{row.name} reads its hooks from ")
    assert converted.err == (f"agenthooks: convert writes JSON hook files, and {why}: add the "
                             "entries docs/hosts.md shows; nothing converted\n")
    wired = agenthooks("init", "--host", row.id, "--yes", "--workspace", str(project))
    assert wired.code == 1 and wired.err == (
        f"agenthooks: error: init cannot wire {row.name}: it writes JSON hook files, and "
        f"{why}; add the entries docs/hosts.md shows\n"), wired.err


@pytest.mark.parametrize("row", OWN_FILE, ids=[row.id for row in OWN_FILE])
def test_a_host_of_its_own_entries_is_wired_with_a_file_of_its_own(
        agenthooks: Run, project: Path, row: HostRow) -> None:
    converted = agenthooks("convert", str(project / ".claude" / "settings.json"), "--to", row.id)
    assert converted.code == 1 and converted.out == ""
    assert "as flat entries of its own" in converted.err and converted.err.count("\n") == 1
    wired = agenthooks("init", "--host", row.id, "--yes", "--workspace", str(project))
    assert wired.code == 0, wired.err
    written = project / WIRING[row.id].settings
    assert f"agenthooks run PreToolUse --host {row.id} --fail-closed" in written.read_text()
    assert agenthooks("validate", str(written)).code == 0


@pytest.mark.parametrize("row", NO_FILES, ids=[row.id for row in NO_FILES])
def test_a_host_with_no_hook_files_is_not_converted_to(agenthooks: Run, project: Path,
                                                       row: HostRow) -> None:
    converted = agenthooks("convert", str(project / ".claude" / "settings.json"), "--to", row.id)
    assert converted.code == 1 and converted.out == ""
    assert converted.err == (
        f"agenthooks: {row.name} reads no hook files (its hooks are plugins it loads), so "
        f"convert has nothing to write for it: agenthooks init --host {row.id} writes the "
        "plugin that runs agenthooks and its gates; nothing converted\n")


# Hosts with a file of their own they read as a bare map of events (`Dialect.bare_files`):
# Factory Droid's hooks.json, Devin CLI's hooks.v1.json.
BARE = [(row, name) for row in WRITTEN for name, _ in dialect_spec(row.id).bare_files]


@pytest.mark.parametrize(("row", "name"), BARE, ids=[row.id for row, _ in BARE])
def test_convert_writes_a_bare_file_bare(agenthooks: Run, project: Path, row: HostRow,
                                         name: str) -> None:
    """Into the file its host reads keyed by event name, convert writes the events at the top
    level, with no `hooks` wrapper under which the host would find none."""
    folder = Path(own_file(project, row)).parent
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / name
    done = agenthooks("convert", str(project / ".claude" / "settings.json"), "--to", row.id,
                      "-o", str(target), "--lossy")
    assert done.code == 0, done.err
    written = json.loads(target.read_text())
    assert "hooks" not in written
    assert counterpart("PreToolUse", "claude", row.id) in written
    checked = agenthooks("validate", str(target))
    wrapper = dict(dialect_spec(row.id).bare_files)[name]
    assert checked.code == 0 and f"[{wrapper}]" not in checked.out, checked.out
