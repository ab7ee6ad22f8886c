"""Every host's payload, as data: a handler receives the payload its own host would send.

A hook written for one host reads that host's fields: a hooks.json handler reads
`toolCall.args.CommandLine`, a Claude Code one `tool_input.command`, a Gemini CLI AfterAgent one
`prompt_response`. So the calling host's payload is read into canonical fields once
(`Translation`), and each handler whose host differs gets the payload its host would have
sent: its event word, its tool and argument names (`model.tools`), and the fields that have a
counterpart there (`SHAPES`). A field with no counterpart is left out, never invented (but
the places: Antigravity's `workspacePaths` and Claude Code's `cwd` are each filled from the
other, or from the caller's project variable); a handler of the caller's own host gets the
caller's exact bytes. A file written for no one host (hooks.json) holds scripts from every
host's docs: its handlers get the caller's bytes with Antigravity's and Claude Code's fields
added (`Translation.neutral`).

Which host is calling: `--host`, else `detect` reads it off the payload.
"""

from __future__ import annotations

import os

# `collections.abc` re-exports it: the same class, without importing `collections`.
from _collections_abc import Mapping

from agenthooks.model.hosts import HOOKS_JSON_DIALECT, HOST_TABLE, host_row, is_neutral

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from agenthooks.model.payload import LongStrings, Payload


class Event:
    """One event as a host called it, read once (`read_event`) for everything that runs,
    plans or explains it: the event, the caller, its tool call, and the payload itself. A
    plain class, as `Shape` is: it is made on every run."""

    __slots__ = ("args", "caller", "data", "doc", "given", "long", "name", "tool")

    def __init__(self, name: str, given: str, caller: str, tool: str | None,
                 args: dict[str, Any], doc: dict[str, Any], data: bytes,
                 long: LongStrings | None = None) -> None:
        self.name = name  # the canonical event (`PreToolUse`), whichever host's word it was
        self.given = given  # the word it was given in (`BeforeTool`)
        self.caller = caller  # the host whose words the payload is in (`--host` or `detect`)
        self.tool = tool  # the tool's name in the caller's words (`--tool` over the payload's)
        self.args = args  # the tool's arguments, in the caller's names
        self.doc = doc  # the payload as an object
        self.data = data  # its bytes, which the caller's own handlers get untouched
        self.long = long  # its long strings (`payload.read_payload_long`)


def read_event(given: str, payload: Payload, *, host: str | None = None,
               tool: str | None = None) -> Event:
    """The event of a call: `given` checked (`UnknownEvent`), the payload read
    (`PayloadError`), its caller `host` or the one the payload says, and its tool call."""
    from agenthooks.model.eventnames import check_event
    from agenthooks.model.payload import read_payload_long

    name = check_event(given)
    data, doc, long = read_payload_long(payload)
    caller = host or detect(doc, given)
    named, args = tool_call(doc, caller)
    return Event(name, given, caller, tool or named, args, doc, data, long)


