"""`agenthooks.shellwords` against the real thing, over generated text: `shlex.split` where
both read the same language (quotes, backslashes, blanks), and bash itself, which prints the
words it makes of a command with `printf '%s\\0'`.

The reader runs as the run path has it: imported by a fresh interpreter (`python -I`) that
loads nothing else, checked at the end to hold neither `re` nor `shlex`. The text and the
words cross the pipe as hexadecimal UTF-8 (with surrogates as they are), so odd bytes and
lone surrogates arrive whole.
"""

from __future__ import annotations

import ast
import os
import shlex
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

# A fresh interpreter per worker: run from the wheel on every supported Python too.
pytestmark = pytest.mark.program

BASH = shutil.which("bash")

# Reads a text a line (`x` and its hex), answers a line: the repr of split's words and
# operators, then of simple_commands' words for the text as printf's arguments (or the
# reason it cannot read them). An empty line ends it; its last line says which of `re` and
# `shlex` were loaded.
WORKER = r"""
import sys
from agenthooks.shellwords import Operator, Unparsable, simple_commands, split

while True:
    line = sys.stdin.readline().strip()
    if not line:
        break
    text = bytes.fromhex(line[1:]).decode("utf-8", "surrogatepass")
    try:
        tokens = [("op", t.text) if isinstance(t, Operator) else
                  ("word", t.text, t.literal, t.value is not None)
                  for t in split(text, {"HOME": "/nonexistent-home"})]
    except Exception as exc:  # split never fails: the test says so
        tokens = [("error", type(exc).__name__ + ": " + str(exc))]
    try:
        found = [[(w.text, w.literal, w.value is not None) for w in c]
                 for c in simple_commands("printf " + text).commands]
    except Unparsable as exc:
        found = str(exc)
    except Exception as exc:
        found = [[("error", type(exc).__name__ + ": " + str(exc))]]
    answer = repr((tokens, found)).encode("utf-8", "surrogatepass").hex()
    sys.stdout.write(answer + "\n")
    sys.stdout.flush()
sys.stdout.write(repr(sorted(m for m in ("re", "shlex") if m in sys.modules)) + "\n")
"""


class FreshReader:
    """A fresh interpreter reading texts with `agenthooks.shellwords`."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-I", "-c", WORKER], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, text=True, cwd="/")

    def read(self, text: str) -> tuple[list[tuple[object, ...]], object]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write("x" + text.encode("utf-8", "surrogatepass").hex() + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        assert line, "the reader ended"
        answer = ast.literal_eval(bytes.fromhex(line).decode("utf-8", "surrogatepass"))
        assert isinstance(answer, tuple)
        return answer  # type: ignore[return-value]

    def close(self) -> str:
        out, _ = self.process.communicate("\n", timeout=30)
        return out.strip()


@pytest.fixture(scope="module")
def reader() -> Iterator[FreshReader]:
    fresh = FreshReader()
    try:
        yield fresh
    finally:
        loaded = fresh.close()
    assert loaded == "[]", f"the run path's reader loaded {loaded}"


# The same examples every run (CI must not flake on a new one); a wider search is a matter of
# raising max_examples here, as was done once with 3,000.
SETTINGS = settings(max_examples=200, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture,
                                           HealthCheck.filter_too_much])


# --- against shlex.split ---------------------------------------------------------------------

# What shlex and bash read alike: blanks, quotes, backslashes and characters that are
# themselves (no `$`, backquote, newline, `#`, `~` or operator, which shlex reads otherwise).
_SHLEX_CHARS = st.sampled_from([*"ab \t'\"\\-_./=:,+@%*?[]{}!", "\u00e9", "\u20ac"])


@SETTINGS
@given(text=st.text(_SHLEX_CHARS, max_size=24))
def test_words_are_shlexs(reader: FreshReader, text: str) -> None:
    try:
        expected = shlex.split(text)
    except ValueError:  # an unterminated quote: shlex refuses, bash too
        assume(False)
    tokens, _ = reader.read(text)
    assert [t[1] for t in tokens] == expected
    assert all(t[0] == "word" for t in tokens)


# --- against bash ----------------------------------------------------------------------------

# Text bash can only read as the arguments of one printf: no operator, newline, backquote or
# `(`, so whatever the reader makes of it, bash runs nothing else. Odd bytes come in as
# surrogates (the command reaches bash through os.fsencode, as the executor passes it).
_BASH_PIECES = st.one_of(
    st.sampled_from([*"ab \t'\"\\-_./=:,+@%*?[]{}~!#$\u00e9", "\udcff", "\udcc3"]),
    st.sampled_from(["$'", "$\"", "\\'", "${a}", "$HOME", "$1", "a=", "=~", ":~", "~/",
                     "\\x", "\\u", "\\c", "\\0", "\\e", "\\\\", "ff", "7", "d8", "00", "{a,b}",
                     "\\U110000", "\\ud800", "\\xc3\\xa9", "\\377", "\\c?"]),
)
_UNSAFE = frozenset(";&|<>()`\n\r")


def _bash_words(text: str, cwd: Path) -> list[str] | None:
    """The words bash makes of `text` as printf's arguments; None: bash refuses the text."""
    assert BASH is not None
    done = subprocess.run(
        [BASH, "-c", "printf '%s\\0' START " + text], cwd=cwd, capture_output=True,
        env={"PATH": os.defpath, "LC_ALL": "C.UTF-8", "HOME": "/nonexistent-home"},
        check=False)
    if done.returncode != 0:  # an unterminated quote (the reader reads it to the end)
        assert b"unexpected EOF" in done.stderr, done.stderr
        return None
    words = done.stdout.split(b"\0")
    assert words[0] == b"START" and words[-1] == b""
    return [os.fsdecode(word) for word in words[1:-1]]


