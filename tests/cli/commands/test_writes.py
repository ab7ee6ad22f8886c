"""Every file agenthooks writes for a user is written whole, where the user meant, or not at
all: `init`, `convert -o` and `trust --host codex` on real files, real links, a read-only
folder, and a file size limit standing for a full disk (the real program in a subprocess)."""

from __future__ import annotations

import difflib
import json
import os
import resource
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.conftest import REPO, Run

CLAUDE_SETTINGS = ('{\n  "permissions": {"allow": ["Bash(ls)"]},\n  "model": "opus",\n'
                   '  "env": {"FOO": "1"}\n}\n')
HOOKS_JSON = {"lint": {"PreToolUse": [{"matcher": "run_command",
                                       "hooks": [{"command": "echo checked"}]}]}}


@pytest.fixture
def workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "project"
    (root / ".git").mkdir(parents=True)
    monkeypatch.chdir(root)
    return root


@contextmanager
def read_only(folder: Path) -> Iterator[None]:
    """A folder nothing can be created in, for root too (immutable where the file system
    allows it; root ignores the mode alone)."""
    folder.chmod(0o555)
    immutable = os.geteuid() == 0
    if immutable:
        done = subprocess.run(["chattr", "+i", str(folder)], capture_output=True, check=False)
        if done.returncode != 0:
            folder.chmod(0o755)
            pytest.skip("root, and this file system cannot make a folder immutable")
    try:
        yield
    finally:
        if immutable:
            subprocess.run(["chattr", "-i", str(folder)], check=True)
        folder.chmod(0o755)


def only_insertions(before: str, after: str) -> bool:
    operations = difflib.SequenceMatcher(None, before, after, autojunk=False).get_opcodes()
    return {op for op, *_ in operations} <= {"equal", "insert"}


