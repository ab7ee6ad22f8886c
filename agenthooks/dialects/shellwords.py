"""Bash command text split into the simple commands it runs, for Claude Code's `if`.

`simple_commands(text)` reads a command line as bash does far enough to know which commands
it starts and with which words: quotes (`'…'`, `"…"`, `$'…'`) and backslashes are removed,
so `"rm" -rf`, `\\rm` and `rm<TAB>-rf` all read as the words `rm`, `-rf`; the separators
`&&`, `||`, `;`, `|`, `|&`, `&` and newlines end a command; subshells `( … )`, groups
`{ …; }`, `if`/`while`/`until`/`for` bodies, command substitutions (`$( … )`, backticks,
including those inside double quotes, `${…}` and unquoted here-documents) and process
substitutions (`<( … )`, `>( … )`) are read for the commands inside them; redirections and
their targets are not words of the command. A word whose value is only known when the
command runs (a parameter, a substitution, an unquoted glob, brace or tilde expansion) is
marked as not literal.

What this reader does not model (`case`, arithmetic commands, array assignments, extended
globs, unterminated quotes, coprocesses, very long or deeply nested text) raises
`Unparsable`: the caller decides what an undecidable command means for its hook.
Loaded only when an `if` rule is evaluated.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import NamedTuple
else:
    from agenthooks._records import NamedTuple

MAX_LENGTH = 100_000
MAX_DEPTH = 32
_BLANKS = " \t"
_META = " \t\n;&|<>()"
# Longest first: an operator is the longest of these at a place.
_OPERATORS = ("&>>", "<<-", "<<<", ";;&", "&&", "||", ";;", ";&", "|&", ">>", "<<", "<&",
              ">&", "<>", ">|", "&>", ";", "&", "|", "<", ">", "\n", "(", ")")
_SEPARATORS = frozenset(("&&", "||", ";", "&", "|", "|&", "\n"))
_REDIRECTIONS = frozenset(("&>>", "<<-", "<<<", ">>", "<<", "<&", ">&", "<>", ">|", "&>",
                           "<", ">"))
# Reserved words after which a new command starts; `}`, `fi`, `done` and the like end one.
_KEYWORDS = frozenset(("!", "{", "}", "if", "then", "else", "elif", "fi", "do", "done",
                       "while", "until"))
_UNMODELLED = frozenset(("case", "esac", "coproc", "select", "function"))
_ANSI_C = {"n": "\n", "t": "\t", "r": "\r", "a": "\a", "b": "\b", "e": "\x1b", "E": "\x1b",
           "f": "\f", "v": "\v", "\\": "\\", "'": "'", '"': '"', "?": "?"}


class Unparsable(ValueError):
    """Command text this reader cannot split with certainty."""


class Word(NamedTuple):
    text: str  # after quote removal; expansions kept as written
    literal: bool  # its value is `text` whatever the environment
    assignment: bool = False  # NAME=value (before the command name)


class Parsed(NamedTuple):
    commands: tuple[tuple[Word, ...], ...]  # every simple command, substitutions' too
    expands: bool  # some word holds a parameter or command substitution


def simple_commands(text: str) -> Parsed:
    """Every simple command `text` runs, as words; `Unparsable` when it cannot tell."""
    if len(text) > MAX_LENGTH:
        raise Unparsable(f"longer than {MAX_LENGTH} characters")
    reader = _Reader(text)
    end = reader.commands(0, closing=None, depth=0)
    if end < len(text):
        raise Unparsable(f"unexpected {text[end]!r}")
    return Parsed(tuple(reader.found), reader.expands)


class _Reader:
    def __init__(self, text: str) -> None:
        self.text = text
        self.found: list[tuple[Word, ...]] = []
        self.expands = False
        self.heredocs: list[tuple[str, bool, bool]] = []  # (delimiter, strip tabs, expand)

    # --- lists of commands ----------------------------------------------------------------

    def commands(self, i: int, closing: str | None, depth: int) -> int:
        """Read commands from i up to `closing` (`)`) or the end; the index after them."""
        if depth > MAX_DEPTH:
            raise Unparsable("nested too deeply")
        text = self.text
        words: list[Word] = []
        while True:
            i = self.blanks(i)
            if i >= len(text):
                self.finish(words)
                if closing is not None:
                    raise Unparsable(f"missing {closing!r}")
                return i
            if text.startswith(("<(", ">("), i):  # a process substitution: a word
                self.expands = True
                end = self.commands(i + 2, ")", depth + 1)
                words.append(Word(text[i:end], False))
                i = end
                continue
            operator = self.operator(i)
            if operator == ")":
                self.finish(words)
                if closing != ")":
                    raise Unparsable("unexpected ')'")
                return i + 1
            if operator is not None:
                i = self.after_operator(operator, i, words, depth)
                continue
            if text[i] == "#":
                i = self.comment(i)
                continue
            i = self.word_at(i, words, depth)

    def after_operator(self, operator: str, i: int, words: list[Word], depth: int) -> int:
        end = i + len(operator)
        if operator in _SEPARATORS:
            self.finish(words)
            return self.heredoc_bodies(end, depth) if operator == "\n" else end
        if operator in _REDIRECTIONS:
            return self.redirection(operator, end, depth)
        if operator == "(":
            if words:
                raise Unparsable("a function definition or '(' inside a command")
            if self.text.startswith("(", end):
                raise Unparsable("arithmetic command")
            return self.commands(end, ")", depth + 1)
        raise Unparsable(f"{operator!r} (case)")

    def word_at(self, i: int, words: list[Word], depth: int) -> int:
        start = i
        word, i = self.word(i, depth)
        if i == start:
            raise Unparsable(f"unexpected {self.text[i]!r}")
        if i < len(self.text) and self.text[i] in "<>" and word.literal and \
                self.text[start:i].isdigit():
            return i  # a file descriptor number: part of the redirection that follows
        if not words and not word.assignment and word.literal:
            if word.text in _UNMODELLED or word.text in ("[[", "for"):
                return self.compound_word(word.text, i, words, depth)
            if word.text in _KEYWORDS:
                return i
        if self.text.startswith("(", i):
            raise Unparsable("'(' right after a word")
        words.append(word)
        return i

    def compound_word(self, keyword: str, i: int, words: list[Word], depth: int) -> int:
        if keyword == "[[":
            return self.condition(i, depth)
        if keyword == "for":
            if self.text.startswith("((", self.blanks(i)):
                raise Unparsable("arithmetic for")
            # `for NAME in WORDS`: words, not a command; their substitutions still run.
            while True:
                i = self.blanks(i)
                if i >= len(self.text) or self.operator(i) is not None:
                    return i
                start = i
                _, i = self.word(i, depth)
                if i == start:
                    raise Unparsable(f"unexpected {self.text[i]!r}")
        raise Unparsable(f"{keyword!r}")

    def condition(self, i: int, depth: int) -> int:
        """`[[ … ]]`: words and operators up to `]]`, none of them a command."""
        text = self.text
        while True:
            i = self.blanks(i)
            if i >= len(text):
                raise Unparsable("missing ']]'")
            if text.startswith("]]", i) and (i + 2 == len(text) or text[i + 2] in _META):
                return i + 2
            if text[i] in _META or text[i] == "!":
                i += 1
                continue
            _, i = self.word(i, depth)

    def finish(self, words: list[Word]) -> None:
        if words:
            self.found.append(tuple(words))
            words.clear()

    def blanks(self, i: int) -> int:
        text = self.text
        while i < len(text):
            if text[i] in _BLANKS:
                i += 1
            elif text.startswith("\\\n", i):
                i += 2
            else:
                break
        return i

    def operator(self, i: int) -> str | None:
        for operator in _OPERATORS:
            if self.text.startswith(operator, i):
                return operator
        return None

    def comment(self, i: int) -> int:
        end = self.text.find("\n", i)
        return len(self.text) if end < 0 else end

    # --- redirections and here-documents --------------------------------------------------

    def redirection(self, operator: str, i: int, depth: int) -> int:
        i = self.blanks(i)
        if i >= len(self.text) or self.operator(i) is not None:
            raise Unparsable(f"{operator!r} without a target")
        start = i
        target, i = self.word(i, depth)
        if operator in ("<<", "<<-"):
            raw = self.text[start:i]
            quoted = any(c in raw for c in "'\"\\")
            self.heredocs.append((target.text, operator == "<<-", not quoted))
        return i

    def heredoc_bodies(self, i: int, depth: int) -> int:
        """The bodies of the here-documents opened on the line that just ended."""
        pending, self.heredocs = self.heredocs, []
        for delimiter, strip, expand in pending:
            start = i
            while i < len(self.text):
                end = self.text.find("\n", i)
                end = len(self.text) if end < 0 else end
                line = self.text[i:end]
                if (line.lstrip("\t") if strip else line) == delimiter:
                    body, i = self.text[start:i], min(end + 1, len(self.text))
                    break
                i = end + 1
            else:
                body, i = self.text[start:], len(self.text)
            if expand:
                self.expansions_in(body, depth)
        return i

    def expansions_in(self, body: str, depth: int) -> None:
        """The substitutions of an unquoted here-document's body (run when it is read)."""
        inner = _Reader(body)
        j = 0
        while j < len(body):
            if body[j] == "\\":
                j += 2
            elif body[j] in "$`":
                j = inner.expansion(j, depth + 1, [])
            else:
                j += 1
        self.found.extend(inner.found)
        self.expands = self.expands or inner.expands

    # --- words ----------------------------------------------------------------------------

    def word(self, i: int, depth: int) -> tuple[Word, int]:
        """One word from i: its text after quote removal and whether it is literal."""
        text = self.text
        state = _Word(i)
        while i < len(text) and text[i] not in _META:
            char = text[i]
            if char == "=" and state.bare and not state.assignment and \
                    _is_name(text[state.start:i]):
                state.assignment = True
                state.parts.append(char)
                i += 1
                if text.startswith("(", i):
                    raise Unparsable("array assignment")
            elif char in "\\'\"$`":
                i = self.quoted(i, depth, state)
            else:
                state.parts.append(char)
                i += 1
                state.bracket = state.bracket or char == "["
                if char in "*?" or (char == "]" and state.bracket) or \
                        (char == "~" and i - 1 == state.start):
                    state.literal = False
        raw = text[state.start:i]
        if state.literal and "{" in raw and "}" in raw and ("," in raw or ".." in raw):
            state.literal = False  # brace expansion
        return Word("".join(state.parts), state.literal, state.assignment), i

    def quoted(self, i: int, depth: int, state: _Word) -> int:
        """A backslash, a quoted string or an expansion at i, added to the word."""
        text, parts = self.text, state.parts
        char = text[i]
        following = text[i + 1] if i + 1 < len(text) else ""
        state.bare = False
        known = True
        if char == "\\":
            if following not in ("", "\n"):
                parts.append(following)
            end = min(i + 2, len(text))
        elif char == "'":
            end = text.find("'", i + 1)
            if end < 0:
                raise Unparsable("unterminated '")
            parts.append(text[i + 1:end])
            end += 1
        elif char == '"' or (char == "$" and following == '"'):
            end, known = self.double_quoted(i + (1 if char == '"' else 2), parts, depth)
        elif char == "$" and following == "'":
            end = self.ansi_c(i + 2, parts)
        else:
            end = self.expansion(i, depth, parts)
            known = end == i + 1  # a lone `$` is itself
        state.literal = state.literal and known
        return end

    def double_quoted(self, i: int, parts: list[str], depth: int) -> tuple[int, bool]:
        """Inside `"…"` from i: the index after the closing quote, and whether literal."""
        text = self.text
        literal = True
        while i < len(text):
            char = text[i]
            if char == '"':
                return i + 1, literal
            if char == "\\" and i + 1 < len(text) and text[i + 1] in '$`"\\\n':
                if text[i + 1] != "\n":
                    parts.append(text[i + 1])
                i += 2
            elif char in "$`":
                end = self.expansion(i, depth, parts)
                literal = literal and end == i + 1
                i = end
            else:
                parts.append(char)
                i += 1
        raise Unparsable('unterminated "')

    def ansi_c(self, i: int, parts: list[str]) -> int:
        """`$'…'` from after the quote: escapes decoded as bash does."""
        text = self.text
        while i < len(text):
            char = text[i]
            if char == "'":
                return i + 1
            if char != "\\" or i + 1 >= len(text):
                parts.append(char)
                i += 1
                continue
            i = self.ansi_escape(i + 1, parts)
        raise Unparsable("unterminated $'")

    def ansi_escape(self, i: int, parts: list[str]) -> int:
        text = self.text
        char = text[i]
        if char in _ANSI_C:
            parts.append(_ANSI_C[char])
            return i + 1
        for prefix, size, base in (("x", 2, 16), ("u", 4, 16), ("U", 8, 16)):
            if char == prefix:
                digits = _take(text, i + 1, size, "0123456789abcdefABCDEF")
                if not digits:
                    parts.append("\\" + char)
                    return i + 1
                parts.append(_char(int(digits, base)))
                return i + 1 + len(digits)
        if char in "01234567":
            digits = _take(text, i, 3, "01234567")
            parts.append(chr(int(digits, 8) & 0xFF))
            return i + len(digits)
        if char == "c" and i + 1 < len(text):
            parts.append(chr(ord(text[i + 1]) & 0x1F))
            return i + 2
        parts.append("\\" + char)
        return i + 1

    def expansion(self, i: int, depth: int, parts: list[str]) -> int:
        """A `$…` or backtick expansion at i: its commands read; the index after it."""
        text = self.text
        if text[i] == "`":
            return self.backticks(i, depth, parts)
        following = text[i + 1] if i + 1 < len(text) else ""
        if following == "(":
            if text.startswith("((", i + 1):
                raise Unparsable("arithmetic expansion")
            self.expands = True
            end = self.commands(i + 2, ")", depth + 1)
            parts.append(text[i:end])
            return end
        if following == "{":
            return self.braced(i, depth, parts)
        if following.isalnum() or following == "_":
            end = i + 1
            while end < len(text) and (text[end].isalnum() or text[end] == "_"):
                end += 1
                if following.isdigit():
                    break
            self.expands = True
            parts.append(text[i:end])
            return end
        if following and following in "@*#?-$!":
            self.expands = True
            parts.append(text[i:i + 2])
            return i + 2
        parts.append("$")
        return i + 1

    def backticks(self, i: int, depth: int, parts: list[str]) -> int:
        text = self.text
        inner: list[str] = []
        j = i + 1
        while j < len(text) and text[j] != "`":
            if text[j] == "\\" and j + 1 < len(text) and text[j + 1] in "$`\\":
                inner.append(text[j + 1])
                j += 2
            else:
                inner.append(text[j])
                j += 1
        if j >= len(text):
            raise Unparsable("unterminated `")
        self.expands = True
        self.nested("".join(inner), depth)
        parts.append(text[i:j + 1])
        return j + 1

    def braced(self, i: int, depth: int, parts: list[str]) -> int:
        """`${…}`: its words may hold substitutions (`${x:-$(cmd)}`)."""
        text = self.text
        j = i + 2
        level = 1
        ignored: list[str] = []
        while j < len(text):
            char = text[j]
            if char == "}":
                level -= 1
                if level == 0:
                    self.expands = True
                    parts.append(text[i:j + 1])
                    return j + 1
                j += 1
            elif char == "\\":
                j += 2
            elif char == "'":
                end = text.find("'", j + 1)
                j = len(text) if end < 0 else end + 1
            elif char == '"':
                j, _ = self.double_quoted(j + 1, ignored, depth)
            elif char in "$`":
                if text.startswith("${", j):
                    level += 1
                    j += 2
                else:
                    j = self.expansion(j, depth, ignored)
            else:
                j += 1
        raise Unparsable("unterminated ${")

    def nested(self, inner: str, depth: int) -> None:
        if depth + 1 > MAX_DEPTH:
            raise Unparsable("nested too deeply")
        reader = _Reader(inner)
        end = reader.commands(0, closing=None, depth=depth + 1)
        if end != len(inner):
            raise Unparsable("unexpected text in a substitution")
        self.found.extend(reader.found)
        self.expands = True


class _Word:
    """What is known of a word while it is read."""

    def __init__(self, start: int) -> None:
        self.start = start
        self.parts: list[str] = []
        self.literal = True
        self.assignment = False
        self.bare = True  # every character so far unquoted (for NAME=)
        self.bracket = False  # an unquoted `[` that a `]` may close (a glob)


def _is_name(text: str) -> bool:
    name = text[:-1] if text.endswith("+") else text
    return bool(name) and (name[0].isalpha() or name[0] == "_") and \
        all(c.isalnum() or c == "_" for c in name) and name.isascii()


def _take(text: str, i: int, size: int, allowed: str) -> str:
    end = i
    while end < len(text) and end - i < size and text[end] in allowed:
        end += 1
    return text[i:end]


def _char(code: int) -> str:
    return chr(code) if code <= 0x10FFFF else "\ufffd"