class Shape:
    """How one host writes a payload (a plain class: a namedtuple costs an `eval` at import,
    on the path of every run)."""

    __slots__ = (
        "args_key",
        "by_word",
        "call_key",
        "call_keys",
        "camel_event",
        "companion",
        "context_key",
        "event_key",
        "fields",
        "marker",
        "name_key",
        "other_args_key",
        "snake_event",
        "summary",
    )

    def __init__(self, event_key: str | None, call_key: str | None, name_key: str | None,
                 args_key: str, fields: tuple[tuple[str, str], ...],
                 marker: str | None = None, other_args_key: str | None = None,
                 snake_event: bool = False, companion: str | None = None,
                 context_key: str | None = None, camel_event: bool = False,
                 by_word: Mapping[str, tuple[str, str | None, str | None]] | None = None,
                 summary: tuple[str, str] | None = None) -> None:
        self.event_key = event_key  # the field that names the event; None: the host sends none
        self.call_key = call_key  # the object holding the tool call; None: the payload itself
        # the tool's name, inside the call; None: the event's word names it (Windsurf's)
        self.name_key = name_key
        self.args_key = args_key  # the tool's arguments, inside the call
        # (canonical field, this host's field), in the order the host writes them.
        self.fields = fields
        # A field only this host sends, which tells its payload from another host's that
        # names the event with the same word (Gemini CLI's `timestamp`).
        self.marker = marker
        # Where some events of the host put the arguments instead (Copilot's
        # permissionRequest: `toolInput`).
        self.other_args_key = other_args_key
        # Whether it names the event in snake_case where its files say PascalCase (Grok
        # Build's `"hookEventName": "pre_tool_use"` for PreToolUse).
        self.snake_event = snake_event
        # Whether it names the event in camelCase where its files say PascalCase (Kiro's
        # `"hook_event_name": "preToolUse"` for PreToolUse).
        self.camel_event = camel_event
        # Another host whose fields it sends too, after its own (Grok Build 1.0.41 adds
        # Claude Code's `hook_event_name`, `tool_name`, `tool_input`...).
        self.companion = companion
        # The field it always sends with what its matchers are tested against (Goose's
        # `matcher_context`, null when there is none): a payload built for it says the tool,
        # else the prompt (not the command or file its per-operation events test).
        self.context_key = context_key
        # Where its payload names an event otherwise than its files do, and keeps the call
        # under a key of the event's own (Cline's PreToolUse file gets `"hookName":
        # "tool_call"` and the call as `tool_call`, PostToolUse `tool_result`): its word ->
        # (the payload's word, the call's key or None for `call_key`, the key of its summary
        # of the call or None for none).
        self.by_word = by_word or {}
        # Every key a call of this host may be under, `call_key` first.
        self.call_keys = tuple(dict.fromkeys((call_key, *(
            call for _, call, _ in self.by_word.values() if call))))
        # The keys of that summary: the tool's name and its arguments, each a text (a value
        # that is none written as JSON), as Cline's `preToolUse: {toolName, parameters}`.
        self.summary = summary


