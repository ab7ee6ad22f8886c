"""Events across dialects, as data: one row per meaning, with each dialect's word for it.

Every other list of events is derived from `EVENT_TABLE`: the hooks.json events and their
shapes (`TOOL_EVENTS`, `FLAT_EVENTS`, `EVENTS`), the events only the Python API runs
(`API_EVENTS`), the words of Markdown hooks (`MARKDOWN_WORDS`), adk-fluent's aliases, the
hints for another host's word, and the docs' table (`markdown_table`, which a test keeps
equal to docs/dialects.md).

A row's `words` maps a dialect to its word; a dialect without the event has no key, so a new
host adds its words to the rows without changing the record. `engine` is the event agenthooks
runs (`agenthooks run EVENT`, the Python API), None where it runs none of its own; hooks.json
(the `antigravity` dialect) names its events as the engine does. A row with one host's word
only is an event of that host alone: `convert` reports it as one that cannot be carried over.

Per-host facts that are not about naming an event (the payload field a matcher reads, which
events an exit 2 blocks) stay in the host's module, keyed by words of this table.
"""

from __future__ import annotations

from agenthooks._lean.records import NamedTuple
from agenthooks.model.hosts import HOOKS_JSON_DIALECT, HOST_TABLE

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

# The hosts agenthooks knows (`model.hosts`), in the docs tables' column order.
DIALECTS: tuple[str, ...] = tuple(row.id for row in HOST_TABLE)
HOST_NAMES: dict[str, str] = {  # hooks.json: the neutral host without a format of its own
    row.id: "hooks.json" if row.neutral and row.dialect is None else row.name
    for row in HOST_TABLE}
# adk-fluent's event names: not a host's files, but accepted wherever an event is named.
ADK = "adk"
# What a block means on an event whose row says nothing else.
DEFAULT_BLOCK = "block"


class EventRow(NamedTuple):
    """One meaning: its words in each dialect, and what the engine makes of it."""

    id: str  # the engine's word for the meaning; a Markdown hook's `event` where it runs
    engine: str | None  # the engine's event name, when agenthooks runs it today
    words: Mapping[str, str]  # dialect -> that dialect's word; absent: no such event there
    meaning: str
    tool: bool = False  # the payload names a tool (matchers, argument globs, ctx.tool_name)
    block: str = DEFAULT_BLOCK  # the engine's decision for a block (an exit 2) here
    nearest: str | None = None  # where hooks.json has no word: its nearest event, for hints


def _host_only(dialect: str, word: str, meaning: str, nearest: str | None = None) -> EventRow:
    """A row of one host's event, which the engine does not run as its own."""
    return EventRow(f"{dialect}.{word}", None, {dialect: word}, meaning, nearest=nearest)


