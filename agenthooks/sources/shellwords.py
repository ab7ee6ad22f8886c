"""A shell command split as a POSIX shell splits it, each word with its place in the text.

Trust needs what a hook's command names (`sources.reach`) and where, to run a verified copy in
its place; `shlex` gives neither places nor control operators. Words are read with the shell's
quoting (`'...'`, `"..."`, backslashes), `~`, and `$NAME`/`${NAME}` for the variables whose
values are known before the command runs (a handler's environment: its workspace, its plugin
folder); anything else built at run time (another variable, `$(...)`, backquotes, `$'...'`,
`${X:-y}`) leaves the word's `value` unknown (`None`), its `loose` text still searchable.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import NamedTuple
else:
    from agenthooks._records import NamedTuple

# Longest first: what the shell reads as one operator.
OPERATORS = ("<<<", "<<-", "&&", "||", ";;", "|&", ">>", "<<", "&>", ">&", "<&", ">|", "<>",
             ";", "&", "|", "(", ")", "\n", "<", ">")
_BREAK = frozenset(" \t;&|()<>\n")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_SPECIAL = frozenset("@*#?-$!0123456789")


class Word(NamedTuple):
    """One word: where it is (`start`, `end`) and what the shell makes of it."""

    start: int
    end: int
    value: str | None  # None: part of it is known only at run time
    loose: str  # the value, with the run-time parts as written: searched, never run
    inner: tuple[str, ...] = ()  # the commands of its `$(...)` and backquotes


class Operator(NamedTuple):
    start: int
    text: str


def split(command: str, variables: Mapping[str, str]) -> list[Word | Operator]:
    """The words and operators of `command`, comments and line continuations dropped."""
    found: list[Word | Operator] = []
    i, end = 0, len(command)
    while i < end:
        c = command[i]
        if c in " \t":
            i += 1
        elif command.startswith("\\\n", i):
            i += 2
        elif c == "#":
            newline = command.find("\n", i)
            i = end if newline < 0 else newline
        elif c in "&|;()<>\n":
            op = next(o for o in OPERATORS if command.startswith(o, i))
            found.append(Operator(i, op))
            i += len(op)
        else:
            word = _Reader(command, i, variables).word()
            found.append(word)
            i = word.end
    return found


class _Reader:
    """Reads one word from `start`: its value and its loose text, part by part."""

    def __init__(self, text: str, start: int, variables: Mapping[str, str]) -> None:
        self.text = text
        self.start = start
        self.i = start
        self.variables = variables
        self.value: list[str] = []
        self.loose: list[str] = []
        self.inner: list[str] = []
        self.known = True

    def add(self, value: str | None, raw: str) -> None:
        if value is None:
            self.known = False
            self.loose.append(raw)
        else:
            self.value.append(value)
            self.loose.append(value)

    def word(self) -> Word:
        text = self.text
        self._tilde()
        while self.i < len(text) and text[self.i] not in _BREAK:
            c = text[self.i]
            if c == "'":
                close = text.find("'", self.i + 1)
                close = len(text) if close < 0 else close
                self.add(text[self.i + 1:close], "")
                self.i = close + 1
            elif c == '"':
                self._double()
            elif c == "\\":
                self.add(text[self.i + 1:self.i + 2], "")
                self.i += 2
            elif c in "$`":
                self._expansion()
            else:
                self.add(c, c)
                self.i += 1
        end = min(self.i, len(text))
        value = "".join(self.value) if self.known else None
        return Word(self.start, end, value, "".join(self.loose), tuple(self.inner))

    def _tilde(self) -> None:
        """`~` alone or before `/` at the start of a word: the home directory."""
        text = self.text
        after = text[self.i + 1:self.i + 2]
        if text.startswith("~", self.i) and (not after or after == "/" or after in _BREAK):
            home = self.variables.get("HOME") or os.path.expanduser("~")
            self.add(home, "~")
            self.i += 1

    def _double(self) -> None:
        text = self.text
        self.i += 1
        while self.i < len(text) and text[self.i] != '"':
            c = text[self.i]
            if c == "\\" and text[self.i + 1:self.i + 2] in ('"', "\\", "$", "`", "\n"):
                self.add(text[self.i + 1], text[self.i + 1])
                self.i += 2
            elif c in "$`":
                self._expansion(quoted=True)
            else:
                self.add(c, c)
                self.i += 1
        self.i += 1

    def _expansion(self, quoted: bool = False) -> None:
        """`$...` or a backquote at `self.i`: a known variable's value, else unknown."""
        start = self.i
        value, self.i = expansion(self.text, start, self.variables, quoted)
        raw = self.text[start:self.i]
        self.add(value, raw)
        if raw.startswith("`"):
            self.inner.append(raw[1:-1])
        elif raw.startswith("$(") and not raw.startswith("$(("):
            self.inner.append(raw[2:-1])


def expansion(text: str, i: int, variables: Mapping[str, str],
              quoted: bool = False) -> tuple[str | None, int]:
    """The value of the expansion at `i` (None when known only at run time) and its end."""
    if text[i] == "`":
        return None, _closing(text, i + 1, "`")
    nxt = text[i + 1:i + 2]
    if nxt == "(":
        return None, _matching(text, i + 1)
    if nxt == "{":
        close = text.find("}", i + 2)
        close = len(text) - 1 if close < 0 else close
        name = text[i + 2:close]
        return variables.get(name) if _NAME.fullmatch(name) else None, close + 1
    if nxt == "'" and not quoted:  # $'...': ANSI-C quoting
        return None, _closing(text, i + 2, "'")
    named = _NAME.match(text, i + 1)
    if named is not None:
        return variables.get(named.group()), named.end()
    if nxt and nxt in _SPECIAL:
        return None, i + 2
    return "$", i + 1  # a lone `$` is itself


def _closing(text: str, i: int, quote: str) -> int:
    """Just past the next unescaped `quote` from `i` (the end when there is none)."""
    while i < len(text):
        if text[i] == "\\":
            i += 2
        elif text[i] == quote:
            return i + 1
        else:
            i += 1
    return len(text)


def _matching(text: str, i: int) -> int:
    """Just past the `)` closing the `(` at `i`, quotes skipped."""
    depth = 0
    while i < len(text):
        c = text[i]
        if c in "'\"`":
            i = _closing(text, i + 1, c) if c != "'" else (text.find("'", i + 1) + 1 or len(text))
            continue
        if c == "\\":
            i += 2
            continue
        depth += {"(": 1, ")": -1}.get(c, 0)
        i += 1
        if depth == 0:
            return i
    return len(text)
