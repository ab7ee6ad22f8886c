"""A shell command read as bash reads it: one reader for trust and for Claude Code's `if`.

Words are read with the shell's quoting (`'…'`, `"…"`, `$'…'` decoded to the bytes bash
makes, read back as os.fsdecode reads them, `$"…"`), backslashes and line continuations, and
tilde prefixes (also after the `=` and `:` of a NAME=… word, as bash expands them), so
`"rm" -rf`, `\\rm` and `rm<TAB>-rf` all read as the words `rm`, `-rf`. What is known only
when the command runs (a parameter, `$(…)`, backquotes, `${…}`) is kept as written; a word
holding one has no `value`, and a word holding that or an unquoted glob, brace or tilde
expansion is not `literal`. The reader gives two views of a command:

- `split(command, variables)`: its words and operators in order, each word with its place in
  the text (`start`, `end`) and the commands of its `$(…)` and backquotes (`inner`), for trust
  (`sources.reach`: what a command names, and a verified copy run in a script's place; `shlex`
  gives neither places nor operators). `~` and `$NAME`/`${NAME}` for the `variables` known
  before the command runs are filled in. It never fails: text bash would reject is read as far
  as it goes (an unterminated quote runs to the end of the text).
- `simple_commands(text)`: every simple command the text runs, as words, for Claude Code's
  `if` (`sources.dialects.conditions`). `&&`, `||`, `;`, `|`, `|&`, `&` and newlines end a command;
  subshells `( … )`, groups `{ …; }`, `if`/`while`/`until`/`for` bodies, command
  substitutions (also inside double quotes, `${…}` and unquoted here-documents) and process
  substitutions (`<( … )`, `>( … )`) are read for the commands inside them; redirections and
  their targets are not words of the command. What it does not model (`case`, arithmetic,
  array assignments, coprocesses, unterminated quotes, very long or deeply nested text)
  raises `Unparsable`: the caller decides what an undecidable command means for its hook.

Both also read commands that run commands from one table: the shells (`SHELLS`) and the
wrappers with their options (`WRAPPERS`: `env`, `exec`, `timeout 5`, `nice -n 5`...).
Loaded only when an `if` rule is evaluated or trust follows a command.
"""

from __future__ import annotations

import os

from agenthooks._lean.records import NamedTuple

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

MAX_LENGTH = 100_000  # simple_commands: longer text is Unparsable
MAX_DEPTH = 32  # substitutions, subshells and `${…}` inside each other
_BLANKS = " \t"
_META = " \t\n;&|<>()"
# Longest first: an operator is the longest of these at a place.
OPERATORS = ("&>>", "<<-", "<<<", ";;&", "&&", "||", ";;", ";&", "|&", ">>", "<<", "<&",
             ">&", "<>", ">|", "&>", ";", "&", "|", "<", ">", "\n", "(", ")")
_OPERATOR_STARTS = frozenset(operator[0] for operator in OPERATORS)
_SEPARATORS = frozenset(("&&", "||", ";", "&", "|", "|&", "\n"))
_REDIRECTIONS = frozenset(("&>>", "<<-", "<<<", ">>", "<<", "<&", ">&", "<>", ">|", "&>",
                           "<", ">"))
# Reserved words after which a new command starts; `}`, `fi`, `done` and the like end one.
_KEYWORDS = frozenset(("!", "{", "}", "if", "then", "else", "elif", "fi", "do", "done",
                       "while", "until"))
