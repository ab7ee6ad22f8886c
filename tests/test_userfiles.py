"""`agenthooks.userfiles.write`: a user's file written whole or not at all, through a link to
its target, its mode, owner and a `.bak` of it kept, on real files and links."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from agenthooks.userfiles import WriteError, write, written
from tests.cli.commands.test_writes import read_only


def test_a_new_file_is_written_whole(tmp_path: Path) -> None:
    target = tmp_path / "settings.json"
    result = write(str(target), '{"a": 1}\n')
    assert target.read_text() == '{"a": 1}\n'
    assert result.backup is None and result.link is None
    assert sorted(p.name for p in tmp_path.iterdir()) == ["settings.json"]


def test_the_old_file_is_kept_as_bak_with_its_mode(tmp_path: Path) -> None:
    target = tmp_path / "settings.json"
    target.write_text("old\n")
    target.chmod(0o600)
    result = write(str(target), "new\n")
    assert target.read_text() == "new\n"
    assert (target.stat().st_mode & 0o777) == 0o600
    assert result.backup == f"{target}.bak" and Path(result.backup).read_text() == "old\n"
    assert written(result) == f"wrote {target}; what it replaced is kept in {target}.bak"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["settings.json", "settings.json.bak"]


@pytest.mark.skipif(os.geteuid() != 0, reason="giving a file to another user takes root")
def test_the_owner_and_group_are_kept(tmp_path: Path) -> None:
    target = tmp_path / "settings.json"
    target.write_text("old\n")
    os.chown(target, 4242, 4343)
    write(str(target), "new\n")
    assert (target.stat().st_uid, target.stat().st_gid) == (4242, 4343)


def test_a_link_is_written_through_to_its_target(tmp_path: Path) -> None:
    dotfiles = tmp_path / "dotfiles"
    dotfiles.mkdir()
    real = dotfiles / "claude.json"
    real.write_text("old\n")
    link = tmp_path / "settings.json"
    link.symlink_to(real)
    result = write(str(link), "new\n")
    assert link.is_symlink() and real.read_text() == "new\n"
    assert result == (str(real), str(link), f"{real}.bak")
    assert "(through the link, into " in written(result)


def test_a_link_to_nothing_is_refused(tmp_path: Path) -> None:
    link = tmp_path / "settings.json"
    link.symlink_to(tmp_path / "missing.json")
    with pytest.raises(WriteError, match="which does not exist; nothing written"):
        write(str(link), "new\n")
    assert not (tmp_path / "missing.json").exists() and link.is_symlink()


def test_a_bak_planted_as_a_link_is_replaced_not_followed(tmp_path: Path) -> None:
    victim = tmp_path / "victim"
    victim.write_text("keep me\n")
    folder = tmp_path / "repo"
    folder.mkdir()
    target = folder / "settings.json"
    target.write_text("old\n")
    (folder / "settings.json.bak").symlink_to(victim)
    write(str(target), "new\n")
    assert victim.read_text() == "keep me\n"
    assert not (folder / "settings.json.bak").is_symlink()
    assert (folder / "settings.json.bak").read_text() == "old\n"


def test_a_missing_folder_is_an_error_unless_asked_to_make_it(tmp_path: Path) -> None:
    target = tmp_path / "new" / "settings.json"
    with pytest.raises(WriteError, match="no such folder"):
        write(str(target), "x\n")
    write(str(target), "x\n", make_folders=True)
    assert target.read_text() == "x\n"


def test_a_read_only_folder_leaves_the_file_as_it_was(tmp_path: Path) -> None:
    folder = tmp_path / "repo"
    folder.mkdir()
    target = folder / "settings.json"
    target.write_text("old\n")
    with read_only(folder), pytest.raises(WriteError) as raised:
        write(str(target), "new\n")
    assert str(raised.value).startswith(f"cannot write {target}: ")
    assert str(raised.value).endswith("; the file is unchanged")
    assert target.read_text() == "old\n"
    assert sorted(p.name for p in folder.iterdir()) == ["settings.json"]


def test_a_folder_in_place_of_the_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "settings.json").mkdir()
    with pytest.raises(WriteError, match="not a regular file"):
        write(str(tmp_path / "settings.json"), "x\n")


@pytest.mark.skipif(os.geteuid() != 0, reason="acting as another user takes root")
def test_another_users_file_is_refused_not_taken_over() -> None:
    """A user who may write another user's file (group-writable, say) would leave a
    replacement of their own: refused, and the file stays its owner's."""
    import shutil
    import tempfile

    folder = Path(tempfile.mkdtemp(prefix="agenthooks-owner-"))
    try:
        folder.chmod(0o777)
        target = folder / "settings.json"
        target.write_text("theirs\n")
        target.chmod(0o666)
        pid = os.fork()
        if pid == 0:  # the child, as user 4242
            code = 3
            try:
                os.setgid(4242)
                os.setuid(4242)
                write(str(target), "mine\n")
                code = 1
            except WriteError as exc:
                code = 0 if "belongs to user 0" in str(exc) else 2
            finally:
                os._exit(code)
        _, status = os.waitpid(pid, 0)
        assert os.waitstatus_to_exitcode(status) == 0
        assert target.read_text() == "theirs\n" and target.stat().st_uid == 0
        assert sorted(p.name for p in folder.iterdir()) == ["settings.json"]
    finally:
        shutil.rmtree(folder)
