"""Every stand-in for a standard-library module, against that module, where they can differ.

`agenthooks run` imports neither `json`, `re`, `collections`, `functools`, `contextlib` nor
`typing`; agenthooks' own modules stand for what it needs of them. A test process has imported
all of those long before, so each test here starts ONE fresh interpreter (`python -I`, and on
the Pythons other than this one `-S` as well) that imports only the stand-in, checks that none
of them came with it, and answers a batch of inputs generated here with Hypothesis; a second
interpreter of the same Python answers the same batch with the real module, and every answer
must be the same: value, error class and message. tests/shipped/lean_worker.py is both sides.

Each supported Python is tried where this machine has it (pyenv's; skipped with a message
otherwise): the C codec `jsontext` calls behaves differently on 3.10 and 3.11.
"""

from __future__ import annotations

import importlib.util
import json
import keyword
import marshal
import os
import pwd
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

pytestmark = pytest.mark.program

WORKER = Path(__file__).with_name("lean_worker.py")
# The worker's hooks, for this side's own reading (it is a script, not a module of a package).
_SPEC = importlib.util.spec_from_file_location("lean_worker", WORKER)
assert _SPEC is not None and _SPEC.loader is not None
WORKER_MODULE = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(WORKER_MODULE)
VERSIONS = ("3.10", "3.11", "3.12", "3.13")


# --- running both sides ----------------------------------------------------------------------


def interpreter(version: str) -> list[str]:
    """A fresh interpreter of `version`: this one (as the program runs, site and all), or
    pyenv's without its site-packages (which may import anything)."""
    if f"{sys.version_info[0]}.{sys.version_info[1]}" == version:
        return [sys.executable, "-I"]
    if os.environ.get("AGENTHOOKS_TEST_INSTALLED") == "1":
        # From the wheel (scripts/test-pythons) each Python has a run of its own, with the
        # wheel installed; a bare pyenv Python here would find no agenthooks at all.
        pytest.skip(f"Python {version} is tested by its own run from the wheel")
    root = os.environ.get("PYENV_ROOT") or os.path.join(pwd.getpwuid(os.getuid()).pw_dir,
                                                        ".pyenv")
    versions = Path(root, "versions")
    found = sorted(versions.glob(f"{version}.*/bin/python3")) if versions.is_dir() else []
    if not found:
        pytest.skip(f"no Python {version} on this machine (looked in {versions})")
    return [str(found[-1]), "-I", "-S"]


def side(python: list[str], suite: str, which: str,
         inputs: list[Any]) -> tuple[list[str], list[Any]]:
    done = subprocess.run([*python, str(WORKER)], input=marshal.dumps((suite, which, inputs)),
                          capture_output=True, check=False, timeout=300)
    assert done.returncode == 0, done.stderr.decode(errors="replace")
    leaked, results = marshal.loads(done.stdout)
    return leaked, results


def differ(version: str, suite: str, inputs: list[Any],
           allowed: tuple[str, ...] = ()) -> list[tuple[Any, Any]]:
    """The stand-in's and the real module's answers, each (answer, json loaded by then)
    after a check that the stand-in's import brought none of the modules it avoids."""
    python = interpreter(version)
    leaked, mine = side(python, suite, "standin", inputs)
    assert [name for name in leaked if name not in allowed] == [], (
        f"importing the stand-in of {suite} loaded {leaked}")
    _, real = side(python, suite, "reference", inputs)
    wrong = [(item, got[0], want[0]) for item, got, want in zip(inputs, mine, real, strict=True)
             if flat(got[0]) != flat(want[0])]
    assert not wrong, "\n".join(f"{item!r}\n  stand-in: {_part(got, want)}\n  real:     "
                                f"{_part(want, got)}"
                                for item, got, want in sorted(wrong, key=_size)[:5])
    return list(zip(mine, real, strict=True))


def _part(answer: Any, other: Any) -> str:
    """An answer from where it first differs from the other, cut short."""
    text, against = repr(answer), repr(other)
    start = next((i for i, (a, b) in enumerate(zip(text, against, strict=False)) if a != b), 0)
    return ("..." if start > 40 else "") + text[max(start - 40, 0):start + 160]


def _size(found: tuple[Any, ...]) -> int:
    return len(repr(found[0]))


