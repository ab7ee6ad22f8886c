"""`json.loads` and `json.dumps` on CPython's C codec (`_json`), without importing `json`.

`json`'s decoder and encoder modules import `re` for their pure-Python fallbacks, and `re`
brings `enum`, `functools` and `collections`: together more than half of what a cold
`agenthooks run` would otherwise spend beyond the interpreter's own start. `json` itself uses
the same two C objects, `_json.make_scanner` and `_json.make_encoder`, built from the same
settings as its defaults, so values and output are `json`'s own (tests compare them over
generated documents, in a fresh interpreter that has imported nothing else). Anything these two
do not cover (an `indent`, an encoding other than UTF-8, an interpreter without `_json`) goes
to `json` itself, and so does every text the scanner does not take whole: errors are always
raised by `json.loads`, never built here, so a malformed text costs the import of `json` and
nothing else differs.

Errors are `json.JSONDecodeError` (a `ValueError`); naming `jsontext.JSONDecodeError` imports
`json.decoder`, which a failure path may pay for.

What it saves: importing `json` (with `re` behind it) costs about 30 million instructions,
three quarters of the interpreter's own start (`python3 -c pass`, 39 million); this module
about 2. How it is proven: tests/shipped/test_lean_differential.py compares `loads` (valid
and mutated texts, bytes in every encoding json detects, every hook agenthooks passes) and
`dumps` (every keyword agenthooks passes) with json's over generated inputs, in a fresh
interpreter of every supported Python, each text meeting an interpreter without `json`.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

# Typed as Any: typeshed's `_json` takes a JSONDecoder where any object with its settings does.
_codec: Any
try:
    _codec = __import__("_json")
except ImportError:  # an interpreter without the C codec: json's own code, re and all
    _codec = None

_WHITESPACE = " \t\n\r"  # json's WHITESPACE, r'[ \t\n\r]*'
_CONSTANTS = {"-Infinity": float("-inf"), "Infinity": float("inf"), "NaN": float("nan")}


class _ScannerSettings:
    """What `make_scanner` reads off a `json.JSONDecoder`: json.loads' defaults."""

    strict = True
    object_hook = None
    parse_float = float
    parse_int = int

    def __init__(self, parse_constant: Callable[[str], Any] | None,
                 object_pairs_hook: Callable[[list[tuple[str, Any]]], Any] | None) -> None:
        self.parse_constant = parse_constant or _CONSTANTS.__getitem__
        self.object_pairs_hook = object_pairs_hook


_scanners: dict[tuple[object, object], Callable[[str, int], tuple[Any, int]]] = {}


def _scanner(parse_constant: Callable[[str], Any] | None,
             object_pairs_hook: Callable[..., Any] | None) -> Callable[[str, int], Any]:
    key = (parse_constant, object_pairs_hook)
    scan = _scanners.get(key)
    if scan is None:
        settings = _ScannerSettings(parse_constant, object_pairs_hook)
        scan = _scanners[key] = _codec.make_scanner(settings)
    return scan


def _plain_utf8(data: bytes | bytearray) -> bool:
    """Whether `json.detect_encoding` would say plain UTF-8: no BOM, no NUL in its sniff."""
    if data[:3] == b"\xef\xbb\xbf" or data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        return False
    return 0 not in data[:4] if len(data) >= 4 or len(data) == 2 else True


def loads(text: str | bytes | bytearray, *,
          parse_constant: Callable[[str], Any] | None = None,
          object_pairs_hook: Callable[[list[tuple[str, Any]]], Any] | None = None) -> Any:
    """`json.loads(text, parse_constant=..., object_pairs_hook=...)`, the same in every way."""
    if _codec is None or (not isinstance(text, str) and not (
            isinstance(text, (bytes, bytearray)) and _plain_utf8(text))):
        import json

        return json.loads(text, parse_constant=parse_constant,
                          object_pairs_hook=object_pairs_hook)
    value = _fast_loads(text, parse_constant, object_pairs_hook)
    if value is _FAILED:
        # Every failure is json's own: its error, message and position. On CPython 3.10 and
        # 3.11 the C scanner builds its error through `json.decoder` in sys.modules and,
        # with none there, raises SystemError; json itself is imported here, on failure only.
        import json

        return json.loads(text, parse_constant=parse_constant,
                          object_pairs_hook=object_pairs_hook)
    return value


_FAILED: Any = object()


