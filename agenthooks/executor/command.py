"""Programs found on PATH without `shutil`: the shell a handler names, and the host's bash.

There is no direct exec: every hook command runs as `SHELL -c COMMAND`, even one without
shell syntax. A program exec'd in the shell's place was tried and compared with the shell
over a generated corpus (`tests/executor/test_direct_exec_differential.py`); it differed
where no rule can close the gap: dash forks the program, which then does not lead its
process group (exec'd in its place, `setsid ./check` forked and returned 0 at once instead
of the check's deny), the shells' builtins hide programs of the same name (`true --help`),
and each shell resets its own variables (IFS, PPID, OPTIND, BASH_VERSION...) in ways that
vary with its version. It saved about 1 ms a handler.
"""

from __future__ import annotations

import os
import stat

# (word, PATH) -> executable path, or None when the word is not found on that PATH.
# A run looks the same few shells up for each of its handlers: resolve each once.
_path_cache: dict[tuple[str, str], str | None] = {}


def lookup(word: str, path: str) -> str | None:
    """The executable file `word` names on `path` (remembered), or None."""
    key = (word, path)
    try:
        return _path_cache[key]
    except KeyError:
        pass
    found = _search_path(word, path)
    _path_cache[key] = found
    return found


def _search_path(word: str, path: str) -> str | None:
    for directory in path.split(":"):
        if not directory.startswith("/"):
            # An empty or relative entry means "relative to the cwd", which the cache
            # cannot key on: the caller then names the shell as given, for execve to refuse.
            return None
        candidate = f"{directory}/{word}"
        if _is_executable_file(candidate):
            return candidate
    return None


def _is_executable_file(path: str) -> bool:
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return False
    return stat.S_ISREG(st.st_mode) and os.access(path, os.X_OK)


def same_directory(path: str, cwd: str) -> bool:
    """Whether the absolute `path` names the directory `cwd` (as a shell checks PWD)."""
    if not path.startswith("/"):
        return False
    try:
        here, there = os.stat(cwd), os.stat(path)
    except (OSError, ValueError):
        return False
    return (here.st_dev, here.st_ino) == (there.st_dev, there.st_ino)


def which(name: str, path: str | None = None) -> str | None:
    """`shutil.which(name)`, without importing `shutil` (with bz2, lzma and fnmatch behind it,
    about 3 ms of a cold run): the executable file `name` is, or names on PATH, or None."""
    if "/" in name:
        return name if _is_executable_file(name) else None
    if path is None:
        path = os.environ.get("PATH", os.defpath)
    for directory in path.split(os.pathsep):
        candidate = os.path.join(directory or os.curdir, name)
        if _is_executable_file(candidate):
            return candidate
    return None