@pytest.mark.skipif(BASH is None, reason="no bash")
@SETTINGS
@given(pieces=st.lists(_BASH_PIECES, max_size=12))
def test_literal_words_are_the_words_bash_makes(
    reader: FreshReader, tmp_path_factory: pytest.TempPathFactory, pieces: list[str]
) -> None:
    """Where the reader says every word is known and literal, bash prints those words."""
    text = "".join(pieces)
    assume(not _UNSAFE.intersection(text))
    tokens, commands = reader.read(text)
    assume(all(t[0] == "word" and t[2] and t[3] for t in tokens))
    cwd = tmp_path_factory.mktemp("empty")  # no file a glob could match
    expected = _bash_words(text, cwd)
    assume(expected is not None)
    assert [t[1] for t in tokens] == expected, text
    if isinstance(commands, list) and all(w[1] and w[2] for w in commands[0]):
        # simple_commands reads the same words (it knows no variable, so fills in none)
        assert [w[0] for w in commands[0]] == ["printf", *expected], text


@pytest.mark.parametrize(
    ("text", "words", "literal"),
    [
        ("$'\\xff'", ["\udcff"], True),  # a byte, not U+00FF
        ("$'\\377'", ["\udcff"], True),
        ("$'\\xc3\\xa9'", ["\u00e9"], True),  # bytes that spell a character in UTF-8
        ("$'\\xc3'$'\\xa9'", ["\u00e9"], True),
        ("$'\\u00e9'", ["\u00e9"], True),
        ("$'\\ud800'", ["\udced\udca0\udc80"], True),  # bash encodes it anyway
        ("$'\\U110000' $'\\U7fffffff'", ["\udcf4\udc90\udc80\udc80",
                                           "\udcfd" + "\udcbf" * 5], True),
        ("$'\\Uffffffff'x", ["x"], True),
        ("$'a\\0b'c $'\\x00'd $'\\u0'e", ["ac", "d", "e"], True),  # NUL ends the string
        ("$'\\c?' $'\\ca' $'\\c\\\\' $'\\c'", ["\x7f", "\x01", "\x1c", "\\c"], True),
        ("$'\\c\u00e9'", ["\x03\udca9"], True),  # the control of its first byte
        # After `\c\` the backslash's control, the next character left to the string.
        ("$'\\c\\'$' $'\\c\\x' $'\\c\\\\\\x'", ["\x1c'$", "\x1cx", "\x1c\\x"], True),
        ("a\\", ["a\\"], True),  # a last backslash is itself
        ("a=~ a=~/x b=x:~ c=\\:~ d='~' ~", ["a=/nonexistent-home", "a=/nonexistent-home/x",
                                           "b=x:/nonexistent-home", "c=:~", "d=~",
                                           "/nonexistent-home"], False),
    ],
)
def test_ansi_c_bytes_and_tildes_are_bashs(
    reader: FreshReader, text: str, words: list[str], literal: bool
) -> None:
    tokens, _ = reader.read(text)
    assert [t[1] for t in tokens] == words
    assert all(t[2] for t in tokens) is literal
    if BASH is not None:
        assert _bash_words(text, Path("/")) == words
