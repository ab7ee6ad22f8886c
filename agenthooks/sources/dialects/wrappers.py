"""Commands that run other commands, for Claude Code's `if` (`sources.dialects.conditions`).

`readings(words)` gives the command Claude Code matches a simple command as, and every other
command the same words may run:

- Claude Code's own reading (permissions.md "Wrappers"): leading assignments dropped, then
  the fixed wrappers `timeout`, `time`, `nice`, `nohup`, `stdbuf`, `command`, `builtin`,
  `noglob` and a bare `xargs` stripped with their options; `command -v`/`-V` (a query) and
  `xargs` with options stay whole. Options agenthooks does not know make the reading unknown.
- The other readings, for a handler that can deny: the wrapped command as well as the whole
  one; `env` without its options and assignments; `exec`; the script of `bash -c`, `sh -c`
  and the like, and of `eval`, read as commands; a shell reading its standard input is
  unknown; `find -exec`'s command; and for the wrappers listed in `SUFFIX_WRAPPERS`
  (`sudo`, `xargs` with options, `setsid`, `ssh`, `docker`, `npx`...) each run of words
  after the wrapper that does not start with `-`, since their options are not modelled.

A reading is a tuple of words, or None when it cannot be known.
"""

from __future__ import annotations

import posixpath
import re

from agenthooks.shellwords import SHELL_VALUED, SHELLS, WRAPPERS, Unparsable, Word, simple_commands

TYPE_CHECKING = False
if TYPE_CHECKING:
    Reading = tuple[Word, ...] | None

MAX_DEPTH = 4
MAX_SUFFIXES = 64
_NAME_EQUALS = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")
_WHOLE = -1  # not a wrapper use: the command is matched whole

# The wrappers Claude Code strips (permissions.md "Wrappers"); their options are read from
# `WRAPPERS`, and one not listed there makes the reading unknown.
CLAUDE_WRAPPERS = frozenset(("timeout", "time", "nice", "nohup", "stdbuf", "command", "builtin",
                             "noglob", "xargs"))
_QUERIES = {"command": frozenset(("-v", "-V"))}
_ENV, _EXEC = WRAPPERS["env"], WRAPPERS["exec"]
# env's options but -S, whose string is a command this reader does not split.
_ENV_VALUES = _ENV.valued - {"-S", "--split-string"}
_EXEC_OPTIONS = _EXEC.flags | _EXEC.valued
_FIND_EXEC = frozenset(("-exec", "-execdir", "-ok", "-okdir"))
SUFFIX_WRAPPERS = frozenset((
    "sudo", "doas", "su", "runuser", "pkexec", "setsid", "setpriv", "ionice", "flock", "watch",
    "chrt", "taskset", "numactl", "prlimit", "nsenter", "unshare", "chroot", "firejail",
    "strace", "ltrace", "valgrind", "unbuffer", "systemd-run", "proxychains", "proxychains4",
    "torsocks", "catchsegv", "fakeroot", "caffeinate", "cgexec", "xvfb-run",
    "dbus-run-session", "script", "parallel", "xargs", "busybox", "npx", "bunx", "pnpx", "uvx",
    "pipx", "uv", "poetry", "pdm", "direnv", "devbox", "mise", "nix-shell", "docker",
    "podman", "kubectl", "ssh",
))


def readings(words: tuple[Word, ...], depth: int = 0) -> tuple[Reading, list[Reading]]:
    """(Claude Code's reading, the others) of one simple command's words."""
    words = after_assignments(words)
    exact = claude_strip(words)
    others: list[Reading] = []
    if exact != words:
        others.append(words)
    if exact:
        others.extend(inner_commands(exact, depth))
    for reading in (exact, *others):
        if reading and reading[0].literal and "/" in reading[0].text:
            # `/bin/rm` runs rm: the gate reads it as rm too.
            first = reading[0]._replace(text=posixpath.basename(reading[0].text))
            others.append((first, *reading[1:]))
    return exact, others


def after_assignments(words: tuple[Word, ...]) -> tuple[Word, ...]:
    index = 0
    while index < len(words) and words[index].assignment:
        index += 1
    return words[index:]


def claude_strip(words: tuple[Word, ...]) -> Reading:
    """The words with Claude Code's wrappers stripped; None when their options are not
    known."""
    for _ in range(16):
        if not words or not words[0].literal or words[0].text not in CLAUDE_WRAPPERS:
            return words
        start = _command_start(words)
        if start == _WHOLE:
            return words
        if start is None:
            return None
        words = words[start:]
    return None


