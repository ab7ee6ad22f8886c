"""`agenthooks.shellwords` as tables: the simple commands a command runs (Claude Code's `if`),
its placed words and operators (trust), and malformed text read to a defined end."""

from __future__ import annotations

import contextlib
import subprocess
import sys
from pathlib import Path

import pytest

from agenthooks.shellwords import (
    SHELLS,
    WRAPPERS,
    Operator,
    Unparsable,
    Word,
    simple_commands,
    split,
)

# --- simple commands (if) --------------------------------------------------------------------

SPLITS = [
    # command, the literal words of each simple command (a non-literal word as "?")
    ("ls & rm -rf build", [["ls"], ["rm", "-rf", "build"]]),
    ("ls |& rm", [["ls"], ["rm"]]),
    ("a && b || c; d | e\nf", [["a"], ["b"], ["c"], ["d"], ["e"], ["f"]]),
    ("rm\t-rf  x", [["rm", "-rf", "x"]]),
    ('"rm" -rf', [["rm", "-rf"]]),
    ("\\rm x", [["rm", "x"]]),
    ("$'\\x72m' -rf", [["rm", "-rf"]]),
    ("r'm' -rf", [["rm", "-rf"]]),
    ("FOO='a b' rm", [["FOO=a b", "rm"]]),
    ("(rm -rf x)", [["rm", "-rf", "x"]]),
    ("{ rm -rf x; }", [["rm", "-rf", "x"]]),
    ("if [ -f x ]; then rm x; fi", [["[", "-f", "x", "]"], ["rm", "x"]]),
    ("while true; do rm x; done", [["true"], ["rm", "x"]]),
    ("for f in $(ls); do rm x; done", [["ls"], ["rm", "x"]]),
    ("[[ -f x && -d y ]] && rm x", [["rm", "x"]]),
    ("echo $(rm -rf /)", [["rm", "-rf", "/"], ["echo", "?"]]),
    ("echo `rm x`", [["rm", "x"], ["echo", "?"]]),
    ('echo "a $(rm x) b"', [["rm", "x"], ["echo", "?"]]),
    ("echo ${x:-$(rm y)}", [["rm", "y"], ["echo", "?"]]),
    ("cat <(rm x) >(ls)", [["rm", "x"], ["ls"], ["cat", "?", "?"]]),
    ("ls 2>&1 >/dev/null | grep x", [["ls"], ["grep", "x"]]),
    ("cat <<EOF\n$(rm -rf /)\nEOF\nls", [["cat"], ["rm", "-rf", "/"], ["ls"]]),
    ("cat <<'EOF'\n$(rm -rf /)\nEOF\nls", [["cat"], ["ls"]]),
    ("git commit -m \"$(cat <<'EOF'\nmsg\nEOF\n)\"", [["cat"], ["git", "commit", "-m", "?"]]),
    ("ls *.ts ~/x {a,b}", [["ls", "?", "?", "?"]]),
    ("# rm -rf /", []),
    ("echo a#b", [["echo", "a#b"]]),
    ("ls \\\n -la", [["ls", "-la"]]),
]


def _shape(command: str) -> list[list[str]]:
    return [[w.text if w.literal else "?" for w in words]
            for words in simple_commands(command).commands]


@pytest.mark.parametrize(("command", "expected"), SPLITS, ids=[c for c, _ in SPLITS])
def test_split(command: str, expected: list[list[str]]) -> None:
    assert _shape(command) == expected


@pytest.mark.parametrize("command", [
    "case x in a) rm;; esac", 'echo "open', "echo 'open", "echo $(ls", "a=(1 2)",
    "f() { rm x; }", "(( i++ ))", "echo $((1 + 2))", "x" * 100_001, "(" * 40 + ")" * 40,
    "[[ a ; b", "for x in ;( done",
])
def test_unparsable(command: str) -> None:
    with pytest.raises(Unparsable):
        simple_commands(command)


# --- placed words and operators (trust) ------------------------------------------------------