def flat(value: Any) -> list[str]:
    """`value` as a list of tokens, types included (`1`, `1.0`, `True` differ, NaN is equal to
    NaN), without recursion: a value may nest deeper than repr can go."""
    tokens, stack = [], [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            tokens.append(f"dict{len(item)}")
            for key, child in reversed(item.items()):
                stack += [child, key]
        elif isinstance(item, (list, tuple)):
            tokens.append(f"{type(item).__name__}{len(item)}")
            stack += reversed(item)
        else:
            tokens.append(f"{type(item).__name__}:{item!r}")
    return tokens


_DRAWN: dict[tuple[str, int], list[Any]] = {}


def generated(strategy: st.SearchStrategy[Any], count: int) -> list[Any]:
    """`count` inputs drawn by Hypothesis, the same on every run (a test must not flake), and
    drawn once for all the Pythons a test runs on."""
    key = (repr(strategy), count)
    if key not in _DRAWN:
        _DRAWN[key] = _draw(strategy, count)
    return _DRAWN[key]


def _draw(strategy: st.SearchStrategy[Any], count: int) -> list[Any]:
    drawn: list[Any] = []

    @settings(max_examples=count, derandomize=True, database=None, phases=[Phase.generate],
              deadline=None, suppress_health_check=list(HealthCheck))
    @given(strategy)
    def draw(item: Any) -> None:
        drawn.append(item)

    draw()
    return drawn


every_version = pytest.mark.parametrize("version", VERSIONS)


# --- JSON ------------------------------------------------------------------------------------

SCALARS = (st.none() | st.booleans() | st.integers() | st.integers(-10**40, 10**40)
           | st.floats() | st.text())
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4)
                      | st.dictionaries(st.text(max_size=4), inner, max_size=4), max_leaves=12)
SEPARATORS = st.sampled_from([None, (",", ":"), (", ", ": "), (",", ": ")])
TEXTS = st.builds(lambda value, ascii_only, separators, indent, pad: pad + json.dumps(
    value, ensure_ascii=ascii_only, separators=separators, indent=indent) + pad,
    VALUES, st.booleans(), SEPARATORS, st.sampled_from([None, None, 2]),
    st.sampled_from(["", " ", "\n", "\t\r\n ", "\u00a0", "\x0c"]))
# What a malformed text may gain: the C scanner's every complaint (a delimiter, a property
# name, a value, an escape, a control character, extra data) and the tokens it reads apart.
INSERTS = [",", ":", "[", "]", "{", "}", '"', "\\", "\\x", "\\u12", "\\ud800", "\ud800", "\udfff",
           "\x00", "\n", "\x1f", "NaN", "Infinity", "-Infinity", "-", "0", "01", "1e", "1.",
           ".5", "true", "tru", "null", "nul", "'", " ", "\ufeff", "1" * 4400, "9" * 20 + "e999"]
MALFORMED = st.builds(
    lambda text, how, at, insert: (
        text[:at % (len(text) + 1)] if how == "cut" else
        text[:at % (len(text) + 1)] + insert + text[at % (len(text) + 1):] if how == "insert" else
        text[:at % (len(text) + 1)] + text[at % (len(text) + 1) + 1:]),
    TEXTS, st.sampled_from(["cut", "insert", "insert", "drop"]), st.integers(0, 10**6),
    st.sampled_from(INSERTS))
ENCODINGS = ["utf-8", "utf-8", "utf-8-sig", "utf-16", "utf-16-le", "utf-16-be", "utf-32",
             "utf-32-le", "utf-32-be"]
BYTES = st.builds(lambda text, encoding: text.encode(encoding, "surrogatepass"),
                  TEXTS | MALFORMED, st.sampled_from(ENCODINGS)) | st.binary(max_size=12)
HOOKS = st.sampled_from(["", "", "pairs", "list", "constant"])


def deep(depth: int, opening: str = "[", closing: str = "]") -> str:
    return opening * depth + closing * depth