# The canonical fields are Claude Code's names where Claude Code has the field.
SHAPES: dict[str, Shape] = {
    # Seed 003 (Antigravity's hooks reference): camelCase, the tool call under `toolCall`.
    "antigravity": Shape(None, "toolCall", "name", "args", (
        ("session_id", "conversationId"), ("workspaces", "workspacePaths"),
        ("transcript_path", "transcriptPath"), ("artifacts", "artifactDirectoryPath"),
        ("step", "stepIdx"), ("error", "error"), ("invocation", "invocationNum"),
        ("initial_steps", "initialNumSteps"), ("execution", "executionNum"),
        ("termination_reason", "terminationReason"), ("fully_idle", "fullyIdle"),
    )),
    # Claude Code's hooks reference: common input, then each event's own fields.
    "claude": Shape("hook_event_name", None, "tool_name", "tool_input", (
        ("session_id", "session_id"), ("transcript_path", "transcript_path"), ("cwd", "cwd"),
        ("permission_mode", "permission_mode"), ("tool_response", "tool_response"),
        ("tool_use_id", "tool_use_id"), ("error", "error"), ("prompt", "prompt"),
        ("stop_hook_active", "stop_hook_active"), ("response", "last_assistant_message"),
        ("source", "source"), ("model", "model"), ("reason", "reason"),
        ("trigger", "trigger"), ("message", "message"),
    )),
    # Gemini CLI's hooks reference (seed 001): snake_case; AfterAgent says `prompt_response`.
    "gemini": Shape("hook_event_name", None, "tool_name", "tool_input", (
        ("session_id", "session_id"), ("transcript_path", "transcript_path"), ("cwd", "cwd"),
        ("timestamp", "timestamp"), ("tool_response", "tool_response"),
        ("mcp_context", "mcp_context"), ("prompt", "prompt"), ("response", "prompt_response"),
        ("stop_hook_active", "stop_hook_active"), ("source", "source"), ("reason", "reason"),
        ("trigger", "trigger"), ("message", "message"),
    ), marker="timestamp"),
    # Cursor's hooks reference (cursor.com/docs/hooks, "Common schema" and each event's input;
    # mirror mehmetbaykar/cursor-docs-skill@1cc1c99): snake_case, the conversation as
    # `conversation_id`. Its `tool_output` is a JSON string where Claude Code's
    # `tool_response` is an object, and its `stop` has a `status` and `loop_count` where
    # Claude Code has `stop_hook_active`: neither is mapped.
    "cursor": Shape("hook_event_name", None, "tool_name", "tool_input", (
        ("session_id", "conversation_id"), ("workspaces", "workspace_roots"),
        ("transcript_path", "transcript_path"), ("cwd", "cwd"), ("model", "model"),
        ("tool_use_id", "tool_use_id"), ("error", "error_message"), ("prompt", "prompt"),
        ("reason", "reason"), ("trigger", "trigger"), ("cursor_version", "cursor_version"),
        ("user_email", "user_email"),
    ), marker="cursor_version"),
    # Codex (openai/codex codex-rs/hooks/schema/generated/*.command.input.schema.json; a
    # PreToolUse measured with codex exec 0.169.0): Claude Code's fields, plus `turn_id`,
    # which only Codex sends. Its legacy `notify` program is read by `hosts.codex.notify`.
    "codex": Shape("hook_event_name", None, "tool_name", "tool_input", (
        ("session_id", "session_id"), ("turn_id", "turn_id"),
        ("transcript_path", "transcript_path"), ("cwd", "cwd"), ("model", "model"),
        ("permission_mode", "permission_mode"), ("tool_response", "tool_response"),
        ("tool_use_id", "tool_use_id"), ("prompt", "prompt"),
        ("stop_hook_active", "stop_hook_active"), ("response", "last_assistant_message"),
        ("source", "source"), ("trigger", "trigger"), ("reason", "reason"),
    ), marker="turn_id"),
    # GitHub Copilot CLI's camelCase payloads (github/docs@05da5bc
    # content/copilot/reference/hooks-reference.md, "Hook event input payloads"): no event
    # name, `timestamp` in milliseconds, the call as `toolName` and `toolArgs` (a JSON string
    # at times [unverified: third-party payloads], read as an object; permissionRequest's is
    # `toolInput`, measured with copilot 1.0.102). `toolResult` (an object
    # of resultType and textResultForLlm) has no counterpart.
    "copilot": Shape(None, None, "toolName", "toolArgs", (
        ("session_id", "sessionId"), ("timestamp", "timestamp"), ("cwd", "cwd"),
        ("transcript_path", "transcriptPath"), ("prompt", "prompt"), ("source", "source"),
        ("reason", "reason"), ("trigger", "trigger"), ("error", "error"),
        ("stop_hook_active", "stop_hook_active"), ("response", "response"),
        ("message", "message"),
    ), marker="sessionId", other_args_key="toolInput"),
    # Windsurf (docs.windsurf.com/windsurf/cascade/hooks, each event's input JSON): the event
    # as `agent_action_name`, the arguments as `tool_info`, and no tool name: the event word
    # names the tool (`HostRow.tool_events`). `trajectory_id`, `execution_id` and `timestamp`
    # are common fields [3p: hook adapters' fixtures]; the prompt and the response are in
    # `tool_info` (`user_prompt`, `response`), which no canonical field reads yet.
    "windsurf": Shape("agent_action_name", None, None, "tool_info", (
        ("session_id", "trajectory_id"), ("execution", "execution_id"),
        ("timestamp", "timestamp"),
    )),
    # Augment (@augmentcode/auggie 0.36.0, augment.mjs `B7n`, `T7n`, `N7n`, `V7n`, `k7n`):
    # Claude Code's event and call fields, the session as `conversation_id`, the project as
    # `workspace_roots`, no `cwd`; tool calls mark MCP tools with `is_mcp_tool`.
    "augment": Shape("hook_event_name", None, "tool_name", "tool_input", (
        ("session_id", "conversation_id"), ("workspaces", "workspace_roots"),
        ("tool_response", "tool_output"), ("error", "tool_error"), ("prompt", "user_prompt"),
        ("message", "notification_message"),
    ), marker="is_mcp_tool"),
    # Kimi Code 2.1.0 (externalHooks `matchHooks.ts` `toHookInputData`, the runner's
    # `clientType`, `agentExternalHooksService.ts`): every key of its camelCase record in
    # snake_case; `client_type` on every event, which no other host sends.
    "kimi": Shape("hook_event_name", None, "tool_name", "tool_input", (
        ("session_id", "session_id"), ("cwd", "cwd"), ("tool_use_id", "tool_call_id"),
        ("tool_response", "tool_output"), ("error", "error"), ("prompt", "prompt"),
        ("stop_hook_active", "stop_hook_active"), ("source", "source"), ("reason", "reason"),
        ("trigger", "trigger"),
    ), marker="client_type"),
    # Grok Build (xai-org/grok-build@19d42e3 crates/codegen/xai-grok-hooks/src/event.rs
    # `HookEventEnvelope`, `HookPayload`): camelCase, the event in snake_case; its
    # `workspaceRoot` is one folder where the canonical `workspaces` is a list. Grok 1.0.41
    # adds Claude Code's fields after its own (measured: `hook_event_name: "PreToolUse"`,
    # `tool_name`, `tool_input`, `session_id`...).
    "grok": Shape("hookEventName", None, "toolName", "toolInput", (
        ("session_id", "sessionId"), ("transcript_path", "transcriptPath"), ("cwd", "cwd"),
        ("permission_mode", "permissionMode"), ("tool_use_id", "toolUseId"),
        ("tool_response", "toolResult"), ("error", "error"), ("prompt", "prompt"),
        ("stop_hook_active", "stopHookActive"), ("response", "lastAssistantMessage"),
        ("source", "source"), ("reason", "reason"), ("message", "message"),
    ), snake_event=True, companion="claude"),
    # Charm Crush (charmbracelet/crush internal/hooks/input.go@37f36e9 `BuildPayload`): one
    # compact object, `event`, `session_id`, `cwd`, `tool_name`, `tool_input`; none of Claude
    # Code's `hook_event_name`, `transcript_path`, `permission_mode` or `tool_use_id`.
    "crush": Shape("event", None, "tool_name", "tool_input", (
        ("session_id", "session_id"), ("cwd", "cwd"),
    )),
    # Goose (measured with goose 1.52.0; block/goose crates/goose/src/hooks/mod.rs
    # `HookContext`): `event` as Charm Crush names it, then `session_id`, `matcher_context`
    # (always there, null on SessionStart, SessionEnd and Stop: its mark), `tool_call_id`,
    # `tool_name`, `tool_input`, the prompt as `message`, `last_assistant_message`,
    # `working_dir` (the session's folder) and PreToolUseResult's `decision`,
    # `policy_evaluated`, `blocked_by`, `reason`, `cause`; empty fields left out. Its
    # `tool_output` is never filled in.
    "goose": Shape("event", None, "tool_name", "tool_input", (
        ("session_id", "session_id"), ("tool_use_id", "tool_call_id"), ("prompt", "message"),
        ("response", "last_assistant_message"), ("cwd", "working_dir"),
        ("reason", "reason"),
    ), marker="matcher_context", context_key="matcher_context"),
    # Kiro (kiro.dev/docs/cli/hooks, "Hook event" and each hook type's; aws/amazon-q-developer-cli
    # @35b5266 docs/hooks.md): Claude Code's field names, the event in camelCase
    # (`preToolUse`), `cwd`, `prompt` on UserPromptSubmit, `tool_response` after a tool. Its v3
    # page says only "hook context as JSON on stdin" [unverified: the same fields].
    "kiro": Shape("hook_event_name", None, "tool_name", "tool_input", (
        ("cwd", "cwd"), ("prompt", "prompt"), ("tool_response", "tool_response"),
    ), camel_event=True),
    # Cline (cline@3.0.65, @cline/core 0.0.86 dist/index.js `createHookConfigFileHooks`;
    # measured with cline 3.0.65): camelCase, `clineVersion` ("" unless CLINE_VERSION is set),
    # `timestamp`, `taskId`, `sessionContext`, `workspaceRoots` (the workspace: its git root),
    # `workspaceInfo`, `userId`, `agent_id`, `parent_agent_id`, `hookName` in its agent's
    # words (`tool_call` for PreToolUse, `tool_result` for PostToolUse...), `iteration`; the
    # call as `tool_call: {id, name, input}` (`tool_result: {..., output, error, durationMs}`
    # after it), and again as `preToolUse: {toolName, parameters}` (`postToolUse: {...,
    # result, success, executionTimeMs}`) with each argument a text. No `cwd`.
    "cline": Shape("hookName", "tool_call", "name", "input", (
        ("cline_version", "clineVersion"), ("timestamp", "timestamp"),
        ("session_id", "taskId"), ("workspaces", "workspaceRoots"),
    ), by_word={
        "PreToolUse": ("tool_call", "tool_call", "preToolUse"),
        "PostToolUse": ("tool_result", "tool_result", "postToolUse"),
        "TaskStart": ("agent_start", None, None), "TaskResume": ("agent_resume", None, None),
        "TaskCancel": ("agent_abort", None, None), "TaskComplete": ("agent_end", None, None),
        "TaskError": ("agent_error", None, None),
        "UserPromptSubmit": ("prompt_submit", None, None),
        "SessionShutdown": ("session_shutdown", None, None),
    }, summary=("toolName", "parameters")),
}
# A host derived from another (`model.hosts.derive`) sends its parent's payload, in its words.
SHAPES.update({row.id: SHAPES[row.derived_from] for row in HOST_TABLE
               if row.derived_from in SHAPES and row.id not in SHAPES})
