"""AHP v0.1 messages: a JSON-RPC 2.0 line read into an event the engine runs, and back.

The Agent Hooks Protocol's Working Draft (agenthooksprotocol/agent-hooks-protocol,
spec/working-draft.md, `0.1.0-draft.1`) defines one control point: a harness sends a
`tool.before` event in a `hooks/intercept` request and a backend answers with no effect or
one `deny` effect (§8, §12). There is no handshake: the version (`protocolVersion` "0.1")
and the harness's capabilities (`capabilities.effects`) come with every request (§7.2, §11),
because a backend may be started once per event. `hooks/observe` is a one-way notification
of a lifecycle event (§8.4), never answered.

The event becomes the payload a host would send for PreToolUse (`translate`): the host
whose words the tool's name is in (`Bash` is Claude Code's, `run_shell_command` Gemini
CLI's), so every hook matches it as it would under that host. The verdict becomes the
effects (`EFFECTS`): AHP v0.1 has no `allow`, `ask` or input rewrite (§12.3, §3.2), so an
explicit yes is no effect, and an ask or a rewrite, which the backend cannot carry, deny
rather than let the call run as it was.
"""

from __future__ import annotations

from agenthooks._lean.records import NamedTuple
from agenthooks.errors import AgentHooksError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from agenthooks.combine.verdict import Verdict

PROTOCOL_VERSION = "0.1"
SUPPORTED_VERSIONS = (PROTOCOL_VERSION,)
INTERCEPT = "hooks/intercept"
OBSERVE = "hooks/observe"
DENY = "deny"

# JSON-RPC 2.0's error codes, then those AHP reserves (§16).
PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
UNSUPPORTED_PROTOCOL_VERSION = -32001
UNSUPPORTED_EVENT = -32002
BACKEND_UNAVAILABLE = -32003
BACKEND_INTERNAL_ERROR = -32004

# The v0.1 values of `tool.kind` (§9.3); any other is unsupported protocol semantics (§7.3).
TOOL_KINDS = frozenset(
    ("shell", "file_read", "file_write", "file_edit", "search", "fetch", "task", "mcp", "other"))


class Route(NamedTuple):
    """An AHP event type, the method that carries it, and the engine's event for it."""

    type: str
    method: str
    engine: str


# AHP's events (§10) and the engine's: `tool.before` is the only interceptable one.
ROUTES: tuple[Route, ...] = (
    Route("tool.before", INTERCEPT, "PreToolUse"),
    Route("tool.after", OBSERVE, "PostToolUse"),
    Route("tool.error", OBSERVE, "ToolError"),
    Route("session.start", OBSERVE, "SessionStart"),
    Route("session.end", OBSERVE, "SessionEnd"),
)


class Effect(NamedTuple):
    """What the backend answers for one engine decision: deny or not, and why."""

    deny: bool
    reason: str | None = None  # the deny's reason when the decision gives none (or a prefix)
    dropped: str | None = None  # what AHP cannot carry and is left out (said on stderr)


# The engine's decision kinds (`Decision.kind`) as AHP v0.1 effects.
EFFECTS: dict[str, Effect] = {
    "allow": Effect(False),
    "approve": Effect(False, dropped="an explicit allow (AHP has no allow effect: §12.3)"),
    "inject": Effect(False, dropped="a message for the model (AHP v0.1 has no such effect)"),
    "deny": Effect(True, "denied by the workspace's hooks"),
    "replace": Effect(True, "a hook supplied the tool's result instead of running it"),
    "ask": Effect(True, "a hook asks for a person's approval, which AHP v0.1 cannot ask for"),
    "modify": Effect(True, "a hook rewrote the tool input, which AHP v0.1 cannot carry"),
}


class RpcError(AgentHooksError):
    """A message answered with a JSON-RPC error: its code, the request's id, and data."""

    def __init__(self, code: int, message: str, request_id: Any = None,
                 data: Any = None) -> None:
        super().__init__(message)
        self.code = code
        self.request_id = request_id
        self.data = data


class Message(NamedTuple):
    """One JSON-RPC request or notification (`notification`: no id, never answered)."""

    method: str
    params: Any
    request_id: Any = None
    notification: bool = False


class Intercept(NamedTuple):
    """A `hooks/intercept` request, read: the engine's event, its payload, and the effects
    the harness can enforce for it."""

    request_id: Any
    event: str
    call: Translated
    effects: tuple[str, ...]


def _reject_constant(word: str) -> Any:
    raise ValueError(f"{word} is not JSON")