EVENT_TABLE: tuple[EventRow, ...] = (
    EventRow("tool.pre", "PreToolUse",
             {"antigravity": "PreToolUse", "claude": "PreToolUse", "gemini": "BeforeTool",
              "cursor": "preToolUse", "codex": "PreToolUse", "copilot": "preToolUse",
              "cline": "PreToolUse", ADK: "pre_tool_use"},
             "before a tool runs; may block it or rewrite its input", tool=True, block="deny"),
    EventRow("tool.post", "PostToolUse",
             {"antigravity": "PostToolUse", "claude": "PostToolUse", "gemini": "AfterTool",
              "cursor": "postToolUse", "codex": "PostToolUse", "copilot": "postToolUse",
              "cline": "PostToolUse", ADK: "post_tool_use"},
             "after a tool ran", tool=True),
    EventRow("error", "ToolError", {"claude": "PostToolUseFailure",
                                    "cursor": "postToolUseFailure",
                                    "copilot": "postToolUseFailure", ADK: "tool_error"},
             "after a tool failed", tool=True, nearest="PostToolUse"),
    EventRow("turn.start", "PreInvocation",
             {"antigravity": "PreInvocation", "claude": "UserPromptSubmit",
              "gemini": "BeforeAgent", "cursor": "beforeSubmitPrompt", "codex": "UserPromptSubmit",
              "copilot": "userPromptSubmitted", "windsurf": "pre_user_prompt",
              "cline": "UserPromptSubmit", ADK: "pre_model"},
             "a turn starts (the user's prompt)"),
    EventRow("turn.end", "PostInvocation", {"antigravity": "PostInvocation", ADK: "post_model"},
             "after the tool-call loop of one model call"),
    EventRow("agent.stop", "Stop",
             {"antigravity": "Stop", "claude": "Stop", "gemini": "AfterAgent", "cursor": "stop",
              "codex": "Stop", "copilot": "agentStop", "windsurf": "post_cascade_response",
              "cline": "TaskComplete"},
             "the agent is about to stop; may keep it going", block="continue"),
    EventRow("session.start", "SessionStart",
             {"antigravity": "SessionStart", "claude": "SessionStart", "gemini": "SessionStart",
              "cursor": "sessionStart", "codex": "SessionStart", "copilot": "sessionStart",
              "cline": "TaskStart", ADK: "session_start"},
             "a session starts or resumes"),
    EventRow("session.end", "SessionEnd",
             {"claude": "SessionEnd", "gemini": "SessionEnd", "cursor": "sessionEnd",
              "codex": "SessionEnd", "copilot": "sessionEnd", "cline": "SessionShutdown",
              ADK: "session_end"},
             "a session ends"),
    EventRow("compact.pre", None, {"claude": "PreCompact", "gemini": "PreCompress",
                                   "cursor": "preCompact", "codex": "PreCompact",
                                   "copilot": "preCompact", "cline": "PreCompact"},
             "before the context is compacted"),
    EventRow("notification", None, {"claude": "Notification", "gemini": "Notification",
                                    "copilot": "notification"},
             "the host notifies the user (a permission prompt, idle)"),
    EventRow("model.pre", None, {"gemini": "BeforeModel"}, "before a model request",
             nearest="PreInvocation"),
    EventRow("model.post", None, {"gemini": "AfterModel"}, "after a model response",
             nearest="PostInvocation"),
    EventRow("tool.select", None, {"gemini": "BeforeToolSelection"},
             "before the model is offered its tools"),
    EventRow("claude.PermissionRequest", None,
             {"claude": "PermissionRequest", "codex": "PermissionRequest",
              "copilot": "permissionRequest"},
             "a permission dialog is about to be shown"),
    _host_only("claude", "PermissionDenied", "the auto-mode classifier denied a tool call"),
    _host_only("claude", "PostToolBatch", "after a batch of parallel tool calls"),
    _host_only("claude", "UserPromptExpansion", "a slash command expands into a prompt"),
    EventRow("claude.SubagentStart", None,
             {"claude": "SubagentStart", "cursor": "subagentStart", "codex": "SubagentStart",
              "copilot": "subagentStart"},
             "a subagent starts"),
    EventRow("claude.SubagentStop", None,
             {"claude": "SubagentStop", "cursor": "subagentStop", "codex": "SubagentStop",
              "copilot": "subagentStop"},
             "a subagent is about to stop", nearest="Stop"),
    # Cline's TaskError: its run failed on an error that is no abort.
    EventRow("claude.StopFailure", None, {"claude": "StopFailure", "cline": "TaskError"},
             "a turn ended on an API error"),
    _host_only("claude", "TaskCreated", "a task is created"),
    _host_only("claude", "TaskCompleted", "a task is marked completed"),
    _host_only("claude", "TeammateIdle", "an agent-team teammate is about to go idle"),
    EventRow("claude.PostCompact", None, {"claude": "PostCompact", "codex": "PostCompact"},
             "after the context was compacted"),
    _host_only("claude", "InstructionsLoaded", "a CLAUDE.md or rules file was loaded"),
    _host_only("claude", "ConfigChange", "a configuration file changed"),
    _host_only("claude", "CwdChanged", "the working directory changed"),
    _host_only("claude", "FileChanged", "a watched file changed"),
    _host_only("claude", "WorktreeCreate", "a git worktree is created"),
    _host_only("claude", "WorktreeRemove", "a git worktree is removed"),
    _host_only("claude", "Elicitation", "an MCP server asks the user for input"),
    _host_only("claude", "ElicitationResult", "the user answered an MCP elicitation"),
    _host_only("claude", "Setup", "`claude --init` or maintenance runs"),
    # Cursor's own events (cursor.com/docs/hooks, mirror mehmetbaykar/cursor-docs-skill@1cc1c99
    # skills/cursor-docs/references/hooks.md): its shell, MCP and file steps each have an
    # event of their own beside preToolUse/postToolUse, which fire for every tool.
    _host_only("cursor", "beforeShellExecution", "before a shell command runs; may block it"),
    _host_only("cursor", "afterShellExecution", "after a shell command ran"),
    _host_only("cursor", "beforeMCPExecution", "before an MCP tool runs; may block it"),
    _host_only("cursor", "afterMCPExecution", "after an MCP tool ran"),
    _host_only("cursor", "beforeReadFile", "before the agent reads a file; may block it"),
    _host_only("cursor", "afterFileEdit", "after the agent edited a file"),
    _host_only("cursor", "afterAgentResponse", "after an assistant message"),
    _host_only("cursor", "afterAgentThought", "after a thinking block"),
    _host_only("cursor", "beforeTabFileRead", "before Tab completion reads a file"),
    _host_only("cursor", "afterTabFileEdit", "after Tab completion edited a file"),
    _host_only("cursor", "workspaceOpen", "a workspace opens or its folders change"),
    # GitHub Copilot CLI's own (github/docs@05da5bc content/copilot/reference/hooks-reference.md).
    _host_only("copilot", "errorOccurred", "an error occurred during the session"),
    _host_only("copilot", "userPromptTransformed",
               "a prompt became the model's content; may rewrite that content"),
    # Codex's own (developers.openai.com/codex/hooks): an active turn was interrupted.
    # Cline's TaskCancel: its run aborted, or failed with "cancel", "abort" or "interrupt" in
    # the error (@cline/core 0.0.86).
    EventRow("codex.Interrupt", None, {"codex": "Interrupt", "cline": "TaskCancel"},
             "the user interrupted an active turn"),
    # Windsurf's (docs.windsurf.com/windsurf/cascade/hooks, "Hook Events"); its tool events,
    # one per kind of tool, are `HostRow.tool_events` (`tool_event_words`); an MCP call
    # names its server and tool in fields of its own, which no tool row reads yet.
    _host_only("windsurf", "pre_mcp_tool_use", "before an MCP tool runs; may block it"),
    _host_only("windsurf", "post_mcp_tool_use", "after an MCP tool ran"),
    _host_only("windsurf", "post_cascade_response_with_transcript",
               "after a response, with the path of the whole transcript"),
    _host_only("windsurf", "post_setup_worktree", "after a git worktree was set up"),
    # Kiro's (kiro.dev/docs/cli/v3/hooks, "Trigger reference"): its spec tasks, the files it
    # wrote, and a hook the user runs by hand.
    _host_only("kiro", "PreTaskExec", "before a spec task starts; may block it"),
    _host_only("kiro", "PostTaskExec", "after a spec task finished"),
    _host_only("kiro", "PostFileCreate", "after a file was created"),
    _host_only("kiro", "PostFileSave", "after a file was saved"),
    _host_only("kiro", "PostFileDelete", "after a file was deleted"),
    _host_only("kiro", "Manual", "the user runs the hook by hand"),
    # Cline's own (@cline/core 0.0.86 `HookConfigFileName`): a task resumed (CLINE_HOOK_AGENT_
    # RESUME=1), which its CLI fires in place of TaskStart.
    _host_only("cline", "TaskResume", "a task resumes", nearest="SessionStart"),
)
# The hosts derived from another (`model.hosts.derive`) say their parent's words but where
# their row says otherwise: each one's cells are filled into every row's words when its words
# are first asked for (`_Indexes.fill`), so that a run pays for the hosts it involves alone.
_DERIVED_OF: dict[str, tuple[str, Mapping[str, str | None]]] = {
    row.id: (row.derived_from, row.event_words) for row in HOST_TABLE
    if row.derived_from is not None}