def _fast_loads(text: str | bytes | bytearray,
                parse_constant: Callable[[str], Any] | None,
                object_pairs_hook: Callable[[list[tuple[str, Any]]], Any] | None) -> Any:
    """The value of a well-formed text, or `_FAILED` for anything json would reject."""
    if not isinstance(text, str):
        text = text.decode("utf-8", "surrogatepass")
    elif text.startswith("\ufeff"):
        return _FAILED
    start = _skip(text, 0)  # not `lstrip`, which copies the text
    try:
        value, end = _scanner(parse_constant, object_pairs_hook)(text, start)
    except Exception:  # StopIteration, SystemError, a hook's own error: json says which
        return _FAILED
    if text[end:].strip(_WHITESPACE):
        return _FAILED
    return value


class _Irregular(Exception):
    """A text the shallow reader leaves to `loads`: not an object, or not well-formed."""


def loads_with_strings(text: str, min_length: int, levels: int = 3, *,
                       parse_constant: Callable[[str], Any] | None = None,
                       ) -> tuple[Any, list[tuple[str, int, int]]]:
    """`loads(text, parse_constant=...)`, and where each string value of at least
    `min_length` characters in the first `levels` levels of objects lies in `text`: (the
    value itself, start, end), `text[start:end]` its JSON literal as written.

    The first levels are read here, each value in them by the same C scanner `loads` uses, so
    a value costs what it costs there and a long string's literal is known without reading it
    again: a host's payload carries a file's content in its second or third level, and
    another host's payload can take that literal as it is. Anything else (an array or a
    scalar at the top, a malformed text) is read by `loads`, which raises its errors.
    """
    if _codec is not None:
        found: list[tuple[str, int, int]] = []
        try:
            start = _skip(text, 0)
            if text[start:start + 1] == "{":
                value, end = _object(text, start, levels, _scanner(parse_constant, None),
                                     min_length, found)
                if _skip(text, end) == len(text):
                    return value, found
        except Exception:  # _Irregular, StopIteration, a hook's error: loads says which
            pass
    return loads(text, parse_constant=parse_constant), []


def _skip(text: str, at: int) -> int:
    """Past json's whitespace from `at` (only between the few tokens of the first levels)."""
    while text[at:at + 1] in _WHITESPACE_SET:
        at += 1
    return at


_WHITESPACE_SET = frozenset(_WHITESPACE)  # "" is not in it: the end of the text stops `_skip`


def _object(text: str, at: int, levels: int, scan: Callable[[str, int], Any], min_length: int,
            found: list[tuple[str, int, int]]) -> tuple[dict[str, Any], int]:
    """The object at `text[at]` (a `{`) and where it ends, as the C scanner reads one."""
    value: dict[str, Any] = {}
    at = _skip(text, at + 1)
    if text[at:at + 1] == "}":
        return value, at + 1
    while True:
        if text[at:at + 1] != '"':
            raise _Irregular
        key, at = scan(text, at)
        at = _skip(text, at)
        if text[at:at + 1] != ":":
            raise _Irregular
        at = _skip(text, at + 1)
        first = text[at:at + 1]
        if first == "{" and levels > 1:
            value[key], at = _object(text, at, levels - 1, scan, min_length, found)
        else:
            start = at
            value[key], at = scan(text, at)
            if first == '"' and len(value[key]) >= min_length:
                found.append((value[key], start, at))
        at = _skip(text, at)
        after = text[at:at + 1]
        if after == "}":
            return value, at + 1
        if after != ",":
            raise _Irregular
        at = _skip(text, at + 1)


def _not_serializable(value: object) -> Any:
    raise TypeError(f"Object of type {value.__class__.__name__} is not JSON serializable")


def dumps(value: Any, *, ensure_ascii: bool = True, allow_nan: bool = True,
          sort_keys: bool = False, separators: tuple[str, str] | None = None,
          default: Callable[[Any], Any] | None = None, indent: int | None = None) -> str:
    """`json.dumps(value, ...)` with these keywords, the same in every way."""
    if _codec is None or indent is not None:
        import json

        return json.dumps(value, ensure_ascii=ensure_ascii, allow_nan=allow_nan,
                          sort_keys=sort_keys, separators=separators, default=default,
                          indent=indent)
    quote = _codec.encode_basestring_ascii if ensure_ascii else _codec.encode_basestring
    if isinstance(value, str):
        return str(quote(value))
    item_separator, key_separator = separators or (", ", ": ")
    try:
        encode = _codec.make_encoder({}, default or _not_serializable, quote, None,
                                     key_separator, item_separator, sort_keys, False, allow_nan)
    except TypeError:  # another interpreter's make_encoder: json knows how to call it
        import json

        return json.dumps(value, ensure_ascii=ensure_ascii, allow_nan=allow_nan,
                          sort_keys=sort_keys, separators=separators, default=default)
    return "".join(encode(value, 0))


def __getattr__(name: str) -> Any:
    if name == "JSONDecodeError":
        from json.decoder import JSONDecodeError

        return JSONDecodeError
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
