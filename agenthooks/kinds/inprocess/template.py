"""Fill the placeholders of a shell hook's command so that every value reaches it as data.

    hooks.shell("PostToolUse", "ruff check {tool_input[file_path]}")

Placeholders: `{event}`, `{tool_name}`, `{session_id}`, `{tool_input[key]}`, and `{key}` for
each top-level argument name (the three built-in names win a clash). Each value is quoted once
with `shlex.quote` (strings as they are, other values as compact JSON; a missing
`{tool_input[key]}`, or a tool name or session id of None, gives `''`). The template is read
once, from left to right, and substituted text is never read again, so an argument holding
`{event}` or `$(...)` stays data. Every other brace is left as written: a `{name}` that is
neither a built-in nor an argument, `find -exec {} ;`, `${HOME}`.

Where a placeholder stands decides how its quoted value is spliced in, because quoting alone
is only right in a plain word. The template is scanned as the shell will read it:
- in a plain word (also inside `$(...)`): the quoted value, `'a b'`;
- inside "double quotes": the quote is closed around it, `"x "'a b'" y"`;
- inside 'single quotes': likewise, `'x ''a b'' y'`; but only the explicit placeholders are
  filled there, never a bare `{key}`: single quotes hold programs
  (`awk '{print}'`, `jq '{name}'`) whose braces a model must not capture by naming an argument.
Backquotes, `${...}`, arithmetic `$((...))`/`((...))`, here-document bodies and syntax this
scanner does not follow (`$'...'`, `case` inside `$(...)`) hold no value: there is no safe way
to splice one in. An explicit placeholder in one of those is a ValueError when the template is
checked (`check_command`, at registration); a bare `{key}` there stays as written. So does
anything in a comment, and a brace after a backslash (`\\{`), the way to write a literal one.

A value is one word of data, no more: a command that runs its own arguments as code (`eval`,
`sh -c`, bash's `let` and `[[ -eq ]]`, an awk or jq program built from a value) is the
template author's to avoid, as is a value taken for an option (write `--` before it).
"""

from __future__ import annotations

import re
from shlex import quote

from agenthooks._lean.memo import memo

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Any

    # A literal piece of the command, or a slot: (source, name, context, text as written).
    Part = str | tuple[str, str, str, str]

BUILTINS: tuple[str, ...] = ("event", "tool_name", "session_id")
# {tool_input[key]} (a key without quotes, backslashes or expansions) or {name}.
_PLACEHOLDER = re.compile(r"\{(?:tool_input\[([^\]{}\n'\"`\\$]*)\]|([A-Za-z_][A-Za-z0-9_]*))\}")
_WORD_BREAKS = frozenset(" \t\n;&|()<>")
_SPLICE = {"u": ("", ""), "d": ('"', '"'), "s": ("'", "'")}
_NO_QUOTING = ", where no quoting keeps a value as data"
_CACHE_SIZE = 256


def render_command(
    template: str,
    *,
    event: str,
    tool_name: str | None,
    session_id: str | None,
    tool_input: Mapping[str, Any],
) -> str:
    """`template` with its placeholders filled, each value shell-quoted once."""
    parts = _compile(template)
    if len(parts) == 1 and isinstance(parts[0], str):
        return parts[0]
    builtins = {"event": event, "tool_name": tool_name or "", "session_id": session_id or ""}
    args: Mapping[str, Any] = {} if tool_input is None else tool_input
    out: list[str] = []
    for part in parts:
        if isinstance(part, str):
            out.append(part)
            continue
        source, name, context, text = part
        if source == "builtin":
            value: Any = builtins[name]
        elif source == "input":
            value = args.get(name, "")
        elif name in args:
            value = args[name]
        else:
            out.append(text)
            continue
        before, after = _SPLICE[context]
        out.append(f"{before}{quote(_text(name, value))}{after}")
    return "".join(out)


def check_command(template: str) -> None:
    """Raise ValueError if a placeholder of `template` stands where no value can be put."""
    _compile(template)


def _text(name: str, value: Any) -> str:
    if isinstance(value, str):
        return value
    import json

    try:
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False, default=str)
    except (ValueError, RecursionError) as exc:
        raise ValueError(f"argument {name!r} cannot be written as JSON: {exc}") from None


@memo(_CACHE_SIZE)
def _compile(template: str) -> tuple[Part, ...]:
    return _Scanner(template).run()


class _Frame:
    """One level of shell quoting: "u" plain words, "d" double quotes, "s" single quotes."""

    __slots__ = ("depth", "kind", "substitution")

    def __init__(self, kind: str, substitution: bool = False) -> None:
        self.kind = kind
        self.depth = 0  # unmatched "(" in this frame
        self.substitution = substitution  # opened by "$(": its ")" closes it


class _GiveUp(Exception):
    """The rest of the template uses syntax the scanner does not follow."""