if _DERIVED_OF:
    _KNOWN = {row.id for row in EVENT_TABLE}
    # An event no row has: one row, the first host's to name it (`rulesync.stopCancelled`),
    # with the words of every host that names it after (Grok Build's StopCancelled).
    _ADDED: dict[str, EventRow] = {}
    for _host in HOST_TABLE:
        for _key, _word in _host.event_words.items():
            if _word is None or _key in _KNOWN:
                continue
            if _key in _ADDED:
                _ADDED[_key].words[_host.id] = _word  # type: ignore[index]
            else:
                _ADDED[_key] = _host_only(_host.id, _word, f"{_host.name}'s own event")
    EVENT_TABLE += tuple(_ADDED.values())

# --- indexes, built once ----------------------------------------------------------------------



def _words_of(dialect: str) -> dict[str, EventRow]:
    """A dialect's word -> row, in table order, then the words of a host that names a tool
    event per kind of tool (`HostRow.tool_events`)."""
    filled(dialect)
    index = {word: row for row in EVENT_TABLE if (word := row.words.get(dialect)) is not None}
    host = next((each for each in HOST_TABLE if each.id == dialect), None)
    if host is not None and host.tool_events:
        rows = {row.id: row for row in EVENT_TABLE}
        index.update((word, rows[row_id]) for word, (row_id, _) in host.tool_events.items())
    return index