def read_message(line: bytes) -> Message:
    """One line of the stdio binding (§17.1) as a JSON-RPC message; `RpcError` if it is not
    one (a parse error, a batch, a response, a message without method)."""
    from agenthooks._lean import jsontext

    try:
        doc = jsontext.loads(line.decode("utf-8"), parse_constant=_reject_constant)
    except (ValueError, RecursionError) as exc:  # UnicodeDecodeError and JSONDecodeError too
        raise RpcError(PARSE_ERROR, f"Parse error: not one UTF-8 JSON text ({exc})") from None
    if isinstance(doc, list):
        raise RpcError(INVALID_REQUEST, "Invalid Request: AHP v0.1 uses no batches (§7.1)")
    if not isinstance(doc, dict):
        raise RpcError(INVALID_REQUEST, "Invalid Request: a message is a JSON object")
    request_id = doc.get("id")
    if "id" in doc and not _is_id(request_id):
        raise RpcError(INVALID_REQUEST, "Invalid Request: id must be a string or a number")
    if doc.get("jsonrpc") != "2.0":
        raise RpcError(INVALID_REQUEST, 'Invalid Request: jsonrpc must be "2.0"', request_id)
    method = doc.get("method")
    if not isinstance(method, str):
        raise RpcError(INVALID_REQUEST, "Invalid Request: no method (a backend takes requests "
                       "and notifications only)", request_id)
    return Message(method, doc.get("params"), request_id, "id" not in doc)


def _is_id(value: Any) -> bool:
    return value is None or isinstance(value, str) or (
        isinstance(value, (int, float)) and not isinstance(value, bool))


def route_of(event_type: str) -> Route | None:
    return next((route for route in ROUTES if route.type == event_type), None)


def read_event(message: Message) -> tuple[dict[str, Any], Route]:
    """The params' event and its route, after the version: `RpcError` for another version
    (§7.2), an event that is not an object, or a type this method does not carry (§16)."""
    params = message.params
    if not isinstance(params, dict):
        raise _invalid(message, "params must be an object")
    version = params.get("protocolVersion")
    if version not in SUPPORTED_VERSIONS:
        raise RpcError(UNSUPPORTED_PROTOCOL_VERSION, "Unsupported AHP protocol version",
                       message.request_id, {"supported": list(SUPPORTED_VERSIONS)})
    event = params.get("event")
    if not isinstance(event, dict):
        raise _invalid(message, "params.event must be an object")
    event_type = event.get("type")
    route = route_of(event_type) if isinstance(event_type, str) else None
    if route is None or route.method != message.method:
        supported = [r.type for r in ROUTES if r.method == message.method]
        raise RpcError(UNSUPPORTED_EVENT, f"Unsupported event for {message.method}: "
                       f"{event_type!r}", message.request_id, {"supported": supported})
    return event, route


def read_intercept(message: Message, host: str | None = None) -> Intercept:
    """A `hooks/intercept` request as the engine's event and the call (`translate`)."""
    event, route = read_event(message)
    if event.get("id") != message.request_id:
        raise _invalid(message, "the request id must equal params.event.id (§8.1)")
    effects = message.params.get("capabilities", {})
    advertised = effects.get("effects") if isinstance(effects, dict) else None
    if not (isinstance(advertised, list) and all(isinstance(e, str) for e in advertised)):
        raise _invalid(message, "params.capabilities.effects must be an array of strings")
    problem = event_problem(event)
    if problem is not None:
        raise _invalid(message, problem)
    return Intercept(message.request_id, route.engine, translate(event, route.engine, host),
                     tuple(advertised))


def _invalid(message: Message, what: str) -> RpcError:
    return RpcError(INVALID_PARAMS, f"Invalid params: {what}", message.request_id)


# The fields a v0.1 event requires (§9.1-§9.3), where they sit, and their JSON type.
REQUIRED: tuple[tuple[str, str, type], ...] = (
    ("", "id", str), ("", "source", str), ("", "time", str), ("", "session", dict),
    ("session", "id", str),
)
REQUIRED_TOOL: tuple[tuple[str, str, type], ...] = (
    ("", "tool", dict), ("tool", "callId", str), ("tool", "name", str),
    ("tool", "kind", str), ("tool", "input", dict),
)


