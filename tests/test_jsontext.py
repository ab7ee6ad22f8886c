"""`agenthooks._lean.jsontext` is `json.loads`/`json.dumps`: compared with them, value, text
and error."""

from __future__ import annotations

import json
import math
import random
from typing import Any

import pytest

from agenthooks._lean import jsontext

ODD_TEXTS = [
    "", " ", "\n\t", "{}", " {} ", "[]", "null", "true", "false", "0", "-0", "1e400", "-1e400",
    "1.5", "1E+2", "12345678901234567890123456789", '"x"', '"\\ud83d\\ude00"', '"\\ud83d"',
    '"\\u0000"', '"tab\there"', '"\x7f"', "NaN", "Infinity", "-Infinity", "nan", "[NaN]",
    '{"a": 1} x', '{"a": 1}   ', '{"a": 1}\n\n{"b": 2}', "{'a': 1}", '{"a": 1,}', "[1,]",
    "[1 2]", '{"a" 1}', '{"a": }', "01", "1.", ".5", "-", "+1", "\ufeff{}", '{"a":1,"a":2}',
    '"\\x"', "[" * 50 + "]" * 50, "[" * 50, '{"\u00e9": "\u4e2d"}', "tru", '"open', "[]]",
]
ODD_BYTES = [
    b"{}", b"", b"\xef\xbb\xbf{}", b'"\xc3\xa9"', b'"\xff"', b'"\xed\xa0\x80"', b"[1]",
    '{"a": 1}'.encode("utf-16"), '{"a": 1}'.encode("utf-16-le"), '{"a": 1}'.encode("utf-32"),
    '"x"'.encode("utf-16-be"), b"1", b"12", b"\x00\x00", b"{\x00}", bytearray(b'{"a": [1]}'),
]


def outcome(fn: Any, *args: Any, **kwargs: Any) -> tuple[str, Any]:
    try:
        value = fn(*args, **kwargs)
    except (ValueError, TypeError, RecursionError) as exc:
        return type(exc).__name__, str(exc)
    return "value", json.dumps(value, sort_keys=False) if not _has_nan(value) else repr(value)


def _has_nan(value: Any) -> bool:
    if isinstance(value, float):
        return math.isnan(value)
    if isinstance(value, dict):
        return any(_has_nan(v) for v in value.values())
    if isinstance(value, list):
        return any(_has_nan(v) for v in value)
    return False


@pytest.mark.parametrize("text", ODD_TEXTS + ODD_BYTES)
def test_loads_is_json_loads(text: str | bytes) -> None:
    assert outcome(jsontext.loads, text) == outcome(json.loads, text)


def reject(word: str) -> Any:
    raise ValueError(f"constant {word}")


def pairs(items: list[tuple[str, Any]]) -> Any:
    return {"pairs": [list(item) for item in items]}


@pytest.mark.parametrize("text", ['{"a": NaN}', '[Infinity]', '{"a": 1, "a": 2}', '{"b": {}}'])
def test_loads_keywords_are_json_loads_keywords(text: str) -> None:
    for keywords in ({"parse_constant": reject}, {"object_pairs_hook": pairs},
                     {"parse_constant": reject, "object_pairs_hook": pairs}):
        assert outcome(jsontext.loads, text, **keywords) == outcome(json.loads, text, **keywords)


def test_errors_are_json_decode_errors_at_the_same_place() -> None:
    for text in ('{"a": 1} x', "[1,", "", "\ufeff[]", "  nul"):
        with pytest.raises(json.JSONDecodeError) as ours:
            jsontext.loads(text)
        with pytest.raises(json.JSONDecodeError) as theirs:
            json.loads(text)
        assert (ours.value.msg, ours.value.pos) == (theirs.value.msg, theirs.value.pos)
    assert jsontext.JSONDecodeError is json.JSONDecodeError
    assert outcome(jsontext.loads, None) == outcome(json.loads, None)
    assert outcome(jsontext.loads, None)[0] == "TypeError"


def random_value(rng: random.Random, depth: int = 0) -> Any:
    kinds = ["str", "int", "float", "bool", "none"] + (["list", "dict"] * 2 if depth < 4 else [])
    kind = rng.choice(kinds)
    if kind == "str":
        alphabet = "ab \"\\/\n\t\x00\x1f\x7f\u00e9\u4e2d\U0001f600\ud800"
        return "".join(rng.choice(alphabet) for _ in range(rng.randrange(8)))
    if kind == "int":
        return rng.choice([0, -1, 2**70, -(2**63), rng.randrange(-1000, 1000)])
    if kind == "float":
        return rng.choice([0.0, -0.0, 1.5, 1e300, 1e-300, 0.1 + 0.2, float("inf"),
                           float("-inf"), float("nan"), rng.random()])
    if kind == "bool":
        return rng.random() < 0.5
    if kind == "none":
        return None
    if kind == "list":
        return [random_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    return {random_value(rng, 9) if rng.random() < 0.9 else rng.choice([1, 2.5, True, None]):
            random_value(rng, depth + 1) for _ in range(rng.randrange(4))}


DUMP_KEYWORDS: list[dict[str, Any]] = [
    {}, {"ensure_ascii": False}, {"allow_nan": False}, {"sort_keys": True},
    {"separators": (",", ":")}, {"default": str}, {"indent": 2},
    {"ensure_ascii": False, "allow_nan": False, "sort_keys": True, "separators": (",", ":")},
]


def test_dumps_and_loads_agree_with_json_on_random_documents() -> None:
    rng = random.Random(20261124)
    for _ in range(3000):
        value = random_value(rng)
        keywords = rng.choice(DUMP_KEYWORDS)
        ours, theirs = outcome(jsontext.dumps, value, **keywords), \
            outcome(json.dumps, value, **keywords)
        assert ours == theirs, (value, keywords)
        if ours[0] == "value":
            text = jsontext.dumps(value, **keywords)
            assert outcome(jsontext.loads, text) == outcome(json.loads, text)
            assert outcome(jsontext.loads, text.encode("utf-8", "surrogatepass")) == \
                outcome(json.loads, text.encode("utf-8", "surrogatepass"))


def test_dumps_of_what_json_refuses() -> None:
    circular: list[Any] = []
    circular.append(circular)
    for value in (circular, {"a": {1, 2}}, object(), {(1, 2): 3}, b"x"):
        assert outcome(jsontext.dumps, value) == outcome(json.dumps, value)