def tool_event_word(dialect: str, row: EventRow, tool: str | None) -> str | None:
    """A host's word for a tool event row and one canonical tool (`shell`): Windsurf's
    `pre_run_command`; None where its words do not depend on the tool, or it has none."""
    host = next((each for each in HOST_TABLE if each.id == dialect), None)
    for word, (row_id, tools) in host.tool_events.items() if host is not None else ():
        if row_id == row.id and tool in tools:
            return word
    return None


def tool_of_word(dialect: str, word: str) -> str | None:
    """The canonical tool a host's tool-event word fires for (Windsurf's `pre_read_code`:
    `read`), None for a word that names no tool."""
    host = next((each for each in HOST_TABLE if each.id == dialect), None)
    found = host.tool_events.get(word) if host is not None else None
    return found[1][0] if found else None


class _Indexes:
    """The lookups built from the table, each when first asked: a run asks for its caller's
    and its files' words, never every host's (a plain class: a namedtuple costs an `eval` at
    import, on the path of every run)."""

    __slots__ = ("_by_host_word", "_by_word", "by_engine", "by_id", "filled", "table")

    def __init__(self, table: tuple[EventRow, ...]) -> None:
        self.table = table
        self.filled: set[str] = set()  # the derived hosts whose cells the rows hold
        self._by_word: dict[str, dict[str, EventRow]] = {}
        self.by_engine = {row.engine: row for row in table if row.engine}
        self.by_id = {row.id: row for row in table}
        self._by_host_word: dict[str, EventRow] | None = None

    def words_of(self, dialect: str) -> dict[str, EventRow]:
        """dialect -> word -> row, made for a dialect when first asked."""
        found = self._by_word.get(dialect)
        if found is None:
            found = self._by_word[dialect] = _words_of(dialect)
        return found

    @property
    def by_host_word(self) -> dict[str, EventRow]:
        """Any host's word -> its row; a word two hosts share names one row (a test checks
        it)."""
        if self._by_host_word is None:
            filled()
            every = dict.fromkeys(dialect for row in self.table for dialect in row.words)
            hosts = [*reversed(DIALECTS), *(d for d in every if d not in (*DIALECTS, ADK))]
            self._by_host_word = {word: row for dialect in hosts
                                  for word, row in self.words_of(dialect).items()}
        return self._by_host_word


    def fill(self, host: str) -> None:
        """A derived host's cells in every row: the one its row states where it states one,
        else its parent's (filled first); none where that is None."""
        if host in self.filled or host not in _DERIVED_OF:
            return
        self.filled.add(host)
        parent, own = _DERIVED_OF[host]
        self.fill(parent)
        for row in self.table:
            words = row.words
            if host not in words:
                value = own[row.id] if row.id in own else words.get(parent)
                if value:
                    words[host] = value  # type: ignore[index]


_built: list[_Indexes] = []


def filled(host: str | None = None) -> None:
    """Every row's words hold a derived host's (`host`), or every host's (None): what reads
    a row's `words` for any host calls this first (the lookups here do)."""
    index = _index()
    for each in (host,) if host is not None else _DERIVED_OF:
        index.fill(each)


def _index() -> _Indexes:
    """The indexes of `EVENT_TABLE`, built once, and again only when the table itself is
    replaced (a host's words added by a table row at run time, as the seam tests do)."""
    if not _built or _built[0].table is not EVENT_TABLE:
        _built[:] = [_Indexes(EVENT_TABLE)]
    return _built[0]