HOSTS: tuple[str, ...] = tuple(SHAPES)
# The hosts naming the event in a field of their own (Windsurf's `agent_action_name`), those
# with a mark first: a field two hosts name it in (Goose's and Charm Crush's `event`) is told
# by the mark (Goose's `matcher_context`).
_OWN_EVENT_FIELD: tuple[tuple[str, Shape], ...] = tuple(sorted(
    ((host, shape) for host, shape in SHAPES.items()
     if shape.event_key not in (None, "hook_event_name")),
    key=lambda item: item[1].marker is None))
# The hosts that call agenthooks, whose payloads `detect` tells apart (a generator's rows,
# rulesync's, are written by no one).
CALLERS = frozenset(row.id for row in HOST_TABLE if not row.generator)
# A file written for no one host (hooks.json, `HostRow.neutral`) holds scripts from every
# host's docs: Antigravity's read `toolCall`, Claude Code's and Gemini CLI's `tool_name` and
# `tool_input`. Its handlers get Antigravity's fields, the caller's own payload, and this
# host's fields where the caller's payload has not that shape (`Translation.payload`).
COMPANION = "claude"


def detect(doc: Mapping[str, Any], given_event: str | None = None) -> str:
    """The host that wrote a payload: Antigravity's shape, else its event-name field, else
    its shape and tool name, else the event word it was run with; Antigravity's when nothing
    tells. Antigravity's shape first: a hooks.json handler's payload carries Claude Code's
    fields too (`Translation.neutral`), and an `agenthooks run` it starts answers it in
    hooks.json's words."""
    if "toolCall" in doc or "conversationId" in doc:
        return HOOKS_JSON_DIALECT
    named = next((host for host, shape in _OWN_EVENT_FIELD
                  if isinstance(doc.get(shape.event_key or ""), str)
                  and (shape.marker in doc if shape.marker else _its_tool(host, shape, doc))),
                 None)
    if named is not None:  # a host naming the event in a field of its own (Windsurf's), also
        return named  # when it sends Claude Code's fields too (Grok Build's)
    word = doc.get("hook_event_name")
    if isinstance(word, str):
        return _host_of_event_word(word, doc)
    marked = next((host for host, shape in SHAPES.items()
                   if shape.event_key is None and shape.marker in doc and host in CALLERS),
                  None)
    if marked is not None:  # a host that names no event, by its own field (Copilot's)
        return marked
    name = doc.get("tool_name")
    if isinstance(name, str):
        from agenthooks.model.tools import tool_for

        # A flat payload naming a tool no table knows is in the snake_case hosts' shape.
        others = [host for host in SHAPES if host not in _flat_hosts(doc) and host in CALLERS]
        return next((host for host in (*_flat_hosts(doc), *others)
                     if tool_for(host, name) is not None), "claude")
    if given_event is not None:
        from agenthooks.model.events import row_of

        found = [host for host in _flat_hosts(doc) if row_of(host, given_event)]
        # a host derived from another says its parent's words: the word is the parent's
        only = [host for host in found if _parent(host) not in found]
        if len(only) > 1:  # of hosts that say the word, one that marks its payloads (Codex's
            # turn_id) did not write one without the mark
            only = [host for host in only if SHAPES[host].marker in (None, *doc)]
        if len(only) == 1 and row_of(HOOKS_JSON_DIALECT, given_event) is None:
            return only[0]
    return HOOKS_JSON_DIALECT


