"""The event payload: read strictly, and the tool call found in it whatever host wrote it.

Payloads get the strictness configs get where it protects the gate: only UTF-8 JSON objects,
no NaN/Infinity, no byte-order mark, no nesting beyond `jsonlimits.MAX_DEPTH`. A host shape is
either Antigravity's (`toolCall.name` / `toolCall.args`) or Claude Code's and Gemini CLI's
(`tool_name` / `tool_input`); rewritten arguments go back into the shape they came in.
"""

from __future__ import annotations

# `collections.abc` re-exports it: the same class, without importing `collections`.
from _collections_abc import Mapping

from agenthooks._lean import jsontext
from agenthooks.errors import PayloadError
from agenthooks.jsonlimits import MAX_DEPTH, could_be_too_deep, depth_exceeds

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any
    Payload = Mapping[str, Any] | bytes | str
    # The long strings of a payload, by id: (the string, where its JSON literal as the caller
    # wrote it lies in the payload's text: start, end; the payload's bytes, and its text when
    # that is not ASCII, whose offsets are not the bytes'). See `LONG_PAYLOAD`.
    LongStrings = dict[int, tuple[str, int, int, bytes, str | None]]

# A dict is serialised for the handlers; bytes and str are passed on exactly as given.

_BOMS = (b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff")
_TOO_DEEP = f"the payload nests deeper than {MAX_DEPTH} levels"


def _reject_constant(word: str) -> Any:
    raise ValueError(f"{word} is not valid JSON")


def json_kind(value: object) -> str:
    from agenthooks.model.handlers import json_kind as kind

    return kind(value)


# Long strings: a Write of a large file reaches PreToolUse as one payload, its content one
# string. Another host's handler gets that payload in its own words, and encoding the content
# again would cost what reading it did; so in a payload of at least LONG_PAYLOAD bytes, each
# string of at least LONG_STRING characters in its first levels is remembered with its JSON
# literal as the caller wrote it (`jsontext.loads_with_strings`: no extra reading), and
# `dump_bytes` writes that literal where the string goes.
LONG_PAYLOAD = 1 << 16
LONG_STRING = 1 << 14


def read_payload(payload: Payload) -> tuple[bytes, dict[str, Any]]:
    """The bytes the handlers get on stdin, and the payload as an object.

    Bytes are passed on untouched (no re-encoding); empty input means `{}`. Raises
    `PayloadError` for anything that is not a strict UTF-8 JSON object.
    """
    data, doc, _ = read_payload_long(payload)
    return data, doc


def read_payload_long(payload: Payload) -> tuple[bytes, dict[str, Any], LongStrings]:
    """`read_payload`, and the payload's long strings (see `LONG_PAYLOAD`)."""
    if isinstance(payload, Mapping):
        return _dump(payload), dict(payload), {}
    if isinstance(payload, str):
        try:
            data = payload.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise PayloadError(f"the payload is not valid text: {exc.reason}") from None
    elif isinstance(payload, (bytes, bytearray, memoryview)):
        data = bytes(payload)
    else:
        kind = type(payload).__name__
        raise PayloadError(f"the payload must be a dict, str or bytes, not {kind}")
    # Strip only a short prefix to find out whether it is blank: never copy a big payload.
    if not data or (data[:1].isspace() and not data.strip()):
        return b"{}", {}, {}
    doc, long = _parse(data)
    return data, doc, long


def _parse(data: bytes) -> tuple[dict[str, Any], LongStrings]:
    if data.startswith(_BOMS) or (len(data) >= 2 and (data[0] == 0 or data[1] == 0)):
        raise PayloadError("the payload must be UTF-8 JSON without a byte-order mark")
    long: LongStrings = {}
    found: list[tuple[str, int, int]] = []
    try:
        text = data.decode("utf-8")  # strict: encoded surrogates and bad bytes are errors
        if len(data) < LONG_PAYLOAD:
            doc = jsontext.loads(text, parse_constant=_reject_constant)
        else:
            doc, found = jsontext.loads_with_strings(text, LONG_STRING,
                                                     parse_constant=_reject_constant)
            # ASCII: the text's offsets are the bytes' own, and the bytes are kept anyway.
            kept = None if len(text) == len(data) else text
            long = {id(value): (value, start, end, data, kept) for value, start, end in found}
    except RecursionError:
        raise PayloadError(_TOO_DEEP) from None
    except ValueError as exc:  # UnicodeDecodeError and JSONDecodeError included
        raise PayloadError(f"the payload is not valid JSON: {exc}") from None
    if not isinstance(doc, dict):
        raise PayloadError(f"the payload must be a JSON object, not {json_kind(doc)}")
    if (_brackets(text, found) if found else could_be_too_deep(data)) and depth_exceeds(doc):
        raise PayloadError(_TOO_DEEP)
    return doc, long


def _brackets(text: str, found: list[tuple[str, int, int]]) -> bool:
    """`jsonlimits.could_be_too_deep(text)`, without reading the long strings (in order, and
    apart), which hold no nesting."""
    starts = [0, *(end for _, _, end in found)]
    ends = [*(start for _, start, _ in found), len(text)]
    return sum(text.count("[", start, end) + text.count("{", start, end)
               for start, end in zip(starts, ends, strict=True)) > MAX_DEPTH


def dump_bytes(doc: Mapping[str, Any], long: LongStrings | None = None) -> bytes:
    """`dumps(doc)` as UTF-8, with each of `long`'s strings that `doc` holds in its first levels
    written as the caller wrote it, not encoded again (see `LONG_PAYLOAD`)."""
    if not long:
        return dumps(doc).encode("utf-8")
    literals: list[bytes | memoryview] = []  # each long string's literal, as UTF-8
    # A mark no payload can hold by chance (and no writer of one can guess): the strings' places.
    import os

    mark = "agenthooks-long-" + os.urandom(16).hex() + "-"
    marked = _marked(doc, long, mark, literals, 4)
    if not literals:
        return dumps(doc).encode("utf-8")
    parts = dumps(marked).split(f'"{mark}')
    if len(parts) != len(literals) + 1:  # the mark in the payload after all: no splicing
        return dumps(doc).encode("utf-8")
    out: list[bytes | memoryview] = [parts[0].encode("utf-8")]
    for part in parts[1:]:
        index, rest = part.split('"', 1)
        out += (literals[int(index)], rest.encode("utf-8"))
    return b"".join(out)


def _marked(value: Any, long: LongStrings, mark: str, literals: list[bytes | memoryview],
            levels: int) -> Any:
    """`value` with each long string it holds (that very string) in its first `levels`
    levels of objects replaced by `mark` and its index in `literals`."""
    if isinstance(value, str):
        found = long.get(id(value))
        if found is None or found[0] is not value:
            return value
        literals.append(_literal(*found[1:]))
        return f"{mark}{len(literals) - 1}"
    if isinstance(value, dict) and levels:
        return {key: _marked(item, long, mark, literals, levels - 1)
                for key, item in value.items()}
    return value


def _literal(start: int, end: int, data: bytes, text: str | None) -> bytes | memoryview:
    """A long string's literal as the caller wrote it, in UTF-8: a view of its bytes, found
    by encoding what lies around it when that is the shorter (text that is not ASCII)."""
    if text is not None:
        if start + len(text) - end > end - start:
            return text[start:end].encode("utf-8")
        start = len(text[:start].encode("utf-8"))
        end = len(data) - len(text[end:].encode("utf-8"))
    return memoryview(data)[start:end]


def _dump(doc: Mapping[str, Any]) -> bytes:
    try:
        data = jsontext.dumps(doc, ensure_ascii=False, allow_nan=False).encode("utf-8")
    except RecursionError:
        raise PayloadError(_TOO_DEEP) from None
    except UnicodeEncodeError as exc:
        raise PayloadError(f"the payload holds text that is not UTF-8: {exc.reason}") from None
    except (TypeError, ValueError) as exc:  # a set, an object, a circular reference, NaN
        raise PayloadError(f"the payload cannot be sent as JSON: {exc}") from None
    # Only now: json has ruled out a circular reference, which would never end this walk.
    if could_be_too_deep(data) and depth_exceeds(dict(doc)):
        raise PayloadError(_TOO_DEEP)
    return data


def dumps(value: Any) -> str:
    """Strict JSON for everything agenthooks prints: never NaN or Infinity, never a surrogate."""
    text = jsontext.dumps(value, ensure_ascii=False, allow_nan=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate from a "\ud800" escape in some output
        text = jsontext.dumps(value, allow_nan=False)
    return text


def tool_from_payload(doc: Mapping[str, Any]) -> str | None:
    """The tool name: Antigravity's toolCall.name, else tool_name (Gemini CLI, Claude Code)."""
    call = doc.get("toolCall")
    if isinstance(call, dict):
        name = call.get("name")
        if isinstance(name, str) and name:
            return name
    name = doc.get("tool_name")
    return name if isinstance(name, str) and name else None


def tool_args(doc: Mapping[str, Any]) -> dict[str, Any]:
    """The tool arguments: toolCall.args, else tool_input; `{}` when neither is an object."""
    call = doc.get("toolCall")
    if isinstance(call, dict) and isinstance(call.get("args"), dict):
        return dict(call["args"])
    found = doc.get("tool_input")
    return dict(found) if isinstance(found, dict) else {}


def with_args(doc: Mapping[str, Any], args: dict[str, Any]) -> dict[str, Any]:
    """A copy of the payload with its tool arguments replaced, in the payload's own shape."""
    new = dict(doc)
    call = doc.get("toolCall")
    if isinstance(call, dict) or ("tool_name" not in doc and "tool_input" not in doc):
        new["toolCall"] = {**(call if isinstance(call, dict) else {}), "args": args}
    else:
        new["tool_input"] = args
    return new


def session_id_of(doc: Mapping[str, Any]) -> str | None:
    """The host's session id in a payload (Claude Code's and Gemini CLI's `session_id`,
    Antigravity's `conversationId`), if any."""
    for key in ("session_id", "sessionId", "conversationId"):
        value = doc.get(key)
        if isinstance(value, str) and value:
            return value
    return None