_UNMODELLED = frozenset(("case", "esac", "coproc", "select", "function"))
# Runs of characters are found in the text as Latin-1 bytes, one byte per character (`_marks`;
# any other character reads as `?`), each byte below made 0 where such a run may end:
# - the characters a word reads one at a time (quotes, expansions, `=`, `~`, globs, its end),
#   the others being taken as they stand (`_Reader.plain`);
# - the ASCII ones that end a parameter's name (`_Reader.name_end` checks the rest).
_PLAIN = (_META + "\\'\"$`=~*?[]").encode()
_PLAIN_ENDS = bytes.maketrans(_PLAIN, bytes(len(_PLAIN)))
_NOT_NAME = bytes(range(128)).translate(
    None, b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")
_NAME_ENDS = bytes.maketrans(_NOT_NAME, bytes(len(_NOT_NAME)))
_HEX_DIGITS = "0123456789abcdefABCDEF"
_UNICODE_ESCAPES = {"x": 2, "u": 4, "U": 8}  # the escape and its most hexadecimal digits
# The largest code point (plus one) of each length of bash's UTF-8.
_UTF8_LIMITS = ((2, 0x800), (3, 0x10000), (4, 0x200000), (5, 0x4000000), (6, 0x80000000))
_ANSI_C = {"n": "\n", "t": "\t", "r": "\r", "a": "\a", "b": "\b", "e": "\x1b", "E": "\x1b",
           "f": "\f", "v": "\v", "\\": "\\", "'": "'", '"': '"', "?": "?"}


# --- programs that run other programs ---------------------------------------------------------
# What trust follows (`sources.reach`) and what an `if` rule reads (`sources.dialects.wrappers`)
# take from here; each says which of them it reads, and how it treats an option not listed.

# Shells: a script named as their first word, or a `-c` string, is what they run.
SHELLS = frozenset(("sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "yash", "fish"))
SHELL_VALUED = frozenset(("-o", "+o", "-O", "+O", "--rcfile", "--init-file"))


class Wrapper(NamedTuple):
    """A program that runs the rest of its words as a command, and how its options read."""

    valued: frozenset[str] = frozenset()  # options followed by a value
    flags: frozenset[str] = frozenset()  # options that take none
    operands: int = 0  # words it takes before the command (timeout's duration)
    assignments: bool = False  # NAME=VALUE words before the command (env)


WRAPPERS: dict[str, Wrapper] = {
    "env": Wrapper(frozenset(("-u", "--unset", "-C", "--chdir", "-S", "--split-string")),
                   frozenset(("-i", "-", "-0", "--null", "--ignore-environment", "-v",
                              "--debug")), assignments=True),
    "exec": Wrapper(frozenset(("-a",)), frozenset(("-c", "-l", "-cl"))),
    "command": Wrapper(flags=frozenset(("-p",))),
    "builtin": Wrapper(),
    "nohup": Wrapper(),
    "setsid": Wrapper(),
    "noglob": Wrapper(),
    "xargs": Wrapper(),
    "time": Wrapper(frozenset(("-f", "--format", "-o", "--output")),
                    frozenset(("-p", "-a", "--append", "-v", "--verbose", "--portability", "-q",
                               "--quiet"))),
    "nice": Wrapper(frozenset(("-n", "--adjustment"))),
    "ionice": Wrapper(frozenset(("-c", "-n", "-p", "--class", "--classdata"))),
    "timeout": Wrapper(frozenset(("-s", "--signal", "-k", "--kill-after")),
                       frozenset(("--preserve-status", "--foreground", "-v", "--verbose")),
                       operands=1),
    "stdbuf": Wrapper(frozenset(("-i", "-o", "-e", "--input", "--output", "--error"))),
}


class Unparsable(ValueError):
    """Command text this reader cannot split with certainty."""


class Word(NamedTuple):
    """One word: what the shell makes of it, and where it stands in the text it was read from."""

    text: str  # after quote removal; what is known only at run time as written
    literal: bool  # its value is `text` whatever the environment (no expansion, no glob)
    assignment: bool = False  # NAME=value (before the command name)
    start: int = 0
    end: int = 0
    known: bool = True  # no part of it is known only at run time (globs are known)
    inner: tuple[str, ...] = ()  # the commands of its `$(…)` and backquotes, as written

    @property
    def value(self) -> str | None:
        """The word's value; None when part of it is known only at run time."""
        return self.text if self.known else None


class Operator(NamedTuple):
    start: int
    text: str


class Parsed(NamedTuple):
    commands: tuple[tuple[Word, ...], ...]  # every simple command, substitutions' too
    expands: bool  # some word holds a parameter or command substitution


def split(command: str, variables: Mapping[str, str]) -> list[Word | Operator]:
    """The words and operators of `command`, comments and line continuations dropped."""
    return _Reader(command, variables).tokens()


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
    """One text's reading. With `variables` (trust's `split`) it never fails and fills in the
    variables known; without (`simple_commands`) what it cannot read raises `Unparsable`."""

    def __init__(self, text: str, variables: Mapping[str, str] | None = None) -> None:
        self.text = text
        self.variables = variables
        self.strict = variables is None
        self.found: list[tuple[Word, ...]] = []
        self.expands = False
        self.heredocs: list[tuple[str, bool, bool]] = []  # (delimiter, strip tabs, expand)
        self.known = True  # the word being read has no run-time part so far
        self.inner: list[str] = []  # the word being read: its substitutions' commands
        self.marked: bytes | None = None  # `_marks(text, _PLAIN_ENDS)`, once needed
        self.names: bytes | None = None  # `_marks(text, _NAME_ENDS)`, once needed

    def refuse(self, why: str) -> None:
        """Text bash would reject or this reader does not model: Unparsable when strict."""
        if self.strict:
            raise Unparsable(why)

    # --- placed words and operators (trust) ---------------------------------------------------

    def tokens(self) -> list[Word | Operator]:
        text = self.text
        found: list[Word | Operator] = []
        i = 0
        while True:
            i = self.blanks(i)
            if i >= len(text):
                return found
            operator = self.operator(i)
            if operator is not None:
                found.append(Operator(i, operator))
                i += len(operator)
            elif text[i] == "#":
                i = self.comment(i)
            else:
                word, i = self.word(i, 0)
                found.append(word)

    # --- lists of commands (if) ---------------------------------------------------------------

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
                words.append(Word(text[i:end], False, start=i, end=end, known=False))
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
                return self.compound_word(word.text, i, depth)
            if word.text in _KEYWORDS:
                return i
        if self.text.startswith("(", i):
            raise Unparsable("'(' right after a word")
        words.append(word)
        return i

    def compound_word(self, keyword: str, i: int, depth: int) -> int:
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
        if self.text[i] not in _OPERATOR_STARTS:
            return None
        for operator in OPERATORS:
            if self.text.startswith(operator, i):
                return operator
        return None

    def comment(self, i: int) -> int:
        end = self.text.find("\n", i)
        return len(self.text) if end < 0 else end

    # --- redirections and here-documents (if) -------------------------------------------------

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
        """One word from i, and the index after it."""
        known, inner = self.known, self.inner  # a substitution's words are read inside a word
        self.known, self.inner = True, []
        try:
            return self._word(i, depth)
        finally:
            self.known, self.inner = known, inner

    def _word(self, i: int, depth: int) -> tuple[Word, int]:
        text = self.text
        state = _Word(i)
        while i < len(text) and text[i] not in _META:
            char = text[i]
            end = self.plain(i)
            if end > i:  # characters that stand for themselves, whatever the state
                state.parts.append(text[i:end])
                i = end
            elif char == "=" and state.bare and not state.assignment and \
                    _is_name(text[state.start:i]):
                state.assignment = True
                state.equals = i
                state.parts.append(char)
                i += 1
                if text.startswith("(", i):
                    self.refuse("array assignment")
            elif char in "\\'\"$`":
                i = self.quoted(i, depth, state)
            elif char == "~" and (i == state.start or self.assigned_tilde(i, state)):
                state.literal = False
                i = self.tilde(i, state.parts, ends=":/" if state.assignment else "/")
            else:
                state.parts.append(char)
                i += 1
                state.bracket = state.bracket or char == "["
                if char in "*?" or (char == "]" and state.bracket):
                    state.literal = False
        raw = text[state.start:i]
        if state.literal and "{" in raw and "}" in raw and ("," in raw or ".." in raw):
            state.literal = False  # brace expansion
        value = "".join(state.parts)
        if not value.isascii():
            value = _as_decoded(value)
        return Word(value, state.literal and self.known, state.assignment,
                    state.start, i, self.known, tuple(self.inner)), i

    def plain(self, i: int) -> int:
        """Where the run of characters from i that a word takes as they stand ends."""
        if self.marked is None:
            self.marked = _marks(self.text, _PLAIN_ENDS)
        end = self.marked.find(0, i)
        return len(self.text) if end < 0 else end

    def name_end(self, i: int) -> int:
        """Where the name that starts at i ends: letters, digits and `_`, as bash reads them."""
        text = self.text
        if self.names is None:
            self.names = _marks(text, _NAME_ENDS)
        end = self.names.find(0, i)
        end = len(text) if end < 0 else end
        if text[i:end].replace("_", "a").isalnum() and not _in_name(text[end:end + 1]):
            return end
        end = i  # a character beyond Latin-1 around: one at a time
        while end < len(text) and (text[end].isalnum() or text[end] == "_"):
            end += 1
        return end

    def assigned_tilde(self, i: int, state: _Word) -> bool:
        """Whether the `~` at i, in a word that reads NAME=…, follows its `=` or an unquoted
        `:` (bash expands it there, in a command's arguments too)."""
        if not state.assignment:
            return False
        if i - 1 == state.equals:
            return True
        if self.text[i - 1] != ":":
            return False
        j = i - 2  # an odd number of backslashes before the `:` quotes it
        while j > state.start and self.text[j] == "\\":
            j -= 1
        return (i - 2 - j) % 2 == 0

    def tilde(self, i: int, parts: list[str], ends: str) -> int:
        """A tilde prefix: the home folder when `~` stands alone or before one of `ends` and
        the variables are known; as written otherwise."""
        after = self.text[i + 1:i + 2]
        if self.variables is not None and (not after or after in ends or after in _META):
            parts.append(self.variables.get("HOME") or os.path.expanduser("~"))
        else:
            parts.append("~")
        return i + 1

    def quoted(self, i: int, depth: int, state: _Word) -> int:
        """A backslash, a quoted string or an expansion at i, added to the word."""
        text, parts = self.text, state.parts
        char = text[i]
        following = text[i + 1] if i + 1 < len(text) else ""
        state.bare = False
        if char == "\\":
            if following != "\n":  # a line continuation is nothing; a last `\\` is itself
                parts.append(following or char)
            return min(i + 2, len(text))
        if char == "'":
            end = text.find("'", i + 1)
            if end < 0:
                self.refuse("unterminated '")
                end = len(text)
            parts.append(text[i + 1:end])
            return min(end + 1, len(text))
        if char == '"' or (char == "$" and following == '"'):
            return self.double_quoted(i + (1 if char == '"' else 2), parts, depth)
        if char == "$" and following == "'":
            return self.ansi_c(i + 2, parts)
        return self.expansion(i, depth, parts)

    def double_quoted(self, i: int, parts: list[str], depth: int) -> int:
        """Inside `"…"` from i: the index after the closing quote."""
        text = self.text
        while i < len(text):
            char = text[i]
            if char == '"':
                return i + 1
            if char == "\\" and i + 1 < len(text) and text[i + 1] in '$`"\\\n':
                if text[i + 1] != "\n":
                    parts.append(text[i + 1])
                i += 2
            elif char in "$`":
                i = self.expansion(i, depth, parts)
            else:
                end = max(self.plain(i), i + 1)  # a run of characters with no meaning here
                parts.append(text[i:end])
                i = end
        self.refuse('unterminated "')
        return i

    def ansi_c(self, i: int, parts: list[str]) -> int:
        """`$'…'` from after the quote: escapes decoded as bash does, to bytes (`byte`);
        a NUL byte ends the string there, as in C."""
        text = self.text
        decoded: list[str] = []
        while i < len(text):
            char = text[i]
            if char == "'":
                parts.append("".join(decoded).partition("\0")[0])
                return i + 1
            if char != "\\" or i + 1 >= len(text):
                decoded.append(char)
                i += 1
                continue
            i = self.ansi_escape(i + 1, decoded)
        self.refuse("unterminated $'")
        parts.append("".join(decoded).partition("\0")[0])
        return i

    def ansi_escape(self, i: int, parts: list[str]) -> int:
        text = self.text
        char = text[i]
        if char in _ANSI_C:
            parts.append(_ANSI_C[char])
            return i + 1
        if char in _UNICODE_ESCAPES:
            digits = _take(text, i + 1, _UNICODE_ESCAPES[char], _HEX_DIGITS)
            if not digits:
                parts.append("\\" + char)
                return i + 1
            code = int(digits, 16)
            parts.append(self.byte(code) if char == "x" else self.utf8(code))
            return i + 1 + len(digits)
        if char in "01234567":
            digits = _take(text, i, 3, "01234567")
            parts.append(self.byte(int(digits, 8) & 0xFF))
            return i + len(digits)
        if char == "c":
            return self.control(i + 1, parts)
        parts.append("\\" + char)
        return i + 1

    def control(self, i: int, parts: list[str]) -> int:
        """`\\c` and the character at i: its control character (bash's TOCTRL of its first
        byte); after `\\c\\` the backslash's, one more backslash taken with it, the character
        after it left to the string (`\\c\\'` is 0x1c and a quote); `\\c` itself at the
        string's end."""
        text = self.text
        j = i + 1 if text.startswith("\\", i) else i
        if j >= len(text) or (j == i and text[j] == "'"):
            parts.append("\\c")
            return i
        if j > i:  # `\c\`: the control of the backslash itself, whatever follows it
            parts.append(self.byte(0x1C))
            if text[j] in "\\'":  # `\c\\` takes both; an escaped quote stays a quote
                if text[j] == "'":
                    parts.append("'")
                return j + 1
            return j
        first, *rest = _utf8_bytes(text[j])
        if first == 0x3F:  # `?`: DEL
            parts.append(self.byte(0x7F))
        else:
            upper = ord(chr(first).upper()) if first < 0x80 else first
            parts.append(self.byte(upper & 0x1F))
        parts.extend(self.byte(b) for b in rest)
        return j + 1

    @staticmethod
    def byte(value: int) -> str:
        """One byte of a word: a character below 0x80, else the surrogate os.fsdecode gives
        it (the word's bytes are read as UTF-8 once it ends: `_as_decoded`)."""
        return chr(value) if value < 0x80 else chr(0xDC00 + value)

    def utf8(self, code: int) -> str:
        """`\\u` and `\\U`: the code point in bash's UTF-8, which also encodes surrogates and
        values past U+10FFFF (up to six bytes), and nothing past 0x7FFFFFFF."""
        if code < 0x80:
            return chr(code)
        if code > 0x7FFFFFFF:
            return ""
        size = next(n for n, limit in _UTF8_LIMITS if code < limit)
        tail = []
        for _ in range(size - 1):
            tail.append(0x80 | (code & 0x3F))
            code >>= 6
        lead = (0xFF00 >> size) & 0xFF | code
        return "".join(self.byte(b) for b in (lead, *reversed(tail)))

    def expansion(self, i: int, depth: int, parts: list[str]) -> int:
        """A `$…` or backtick expansion at i: its commands read; the index after it."""
        text = self.text
        if text[i] == "`":
            return self.backticks(i, depth, parts)
        following = text[i + 1] if i + 1 < len(text) else ""
        if following == "(":
            return self.substitution(i, depth, parts)
        if following == "{":
            return self.braced(i, depth, parts)
        if following.isalnum() or following == "_":
            end = i + 2 if following.isdigit() else self.name_end(i + 1)
            return self.parameter(text[i + 1:end], text[i:end], parts, end)
        if following and following in "@*#?-$!":
            return self.parameter("", text[i:i + 2], parts, i + 2)
        parts.append("$")  # a lone `$` is itself
        return i + 1

    def parameter(self, name: str, raw: str, parts: list[str], end: int) -> int:
        """A parameter: its value when it is one of the variables known, else as written."""
        value = None if self.variables is None or not _is_name(name) or name.endswith("+") \
            else self.variables.get(name)
        if value is None:
            self.expands = True
            self.known = False
            parts.append(raw)
        else:
            parts.append(value)
        return end

    def substitution(self, i: int, depth: int, parts: list[str]) -> int:
        """`$(…)` (or `$((…))`) at i: its commands read (strict) or its text kept (trust)."""
        text = self.text
        arithmetic = text.startswith("((", i + 1)
        if arithmetic:
            self.refuse("arithmetic expansion")
        self.expands = True
        self.known = False
        end = self.commands(i + 2, ")", depth + 1) if self.strict else _matching(text, i + 1)
        if not arithmetic:
            self.inner.append(text[i + 2:end - 1 if text[end - 1:end] == ")" else end])
        parts.append(text[i:end])
        return end

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
            self.refuse("unterminated `")
        self.expands = True
        self.known = False
        if self.strict:
            self.nested("".join(inner), depth)
        self.inner.append("".join(inner))
        parts.append(text[i:j + 1])
        return min(j + 1, len(text))

    def braced(self, i: int, depth: int, parts: list[str]) -> int:
        """`${…}`: a known variable's value, else as written; its words may hold
        substitutions (`${x:-$(cmd)}`)."""
        text = self.text
        if depth > MAX_DEPTH:
            self.refuse("nested too deeply")
            return self.unknown(i, len(text), parts)
        j = i + 2
        level = 1
        ignored: list[str] = []
        while j < len(text):
            char = text[j]
            if char == "}":
                level -= 1
                if level == 0:
                    return self.braced_end(i, j, parts)
                j += 1
            elif char == "\\":
                j += 2
            elif char == "'":
                end = text.find("'", j + 1)
                j = len(text) if end < 0 else end + 1
            elif char == '"':
                j = self.double_quoted(j + 1, ignored, depth + 1)
            elif text.startswith("${", j):
                level += 1
                j += 2
            elif char in "$`":
                j = self.expansion(j, depth + 1, ignored)
            else:
                j += 1
        self.refuse("unterminated ${")
        return self.unknown(i, len(text), parts)

    def braced_end(self, i: int, close: int, parts: list[str]) -> int:
        name = self.text[i + 2:close]
        if _is_name(name) and not name.endswith("+"):
            return self.parameter(name, self.text[i:close + 1], parts, close + 1)
        return self.unknown(i, close + 1, parts)

    def unknown(self, i: int, end: int, parts: list[str]) -> int:
        """The text from i to end: known only at run time, kept as written."""
        self.expands = True
        self.known = False
        parts.append(self.text[i:end])
        return end

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
        self.literal = True  # no unquoted glob, tilde or brace expansion so far
        self.assignment = False
        self.equals = -1  # where the `=` of NAME= is
        self.bare = True  # every character so far unquoted (for NAME=)
        self.bracket = False  # an unquoted `[` that a `]` may close (a glob)


def _marks(text: str, table: bytes) -> bytes:
    return text.encode("latin-1", "replace").translate(table)


def _in_name(char: str) -> bool:
    return char.isalnum() or char == "_"


def _is_name(text: str) -> bool:
    name = text[:-1] if text.endswith("+") else text
    return bool(name) and (name[0].isalpha() or name[0] == "_") and \
        name.replace("_", "a").isalnum() and name.isascii()


def _take(text: str, i: int, size: int, allowed: str) -> str:
    end = i
    while end < len(text) and end - i < size and text[end] in allowed:
        end += 1
    return text[i:end]


def _utf8_bytes(char: str) -> bytes:
    """A character's bytes as the command reaches bash (os.fsencode's)."""
    if "\udc80" <= char <= "\udcff":
        return bytes((ord(char) - 0xDC00,))
    return char.encode("utf-8", "surrogatepass")


def _as_decoded(text: str) -> str:
    """A word's bytes read back as os.fsdecode reads them: bytes made by escapes that spell
    a character in UTF-8 become it."""
    try:
        return text.encode("utf-8", "surrogateescape").decode("utf-8", "surrogateescape")
    except UnicodeEncodeError:  # a lone surrogate no byte stands for: no command runs it
        return text


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
    """Just past the `)` closing the `(` at `i`, quotes skipped (the end when there is none)."""
    depth = 0
    while i < len(text):
        c = text[i]
        if c == "'":
            close = text.find("'", i + 1)
            i = len(text) if close < 0 else close + 1
            continue
        if c in "\"`":
            i = _closing(text, i + 1, c)
            continue
        if c == "\\":
            i += 2
            continue
        depth += {"(": 1, ")": -1}.get(c, 0)
        i += 1
        if depth == 0:
            return i
    return len(text)