def event_problem(event: Mapping[str, Any]) -> str | None:
    """What makes an event not a v0.1 tool event, in one phrase; None when nothing does.
    Unknown fields are ignored (§7.3); an unknown `tool.kind` is not (an enum value)."""
    for where, name, kind in (*REQUIRED, *REQUIRED_TOOL):
        holder = event if not where else event.get(where)
        value = holder.get(name) if isinstance(holder, dict) else None
        if not isinstance(value, kind) or (kind is str and not value):
            path = f"event.{where}.{name}" if where else f"event.{name}"
            wanted = "an object" if kind is dict else "a non-empty string"
            return f"{path} must be {wanted}"
    kind_word = event["tool"]["kind"]
    if kind_word not in TOOL_KINDS:
        kinds = ", ".join(sorted(TOOL_KINDS))
        return f"event.tool.kind {kind_word!r} is not one of v0.1's ({kinds})"
    return None


def host_naming(tool: str) -> str:
    """The host whose words a tool name is in: the first in the host table that calls a tool
    so; Claude Code's shape for a name no host uses (a flat `tool_name` and `tool_input`,
    which most hosts share), the name kept as given."""
    from agenthooks.model.hosts import COMMON_SHAPE
    from agenthooks.model.tools import DIALECTS, tool_for

    return next((host for host in DIALECTS if tool_for(host, tool) is not None), COMMON_SHAPE)


class Translated(NamedTuple):
    """An AHP event in a host's words: the host, its word for the event, the payload fields
    under their canonical names (`sources.payloads.SHAPES`), the tool's name and input.
    `sources.payloads.build` writes the payload that host would send from it."""

    host: str
    word: str
    fields: dict[str, Any]
    tool: str | None = None
    args: dict[str, Any] | None = None


def translate(event: Mapping[str, Any], engine_event: str, host: str | None = None
              ) -> Translated:
    """An event in the words of `host` (default: `host_naming` of its tool, Claude Code's
    for an event without one): its session id, working directory, workspace roots, model,
    and the tool call as given. `native` and `extensions` are not read: a portable backend
    works without them (§9.4, §9.5)."""
    from agenthooks.model.events import call_word, find_row

    session = event.get("session")
    session = session if isinstance(session, dict) else {}
    tool = event.get("tool")
    name = tool.get("name") if isinstance(tool, dict) else None
    if not isinstance(name, str):
        name = None
    if host is None:
        from agenthooks.model.hosts import COMMON_SHAPE

        host = host_naming(name) if name is not None else COMMON_SHAPE
    fields: dict[str, Any] = {}
    for given, canonical in (("id", "session_id"), ("cwd", "cwd"),
                             ("workspaceRoots", "workspaces"), ("model", "model")):
        if given in session:
            fields[canonical] = session[given]
    args = None
    if isinstance(tool, dict):
        if isinstance(tool.get("callId"), str):
            fields["tool_use_id"] = tool["callId"]
        args = tool.get("input") if isinstance(tool.get("input"), dict) else {}
    row = find_row(engine_event)
    word = (call_word(host, row, host, name) if row is not None else None) or engine_event
    return Translated(host, word, fields, name, args)


def effect_of(verdict: Verdict) -> tuple[list[dict[str, Any]], str | None]:
    """The effects of the engine's verdict (§12) and what AHP cannot carry of it, if any."""
    kind = verdict.decision.kind
    effect = EFFECTS.get(kind, EFFECTS["deny"])  # a decision AHP has no row for: refuse
    if verdict.blocked and not effect.deny:
        effect = EFFECTS["deny"]
    if not effect.deny:
        return [], effect.dropped
    given = verdict.reason or verdict.decision.reason
    reason = given if kind in ("deny", "replace") and given else (
        f"{effect.reason}: {given}" if given else effect.reason)
    return [{"type": DENY, "reason": reason or EFFECTS["deny"].reason}], None


def result(request_id: Any, effects: list[dict[str, Any]]) -> dict[str, Any]:
    """An intercept's successful response (§8.2, §8.3)."""
    return {"jsonrpc": "2.0", "id": request_id,
            "result": {"protocolVersion": PROTOCOL_VERSION, "effects": effects}}


def error(request_id: Any, code: int, message: str, data: Any = None) -> dict[str, Any]:
    """A JSON-RPC error response (§16): `data` only when there is some."""
    body: dict[str, Any] = {"code": code, "message": message}
    if data is not None:
        body["data"] = data
    return {"jsonrpc": "2.0", "id": request_id, "error": body}


def error_of(exc: RpcError) -> dict[str, Any]:
    return error(exc.request_id, exc.code, str(exc), exc.data)
