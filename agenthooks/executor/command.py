"""Decide whether a hook command can be exec'd directly instead of through `/bin/sh -c`.

Most hook commands are a plain program with arguments (`python3 hooks/check.py`). Starting
a shell just to exec that program costs a second exec per handler on the hot path, so when
a command contains no shell syntax at all we exec it ourselves. Anything the shell could
interpret differently (quoting, expansions, redirections, builtins, assignments, globbing)
goes to the shell, so the outcome is the same as if the shell had run it.

The program also gets the environment that shell would have given it (`shell_environment`):
dash and bash export PWD (kept when it names the working directory, else the physical
path), and bash also sets `_` and SHLVL and drops an OLDPWD that is not a directory, while
dash drops variables whose names are not shell names. Where the shell would do more (bash's
BASH_ENV, exported functions, SHELLOPTS), or is another shell, the command goes to it.
bash execs the command in its own place, as we do; dash forks it and reports a signal that
ended it as an exit code of 128 + the signal and a line on stderr, which the executor does
in its place (`dash_status`).
"""

from __future__ import annotations

import os
import stat

TYPE_CHECKING = False
if TYPE_CHECKING:
    import signal
    from collections.abc import Mapping
else:
    import _signal as signal  # as in `executor.records`: the numbers without `enum`

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
    if path is not None and "%" in path:
        return None  # dash reads `dir%builtin` and the like in PATH entries
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


# Variables bash reads at start that change what it does before or around the command.
_BASH_READS = frozenset(
    ("BASH_ENV", "ENV", "SHELLOPTS", "BASHOPTS", "POSIXLY_CORRECT", "BASH_COMPAT",
     "BASH_XTRACEFD")
)
_QUIET_SIGNALS = (signal.SIGINT, signal.SIGPIPE)  # dash reports no end by these
_BASH_MAX_LEVEL = 998  # bash warns and resets SHLVL from 1000 up, after adding 1
# shell file -> "dash", "bash" or None (another shell, whose changes are not known here)
_shell_kinds: dict[str, str | None] = {}


def shell_kind(shell: str) -> str | None:
    """Which known shell `shell` is, by the file it resolves to: "dash", "bash" or None."""
    try:
        return _shell_kinds[shell]
    except KeyError:
        pass
    name = os.path.basename(_link_target(shell))
    kind = _shell_kinds[shell] = name if name in ("dash", "bash") else None
    return kind


def _link_target(path: str) -> str:
    """The file `path` ends at through symbolic links of its last component (`/bin/sh ->
    dash`): its name is the shell's; links among the directories do not change it. A few
    readlink calls, where realpath would lstat every component."""
    for _ in range(40):  # the kernel's own limit on a chain of links
        try:
            target = os.readlink(path)
        except (OSError, ValueError):
            return path
        path = target if target.startswith("/") else f"{os.path.dirname(path)}/{target}"
    return path


def shell_environment(
    kind: str | None, env: Mapping[str, str], cwd: str, word: str, executable: str
) -> Mapping[str, str] | None:
    """The environment a `kind` shell started with `env` in `cwd` gives the program it execs
    for `word` (found at `executable`); None when that is not known for sure.

    `cwd` is the physical working directory, as getcwd() gives it there."""
    if kind is None:
        return None
    pwd = env.get("PWD")
    if pwd is None or not same_directory(pwd, cwd):
        pwd = cwd
    if kind == "dash":
        # A shell name is an ASCII identifier: [A-Za-z_][A-Za-z0-9_]*
        if not (all(map(str.isidentifier, env)) and all(map(str.isascii, env))):
            return None  # dash drops them; in doubt about which (a locale's letters), ask it
        return env if env.get("PWD") == pwd else {**env, "PWD": pwd}
    return _bash_environment(env, pwd, word, executable)


def _bash_environment(
    env: Mapping[str, str], pwd: str, word: str, executable: str
) -> Mapping[str, str] | None:
    if "/" in word or any(name in _BASH_READS or name.startswith("BASH_FUNC_") for name in env):
        return None
    level = env.get("SHLVL", "0")  # bash adds 1 at start and takes it back to exec the command
    if not (level.isdigit() and level.isascii() and str(int(level)) == level
            and int(level) <= _BASH_MAX_LEVEL):
        return None
    changed = {**env, "PWD": pwd, "SHLVL": level, "_": executable}
    old = env.get("OLDPWD")
    if old is not None:
        if not old.startswith("/"):
            return None
        if not os.path.isdir(old):
            del changed["OLDPWD"]
    return changed


def dash_status(signum: int, *, core_dumped: bool) -> tuple[int, bytes]:
    """The exit code of `dash -c command` whose program a signal ended, and what dash writes
    to stderr then (non-interactive, it forks the program and reports its end).

    dash's `sprint_status`: nothing for SIGINT and SIGPIPE, else the C library's name of
    the signal, with " (core dumped)" when it dumped one."""
    if signum in _QUIET_SIGNALS:
        return 128 + signum, b""
    name = signal.strsignal(signum) or f"Unknown signal {signum}"
    return 128 + signum, (name + (" (core dumped)" if core_dumped else "") + "\n").encode()


def same_directory(path: str, cwd: str) -> bool:
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