def _command_start(words: tuple[Word, ...]) -> int | None:
    name = words[0].text
    wrapper = WRAPPERS[name]
    values, flags, operands = wrapper.valued, wrapper.flags, wrapper.operands
    i = 1
    while i < len(words):
        word = words[i]
        text = word.text
        if not word.literal:  # `nohup $CMD`: the command; with options it cannot be told
            if values or flags or operands:
                return None
            break
        if text == "--":
            i += 1
            break
        if not text.startswith("-") or text == "-":
            break
        if name == "xargs" or text in _QUERIES.get(name, ()):
            return _WHOLE
        step = _option_size(name, text, values, flags)
        if step is None:
            return None
        i += step
    i += operands
    return min(i, len(words))


def _option_size(name: str, text: str, values: frozenset[str],
                 flags: frozenset[str]) -> int | None:
    """How many words an option takes (itself and its value); None when unknown."""
    if text in flags:
        return 1
    if text in values:
        return 2
    if text.startswith("--") and text.partition("=")[0] in values:
        return 1
    if not text.startswith("--") and text[:2] in values:
        return 1  # -sKILL, -oL
    if name == "nice" and text[1:].isdigit():
        return 1  # nice -10
    return None


# --- other commands the words may run --------------------------------------------------------


def inner_commands(words: tuple[Word, ...], depth: int) -> list[Reading]:
    """The commands a wrapper, shell or `eval` in first place runs, for a gate."""
    if depth >= MAX_DEPTH:
        return [None]
    if not words[0].literal:
        return []
    name = posixpath.basename(words[0].text)
    if name == "env":
        return _env(words, depth)
    if name in SHELLS:
        return _shell(words, depth)
    if name == "eval":
        if not all(word.literal for word in words[1:]):
            return [None]
        return _script(" ".join(word.text for word in words[1:]), depth)
    if name == "exec":
        return _exec(words, depth)
    if name == "find":
        return _find(words, depth)
    if name in SUFFIX_WRAPPERS:
        return _suffixes(words, depth)
    return []


def _all(words: tuple[Word, ...], depth: int) -> list[Reading]:
    if not words:
        return []
    exact, others = readings(words, depth + 1)
    return [exact, *others]


def _script(text: str, depth: int) -> list[Reading]:
    """Every reading of every command of a script given as text (`bash -c`, `eval`)."""
    try:
        parsed = simple_commands(text)
    except Unparsable:
        return [None]
    found: list[Reading] = [None] if parsed.expands else []
    for command in parsed.commands:
        found.extend(_all(command, depth))
    return found


def _shell(words: tuple[Word, ...], depth: int) -> list[Reading]:
    """`bash -c SCRIPT`: the script's commands; `bash` reading its standard input: unknown;
    `bash FILE`: nothing agenthooks can read."""
    i, inline = 1, False
    while i < len(words):
        word = words[i]
        if not word.literal:
            return [None]
        text = word.text
        if text == "--":
            i += 1
            break
        if text in SHELL_VALUED:
            i += 2
        elif text.startswith("--"):
            i += 1
        elif text[:1] in "-+" and len(text) > 1:
            inline = inline or (text[0] == "-" and "c" in text[1:])
            i += 1
        else:
            break
    if i >= len(words):
        return [None]  # `bash`, `bash -s`: a script from standard input
    if not inline:
        return []
    script = words[i]
    return _script(script.text, depth) if script.literal else [None]


def _env(words: tuple[Word, ...], depth: int) -> list[Reading]:
    i = 1
    while i < len(words):
        text = words[i].text
        if _NAME_EQUALS.match(text):
            i += 1
        elif not words[i].literal:
            return [None]
        elif text in _ENV.flags or text.startswith(("--unset=", "--chdir=")):
            i += 1
        elif text in _ENV_VALUES:
            i += 2
        elif text.startswith("-"):
            return [None]  # -S splits a string into a command; other options unknown
        else:
            break
    return _all(words[i:], depth)


def _exec(words: tuple[Word, ...], depth: int) -> list[Reading]:
    i = 1
    while i < len(words) and words[i].literal and words[i].text in _EXEC_OPTIONS:
        i += 2 if words[i].text in _EXEC.valued else 1
    return _all(words[i:], depth)


def _find(words: tuple[Word, ...], depth: int) -> list[Reading]:
    found: list[Reading] = []
    for index, word in enumerate(words):
        if word.literal and word.text in _FIND_EXEC:
            end = index + 1
            while end < len(words) and words[end].text not in (";", "+"):
                end += 1
            found.extend(_all(words[index + 1:end], depth))
    return found


def _suffixes(words: tuple[Word, ...], depth: int) -> list[Reading]:
    """Each run of words after a wrapper whose options are not modelled, from each word
    that is not an option: one of them is the command it runs."""
    starts = [k for k in range(1, len(words))
              if words[k].literal and not words[k].text.startswith("-")]
    # Wrappers inside wrappers multiply the readings: fewer are tried the deeper they are.
    if len(starts) > MAX_SUFFIXES >> (2 * depth):
        return [None]
    found: list[Reading] = []
    for start in starts:
        found.extend(_all(words[start:], depth))
    return found
