"""Events across dialects, as data: one row per meaning, with each dialect's word for it.

The README prints this table (`markdown_table`), and a test keeps the two equal. `engine` is
the event agenthooks runs (`agenthooks run EVENT`, the Python API); `antigravity` the
hooks.json key, None where hooks.json has none. A row with one host's word only is an event
of that host alone: `convert` reports it as one that cannot be carried over.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import NamedTuple
else:
    from agenthooks._records import NamedTuple


class EventRow(NamedTuple):
    word: str  # the engine's word for the meaning (a Markdown hook's `event`)
    engine: str | None  # the engine's event name, when agenthooks runs it today
    antigravity: str | None
    claude: str | None
    gemini: str | None
    meaning: str


EVENT_TABLE: tuple[EventRow, ...] = (
    EventRow("tool.pre", "PreToolUse", "PreToolUse", "PreToolUse", "BeforeTool",
             "before a tool runs; may block it or rewrite its input"),
    EventRow("tool.post", "PostToolUse", "PostToolUse", "PostToolUse", "AfterTool",
             "after a tool ran"),
    EventRow("error", "ToolError", None, "PostToolUseFailure", None, "after a tool failed"),
    EventRow("turn.start", "PreInvocation", "PreInvocation", "UserPromptSubmit", "BeforeAgent",
             "a turn starts (the user's prompt)"),
    EventRow("turn.end", "PostInvocation", "PostInvocation", None, None,
             "after the tool-call loop of one model call"),
    EventRow("agent.stop", "Stop", "Stop", "Stop", "AfterAgent",
             "the agent is about to stop; may keep it going"),
    EventRow("session.start", "SessionStart", "SessionStart", "SessionStart", "SessionStart",
             "a session starts or resumes"),
    EventRow("session.end", "SessionEnd", None, "SessionEnd", "SessionEnd", "a session ends"),
    EventRow("compact.pre", None, None, "PreCompact", "PreCompress",
             "before the context is compacted"),
    EventRow("notification", None, None, "Notification", "Notification",
             "the host notifies the user (a permission prompt, idle)"),
    EventRow("model.pre", None, None, None, "BeforeModel", "before a model request"),
    EventRow("model.post", None, None, None, "AfterModel", "after a model response"),
    EventRow("tool.select", None, None, None, "BeforeToolSelection",
             "before the model is offered its tools"),
    *(
        EventRow(f"claude.{name}", None, None, name, None, meaning)
        for name, meaning in (
            ("PermissionRequest", "a permission dialog is about to be shown"),
            ("PermissionDenied", "the auto-mode classifier denied a tool call"),
            ("PostToolBatch", "after a batch of parallel tool calls"),
            ("UserPromptExpansion", "a slash command expands into a prompt"),
            ("SubagentStart", "a subagent starts"),
            ("SubagentStop", "a subagent is about to stop"),
            ("StopFailure", "a turn ended on an API error"),
            ("TaskCreated", "a task is created"),
            ("TaskCompleted", "a task is marked completed"),
            ("TeammateIdle", "an agent-team teammate is about to go idle"),
            ("PostCompact", "after the context was compacted"),
            ("InstructionsLoaded", "a CLAUDE.md or rules file was loaded"),
            ("ConfigChange", "a configuration file changed"),
            ("CwdChanged", "the working directory changed"),
            ("FileChanged", "a watched file changed"),
            ("WorktreeCreate", "a git worktree is created"),
            ("WorktreeRemove", "a git worktree is removed"),
            ("Elicitation", "an MCP server asks the user for input"),
            ("ElicitationResult", "the user answered an MCP elicitation"),
            ("Setup", "`claude --init` or maintenance runs"),
        )
    ),
)

DIALECTS: tuple[str, ...] = ("antigravity", "claude", "gemini")


def word_of(dialect: str, row: EventRow) -> str | None:
    """A row's word in one dialect, None when that dialect has no such event."""
    value = getattr(row, dialect)
    return value if isinstance(value, str) else None


def row_of(dialect: str, event: str) -> EventRow | None:
    """The row of a dialect's event name."""
    for row in EVENT_TABLE:
        if word_of(dialect, row) == event:
            return row
    return None


def events_of(dialect: str) -> tuple[str, ...]:
    """Every event name of a dialect that the table knows, in table order."""
    return tuple(word for row in EVENT_TABLE if (word := word_of(dialect, row)) is not None)


def counterpart(event: str, source: str, target: str) -> str | None:
    """The target dialect's word for a source dialect's event, or None."""
    row = row_of(source, event)
    return None if row is None else word_of(target, row)


def other_host_hint(event: str, dialect: str) -> str | None:
    """"BeforeTool is Gemini CLI's word; Claude Code says PreToolUse" for another host's name."""
    for other in ("claude", "gemini", "antigravity"):  # the hosts people copy from first
        if other == dialect:
            continue
        row = row_of(other, event)
        if row is None:
            continue
        mine = word_of(dialect, row)
        host = HOST_NAMES[other]
        if mine is None:
            return f"{event} is {host}'s event, with no counterpart in {HOST_NAMES[dialect]}"
        return f"{event} is {host}'s name; {HOST_NAMES[dialect]} calls it {mine!r}"
    return None


HOST_NAMES: dict[str, str] = {
    "antigravity": "hooks.json",
    "claude": "Claude Code",
    "gemini": "Gemini CLI",
}


def markdown_table() -> str:
    """The table as the README prints it."""
    def cell(value: str | None) -> str:
        return f"`{value}`" if value else "-"

    lines = [
        "| Meaning | Engine word | hooks.json | Claude Code | Gemini CLI |",
        "| --- | --- | --- | --- | --- |",
    ]
    for row in EVENT_TABLE:
        lines.append(
            f"| {row.meaning} | `{row.word}` | {cell(row.antigravity)} | {cell(row.claude)} "
            f"| {cell(row.gemini)} |"
        )
    return "\n".join(lines) + "\n"