class _Scanner:
    """One left-to-right pass over a template, reading it as /bin/sh would."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.start = 0  # where the pending literal text begins
        self.parts: list[Part] = []
        self.frames = [_Frame("u")]
        self.word_start = True  # a "#" or "((" here begins a comment or arithmetic
        self.heredocs: list[tuple[str, bool, int]] = []  # (delimiter, strip tabs, frame level)

    def run(self) -> tuple[Part, ...]:
        try:
            while self.pos < len(self.text):
                kind = self.frames[-1].kind
                if kind == "u":
                    self.plain()
                elif kind == "d":
                    self.double()
                else:
                    self.single()
            if len(self.frames) > 1:
                missing = {"s": "'", "d": '"', "u": ")"}[self.frames[-1].kind]
                raise ValueError(f"shell command has an unterminated {missing}: {self.text!r}")
        except _GiveUp as stop:
            self.inert(len(self.text), f"after {stop}, shell syntax this scanner does not follow")
        self.flush()
        return tuple(self.parts)

    # -- the three quoting contexts ------------------------------------------------------

    def plain(self) -> None:
        char = self.text[self.pos]
        at_word_start, self.word_start = self.word_start, False
        if char == "{" and self.placeholder("u"):
            return
        step = _PLAIN_STEPS.get(char)
        if step is not None:
            step(self, at_word_start)
        elif char in _WORD_BREAKS:
            self.word_break()
        elif at_word_start and self.frames[-1].substitution and _is_word(self.text, self.pos,
                                                                           "case"):
            # `case x in a)` closes no parenthesis: the ")" would end the $(...) too early.
            raise _GiveUp("case inside $(...)")
        else:
            self.pos += 1

    # What each character that means something to the shell does in a plain word; the
    # argument says whether it starts a word. Other word breaks end the word; the rest is text.

    def escaped(self, _at_word_start: bool) -> None:
        self.pos += 2

    def hash_sign(self, at_word_start: bool) -> None:
        if not at_word_start:
            self.pos += 1  # `a#b` is one word
            return
        end = self.text.find("\n", self.pos)
        self.pos = len(self.text) if end < 0 else end  # a comment: nothing in it is filled

    def open_paren(self, at_word_start: bool) -> None:
        if at_word_start and self.text.startswith("((", self.pos):
            self.arithmetic(self.pos + 2, "((...))")
            return
        self.frames[-1].depth += 1
        self.pos += 1
        self.word_start = True

    def close_paren(self, _at_word_start: bool) -> None:
        frame = self.frames[-1]
        self.pos += 1
        if frame.depth:
            frame.depth -= 1
            self.word_start = True
        elif frame.substitution:
            self.frames.pop()
        else:
            self.word_start = True

    def less_than(self, _at_word_start: bool) -> None:
        if self.text.startswith("<<<", self.pos):
            self.pos += 3  # a here-string: an ordinary word follows
            self.word_start = True
        elif self.text.startswith("<<", self.pos):
            self.heredoc_operator()
        else:
            self.word_break()

    def newline(self, _at_word_start: bool) -> None:
        self.word_break()
        if self.heredocs:
            self.heredoc_bodies()

    def word_break(self) -> None:
        self.pos += 1
        self.word_start = True

    def double(self) -> None:
        char = self.text[self.pos]
        if char == "{" and self.placeholder("d"):
            return
        if char == "\\":
            self.pos += 2
        elif char == '"':
            self.pop()
        elif char == "`":
            self.backquotes()
        elif char == "$":
            self.dollar(in_double=True)
        else:
            self.pos += 1

    def single(self) -> None:
        if self.text[self.pos] == "'":
            self.pop()
        elif not self.placeholder("s"):
            self.pos += 1

    def push(self, kind: str) -> None:
        self.frames.append(_Frame(kind))
        self.pos += 1

    def pop(self) -> None:
        self.frames.pop()
        self.pos += 1
        self.word_start = False

    # -- placeholders ----------------------------------------------------------------------

    def placeholder(self, context: str) -> bool:
        """Emit a slot for the placeholder at `pos`, if there is one that may be filled here."""
        found = _PLACEHOLDER.match(self.text, self.pos)
        if found is None:
            return False
        key, name = found.groups()
        if key is not None:
            slot = ("input", key, context, found.group())
        elif name in BUILTINS:
            slot = ("builtin", name, context, found.group())
        elif context == "s":
            return False
        else:
            slot = ("arg", name, context, found.group())
        self.flush()
        self.parts.append(slot)
        self.pos = self.start = found.end()
        return True

    def flush(self) -> None:
        if self.pos > self.start:
            self.parts.append(self.text[self.start:self.pos])
            self.start = self.pos

    def inert(self, stop: int, where: str) -> None:
        """Leave text[pos:stop] as written; an explicit placeholder there cannot be filled."""
        for found in _PLACEHOLDER.finditer(self.text, self.pos, stop):
            key, name = found.groups()
            if key is not None or name in BUILTINS:
                raise ValueError(
                    f"shell command: {found.group()} at offset {found.start()} cannot be "
                    f"filled {where}"
                )
        self.pos = stop
        self.word_start = False

    # -- regions that hold no value -------------------------------------------------------

    def backquotes(self) -> None:
        text, pos = self.text, self.pos + 1
        while pos < len(text):
            if text[pos] == "\\":
                pos += 2
            elif text[pos] == "`":
                self.inert(pos + 1, f"in backquotes{_NO_QUOTING} (write $(...))")
                return
            else:
                pos += 1
        raise ValueError(f"shell command has an unterminated `: {self.text!r}")

    def dollar(self, in_double: bool) -> None:
        text, pos = self.text, self.pos
        following = text[pos + 1:pos + 2]
        if following == "'" and not in_double:
            raise _GiveUp("$'...'")
        if text.startswith("$((", pos):
            self.arithmetic(pos + 3, "$((...))")
        elif following == "(":
            self.frames.append(_Frame("u", substitution=True))
            self.pos += 2
            self.word_start = True
        elif following == "{":
            self.parameter(pos + 2)
        else:
            self.pos += 1

    def arithmetic(self, pos: int, where: str) -> None:
        depth = 2
        while pos < len(self.text):
            char = self.text[pos]
            if char in "'\"`\\":
                raise _GiveUp(where)
            depth += (char == "(") - (char == ")")
            pos += 1
            if depth == 0:
                self.inert(pos, f"in {where}{_NO_QUOTING}")
                return
        raise _GiveUp(where)

    def parameter(self, pos: int) -> None:
        while pos < len(self.text):
            char = self.text[pos]
            if char == "}":
                self.inert(pos + 1, f"in ${{...}}{_NO_QUOTING}")
                return
            if char in "{'\"`\\" or self.text.startswith("$(", pos):
                raise _GiveUp("${...}")
            pos += 1
        raise _GiveUp("${...}")

    def heredoc_operator(self) -> None:
        text, pos = self.text, self.pos + 2
        strip = text.startswith("-", pos)
        pos += strip
        while pos < len(text) and text[pos] in " \t":
            pos += 1
        delimiter, end = _heredoc_word(text, pos)
        self.heredocs.append((delimiter, strip, len(self.frames)))
        self.inert(end, "in a here-document delimiter")

    def heredoc_bodies(self) -> None:
        if any(level != len(self.frames) for _, _, level in self.heredocs):
            raise _GiveUp("a here-document inside $(...)")
        for delimiter, strip, _ in self.heredocs:
            self.inert(_heredoc_end(self.text, self.pos, delimiter, strip),
                       f"in a here-document body{_NO_QUOTING}")
        self.heredocs.clear()
        self.word_start = True


_PLAIN_STEPS: dict[str, Callable[[_Scanner, bool], None]] = {
    "\\": _Scanner.escaped,
    "'": lambda scanner, _: scanner.push("s"),
    '"': lambda scanner, _: scanner.push("d"),
    "`": lambda scanner, _: scanner.backquotes(),
    "$": lambda scanner, _: scanner.dollar(in_double=False),
    "#": _Scanner.hash_sign,
    "(": _Scanner.open_paren,
    ")": _Scanner.close_paren,
    "<": _Scanner.less_than,
    "\n": _Scanner.newline,
}


def _is_word(text: str, pos: int, word: str) -> bool:
    end = pos + len(word)
    return text.startswith(word, pos) and (end == len(text) or text[end] in _WORD_BREAKS)


def _heredoc_word(text: str, pos: int) -> tuple[str, int]:
    """The delimiter after `<<` at `pos` with its quotes removed, and where the word ends."""
    word: list[str] = []
    begin = pos
    while pos < len(text) and text[pos] not in _WORD_BREAKS:
        char = text[pos]
        if char == "'":
            close = text.find("'", pos + 1)
            if close < 0:
                raise _GiveUp("a here-document delimiter")
            word.append(text[pos + 1:close])
            pos = close + 1
        elif char == '"':
            close = pos + 1
            while close < len(text) and text[close] != '"':
                close += 2 if text[close] == "\\" else 1
            if close >= len(text):
                raise _GiveUp("a here-document delimiter")
            word.append(re.sub(r'\\([$`"\\\n])', r"\1", text[pos + 1:close]))
            pos = close + 1
        elif char == "\\" and pos + 1 < len(text):
            word.append(text[pos + 1])
            pos += 2
        elif char in "$`":
            raise _GiveUp("a here-document delimiter")
        else:
            word.append(char)
            pos += 1
    if pos == begin:
        raise _GiveUp("a here-document without a delimiter")
    return "".join(word), pos


def _heredoc_end(text: str, pos: int, delimiter: str, strip: bool) -> int:
    """Where the here-document whose body starts at `pos` ends (after its delimiter line)."""
    while pos < len(text):
        newline = text.find("\n", pos)
        line_end = len(text) if newline < 0 else newline
        line = text[pos:line_end]
        if (line.lstrip("\t") if strip else line) == delimiter:
            return line_end if newline < 0 else newline + 1
        pos = line_end + 1
    return len(text)