def _its_tool(host: str, shape: Shape, doc: Mapping[str, Any]) -> bool:
    """Whether a payload naming the event in a host's field, which nothing else marks as that
    host's (Charm Crush's `event`), could be its: not when it names a tool another host has
    and this one has not (`{"event": "PreToolUse", "tool_name": "Bash"}` is written by hand in
    Claude Code's words, whose matchers it must meet)."""
    call = doc.get(shape.call_key) if shape.call_key else doc
    name = call.get(shape.name_key or "") if isinstance(call, dict) else None
    if not isinstance(name, str):
        return True
    from agenthooks.model.tools import tool_for, tool_named

    return tool_for(host, name) is not None or tool_named(name) is None


def _flat_hosts(doc: Mapping[str, Any]) -> list[str]:
    """The hosts whose payloads name the event in `hook_event_name`: one whose marker field
    the payload has first, then those without a marker, then the others; never a tool that
    calls no hook (rulesync: `CALLERS`)."""
    flat = [host for host, shape in SHAPES.items() if shape.event_key == "hook_event_name"
            and host in CALLERS]
    # A host derived from another last: a payload both could have written is the original's.
    return sorted(flat, key=lambda host: (_parent(host) is not None,
                                          0 if SHAPES[host].marker in doc
                                          else 1 if SHAPES[host].marker is None else 2))


