"""Discovery: broken entries are reported, unsafe workspaces skipped, `--recursive` finds all."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from fnmatch import fnmatchcase
from pathlib import Path

import pytest

from agenthooks.sources import discovery
from agenthooks.sources.hooksjson.loader import load

HOOKS = '{"lint": {"Stop": [{"command": "make lint"}]}}\n'


def write(path: Path, text: str = HOOKS) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def errors_of(sources: list) -> list[tuple[str, str]]:  # type: ignore[type-arg]
    return [(d.rule, d.message) for source in sources for d in load(source).errors]


# --- broken entries fail as files instead of vanishing ---------------------------------------


def test_a_dangling_link_is_a_file_with_an_error(agenthooks, isolated: Path) -> None:
    (isolated / ".agents").mkdir()
    (isolated / ".agents" / "hooks.json").symlink_to("../shared/hooks.json")
    found = discovery.discover_all(no_user=True)
    assert [s.path for s in found.sources] == [".agents/hooks.json"]
    assert errors_of(found.sources) == [(
        "unreadable", "cannot read .agents/hooks.json: it is a symbolic link to "
        "../shared/hooks.json, which does not exist",
    )]
    outcome = agenthooks("validate", "--no-user")
    assert outcome.code == 1
    assert outcome.out.startswith(".agents/hooks.json:1:1: error [unreadable] cannot read")
    assert "no hooks.json found" not in outcome.err


def test_a_link_loop_is_a_file_with_an_error(agenthooks, isolated: Path) -> None:
    (isolated / ".agents").mkdir()
    (isolated / ".agents" / "hooks.json").symlink_to("hooks.json")
    outcome = agenthooks("validate", "--no-user")
    assert outcome.code == 1
    assert ".agents/hooks.json:1:1: error [unreadable] cannot read .agents/hooks.json: " \
        "a loop of symbolic links" in outcome.out


def test_a_dangling_customization_folder_link_is_reported(agenthooks, isolated: Path) -> None:
    (isolated / ".agents").symlink_to("../nowhere")
    outcome = agenthooks("validate", "--no-user")
    assert outcome.code == 1
    assert "[unreadable]" in outcome.out


def test_a_directory_named_hooks_json_is_reported(agenthooks, isolated: Path) -> None:
    (isolated / ".agents" / "hooks.json").mkdir(parents=True)
    outcome = agenthooks("validate", "--no-user")
    assert outcome.code == 1
    assert ".agents/hooks.json:1:1: error [not-a-file] .agents/hooks.json is a directory" in (
        outcome.out
    )
    listed = agenthooks("list", "--no-user")
    assert listed.code == 1 and "[not-a-file]" in listed.err


def test_a_broken_user_file_link_is_reported(agenthooks, home: Path) -> None:
    user = home / ".gemini" / "config" / "hooks.json"
    user.parent.mkdir(parents=True)
    user.symlink_to(home / "dotfiles" / "hooks.json")
    outcome = agenthooks("validate")
    assert outcome.code == 1 and "[unreadable]" in outcome.out


@pytest.fixture
def shared_tmp() -> Iterator[Path]:
    """A directory another user can enter (pytest's own are private to root)."""
    path = Path(tempfile.mkdtemp(prefix="agenthooks-test-"))
    path.chmod(0o755)
    yield path
    shutil.rmtree(path)


@pytest.mark.program
@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0
                    or shutil.which("setpriv") is None,
                    reason="needs root and setpriv to run a child as another user")
def test_an_unreadable_customization_folder_is_reported(shared_tmp: Path) -> None:
    # Root reads everything, so the check runs as another user, as CI might.
    as_other = ["setpriv", "--reuid=12345", "--regid=12345", "--clear-groups", sys.executable]
    probe = subprocess.run([*as_other, "-c", "import agenthooks"], capture_output=True,
                           text=True, timeout=60, check=False)
    if probe.returncode != 0:  # an interpreter or a venv under a folder of root's alone
        pytest.skip(f"another user cannot run agenthooks with {sys.executable}: "
                    f"{probe.stderr.strip()[:200]}")
    write(shared_tmp / "ws" / ".agents" / "hooks.json")
    (shared_tmp / "ws" / ".agents").chmod(0)
    done = subprocess.run(
        [*as_other, "-m", "agenthooks", "validate", "--no-user"],
        cwd=shared_tmp / "ws", capture_output=True, text=True, timeout=60, check=False,
        env={**os.environ, "HOME": str(shared_tmp)},
    )
    assert done.returncode == 1, done.stderr
    assert done.stdout.startswith(
        ".agents/hooks.json:1:1: error [unreadable] cannot read .agents/hooks.json: "
        "Permission denied"
    )


# --- upward discovery uses only safe workspaces ------------------------------------------------


