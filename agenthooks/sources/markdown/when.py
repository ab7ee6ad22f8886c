"""`when` expressions answered without Starlark: a payload field or the event word compared
with a text, such as `payload["name"] == "run_command"`.

Most tool calls match no hook's `when`; answering the common ones here means such a call
starts no process and loads no Starlark at all (`kinds.inprocess.supervise`). The answer is exactly
Starlark's, or there is none and Starlark answers:

- `analyse` accepts only `OPERAND == TEXT` or `OPERAND != TEXT` (either side first), where
  OPERAND is `event` or `payload["key"]["key"]...` and TEXT a one-line string literal without
  a backslash (its value is its text). Anything else (a comment, an escape, `and`, a call) is
  not analysed. Such an expression refers to nothing of the script, so it means the same in
  any module.
- `answer` reads the payload's JSON text as the Starlark entry point decodes it and walks the
  keys. It gives no answer (Starlark answers, and raises what it raises) when a key is missing
  or a step is not a dict, when the text nests deeper than Starlark's decoder reads, when it
  is not valid UTF-8 (starlark-pyo3 cannot take it), or when an object has a key twice.
  Otherwise `==` of a decoded value and a text is Starlark's: equal texts are equal, and a
  value of another type never equals a text.

The analysis is made when the frontmatter is read and kept in its cache entry, so a warm run
compiles no pattern.
"""

from __future__ import annotations

from agenthooks._lean import jsontext

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

# (the operand: ("event",) or ("payload", key, ...), whether `==` (else `!=`), the text)
Test = tuple[tuple[str, ...], bool, str]

# Below starlark-rust's JSON decoder's nesting limit (it fails near 127 levels): a text with
# more brackets than this is left to Starlark, whatever its real depth.
_BRACKETS = 100


def analyse(expression: str) -> Test | None:
    """The test a `when` expression makes, when it is one `answer` can answer; else None."""
    import re

    # No escape, no control character, no lone surrogate: the text is the literal's value.
    plain = r"\\\x00-\x1f\x7f\ud800-\udfff"
    text = f"""(?:"[^"{plain}]*"|'[^'{plain}]*')"""
    blank = r"[ \n]*"  # what Starlark's lexer takes between tokens inside parentheses
    operand = rf"event|payload(?:{blank}\[{blank}{text}{blank}\])+"
    found = re.fullmatch(
        rf"{blank}(?P<left>{operand}|{text}){blank}(?P<op>==|!=){blank}"
        rf"(?P<right>{operand}|{text}){blank}", expression)
    if found is None:
        return None
    left, right = found.group("left"), found.group("right")
    if left[0] in "\"'" and right[0] not in "\"'":
        left, right = right, left
    if left[0] in "\"'" or right[0] not in "\"'":
        return None  # two texts or two operands: not a comparison with a text
    root = "event" if left == "event" else "payload"
    keys = tuple(key[1:-1] for key in re.findall(text, left)) if root == "payload" else ()
    return (root, *keys), found.group("op") == "==", right[1:-1]


def valid(test: Any) -> bool:
    """Whether a cached test has the shape `analyse` makes (an entry is never trusted blind)."""
    if not (isinstance(test, tuple) and len(test) == 3):
        return False
    operand, equal, text = test
    return (isinstance(operand, tuple) and bool(operand)
            and all(isinstance(part, str) for part in operand)
            and (operand == ("event",) or (operand[0] == "payload" and len(operand) > 1))
            and type(equal) is bool and isinstance(text, str))


def answer(test: Test, event: str, payload_json: str) -> bool | None:
    """The expression's value for this event word and payload text; None when Starlark must
    answer (see the module's docstring)."""
    operand, equal, text = test
    if operand[0] == "event":
        return (event == text) == equal
    value = _decoded(payload_json)
    if value is _UNREAD:
        return None
    for key in operand[1:]:
        if type(value) is not dict or key not in value:
            return None
        value = value[key]
    return (type(value) is str and value == text) == equal


_UNREAD = object()
# The last text decoded and its value: every hook of a call shares it (one item, replaced
# whole, so a thread reads one pair or another, never a mix).
_last: list[tuple[str | None, Any]] = [(None, _UNREAD)]


def _decoded(payload_json: str) -> Any:
    last = _last[0]
    if last[0] is payload_json:
        return last[1]
    value = _UNREAD
    if payload_json.count("[") + payload_json.count("{") <= _BRACKETS and _utf8(payload_json):
        try:
            value = jsontext.loads(payload_json, object_pairs_hook=_unique)
        except ValueError:  # a key given twice, or a text Starlark's decoder would refuse too
            value = _UNREAD
    _last[0] = (payload_json, value)
    return value


def _utf8(text: str) -> bool:
    if text.isascii():
        return True
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate
        return False
    return True


def _unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found = dict(pairs)
    if len(found) != len(pairs):
        raise ValueError("a key given twice")
    return found