def _parent(host: str) -> str | None:
    row = host_row(host)
    return None if row is None else row.derived_from


def _host_of_event_word(word: str, doc: Mapping[str, Any]) -> str:
    from agenthooks.model.events import row_of

    # A word several hosts say (SessionStart): the one whose marker the payload has (only
    # Gemini CLI stamps `timestamp`), else one without a marker (Claude Code).
    # The first that says it: a host derived from another is asked (and its words filled,
    # `model.events.filled`) only when no original host says the word.
    return next((host for host in _flat_hosts(doc) if row_of(host, word) is not None), "claude")


def tool_call(doc: Mapping[str, Any], host: str) -> tuple[str | None, dict[str, Any]]:
    """The tool name and arguments of a payload in its host's shape; where that shape finds
    no tool, in any shape agenthooks knows (a hand-written payload mixes them)."""
    shape = SHAPES.get(host)
    call = (doc if shape is None or shape.call_key is None else next(
        (doc[key] for key in shape.call_keys if key is not None and key in doc), None))
    if shape is not None and isinstance(call, Mapping):
        name = call.get(shape.name_key) if shape.name_key else _named_by_event(doc, host)
        args = call.get(shape.args_key)
        if args is None and shape.other_args_key is not None:
            args = call.get(shape.other_args_key)
        if isinstance(args, str):  # arguments sent as a JSON text (Copilot's toolArgs)
            args = _object_of(args)
        if isinstance(name, str) and name:
            return name, dict(args) if isinstance(args, Mapping) else {}
    from agenthooks.model.payload import tool_args, tool_from_payload

    return tool_from_payload(doc), tool_args(doc)


def texts_of(args: Mapping[str, Any]) -> dict[str, str]:
    """Arguments each as a text, one that is none as its compact JSON, as JavaScript's
    `JSON.stringify` writes it (Cline's `parameters`)."""
    from agenthooks._lean import jsontext

    return {key: value if isinstance(value, str) else jsontext.dumps(
        value, ensure_ascii=False, separators=(",", ":")) for key, value in args.items()}


def _named_by_event(doc: Mapping[str, Any], host: str) -> str | None:
    """The tool a payload's event word names, in its host's words (Windsurf's
    `pre_run_command`: `run_command`)."""
    from agenthooks.model.events import tool_of_word
    from agenthooks.model.tools import TOOLS, filled

    filled(host)
    shape = SHAPES[host]
    word = doc.get(shape.event_key) if shape.event_key else None
    tool = tool_of_word(host, word) if isinstance(word, str) else None
    names = next((row.names.get(host, ()) for row in TOOLS if row.id == tool), ())
    return names[0] if names else None


def _object_of(text: str) -> Any:
    from agenthooks._lean import jsontext

    try:
        return jsontext.loads(text)
    except (ValueError, RecursionError):
        return None