# --- the lists callers use ---------------------------------------------------------------------

# hooks.json's events: tool events take matcher groups (`{"matcher", "hooks"}`), flat events
# take handlers directly.
TOOL_EVENTS: tuple[str, ...] = tuple(
    row.engine for row in EVENT_TABLE
    if row.engine and row.tool and HOOKS_JSON_DIALECT in row.words)
FLAT_EVENTS: tuple[str, ...] = tuple(
    row.engine for row in EVENT_TABLE
    if row.engine and not row.tool and HOOKS_JSON_DIALECT in row.words)
EVENTS: tuple[str, ...] = TOOL_EVENTS + FLAT_EVENTS
# Events with no hooks.json key, run by in-process hooks (the Python API, `--python`).
API_EVENTS: tuple[str, ...] = tuple(
    row.engine for row in EVENT_TABLE if row.engine and HOOKS_JSON_DIALECT not in row.words)
ALL_EVENTS: tuple[str, ...] = EVENTS + API_EVENTS
# Events whose payload names a tool (matchers, argument globs, `ctx.tool_name`).
TOOL_CALL_EVENTS: frozenset[str] = frozenset(
    row.engine for row in EVENT_TABLE if row.engine and row.tool)
# adk-fluent's event names -> the engine's, accepted at registration and by `run`.
ALIASES: dict[str, str] = {
    row.words[ADK]: row.engine for row in EVENT_TABLE if row.engine and ADK in row.words}
# A Markdown hook names an event the engine runs by the row's id.
MARKDOWN_WORDS: dict[str, str] = {row.id: row.engine for row in EVENT_TABLE if row.engine}
# Markdown words whose payload names a tool: the script sees payload["name"] and ["args"].
MARKDOWN_TOOL_WORDS: frozenset[str] = frozenset(
    row.id for row in EVENT_TABLE if row.engine and row.tool)
# What a block means per engine event; an event not here blocks with DEFAULT_BLOCK.
BLOCK_DECISION: dict[str, str] = {
    row.engine: row.block for row in EVENT_TABLE if row.engine and row.block != DEFAULT_BLOCK}
_FOREIGN: list[dict[str, str]] = []


def foreign_events() -> dict[str, str]:
    """Another host's word -> the nearest hooks.json event, so that a hooks.json file written
    with Gemini CLI's or Claude Code's names gets a hint rather than only "unknown event".
    Built on first use: a run that names a known event never asks (every host's words of
    every row, on the path of every run, were a cost that grew with each host)."""
    if not _FOREIGN:
        filled()
        _FOREIGN.append({
            word: near
            for row in EVENT_TABLE
            if (near := row.words.get(HOOKS_JSON_DIALECT) or row.nearest)
            for dialect in DIALECTS
            if (word := row.words.get(dialect)) and word not in EVENTS
        })
    return _FOREIGN[0]
# The engine's name for an event no engine row has, by any host's word (PreCompress is
# PreCompact): Claude Code's word, else Gemini CLI's.
_HOST_ONLY: dict[str, str] = {
    word: row.words.get("claude") or word
    for row in EVENT_TABLE
    if row.engine is None
    for dialect in ("claude", "gemini")
    if (word := row.words.get(dialect))
}


def is_tool_event(event: str) -> bool:
    """A hooks.json event whose handlers come in matcher groups."""
    return event in TOOL_EVENTS


def block_decision(event: str) -> str:
    """The engine's decision for a block (an exit 2) on an engine event."""
    return BLOCK_DECISION.get(event, DEFAULT_BLOCK)


def word_of(dialect: str, row: EventRow) -> str | None:
    """A row's word in one dialect, None when that dialect has no such event."""
    filled(dialect)
    return row.words.get(dialect)


def call_word(dialect: str, row: EventRow, caller: str, tool: str | None) -> str | None:
    """A dialect's word for a row and a call of the caller's tool: its word in the table,
    else, for a host that names its tool events per kind of tool (Windsurf's
    `pre_run_command`), the word for that tool; None where it has neither."""
    filled(dialect)
    word = row.words.get(dialect)
    if word is not None or tool is None or not row.tool:
        return word
    from agenthooks.model.tools import tool_for

    found = tool_for(caller, tool)
    return tool_event_word(dialect, row, found.id) if found is not None else None