@pytest.fixture
def workspace(isolated: Path) -> Path:
    """A workspace with one hooks.json, and the current directory below it."""
    write(isolated / "ws" / ".agents" / "hooks.json")
    (isolated / "ws" / "src").mkdir()
    os.chdir(isolated / "ws" / "src")
    return isolated / "ws"


def test_a_private_workspace_is_used(workspace: Path) -> None:
    found = discovery.discover_all(no_user=True)
    assert isinstance(found, discovery.Discovered)
    assert [s.file for s in found.sources] == [str(workspace / ".agents" / "hooks.json")]
    assert found.diagnostics == []
    assert discovery.discover(no_user=True) == found.sources


@pytest.mark.parametrize(
    ("target", "mode", "reason"),
    [
        (".agents", 0o777, "writable by everyone"),
        (".agents", 0o1777, "writable by everyone"),  # sticky or not
        (".agents", 0o775, "writable by its group"),
        (".agents/hooks.json", 0o666, "writable by everyone"),
        (".agents/hooks.json", 0o664, "writable by its group"),
    ],
)
def test_a_file_others_can_write_is_refused(
    workspace: Path, target: str, mode: int, reason: str
) -> None:
    (workspace / target).chmod(mode)
    found = discovery.discover_all(no_user=True)
    assert found.sources == [] and found.diagnostics == []
    (refused,) = found.refused
    assert refused.source.file == str(workspace / ".agents" / "hooks.json")
    assert refused.handlers == () and not refused.ok
    (error,) = refused.diagnostics
    assert (error.rule, error.severity, error.line, error.column) == (
        "unsafe-workspace", "error", 1, 1,
    )
    assert f"skipped: {workspace / target} is {reason}" in error.message


@pytest.mark.parametrize("target", [".agents", ".agents/hooks.json"])
def test_a_file_of_another_user_is_refused(workspace: Path, target: str) -> None:
    os.chown(workspace / target, 12345, 12345)
    found = discovery.discover_all(no_user=True)
    assert found.sources == []
    assert "is owned by user id 12345" in found.refused[0].diagnostics[0].message


def test_only_the_odd_file_is_refused(workspace: Path) -> None:
    """A Markdown hook linked to /dev/null (writable by everyone) is refused alone: the
    workspace's hooks.json still runs."""
    hooks = workspace / ".harness" / "hooks"
    hooks.mkdir(parents=True)
    (hooks / "empty.md").symlink_to("/dev/null")
    (hooks / "guard.md").write_text("---\nevent: tool.pre\n---\n", encoding="utf-8")
    found = discovery.discover_all(no_user=True)
    assert [s.file for s in found.sources] == [str(workspace / ".agents" / "hooks.json")]
    assert [s.file for s in found.markdown] == [str(hooks / "guard.md")]
    (refused,) = found.refused
    assert refused.source.file == str(hooks / "empty.md")
    assert "(a link to /dev/null) is writable by everyone" in refused.diagnostics[0].message


def test_a_planted_parent_workspace_does_not_run(agenthooks, workspace: Path) -> None:
    (workspace / ".agents").chmod(0o777)
    outcome = agenthooks("validate", "--no-user")
    assert outcome.code == 1  # an error: the gate cannot run
    assert outcome.out.startswith(
        f"{workspace / '.agents' / 'hooks.json'}:1:1: error [unsafe-workspace] skipped: "
    )
    assert "no hooks.json found" not in outcome.err
    listed = agenthooks("list", "--no-user", "--format", "json")
    assert (listed.code, json.loads(listed.out)) == (1, [])  # as for a file with errors
    assert "[unsafe-workspace]" in listed.err


def test_named_workspaces_and_configs_are_used_as_given(workspace: Path) -> None:
    (workspace / ".agents").chmod(0o777)
    os.chown(workspace / ".agents" / "hooks.json", 12345, 12345)
    named = discovery.discover_all(workspaces=[str(workspace)], no_user=True)
    assert (len(named.sources), named.diagnostics) == (1, [])
    named_file = str(workspace / ".agents" / "hooks.json")
    config = discovery.discover_all(configs=[named_file], no_user=True)
    assert (len(config.sources), config.diagnostics) == (1, [])


# --- validate --recursive --------------------------------------------------------------------