def with_args(doc: Mapping[str, Any], args: Mapping[str, Any], host: str) -> dict[str, Any]:
    """A copy of a payload with its tool arguments replaced, in its host's shape; in the
    shape it has, when it is not its host's (a hand-written payload)."""
    shape = SHAPES.get(host)
    key = None if shape is None or shape.call_key is None else next(
        (each for each in shape.call_keys if each in doc), shape.call_key)
    call = None if shape is None else doc if key is None else doc.get(key)
    if shape is None or not isinstance(call, Mapping) or (
            shape.name_key is not None and shape.name_key not in call):
        from agenthooks.model.payload import with_args as in_any_shape

        return in_any_shape(doc, dict(args))
    if key is None:
        return {**doc, shape.args_key: dict(args)}
    out = {**doc, key: {**call, shape.args_key: dict(args)}}
    for _, call_key, summary_key in shape.by_word.values():  # its summary of the call too
        summary = doc.get(summary_key or "") if call_key == key else None
        if isinstance(summary, Mapping) and shape.summary is not None:
            out[summary_key or ""] = {**summary, shape.summary[1]: texts_of(args)}
    return out


def fields_of(doc: Mapping[str, Any], host: str) -> dict[str, Any]:
    """A host's payload fields under their canonical names (the tool call aside)."""
    return {canonical: doc[key] for canonical, key in SHAPES[host].fields if key in doc}


def build(host: str, word: str, fields: Mapping[str, Any], tool: str | None,
          args: Mapping[str, Any] | None) -> dict[str, Any]:
    """The payload `host` would send for its event `word`: its fields that have a value,
    its event name, and the tool call in its shape (when the event has one)."""
    shape = SHAPES[host]
    given = word
    out = {key: fields[canonical] for canonical, key in shape.fields if canonical in fields}
    said, call_key, summary_key = shape.by_word.get(word, (word, None, None))
    if shape.event_key is not None:
        if shape.snake_event:
            from agenthooks.model.events import snake_case

            said = snake_case(word)
        elif shape.camel_event:
            said = word[:1].lower() + word[1:]
        out[shape.event_key] = said
    if shape.context_key is not None:  # the tool's name, else the prompt, else null
        out[shape.context_key] = tool if tool is not None else fields.get("prompt")
    if tool is not None:
        call: dict[str, Any] = {shape.name_key: tool} if shape.name_key is not None else {}
        call[shape.args_key] = dict(args or {})
        if shape.call_key is None:
            out.update(call)
        else:
            out[call_key or shape.call_key] = call
        if summary_key is not None and shape.summary is not None:
            out[summary_key] = {shape.summary[0]: tool,
                                shape.summary[1]: texts_of(args or {})}
    if shape.companion is not None:
        also = build(shape.companion, given, fields, tool, args)
        out.update((key, value) for key, value in also.items() if key not in out)
    return out


