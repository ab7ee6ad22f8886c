"""A hook file's bytes and text, as every format reads them: never a hang on a FIFO, never
unbounded (AGENTHOOKS_MAX_CONFIG_BYTES), never a directory or device read as a file; and the
one-line messages for text that is not UTF-8 or not JSON.
"""

from __future__ import annotations

import errno
import os
import stat

TYPE_CHECKING = False
if TYPE_CHECKING:
    from json import JSONDecodeError


# A hook file is a few kilobytes; a cap keeps a mistaken path (a log, an image, /dev/zero)
# from filling memory. AGENTHOOKS_MAX_CONFIG_BYTES raises or lowers it.
MAX_CONFIG_BYTES = 16 * 1024 * 1024
_FILE_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


class Unusable(Exception):
    """Why a file named as a config cannot be read as one: a rule id and a message."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(message)
        self.rule = rule
        self.message = message


def max_config_bytes() -> int:
    value = os.environ.get("AGENTHOOKS_MAX_CONFIG_BYTES", "")
    return int(value) if value.isdigit() and int(value) > 0 else MAX_CONFIG_BYTES


def _size_text(size: int) -> str:
    return f"{size / (1024 * 1024):.1f} MiB" if size >= 1024 * 1024 else f"{size} bytes"


def _open_error(shown: str, file: str, exc: OSError) -> Unusable:
    """The `unreadable` finding for a file that does not open, naming a broken link as such."""
    if os.path.islink(file) and exc.errno == errno.ENOENT:
        return Unusable(
            "unreadable",
            f"cannot read {shown}: it is a symbolic link to {os.readlink(file)}, "
            "which does not exist",
        )
    if exc.errno == errno.ELOOP:
        return Unusable("unreadable", f"cannot read {shown}: a loop of symbolic links")
    return Unusable("unreadable", f"cannot read {shown}: {exc.strerror or exc}")


def read_bytes(file: str, shown: str | None = None,
               what: str = "hooks file") -> tuple[bytes, os.stat_result]:
    """A config's bytes and status, or `Unusable`: never a hang on a FIFO, never unbounded."""
    fd, status = open_config(file, shown, what)
    try:
        return read_open(fd, status, file if shown is None else shown, what), status
    finally:
        os.close(fd)


def open_config(file: str, shown: str | None = None,
                what: str = "hooks file") -> tuple[int, os.stat_result]:
    """A config opened for reading, and its status, or `Unusable` (the caller closes it).

    O_NONBLOCK makes opening a FIFO return at once (it changes nothing for a regular file);
    fstat on the open descriptor then refuses anything but a regular file, so the check
    and the read see the same file.
    """
    shown = file if shown is None else shown
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(file, flags)
    except OSError as exc:
        raise _open_error(shown, file, exc) from None
    try:
        status = os.fstat(fd)
        if not stat.S_ISREG(status.st_mode):
            kind = next((name for test, name in _FILE_KINDS if test(status.st_mode)), None)
            raise Unusable("not-a-file", f"{shown} is {kind or 'not a regular file'}, "
                                         f"not a {what}")
        cap = max_config_bytes()
        if status.st_size > cap:
            raise _too_large(shown, status.st_size, cap, what)
    except OSError as exc:
        os.close(fd)
        raise Unusable("unreadable", f"cannot read {shown}: {exc.strerror or exc}") from None
    except Unusable:
        os.close(fd)
        raise
    return fd, status


def read_open(fd: int, status: os.stat_result, shown: str, what: str = "hooks file") -> bytes:
    """The bytes of a config `open_config` opened, or `Unusable`."""
    cap = max_config_bytes()
    try:
        data = _read_at_most(fd, cap + 1)
    except OSError as exc:
        raise Unusable("unreadable", f"cannot read {shown}: {exc.strerror or exc}") from None
    if len(data) > cap:  # grew since fstat
        raise _too_large(shown, len(data), cap, what)
    return data


def _too_large(shown: str, size: int, cap: int, what: str = "hooks file") -> Unusable:
    return Unusable(
        "too-large",
        f"{shown} is {_size_text(size)}, over the {_size_text(cap)} limit for a {what} "
        "(AGENTHOOKS_MAX_CONFIG_BYTES)",
    )


def _read_at_most(fd: int, limit: int) -> bytes:
    chunks: list[bytes] = []
    remaining = limit
    while remaining > 0:
        chunk = os.read(fd, min(remaining, 1024 * 1024))
        if not chunk:
            break
        chunks.append(chunk)
        remaining -= len(chunk)
    return b"".join(chunks)


def not_utf8(data: bytes, exc: UnicodeDecodeError) -> tuple[str, int, int]:
    """The message, line and column of the first byte that is not UTF-8."""
    prefix = data[: exc.start].decode("utf-8", "replace")
    line = prefix.count("\n") + 1
    column = len(prefix) - (prefix.rfind("\n") + 1) + 1
    return f"the file is not UTF-8: byte 0x{data[exc.start]:02x}", line, column


def syntax_message(text: str, exc: JSONDecodeError) -> str:
    """json's message, with the likely cause when it is a habit from JavaScript."""
    rest = text[exc.pos:].lstrip()
    if rest.startswith(("//", "/*")):
        return f"{exc.msg}: comments are not allowed in JSON"
    if exc.pos > 0 and text[: exc.pos].rstrip().endswith(",") and rest[:1] in ("}", "]"):
        return f"{exc.msg}: trailing commas are not allowed in JSON"
    return exc.msg
