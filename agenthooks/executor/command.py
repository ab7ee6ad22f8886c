"""Decide whether a hook command can be exec'd directly instead of through `/bin/sh -c`.

Most hook commands are a plain program with arguments (`python3 hooks/check.py`). Starting
a shell just to exec that program costs a second exec per handler on the hot path, so when
a command contains no shell syntax at all we exec it ourselves. Anything the shell could
interpret differently (quoting, expansions, redirections, builtins, assignments, globbing)
goes to the shell, so the outcome is the same as if the shell had run it.
"""

from __future__ import annotations

import os
import stat

# Characters with no meaning to the shell: a command made only of these splits on spaces
# exactly as sh would split it, and no word is expanded. `~`, `*`, `?`, `[`, `#`, `{`, quotes,
# `$`, `\`, tabs and newlines are deliberately absent.
_SAFE_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 _./-=:,+@%")

# Words the shell treats specially in command position: keywords and special builtins (which
# behave differently from any program of the same name), and regular builtins whose output
# may differ from the program on PATH (echo, printf, test, pwd, kill, time). Words of bash
# are included in case /bin/sh is bash.
_SHELL_WORDS_TEXT = """
    if then else elif fi do done case esac while until for in ! exit cd export set unset
    eval exec source . : return shift trap readonly wait alias umask ulimit type command
    read times break continue getopts hash jobs fg bg local echo printf test [ pwd kill
    time chdir unalias fc let function select coproc declare typeset builtin enable logout
    mapfile readarray dirs pushd popd disown suspend compgen complete shopt caller bind
    history
"""
_SHELL_WORDS = frozenset(_SHELL_WORDS_TEXT.split())

# (word, PATH) -> executable path, or None when the word is not found on that PATH.
# Hooks run many times per process with the same few commands, so resolve each once.
_path_cache: dict[tuple[str, str], str | None] = {}


def direct_command(
    command: str, cwd: str = ".", path: str | None = None
) -> tuple[str, list[str]] | None:
    """The executable and argv to run `command` without a shell, or None to use the shell.

    `argv[0]` is the word as written (what the program would see under sh); the executable
    is the file to exec. `path` is the PATH the command runs with (None: this process's).
    A word containing `/` is taken relative to `cwd`, like the shell would after `cd cwd`.
    """
    if not command or not _SAFE_CHARS.issuperset(command):
        return None
    argv = command.split()
    if not argv:
        return None
    word = argv[0]
    if "=" in word or word in _SHELL_WORDS:
        return None
    if "/" in word:
        target = word if word.startswith("/") else f"{cwd}/{word}"
        return (word, argv) if _is_executable_file(target) else None
    if path is None:
        path = os.environ.get("PATH")
    if path is None:
        # sh falls back to its own default PATH; let it.
        return None
    executable = lookup(word, path)
    return None if executable is None else (executable, argv)


def direct_argv(command: str, cwd: str = ".", path: str | None = None) -> list[str] | None:
    """An argv that execv can run in place of `/bin/sh -c command`, or None.

    The first element is the executable found on PATH (or the path as written).
    """
    found = direct_command(command, cwd, path)
    if found is None:
        return None
    executable, argv = found
    return [executable, *argv[1:]]


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
            # cannot key on; such a PATH is rare enough to leave to the shell.
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