def files_in(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


# --- init -------------------------------------------------------------------------------------


def test_init_never_follows_a_planted_temporary_name(agenthooks: Run, workspace: Path,
                                                     tmp_path: Path) -> None:
    """A repository that ships init's old fixed temporary name as a link to another file:
    that file is never written."""
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    (workspace / ".claude").mkdir()
    (workspace / ".claude" / "settings.json.agenthooks-init.tmp").symlink_to(victim)
    assert agenthooks("init", "--host", "claude", "--yes").code == 0
    assert victim.read_text() == "precious\n"
    assert "agenthooks run" in (workspace / ".claude" / "settings.json").read_text()


def test_init_writes_through_a_linked_settings_file(agenthooks: Run, workspace: Path,
                                                    tmp_path: Path) -> None:
    """A dotfiles repository's link stays a link; its target gets the wiring, and says so."""
    dotfiles = tmp_path / "dotfiles"
    dotfiles.mkdir()
    real = dotfiles / "claude-settings.json"
    real.write_text(CLAUDE_SETTINGS)
    (workspace / ".claude").mkdir()
    link = workspace / ".claude" / "settings.json"
    link.symlink_to(real)
    done = agenthooks("init", "--host", "claude", "--yes")
    assert done.code == 0, done.err
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert only_insertions(CLAUDE_SETTINGS, real.read_text())
    assert "PreToolUse" in json.loads(real.read_text())["hooks"]
    assert f".claude/settings.json (a symbolic link: the change goes into {real})" in done.out
    assert (f"wrote .claude/settings.json (through the link, into {real}); what it replaced "
            f"is kept in {real}.bak") in done.out
    assert Path(f"{real}.bak").read_text() == CLAUDE_SETTINGS


def test_init_refuses_a_link_to_nothing(agenthooks: Run, workspace: Path,
                                        tmp_path: Path) -> None:
    (workspace / ".claude").mkdir()
    link = workspace / ".claude" / "settings.json"
    link.symlink_to(tmp_path / "gone.json")
    done = agenthooks("init", "--host", "claude", "--yes")
    assert done.code == 1
    assert done.err.startswith("agenthooks: error: ") and len(done.err.splitlines()) == 1
    assert "which does not exist; nothing written" in done.err
    assert not (tmp_path / "gone.json").exists() and not (workspace / ".agents").exists()


def test_init_keeps_mode_and_a_bak(agenthooks: Run, workspace: Path) -> None:
    settings = workspace / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(CLAUDE_SETTINGS)
    settings.chmod(0o640)
    done = agenthooks("init", "--host", "claude", "--yes")
    assert done.code == 0
    assert settings.stat().st_mode & 0o777 == 0o640
    assert (settings.parent / "settings.json.bak").read_text() == CLAUDE_SETTINGS
    assert ("wrote .claude/settings.json; what it replaced is kept in "
            ".claude/settings.json.bak") in done.out
    assert files_in(settings.parent) == ["settings.json", "settings.json.bak"]


def test_init_in_a_read_only_folder_changes_nothing(agenthooks: Run, workspace: Path) -> None:
    settings = workspace / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(CLAUDE_SETTINGS)
    with read_only(settings.parent):
        done = agenthooks("init", "--host", "claude", "--yes")
    assert done.code == 1
    assert done.err.startswith("agenthooks: error: cannot write ")
    assert done.err.endswith("; the file is unchanged\n") and len(done.err.splitlines()) == 1
    assert settings.read_text() == CLAUDE_SETTINGS
    assert files_in(settings.parent) == ["settings.json"]


# --- convert -o ---------------------------------------------------------------------------------


@pytest.fixture
def hooks_json(workspace: Path) -> Path:
    source = workspace / ".agents" / "hooks.json"
    source.parent.mkdir()
    source.write_text(json.dumps(HOOKS_JSON))
    return source


def test_convert_into_existing_settings_merges_and_keeps_every_byte(
        agenthooks: Run, workspace: Path, hooks_json: Path) -> None:
    settings = workspace / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(CLAUDE_SETTINGS)
    asked = agenthooks("convert", str(hooks_json), "--to", "claude", "-o", str(settings))
    assert asked.code == 1
    assert "+++ b/" in asked.out and "nothing written: run again with --yes" in asked.err
    assert settings.read_text() == CLAUDE_SETTINGS
    done = agenthooks("convert", str(hooks_json), "--to", "claude", "-o", str(settings), "--yes")
    assert done.code == 0, done.err
    after = settings.read_text()
    assert only_insertions(CLAUDE_SETTINGS, after)
    merged = json.loads(after)
    assert merged["permissions"] == {"allow": ["Bash(ls)"]}
    assert (merged["model"], merged["env"]) == ("opus", {"FOO": "1"})
    assert "PreToolUse" in merged["hooks"]
    assert (settings.parent / "settings.json.bak").read_text() == CLAUDE_SETTINGS
    assert f"what it replaced is kept in {settings}.bak" in done.out
    again = agenthooks("convert", str(hooks_json), "--to", "claude", "-o", str(settings))
    assert again.code == 0 and "nothing to change" in again.out
    assert settings.read_text() == after


def test_convert_adds_to_the_hooks_already_there(agenthooks: Run, workspace: Path,
                                                 hooks_json: Path) -> None:
    settings = workspace / ".claude" / "settings.json"
    settings.parent.mkdir()
    own = {"matcher": "Write", "hooks": [{"type": "command", "command": "./mine.sh"}]}
    settings.write_text(json.dumps({"hooks": {"PreToolUse": [own]}}, indent=2))
    assert agenthooks("convert", str(hooks_json), "--to", "claude", "-o", str(settings),
                      "--yes").code == 0
    groups = json.loads(settings.read_text())["hooks"]["PreToolUse"]
    assert groups[0] == own and len(groups) == 2


def test_convert_refuses_a_member_it_would_have_to_replace(agenthooks: Run, workspace: Path,
                                                          hooks_json: Path) -> None:
    settings = workspace / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text('{"hooks": []}\n')
    done = agenthooks("convert", str(hooks_json), "--to", "claude", "-o", str(settings),
                      "--yes")
    assert done.code == 1 and "nothing written" in done.err
    assert len(done.err.splitlines()) == 1
    assert settings.read_text() == '{"hooks": []}\n'


def test_convert_into_a_missing_folder_is_one_line(agenthooks: Run, workspace: Path,
                                                   hooks_json: Path) -> None:
    out = workspace / "nowhere" / "settings.json"
    done = agenthooks("convert", str(hooks_json), "--to", "claude", "-o", str(out))
    assert done.code == 1
    assert done.err == (f"agenthooks: error: cannot write {out}: no such folder "
                        f"{out.parent}\n")


def test_convert_to_a_new_file_writes_it_whole(agenthooks: Run, workspace: Path,
                                               hooks_json: Path) -> None:
    out = workspace / ".claude" / "settings.json"
    out.parent.mkdir()
    done = agenthooks("convert", str(hooks_json), "--to", "claude", "-o", str(out))
    assert done.code == 0
    assert done.out == f"wrote {out}\n"
    assert set(json.loads(out.read_text())) == {"hooks"}
    assert files_in(out.parent) == ["settings.json"]


# --- a full disk: the real program under a file size limit ------------------------------------


def limited(args: list[str], cwd: Path, limit: int) -> subprocess.CompletedProcess[str]:
    """The program with files capped at `limit` bytes: a write past it fails (EFBIG) as on a
    full disk, the signal that would kill the process ignored as Python ignores it."""
    def cap() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    env = {**os.environ, "PYTHONPATH": str(REPO), "AGENTHOOKS_CACHE_DIR": str(cwd / ".cache")}
    return subprocess.run([sys.executable, "-m", "agenthooks", *args], cwd=cwd, env=env,
                          preexec_fn=cap, capture_output=True, text=True, timeout=60,
                          check=False)


@pytest.mark.program
@pytest.mark.parametrize("before", [
    " " * 200 + "\n",  # blanks: a new document, written without asking
    json.dumps({"hooks": {}}) + "\n" + " " * 200 + "\n",  # merged into, with --yes
])
def test_convert_on_a_full_disk_leaves_the_file_whole(workspace: Path, hooks_json: Path,
                                                      before: str) -> None:
    out = workspace / "converted.json"
    out.write_text(before)
    yes = ["--yes"] if before.strip() else []
    done = limited(["convert", str(hooks_json), "--to", "claude", "-o", str(out), *yes],
                   workspace, len(before) + 20)
    assert done.returncode == 1, done.stderr
    assert done.stderr.startswith(f"agenthooks: error: cannot write {out}: File too large")
    assert len(done.stderr.splitlines()) == 1
    assert out.read_text() == before
    assert files_in(workspace) == [".agents", ".git", "converted.json"]


@pytest.mark.program
def test_convert_to_a_new_file_on_a_full_disk_leaves_nothing(workspace: Path,
                                                             hooks_json: Path) -> None:
    out = workspace / "converted.json"
    done = limited(["convert", str(hooks_json), "--to", "claude", "-o", str(out)],
                   workspace, 16)
    assert done.returncode == 1
    assert "File too large; the file is unchanged" in done.stderr
    assert not out.exists() and files_in(workspace) == [".agents", ".git"]


@pytest.mark.program
def test_init_on_a_full_disk_leaves_the_settings_whole(workspace: Path) -> None:
    settings = workspace / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(CLAUDE_SETTINGS)
    (workspace / ".agents").mkdir()
    (workspace / ".agents" / "hooks.json").write_text("{}\n")
    done = limited(["init", "--host", "claude", "--yes"], workspace, len(CLAUDE_SETTINGS) + 8)
    assert done.returncode == 1
    assert "File too large; the file is unchanged" in done.stderr
    assert settings.read_text() == CLAUDE_SETTINGS
    assert files_in(settings.parent) == ["settings.json"]


# --- trust --host codex -------------------------------------------------------------------------


def test_trust_codex_writes_through_a_linked_config(agenthooks: Run, workspace: Path,
                                                    home: Path, tmp_path: Path) -> None:
    hooks = {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo done"}]}]}}
    (workspace / ".codex").mkdir()
    (workspace / ".codex" / "hooks.json").write_text(json.dumps(hooks))
    real = tmp_path / "dotfiles-codex.toml"
    real.write_text('model = "o3"\n')
    real.chmod(0o600)
    (home / ".codex").mkdir()
    (home / ".codex" / "config.toml").symlink_to(real)
    done = agenthooks("trust", "--host", "codex", "--yes")
    assert done.code == 0, done.err
    assert (home / ".codex" / "config.toml").is_symlink()
    assert real.read_text().startswith('model = "o3"\n') and "trusted_hash" in real.read_text()
    assert real.stat().st_mode & 0o777 == 0o600
    assert Path(f"{real}.bak").read_text() == 'model = "o3"\n'
    assert f"what it replaced is kept in {real}.bak" in done.out
