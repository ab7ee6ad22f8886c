"""`shellwords.split` as trust reads commands: the words a text makes, where each stands, and
which are known before the command runs; a table over the characters a word reads one at a
time (quotes, expansions, globs, names beyond ASCII) and those it takes as they stand."""

import pytest

from agenthooks.shellwords import Word, split

VARIABLES = {"HOME": "/h", "X": "x y", "é": "never", "aé": "never"}

# command -> each word as (text, value, literal, start, end)
TABLE = [
    ("./a.sh --flag=1 x", [("./a.sh", "./a.sh", True, 0, 6),
                           ("--flag=1", "--flag=1", True, 7, 15), ("x", "x", True, 16, 17)]),
    ("a\0b c", [("a\0b", "a\0b", True, 0, 3), ("c", "c", True, 4, 5)]),
    ("$X/b", [("x y/b", "x y/b", True, 0, 4)]),
    # A name runs over letters beyond ASCII, and such a name is never a known variable's.
    ("$Xé/b", [("$Xé/b", None, False, 0, 5)]),
    ("$aé·b", [("$aé·b", None, False, 0, 5)]),
    ("$é", [("$é", None, False, 0, 2)]),
    ("$1x", [("$1x", None, False, 0, 3)]),
    ('"$X/b c"d', [("x y/b cd", "x y/b cd", True, 0, 9)]),
    ("\"a;b*c\" 'd e'", [("a;b*c", "a;b*c", True, 0, 7), ("d e", "d e", True, 8, 13)]),
    ("A=1 ./x", [("A=1", "A=1", True, 0, 3), ("./x", "./x", True, 4, 7)]),
    ("ls *.py ~/x [ab]", [("ls", "ls", True, 0, 2), ("*.py", "*.py", False, 3, 7),
                          ("/h/x", "/h/x", False, 8, 11), ("[ab]", "[ab]", False, 12, 16)]),
    ("echo $X$X", [("echo", "echo", True, 0, 4), ("x yx y", "x yx y", True, 5, 9)]),
    ("f{a,b} g{h}", [("f{a,b}", "f{a,b}", False, 0, 6), ("g{h}", "g{h}", True, 7, 11)]),
]


@pytest.mark.parametrize(("command", "words"), TABLE)
def test_the_words_of_a_command(command: str, words: list[tuple[object, ...]]) -> None:
    found = [(w.text, w.value, w.literal, w.start, w.end)
             for w in split(command, VARIABLES) if isinstance(w, Word)]
    assert found == words
