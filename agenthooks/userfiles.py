"""Writing a user's file: whole, where the user meant, or not at all.

Every command that writes a file for a user (`init`, `convert -o`, `trust --host codex`,
`test --record`) writes through `write`:

- the new text goes to a temporary file of a random name in the target's own folder, created
  with `O_CREAT|O_EXCL|O_NOFOLLOW` (a name planted in a repository, even as a symbolic link,
  is never opened), written whole, flushed and `fsync`ed, then renamed over the target, and
  the folder `fsync`ed: a full disk, a size limit or a crash leaves the old file as it was;
- a symbolic link is written through: its target gets the new text and the link stays (a
  dotfiles repository keeps its link); a link to nothing is refused;
- the new file keeps the old one's mode, owner and group (a file agenthooks could not give
  back to its owner is refused, not taken over);
- what it replaced is kept beside it as `<file>.bak` (the old file itself, hard-linked when
  the file system allows, else copied), which the caller names in its output.

Every failure is a `WriteError`, one line naming the file, and the file is unchanged.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import NamedTuple

from agenthooks._lean.suppress import suppress
from agenthooks.errors import AgentHooksError

BACKUP_SUFFIX = ".bak"
# Opened without following a link at the last component, and never an existing name.
_CREATE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC


class WriteError(AgentHooksError):
    """A user's file that could not be written; it is left as it was."""


class Written(NamedTuple):
    """Where `write` wrote: the file itself (a link's target when `path` is a link), the link
    written through (None: not a link), and the copy of what it replaced (None: a new file)."""

    path: str
    link: str | None
    backup: str | None


def target_of(path: str) -> str:
    """The file a write to `path` changes: `path`, or the file its symbolic links lead to.
    A link to nothing is refused: where it leads may be no place the user meant."""
    if not os.path.islink(path):
        return path
    target = os.path.realpath(path)
    if not os.path.lexists(target):
        raise WriteError(f"{path} is a symbolic link to {target}, which does not exist; "
                         "nothing written (create the file it names, or remove the link)")
    if not os.path.isfile(target):
        raise WriteError(f"{path} is a symbolic link to {target}, which is not a regular "
                         "file; nothing written")
    return target


def write(path: str, text: str, *, make_folders: bool = False, new_mode: int = 0o644,
          backup: bool = True) -> Written:
    """Replace the file at `path` with `text` (UTF-8), whole or not at all (module doc).
    `make_folders` creates a missing folder; `new_mode` is a new file's mode (less the
    umask); `backup` keeps what is replaced as `<file>.bak`."""
    target = target_of(path)
    folder = os.path.dirname(os.path.abspath(target))
    try:
        if make_folders:
            os.makedirs(folder, exist_ok=True)
        elif not os.path.isdir(folder):
            raise WriteError(f"cannot write {path}: no such folder {folder}")
        old = _stat(target)
        if old is not None:
            _check_owner(path, old)
        temporary = _write_temporary(folder, os.path.basename(target), text.encode("utf-8"),
                                     old, new_mode)
        try:
            kept = _keep(target, folder) if backup and old is not None else None
            os.replace(temporary, target)
        except BaseException:
            _remove(temporary)
            raise
        _sync_folder(folder)
    except OSError as exc:
        raise WriteError(f"cannot write {path}: {exc.strerror or exc}; the file is "
                         "unchanged") from None
    return Written(target, path if target != path else None, kept)


def _stat(path: str) -> os.stat_result | None:
    try:
        found = os.stat(path)
    except FileNotFoundError:
        return None
    import stat

    if not stat.S_ISREG(found.st_mode):
        raise WriteError(f"cannot write {path}: it is not a regular file")
    return found


def _check_owner(path: str, old: os.stat_result) -> None:
    """A replacement belongs to whoever writes it: only root can give it back to another
    user, so anyone else replacing another user's file is refused."""
    if old.st_uid != os.geteuid() and os.geteuid() != 0:
        raise WriteError(f"cannot write {path}: it belongs to user {old.st_uid}, and a "
                         "replacement would belong to you; nothing written")


def _write_temporary(folder: str, name: str, data: bytes, old: os.stat_result | None,
                     new_mode: int) -> str:
    """A new file of a random name in `folder` holding `data`, synced, with the old file's
    mode and owner (a new file: `new_mode` less the umask)."""
    while True:
        temporary = os.path.join(folder, f".{name}.{os.urandom(6).hex()}.tmp")
        try:
            fd = os.open(temporary, _CREATE, 0o600 if old is not None else new_mode)
            break
        except FileExistsError:
            continue
    try:
        try:
            _write_all(fd, data)
            if old is not None:
                _keep_owner(fd, old)
                os.fchmod(fd, old.st_mode & 0o7777)
            os.fsync(fd)
        finally:
            os.close(fd)
    except BaseException:
        _remove(temporary)
        raise
    return temporary


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _keep_owner(fd: int, old: os.stat_result) -> None:
    new = os.fstat(fd)
    if (old.st_uid, old.st_gid) == (new.st_uid, new.st_gid):  # a setgid folder's, say
        return
    try:
        os.fchown(fd, old.st_uid, old.st_gid)
    except PermissionError:
        # Not root: the user may still give the file its group, when it is one of theirs.
        os.fchown(fd, -1, old.st_gid)


def _keep(target: str, folder: str) -> str:
    """The old file kept as `<target>.bak`, replacing an older one. The name is replaced by a
    rename, so a `.bak` planted as a link is replaced, never followed."""
    backup = target + BACKUP_SUFFIX
    staged = os.path.join(folder, f".{os.path.basename(backup)}.{os.urandom(6).hex()}.tmp")
    try:
        os.link(target, staged, follow_symlinks=False)
    except OSError:  # a file system without hard links: a copy, mode and owner kept
        with open(target, "rb") as handle:
            copy = _write_temporary(folder, os.path.basename(backup), handle.read(),
                                    os.stat(target), 0o600)
        os.replace(copy, backup)
        return backup
    try:
        os.replace(staged, backup)
    except BaseException:
        _remove(staged)
        raise
    return backup


def _sync_folder(folder: str) -> None:
    """The rename made durable: a crash after `write` returns keeps the new file."""
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _remove(path: str) -> None:
    with suppress(OSError):
        os.unlink(path)


def written(result: Written, show: Callable[[str], str] | None = None) -> str:
    """One line for people: what was written, through which link, and where the old file
    is kept (`show`: how the command prints a path, e.g. relative to the workspace)."""
    shown = show or (lambda path: path)
    line = f"wrote {shown(result.link or result.path)}"
    if result.link is not None:
        line += f" (through the link, into {shown(result.path)})"
    if result.backup is not None:
        line += f"; what it replaced is kept in {shown(result.backup)}"
    return line
