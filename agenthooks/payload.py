"""The event payload: read strictly, and the tool call found in it whatever host wrote it.

Payloads get the strictness configs get where it protects the gate: only UTF-8 JSON objects,
no NaN/Infinity, no byte-order mark, no nesting beyond `jsonlimits.MAX_DEPTH`. A host shape is
either Antigravity's (`toolCall.name` / `toolCall.args`) or Claude Code's and Gemini CLI's
(`tool_name` / `tool_input`); rewritten arguments go back into the shape they came in.
"""

from __future__ import annotations

# `collections.abc` re-exports it: the same class, without importing `collections`.
from _collections_abc import Mapping

from agenthooks import jsontext
from agenthooks.errors import PayloadError
from agenthooks.jsonlimits import MAX_DEPTH, could_be_too_deep, depth_exceeds

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any
    Payload = Mapping[str, Any] | bytes | str

# A dict is serialised for the handlers; bytes and str are passed on exactly as given.

_BOMS = (b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff")
_TOO_DEEP = f"the payload nests deeper than {MAX_DEPTH} levels"


def _reject_constant(word: str) -> Any:
    raise ValueError(f"{word} is not valid JSON")


def json_kind(value: object) -> str:
    from agenthooks.model.handlers import json_kind as kind

    return kind(value)


def read_payload(payload: Payload) -> tuple[bytes, dict[str, Any]]:
    """The bytes the handlers get on stdin, and the payload as an object.

    Bytes are passed on untouched (no re-encoding); empty input means `{}`. Raises
    `PayloadError` for anything that is not a strict UTF-8 JSON object.
    """
    if isinstance(payload, Mapping):
        return _dump(payload), dict(payload)
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
        return b"{}", {}
    return data, _parse(data)


def _parse(data: bytes) -> dict[str, Any]:
    if data.startswith(_BOMS) or (len(data) >= 2 and (data[0] == 0 or data[1] == 0)):
        raise PayloadError("the payload must be UTF-8 JSON without a byte-order mark")
    try:
        text = data.decode("utf-8")  # strict: encoded surrogates and bad bytes are errors
        doc = jsontext.loads(text, parse_constant=_reject_constant)
    except RecursionError:
        raise PayloadError(_TOO_DEEP) from None
    except ValueError as exc:  # UnicodeDecodeError and JSONDecodeError included
        raise PayloadError(f"the payload is not valid JSON: {exc}") from None
    if not isinstance(doc, dict):
        raise PayloadError(f"the payload must be a JSON object, not {json_kind(doc)}")
    if could_be_too_deep(data) and depth_exceeds(doc):
        raise PayloadError(_TOO_DEEP)
    return doc


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