# Whole texts no generator is likely to reach: depth at and past the recursion limit, numbers
# past int's digit limit, every constant, a BOM, lone surrogates as text and as escapes.
FIXED = [deep(500), deep(990), deep(1100), deep(100_000), deep(990, '{"a":', "}") + "x",
         "[" * 50_000, "1" * 4301, "-" + "1" * 5000, "1e400", "-0", "-0.0", "0.1e-400",
         "NaN", "-NaN", "Infinity", "-Infinity", "[NaN, Infinity, -Infinity]", "\ufeff{}",
         '"\ud800"', '"\\ud800"', '"\\udc00\\ud800"', '"\\ud83d\\ude00"', '{"a": 1, "a": 2}',
         '{"__proto__": 1}', "", " ", "\n", "{}", "[]", '""', "0", "00", '{"a" 1}', "[1 2]",
         '{"a": 1,}', "[1,]", "[,1]", "{,}", '{"a":1}}', '"\t"', '"\\/"', "\x00"]


def json_inputs(count: int) -> list[tuple[Any, str]]:
    """Texts (str and bytes) with the hooks to read them with."""
    items = generated(st.tuples(st.one_of(TEXTS, MALFORMED, MALFORMED, BYTES), HOOKS), count)
    items += [(text, hooks) for text in FIXED for hooks in ("", "pairs", "constant")]
    return items + [(text.encode("utf-8", "surrogatepass"), "") for text in FIXED]


def _accepted(text: str | bytes, hooks: str) -> bool:
    """Whether json takes the text whole and the stand-in reads it without json: a text, or
    bytes in UTF-8 (any other encoding is json's to read)."""
    if isinstance(text, bytes) and json.detect_encoding(text) != "utf-8":
        return False
    try:
        json.loads(text, **WORKER_MODULE.LOAD_HOOKS[hooks])
    except (ValueError, RecursionError):
        return False
    return True


@every_version
def test_jsontext_loads_is_json_loads(version: str) -> None:
    """Values, error classes, messages and positions are json's, in an interpreter where
    `json` was never imported; a text json takes never imports it."""
    inputs = json_inputs(600)
    answers = differ(version, "json_loads", inputs)
    for (mine, _real), item in zip(answers, inputs, strict=True):
        if _accepted(*item):
            assert mine[1] is False, f"{item!r} was read by json, not by the stand-in"


@every_version
def test_jsontext_loads_with_strings_is_json_loads(version: str) -> None:
    """The shallow reader of long payloads: json's value (or json's error), and each long
    string's literal where it lies in the text, in the levels it reads."""
    texts = generated(st.one_of(TEXTS, MALFORMED, st.builds(
        lambda value, pad: pad + json.dumps(value) + pad,
        st.dictionaries(st.text(max_size=3), VALUES, max_size=5), st.sampled_from(["", " \n"]))),
        500)
    inputs = [(text, length) for text in texts if isinstance(text, str) for length in (0, 3)]
    differ(version, "json_long", inputs)


DUMPED = st.recursive(
    SCALARS | st.binary(max_size=3) | st.complex_numbers(max_magnitude=9) | st.frozensets(
        st.integers(0, 3), max_size=2),
    lambda inner: st.lists(inner, max_size=4) | st.tuples(inner, inner) | st.dictionaries(
        st.none() | st.booleans() | st.integers(-3, 3) | st.floats() | st.text(max_size=3)
        | st.tuples(st.integers(0, 1)), inner, max_size=4),
    max_leaves=12)


@every_version
def test_jsontext_dumps_is_json_dumps(version: str) -> None:
    inputs = generated(st.tuples(DUMPED, st.booleans(), st.booleans(), st.booleans(),
                                 SEPARATORS, st.booleans()), 500)
    differ(version, "json_dumps", inputs)


# --- records, memo, suppress -----------------------------------------------------------------

FIELD_NAMES = st.from_regex(r"[a-z_][a-z0-9_]{0,3}", fullmatch=True).filter(
    lambda name: not keyword.iskeyword(name)) | st.sampled_from(["count", "index", "self", "cls"])
FIELDS = st.lists(st.tuples(FIELD_NAMES, st.sampled_from(["int", "str", "'Any'", "list[int]"]),
                            st.sampled_from([None, None, "1", "'x'", "None", "()"])),
                  max_size=36, unique_by=lambda field: field[0])