VARIABLES = {"D": "/w", "HOME": "/h"}
PLACED = [
    # command, each token: a word as (its text in the command, its value or None, its inner
    # commands), an operator as its text
    ('"$D"/a.sh --flag', [('"$D"/a.sh', "/w/a.sh", ()), ("--flag", "--flag", ())]),
    ("${D}/a.sh", [("${D}/a.sh", "/w/a.sh", ())]),
    ("'$D'/a.sh", [("'$D'/a.sh", "$D/a.sh", ())]),
    ("$X/a.sh ${X:-y}", [("$X/a.sh", None, ()), ("${X:-y}", None, ())]),
    ("cd sub && ./x.sh", [("cd", "cd", ()), ("sub", "sub", ()), "&&", ("./x.sh", "./x.sh", ())]),
    ("(cd s); ./a", ["(", ("cd", "cd", ()), ("s", "s", ()), ")", ";", ("./a", "./a", ())]),
    ('echo "$(./a.sh x)"', [("echo", "echo", ()), ('"$(./a.sh x)"', None, ("./a.sh x",))]),
    ("echo `ls \\`x\\``", [("echo", "echo", ()), ("`ls \\`x\\``", None, ("ls `x`",))]),
    ("echo ${X:-$(./b)}", [("echo", "echo", ()), ("${X:-$(./b)}", None, ("./b",))]),
    ("echo $((1 + 2))", [("echo", "echo", ()), ("$((1 + 2))", None, ())]),
    ("~/x ~ ~user a~", [("~/x", "/h/x", ()), ("~", "/h", ()), ("~user", "~user", ()),
                        ("a~", "a~", ())]),
    ("$'\\x72m' \\rm r'm'", [("$'\\x72m'", "rm", ()), ("\\rm", "rm", ()), ("r'm'", "rm", ())]),
    ("ls \\\n -la # ./a.sh", [("ls", "ls", ()), ("-la", "-la", ())]),
    ("py < t.py 2>&1 &>> log", [("py", "py", ()), "<", ("t.py", "t.py", ()), ("2", "2", ()),
                                ">&", ("1", "1", ()), "&>>", ("log", "log", ())]),
    # A here-document's body stays words: trust reads it as commands and rewrites none.
    ("sh <<EOF\n./a\nEOF", [("sh", "sh", ()), "<<", ("EOF", "EOF", ()), "\n", ("./a", "./a", ()),
                            "\n", ("EOF", "EOF", ())]),
]


def _placed(command: str) -> list[object]:
    return [token.text if isinstance(token, Operator)
            else (command[token.start:token.end], token.value, token.inner)
            for token in split(command, VARIABLES)]


@pytest.mark.parametrize(("command", "expected"), PLACED, ids=[c for c, _ in PLACED])
def test_placed(command: str, expected: list[object]) -> None:
    assert _placed(command) == expected


# --- malformed text: a defined end, never a crash or an endless loop --------------------------

MALFORMED = [
    "\\", "a\\", "$", "${", "${x", "$(", "$((", "`", "'", '"', "$'", 'echo "$(ls', "a=(1 2)",
    "${x:-\"" * 2000, "$(" * 3000, "`" * 7, "[[ a ; b", "for x in ;( done", "<<", "2>",
    "echo ${b\\}", ";;&;&|&", "cat <<EOF\n$(", "((((", "))))", "x" * 100_001,
]


@pytest.mark.parametrize("command", MALFORMED, ids=[c[:40] for c in MALFORMED])
def test_malformed_text_is_split_to_its_end(command: str) -> None:
    """Trust reads every command: each token starts after the one before it."""
    tokens = split(command, VARIABLES)
    starts = [token.start for token in tokens]
    assert starts == sorted(set(starts))
    assert all(token.end > token.start for token in tokens if isinstance(token, Word))
    assert all(token.end <= len(command) for token in tokens if isinstance(token, Word))


@pytest.mark.parametrize("command", MALFORMED, ids=[c[:40] for c in MALFORMED])
def test_malformed_text_is_unparsable_for_if(command: str) -> None:
    """An `if` rule's reader says Unparsable (an undecided call), never another error."""
    with contextlib.suppress(Unparsable):
        simple_commands(command)


def test_loaded_only_when_an_if_rule_or_trust_reads_a_command() -> None:
    code = ("import sys, agenthooks.api, agenthooks.sources.dialects.conditions, "
            "agenthooks.sources.trust\n"
            "print('agenthooks.shellwords' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, check=True)
    assert done.stdout.strip() == "False"


# --- programs that run other programs: one table for trust and for `if` ----------------------


def test_every_wrapper_claude_code_strips_has_its_options_listed() -> None:
    from agenthooks.sources.dialects.wrappers import CLAUDE_WRAPPERS

    assert not CLAUDE_WRAPPERS - WRAPPERS.keys()


READERS = [f"{shell} -o errexit -c" for shell in sorted(SHELLS)] + [
    "timeout -s KILL 5", "nice -n 5", "stdbuf -oL", "time -p", "nohup", "command",
    "env -u X -C . Y=1", "exec -a name"]


@pytest.mark.parametrize("runner", READERS)
def test_what_a_shell_or_wrapper_runs_is_read_by_trust_and_by_if(runner: str,
                                                               tmp_path: Path) -> None:
    from agenthooks.sources.dialects.conditions import holds
    from agenthooks.sources.reach import reach

    (tmp_path / "rm").write_text("")
    quote = "'" if runner.endswith("-c") else ""
    found = reach(f"{runner} {quote}./rm -rf x{quote}", str(tmp_path), {})
    assert [(h.path, h.role) for h in found.hits] == [(str(tmp_path / "rm"), "script")]
    assert holds("Bash(rm *)", "Bash", {"command": f"{runner} {quote}rm -rf x{quote}"}, "/p")