class Translation:
    """One call, in the caller's words, and in any other host's on demand (each made once)."""

    __slots__ = ("_fields", "_payloads", "args", "caller", "data", "doc", "long", "tool")

    def __init__(self, caller: str, doc: Mapping[str, Any], data: bytes,
                 tool: str | None, args: Mapping[str, Any],
                 long: LongStrings | None = None) -> None:
        self.caller = caller
        self.doc = doc
        self.data = data
        self.tool = tool
        self.args = dict(args)
        self.long = long  # the caller's long strings, written as it wrote them (`dump_bytes`)
        self._fields: dict[str, Any] | None = None
        self._payloads: dict[tuple[str, str], bytes] = {}

    def tool_in(self, host: str) -> str | None:
        """The tool's name in `host`'s words (unknown tools keep their name)."""
        if self.tool is None or host == self.caller:
            return self.tool
        from agenthooks.model.tools import tool_name

        return tool_name(self.tool, self.caller, host)

    def args_in(self, host: str) -> dict[str, Any]:
        """The tool's arguments under `host`'s argument names."""
        if host == self.caller or self.tool is None:
            return self.args
        from agenthooks.model.tools import translate_args

        return translate_args(self.args, self.tool, self.caller, host)

    def args_back(self, host: str, args: Mapping[str, Any]) -> dict[str, Any]:
        """Arguments a `host` handler rewrote, under the caller's argument names."""
        tool = self.tool_in(host)
        if host == self.caller or tool is None:
            return dict(args)
        from agenthooks.model.tools import translate_args

        return translate_args(args, tool, host, self.caller)

    def fields(self) -> dict[str, Any]:
        """The caller's payload fields under their canonical names, with the workspace and
        the working directory each filled from the other where the caller sends one only."""
        if self._fields is None:
            self._fields = with_places(fields_of(self.doc, self.caller), self.caller)
        return self._fields

    def payload(self, host: str, word: str) -> bytes:
        """What `host` would have sent for its event `word`: the caller's own bytes when
        `host` is the caller; for a file written for no one host, `neutral`."""
        if host == self.caller and not is_neutral(host):
            return self.data
        key = (host, word)
        found = self._payloads.get(key)
        if found is None:
            from agenthooks.model.payload import dump_bytes

            if is_neutral(host):
                found = self._payloads[key] = self.neutral(host, word)
            else:
                found = self._payloads[key] = dump_bytes(self.built(host, word), self.long)
        return found

    def built(self, host: str, word: str) -> dict[str, Any]:
        """The payload `host` would have sent for its event `word`."""
        return build(host, word, self.fields(), self.tool_in(host),
                     self.args_in(host) if self.tool is not None else None)

    def neutral(self, host: str, word: str) -> bytes:
        """The payload of a handler of a file written for no one host (hooks.json): the
        caller's exact bytes, with the fields it lacks of `host`'s payload (Antigravity's
        `toolCall`, `conversationId`, `workspacePaths`...) and of `COMPANION`'s (Claude Code's
        `hook_event_name`, `tool_name`, `tool_input`, `cwd`, `session_id`... in its words), so
        a script written for any of those hosts finds the fields it reads, in the caller's
        words where the caller sends them."""
        from agenthooks.model.events import counterpart
        from agenthooks.model.payload import dump_bytes

        own = {} if host == self.caller else self.built(host, word)
        companion = self.built(COMPANION, counterpart(word, host, COMPANION) or word)
        extra = {key: value for key, value in {**own, **companion}.items()
                 if key not in self.doc}
        if not extra:
            return self.data
        text = self.data.rstrip()
        if not text.endswith(b"}"):  # no payload on stdin: the fields alone
            return dump_bytes({**self.doc, **extra}, self.long)
        added = dump_bytes(extra, self.long)[1:-1]  # a long content's literal as written
        return text[:-1].rstrip() + (b", " if self.doc else b"") + added + b"}"

    def with_args(self, args: Mapping[str, Any]) -> Translation:
        """The same call with new arguments (caller's names): what later handlers see."""
        from agenthooks.model.payload import dump_bytes

        doc = with_args(self.doc, args, self.caller)
        return Translation(self.caller, doc, dump_bytes(doc, self.long), self.tool, args,
                           self.long)

    def with_field(self, key: str, value: Any) -> Translation:
        """The same call with one field of the caller's payload replaced (Gemini CLI's
        `llm_request`, chained between sequential handlers)."""
        from agenthooks.model.payload import dump_bytes

        doc = {**self.doc, key: value}
        return Translation(self.caller, doc, dump_bytes(doc, self.long), self.tool, self.args,
                           self.long)


def with_places(fields: dict[str, Any], caller: str) -> dict[str, Any]:
    """`fields` with `workspaces` (Antigravity's `workspacePaths`, which its hooks read) from
    the caller's project variable, else its `cwd`; and `cwd` (which Claude Code's hooks read)
    from the first workspace, where the caller sends no such field."""
    if "workspaces" not in fields:
        row = host_row(caller)
        root = os.environ.get(row.project_var or "") if row is not None else None
        root = root or fields.get("cwd")
        if isinstance(root, str) and root:
            fields["workspaces"] = [root]
    if "cwd" not in fields:
        places = fields.get("workspaces")
        if isinstance(places, list) and places and isinstance(places[0], str):
            fields["cwd"] = places[0]
    return fields


HOST_TITLES: dict[str, str] = {row.id: row.title for row in HOST_TABLE}


def markdown_table() -> str:
    """docs/dialects.md's table of payload fields: one row per canonical field, each host's name
    for it ("-": that host has no such field, so its handlers never see it)."""
    order: list[str] = []
    for shape in SHAPES.values():
        order.extend(canonical for canonical, _ in shape.fields if canonical not in order)
    names = {host: dict(shape.fields) for host, shape in SHAPES.items()}
    lines = ["| Field | " + " | ".join(HOST_TITLES[host] for host in SHAPES) + " |",
             "| --- |" + " --- |" * len(SHAPES)]
    for canonical in order:
        cells = [f"`{names[host][canonical]}`" if canonical in names[host] else "-"
                 for host in SHAPES]
        lines.append(f"| {canonical} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"