def row_of(dialect: str, word: str) -> EventRow | None:
    """The row of a dialect's word."""
    return _index().words_of(dialect).get(word)


def events_of(dialect: str) -> tuple[str, ...]:
    """Every word of a dialect that the table knows, in table order."""
    return tuple(_index().words_of(dialect))


def counterpart(event: str, source: str, target: str) -> str | None:
    """The target dialect's word for a source dialect's event, or None; the event itself
    when both are one dialect and it knows the word."""
    row = row_of(source, event)
    if row is not None and source == target:
        return event
    return None if row is None else word_of(target, row)


def find_row(name: str) -> EventRow | None:
    """The row a name stands for: an engine event, a row's id (`tool.pre`), or any host's
    word (`BeforeTool`), in that order."""
    index = _index()
    return index.by_engine.get(name) or index.by_id.get(name) or index.by_host_word.get(name)


def host_only_event(name: str) -> str | None:
    """The engine's name of an event only Claude Code or Gemini CLI have (PreCompact,
    Notification, BeforeModel, SubagentStop...): Claude Code's word, else Gemini CLI's; any
    dialect's word is accepted (PreCompress is PreCompact). None for other names."""
    return _HOST_ONLY.get(name)


def engine_name(row: EventRow) -> str:
    """The name the engine runs a row's event under: its own event, else Claude Code's word,
    else Gemini CLI's, else its one host's (the engine names a host's own event after that
    host: Cursor's beforeShellExecution)."""
    return (row.engine or row.words.get("claude") or row.words.get("gemini")
            or next(iter(row.words.values()), row.id))


def any_dialect_event(name: str) -> str | None:
    """The engine's event for any host's word of a row (BeforeTool is PreToolUse)."""
    row = _index().by_host_word.get(name)
    return None if row is None else engine_name(row)


def other_host_hint(event: str, dialect: str) -> str | None:
    """"BeforeTool is Gemini CLI's word; Claude Code says PreToolUse" for another host's name."""
    for other in ("claude", "gemini", HOOKS_JSON_DIALECT):  # the hosts people copy from first
        row = row_of(other, event) if other != dialect else None
        if row is None:
            continue
        mine = word_of(dialect, row)
        host = HOST_NAMES[other]
        if mine is None:
            return f"{event} is {host}'s event, with no counterpart in {HOST_NAMES[dialect]}"
        return f"{event} is {host}'s name; {HOST_NAMES[dialect]} calls it {mine!r}"
    return None


def other_host_word(event: str, dialect: str) -> str | None:
    """This dialect's word for the event another host calls `event` (what `other_host_hint`
    names); None when it has none, or `event` is no other host's."""
    for other in ("claude", "gemini", HOOKS_JSON_DIALECT):  # as other_host_hint reads them
        row = row_of(other, event) if other != dialect else None
        if row is not None:
            return word_of(dialect, row)
    return None


def snake_case(word: str) -> str:
    """An event word in snake_case: `PreToolUse` as `pre_tool_use` (Grok Build's payloads)."""
    return "".join(f"_{char.lower()}" if char.isupper() else char for char in word).lstrip("_")


def _cell(value: str | None) -> str:
    return f"`{value}`" if value else "-"


def markdown_table() -> str:
    """The table as docs/dialects.md prints it."""
    hosts = " | ".join(HOST_NAMES[dialect] for dialect in DIALECTS)
    lines = [f"| Meaning | Engine word | {hosts} |", "| --- " * (2 + len(DIALECTS)) + "|"]
    filled()
    for row in EVENT_TABLE:
        cells = " | ".join(_cell(row.words.get(dialect)) for dialect in DIALECTS)
        lines.append(f"| {row.meaning} | `{row.id}` | {cells} |")
    return "\n".join(lines) + "\n"


def markdown_words_table() -> str:
    """The Markdown hooks' words as docs/markdown-hooks.md prints them."""
    lines = ["| Markdown hook event | hooks.json event |", "|---|---|"]
    lines += [f"| `{word}` | `{event}` |" for word, event in MARKDOWN_WORDS.items()]
    return "\n".join(lines) + "\n"
