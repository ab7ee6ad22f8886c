"""Finding Claude Code and Gemini CLI files, and telling dialects apart; `run` never sees them."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from agenthooks.sources.dialects import dialect_of_shape
from agenthooks.sources.discovery import detect, dialect_of_place, discover_all, unsure_format
from agenthooks.sources.paths import sources_for_paths
from tests import support
from tests.sources.dialects.conftest import settings

pytestmark = pytest.mark.program

CLAUDE = '{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}}'
GEMINI = '{"hooks": {"AfterAgent": [{"hooks": [{"type": "command", "command": "true"}]}]}}'
HOOKS_JSON = '{"h": {"Stop": [{"command": "true"}]}}'


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    root = support.workspace(tmp_path / "ws", {".agents/hooks.json": HOOKS_JSON})
    settings(root, "claude", CLAUDE)
    settings(root, "claude", CLAUDE, "settings.local.json")
    settings(root, "gemini", GEMINI)
    return root


def test_discovery_finds_all_three_kinds_in_host_order(workspace: Path, home: Path) -> None:
    settings(home, "claude", CLAUDE)
    found = discover_all(cwd=str(workspace / ".agents"), dialects=True)
    assert [s.file for s in found.sources] == [str(workspace / ".agents" / "hooks.json")]
    assert [(s.dialect, s.level, os.path.relpath(s.file, s.workspace if s.level == "workspace"
                                                 else home))
            for s in found.dialect_sources] == [
        ("claude", "user", ".claude/settings.json"),
        ("claude", "workspace", ".claude/settings.json"),
        ("claude", "workspace", ".claude/settings.local.json"),
        ("gemini", "workspace", ".gemini/settings.json"),
    ]
    # Claude Code and Gemini CLI run hooks in the project root.
    assert {s.cwd for s in found.dialect_sources} == {str(workspace.resolve())}


def test_run_discovery_is_unchanged(workspace: Path, home: Path) -> None:
    settings(home, "gemini", GEMINI)
    found = discover_all(cwd=str(workspace))
    assert [s.file for s in found.sources] == [str(workspace / ".agents" / "hooks.json")]
    assert found.dialect_sources == ()
    # A named settings file is what it always was for run: a hooks.json.
    named = discover_all(configs=[str(workspace / ".claude" / "settings.json")])
    assert [s.dialect for s in named.sources] == ["antigravity"]


def test_run_reads_settings_files(workspace: Path) -> None:
    import subprocess
    import sys

    (workspace / ".agents" / "hooks.json").unlink()
    # Both settings files block Stop: run reads them, each with its host's event name.
    blocking = '{"hooks": {"%s": [{"hooks": [{"type": "command", "command": "%s"}]}]}}'
    settings(workspace, "claude", blocking % ("Stop", "exit 2"))
    settings(workspace, "gemini", blocking % ("AfterAgent", "echo gemini >&2; exit 2"))
    done = subprocess.run([sys.executable, "-m", "agenthooks", "run", "Stop", "--workspace",
                           str(workspace), "--no-user"], input="{}", capture_output=True,
                          text=True, check=False, timeout=60)
    assert done.returncode == 2, done.stderr
    assert "settings.json#/hooks/Stop/0/hooks/0 blocked (exit 2)" in done.stderr
    assert "gemini" in done.stderr.splitlines()


def test_the_dialect_flag_limits_discovery(workspace: Path) -> None:
    found = discover_all(cwd=str(workspace), dialects=True, dialect="gemini", no_user=True)
    assert found.sources == []
    assert [s.dialect for s in found.dialect_sources] == ["gemini"]
    found = discover_all(cwd=str(workspace), dialects=True, dialect="antigravity", no_user=True)
    assert len(found.sources) == 1 and found.dialect_sources == ()


def test_the_home_directory_is_not_a_workspace(home: Path) -> None:
    settings(home, "claude", CLAUDE)
    (home / "project").mkdir()
    found = discover_all(cwd=str(home / "project"), dialects=True, no_user=True)
    assert found.dialect_sources == ()


def test_validate_paths_reads_each_kind(workspace: Path) -> None:
    sources, empty = sources_for_paths([str(workspace)])
    assert empty == []
    assert [(s.dialect, os.path.relpath(s.file, workspace)) for s in sources] == [
        ("antigravity", ".agents/hooks.json"),
        ("claude", ".claude/settings.json"),
        ("claude", ".claude/settings.local.json"),
        ("gemini", ".gemini/settings.json"),
    ]
    sources, _ = sources_for_paths([str(workspace / ".gemini")])
    assert [s.dialect for s in sources] == ["gemini"]
    sources, _ = sources_for_paths([str(workspace.parent)], recursive=True)
    assert len(sources) == 4


def test_place_then_shape(tmp_path: Path) -> None:
    plugin = tmp_path / "plugin"
    (plugin / ".claude-plugin").mkdir(parents=True)
    (plugin / ".claude-plugin" / "plugin.json").write_text("{}")
    (plugin / "hooks").mkdir()
    (plugin / "hooks" / "hooks.json").write_text(CLAUDE)
    extension = tmp_path / "ext"
    (extension / "hooks").mkdir(parents=True)
    (extension / "gemini-extension.json").write_text("{}")
    (extension / "hooks" / "hooks.json").write_text(GEMINI)
    assert dialect_of_place(str(plugin / "hooks" / "hooks.json")) == "claude"
    assert dialect_of_place(str(extension / "hooks" / "hooks.json")) == "gemini"
    loose = tmp_path / "loose.json"
    for text, dialect in [
        (GEMINI, "gemini"),
        (CLAUDE, "claude"),
        (HOOKS_JSON, "antigravity"),
        ('{"hooks": {"Stop": [{"command": "x"}]}}', "antigravity"),  # a hook named "hooks"
        ('{"hooks": {"SessionStart": []}, "hooksConfig": {}}', "gemini"),
        ('{"hooks": {"PreToolUse": []}, "permissions": {}}', "claude"),
        # A handler key of Claude Code's alone.
        ('{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", '
         '"command": "x", "statusMessage": "checking"}]}]}}', "claude"),
        ("not json", "antigravity"),
    ]:
        loose.write_text(text)
        assert dialect_of_shape(str(loose)) == dialect, text
    loose.write_text(CLAUDE)
    assert detect(str(loose), "gemini") == "gemini"  # --dialect overrides


def test_a_named_plugin_knows_its_root_and_runs_in_the_workspace(tmp_path: Path) -> None:
    plugin = tmp_path / "plugin"
    (plugin / ".claude-plugin").mkdir(parents=True)
    (plugin / ".claude-plugin" / "plugin.json").write_text(json.dumps({"name": "p"}))
    (plugin / "hooks").mkdir()
    hooks = plugin / "hooks" / "hooks.json"
    hooks.write_text(CLAUDE)
    project = tmp_path / "project"
    project.mkdir()
    found = discover_all(configs=[str(hooks)], workspaces=[str(project)], dialects=True)
    (source,) = found.dialect_sources
    assert (source.dialect, source.plugin_root, source.cwd) == (
        "claude", str(plugin.resolve()), str(project.resolve()))


@pytest.mark.parametrize(("variable", "folder", "relative", "text"), [
    ("CODEX_HOME", ".codex", "hooks.json", CLAUDE),
    ("COPILOT_HOME", ".copilot", "hooks/gate.json",
     '{"version": 1, "hooks": {"sessionStart": [{"type": "command", "bash": "true"}]}}'),
])
def test_a_user_folder_moved_by_its_hosts_variable_is_followed(
    workspace: Path, home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    variable: str, folder: str, relative: str, text: str,
) -> None:
    # One file under ~/FOLDER and one under $VARIABLE: the host reads the second alone.
    for base in (home / folder, tmp_path / "moved"):
        (base / relative).parent.mkdir(parents=True, exist_ok=True)
        (base / relative).write_text(text)
    monkeypatch.setenv(variable, str(tmp_path / "moved"))
    found = discover_all(cwd=str(workspace), dialects=True)
    users = [s.file for s in found.dialect_sources if s.level == "user"]
    assert users == [str(tmp_path / "moved" / relative)]
    monkeypatch.delenv(variable)
    found = discover_all(cwd=str(workspace), dialects=True)
    assert [s.file for s in found.dialect_sources if s.level == "user"] == [
        str(home / folder / relative)]


AMBIGUOUS = ('{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": '
             '[{"type": "command", "command": "echo no >&2; exit 2"}]}]}}')


@pytest.mark.parametrize(("text", "unsure"), [
    (AMBIGUOUS, True),
    # A handler without `type` is no Claude Code handler; `enabled` is hooks.json's.
    ('{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"command": "x"}]}]}}', False),
    ('{"hooks": {"enabled": false, "PreToolUse": [{"matcher": "Bash", "hooks": '
     '[{"type": "command", "command": "x"}]}]}}', False),
    ('{"hooks": {"Stop": [{"command": "x"}]}}', False),  # hooks.json's flat handler
    ('{"hooks": {}}', False),  # nothing to run either way
    ('{"hooks": {"BeforeTool": []}}', False),  # Gemini CLI's, by its events
])
def test_a_file_that_two_formats_read(tmp_path: Path, text: str, unsure: bool) -> None:
    loose = tmp_path / "claude-hooks.json"
    loose.write_text(text)
    assert unsure_format(str(loose)) is unsure
    assert not unsure_format(str(loose), "antigravity")  # --dialect says
    (tmp_path / ".agents").mkdir()
    placed = tmp_path / ".agents" / "hooks.json"
    placed.write_text(text)
    assert not unsure_format(str(placed))  # its place says


def test_an_ambiguous_file_is_an_error_until_dialect_names_it(agenthooks, tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch
                                                             ) -> None:
    (tmp_path / ".agents").mkdir()
    (tmp_path / ".agents" / "claude-hooks.json").write_text(AMBIGUOUS)
    monkeypatch.chdir(tmp_path)
    named = ".agents/claude-hooks.json"
    for args in (["validate", named], ["validate", "--config", named]):
        done = agenthooks(*args)
        assert done.code == 1 and "[format-ambiguous]" in done.out, done
        assert "--dialect claude" in done.out
    for dialect in ("claude", "antigravity"):
        done = agenthooks("validate", named, "--dialect", dialect)
        assert done.code == 0 and "format-ambiguous" not in done.out, done


@pytest.mark.program
def test_an_ambiguous_file_denies_under_fail_closed(tmp_path: Path) -> None:
    (tmp_path / "claude-hooks.json").write_text(AMBIGUOUS)
    call = json.dumps({"hook_event_name": "PreToolUse", "tool_name": "Read",
                       "tool_input": {"file_path": "x"}})
    done = support.program("run", "PreToolUse", "--host", "claude", "--config",
                           "claude-hooks.json", "--fail-closed", stdin=call, cwd=tmp_path)
    answer = json.loads(done.stdout)["hookSpecificOutput"]
    assert answer["permissionDecision"] == "deny", done
    assert "format-ambiguous" in answer["permissionDecisionReason"]