def git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_recursive_finds_every_folder_but_ignored_ones(agenthooks, isolated: Path) -> None:
    git(isolated, "init", "-q")
    write(isolated / ".gitignore", "build/\n*.tmp\n")
    write(isolated / ".agents" / "hooks.json")
    write(isolated / "pkg" / "a" / "_agent" / "hooks.json", '{"x": {"Stop": [{}]}}')
    write(isolated / "pkg" / "a" / ".agents" / "hooks.json")
    write(isolated / "pkg" / "b" / ".agent" / "hooks.json")
    write(isolated / "pkg" / "c.tmp" / ".agents" / "hooks.json", "ignored")
    write(isolated / "build" / "x" / ".agents" / "hooks.json", "ignored")
    write(isolated / "node_modules" / "p" / ".agents" / "hooks.json", "skipped")
    write(isolated / "vendor" / ".gitignore", ".agents/\n")
    write(isolated / "vendor" / ".agents" / "hooks.json", "ignored too")
    outcome = agenthooks("validate", "--recursive", "--format", "json")
    report = json.loads(outcome.out)
    assert report["files"] == [
        ".agents/hooks.json",
        "pkg/a/.agents/hooks.json",
        "pkg/a/_agent/hooks.json",
        "pkg/b/.agent/hooks.json",
    ]
    assert outcome.code == 1
    assert [(d["file"], d["rule"]) for d in report["diagnostics"]] == [
        ("pkg/a/_agent/hooks.json", "command-missing"),
    ]
    github = agenthooks("validate", "-r", "--format", "github", "pkg")
    assert github.out.startswith("::error file=pkg/a/_agent/hooks.json,line=1,col=")
    assert github.err == "1 error, 0 warnings in 3 files\n"


def test_recursive_outside_git_skips_only_git_and_node_modules(agenthooks, isolated: Path) -> None:
    write(isolated / "a" / "b" / ".agents" / "hooks.json")
    write(isolated / "node_modules" / "p" / ".agents" / "hooks.json", "skipped")
    write(isolated / "x" / ".git" / ".agents" / "hooks.json", "skipped")
    (isolated / "loop").symlink_to(isolated)  # links to directories are not followed
    outcome = agenthooks("validate", "--recursive", "--no-user")
    assert (outcome.code, outcome.out) == (0, "ok: 1 file, no problems\n")
    json_out = agenthooks("validate", "-r", "--format", "json", str(isolated))
    assert json.loads(json_out.out)["files"] == [str(isolated / "a/b/.agents/hooks.json")]


def test_recursive_with_nothing_found_says_so(agenthooks, isolated: Path) -> None:
    (isolated / "empty").mkdir()
    outcome = agenthooks("validate", "--recursive", "empty")
    assert (outcome.code, outcome.out) == (0, "")
    assert outcome.err == (
        "agenthooks: empty: no hooks.json in any .agents/, .agent/, _agents/, _agent/ and no "
        "Markdown hook in any .harness/hooks/ below it\n"
    )


GLOB_NAMES = ["", "a", "ab", "a.json", ".json", "x.json.bak", "hooks.json", "*", "a*b", "json",
              "aa.json", "a\nb.json", "[a].json", "Hooks.JSON"]
GLOB_PATTERNS = ["*", "*.json", "a*", "a*.json", "hooks.json", "", "a*b", "*a", "?.json",
                 "[ab].json", "**", "a**b", "*.*", "*.JSON"]


@pytest.mark.parametrize("pattern", GLOB_PATTERNS)
def test_glob_match_is_fnmatchcase(pattern: str) -> None:
    assert [discovery.glob_match(name, pattern) for name in GLOB_NAMES] == \
        [fnmatchcase(name, pattern) for name in GLOB_NAMES]


@pytest.mark.parametrize("crowd", [0, 300, 10000])
def test_each_host_folder_is_looked_up_once_whatever_the_root_holds(tmp_path: Path,
                                                                  crowd: int) -> None:
    """Entries of a root by name, a dangling link included (`present` reports it), each name
    looked up once; a crowded root (a workspace under /tmp, met on the walk up) says the
    same; a missing root holds nothing."""
    from agenthooks.sources.discovery import _may_hold

    for i in range(crowd):
        (tmp_path / f"entry{i}").touch()
    (tmp_path / ".claude").mkdir()
    (tmp_path / ".agents").symlink_to(tmp_path / "nowhere")
    held = _may_hold(str(tmp_path))
    assert [held(name) for name in (".claude", ".agents", ".cursor", ".claude")] == [
        True, True, False, True]
    (tmp_path / ".cursor").mkdir()  # made after its lookup: the first answer stands
    assert held(".cursor") is False
    assert _may_hold(str(tmp_path / "missing"))(".cursor") is False


def test_the_home_folder_as_a_root_holds_no_workspace_host_files(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Its `.claude/` and `.gemini/` hold the user's files, however the root is written."""
    from agenthooks.sources.discovery import workspace_dialect_files

    home = tmp_path / "home"
    (home / ".claude").mkdir(parents=True)
    (home / ".claude" / "settings.json").write_text("{}")
    (tmp_path / "link").symlink_to(home)
    monkeypatch.setenv("HOME", str(home))
    assert workspace_dialect_files(str(home)) == []
    assert workspace_dialect_files(str(tmp_path / "link")) == []
    monkeypatch.setenv("HOME", str(tmp_path / "elsewhere"))
    assert workspace_dialect_files(str(home)) == [
        ("claude", str(home / ".claude" / "settings.json"))]