RECORD_SPECS = st.tuples(st.sampled_from(["Record", "Spec", "_Private"]), FIELDS,
                         st.none() | st.text(max_size=10),
                         st.lists(st.sampled_from(["limit", "_fields", "_make", "__slots__",
                                                   "_replace", "__doc__", "_source"]),
                                  max_size=2, unique=True))


@every_version
def test_records_named_tuple_is_typings(version: str) -> None:
    """A record class is typing.NamedTuple's: fields, defaults (in order or refused), methods,
    construction and its errors, `_make`, `_replace`, `_asdict`, repr, annotations."""
    differ(version, "records", generated(RECORD_SPECS, 300))


# Every remembered function takes a text (or None): keys of mixed number types are where the
# two differ by design (lru_cache holds `0` and `0.0` apart, but `False` and `0.0` together).
KEYS = st.none() | st.text(alphabet="ab|*", max_size=3) | st.lists(st.none(), max_size=1)


@every_version
def test_memo_is_lru_cache(version: str) -> None:
    """What a remembered function returns or raises (an error is never remembered), its name
    and docstring: `functools.lru_cache`'s, whatever the order of eviction."""
    inputs = generated(st.tuples(st.integers(1, 4), st.lists(KEYS, max_size=30),
                                 st.sets(st.text(alphabet="ab", max_size=2), max_size=2)), 300)
    differ(version, "memo", inputs)


EXCEPTIONS = st.sampled_from(["OSError", "FileNotFoundError", "PermissionError", "ValueError",
                              "KeyError", "LookupError", "Exception", "BaseException",
                              "KeyboardInterrupt", "ProcessLookupError", "ChildProcessError",
                              "AttributeError", "ImportError", "ModuleNotFoundError"])


@every_version
def test_suppress_is_contextlibs(version: str) -> None:
    """What a `with suppress(...)` block lets through, exception groups included (3.12's
    contextlib suppresses a group when every exception in it is suppressed)."""
    inputs = generated(st.tuples(st.lists(EXCEPTIONS, max_size=3), st.none() | EXCEPTIONS,
                                 st.lists(EXCEPTIONS, max_size=2)), 300)
    differ(version, "suppress", inputs)


# --- matchers without `re` -------------------------------------------------------------------

NAMEISH = "abAB09_-"
PATTERNS = st.text(alphabet=NAMEISH + "|" * 3 + ".*+?()[]^${},\\ ", min_size=1, max_size=10)


def with_names(pattern: str, extra: list[str]) -> tuple[str, list[str]]:
    """A pattern, with names to try: its pieces (which a list of names matches) and others."""
    pieces = [piece for part in pattern.split("|") for piece in (part, part + "x", part[1:])]
    return pattern, sorted({*pieces, *extra, pattern, "", "a\n"})


MATCHER_INPUTS = st.builds(with_names, PATTERNS | st.lists(
    st.text(alphabet=NAMEISH, min_size=1, max_size=4), min_size=1, max_size=4).map("|".join),
    st.lists(st.text(alphabet=NAMEISH + "|.\n", max_size=6), max_size=6))


@every_version
def test_hooks_json_matchers_are_re_fullmatch(version: str) -> None:
    """A hooks.json matcher, read as a list of names without `re` or as a regex, and the
    selection that rules patterns out before compiling them: `re.fullmatch`'s answer."""
    differ(version, "fullmatch", generated(MATCHER_INPUTS, 500))


@every_version
def test_host_matchers_are_re_search(version: str) -> None:
    differ(version, "search", generated(MATCHER_INPUTS, 400))


GLOBS = st.text(alphabet="ab.*?[]!-x", max_size=8)


@every_version
def test_file_globs_are_fnmatchcase(version: str) -> None:
    inputs = generated(st.tuples(GLOBS, st.lists(st.text(alphabet="ab.-x[]*", max_size=6),
                                                 max_size=8)), 400)
    differ(version, "glob", inputs)


BASH_TEXT = st.text(alphabet="ab *:\n-", max_size=8)


@every_version
def test_bash_rules_are_their_regex(version: str) -> None:
    """`Bash(git *)`-style rules, matched in linear time, as the regex they mean."""
    inputs = generated(st.tuples(BASH_TEXT, st.lists(BASH_TEXT, max_size=8)), 400)
    differ(version, "bash", inputs, allowed=("re", "enum", "functools", "collections", "fnmatch"))
