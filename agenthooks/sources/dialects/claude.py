"""Claude Code's hooks, as data (its hooks reference, 2026).

Settings files: `~/.claude/settings.json`, `<root>/.claude/settings.json`,
`<root>/.claude/settings.local.json`; a plugin's `hooks/hooks.json` (top-level `hooks` and an
optional `description`). Only `hooks` and `disableAllHooks` are read.
"""

from __future__ import annotations

from agenthooks.sources.dialects.spec import Dialect, HandlerType

TYPE_CHECKING = False
if TYPE_CHECKING:
    from agenthooks.sources.dialects.matching import Selection

_COMMON = ("type", "timeout", "statusMessage", "once", "if")

# event -> what its matcher is matched against (None: the event ignores matchers).
EVENTS: dict[str, str | None] = {
    "SessionStart": "source",
    "Setup": "trigger",
    "UserPromptSubmit": None,
    "UserPromptExpansion": "command_name",
    "PreToolUse": "tool_name",
    "PermissionRequest": "tool_name",
    "PermissionDenied": "tool_name",
    "PostToolUse": "tool_name",
    "PostToolUseFailure": "tool_name",
    "PostToolBatch": None,
    "Notification": "notification_type",
    "SubagentStart": "agent_type",
    "SubagentStop": "agent_type",
    "TaskCreated": None,
    "TaskCompleted": None,
    "Stop": None,
    "StopFailure": "error",
    "TeammateIdle": None,
    "InstructionsLoaded": "load_reason",
    "ConfigChange": "source",
    "CwdChanged": None,
    "FileChanged": "file_path",
    "WorktreeCreate": None,
    "WorktreeRemove": None,
    "PreCompact": "trigger",
    "PostCompact": "trigger",
    "Elicitation": "mcp_server_name",
    "ElicitationResult": "mcp_server_name",
    "SessionEnd": "reason",
}

CLAUDE = Dialect(
    name="claude",
    host="Claude Code",
    events=EVENTS,
    # On these two, only letters, digits, `_` and `|` make an exact list; a hyphen, space or
    # comma already makes the matcher a regex.
    exact_events=frozenset(("FileChanged", "StopFailure")),
    types={
        "command": HandlerType(
            "command", ("command",),
            (*_COMMON, "command", "args", "async", "asyncRewake", "shell"), True,
        ),
        "http": HandlerType("url", ("url",), (*_COMMON, "url", "headers", "allowedEnvVars"),
                            True),
        "mcp_tool": HandlerType(None, ("server", "tool"), (*_COMMON, "server", "tool", "input"),
                                False),
        "prompt": HandlerType("prompt", ("prompt",), (*_COMMON, "prompt", "model"), False),
        "agent": HandlerType("prompt", ("prompt",), (*_COMMON, "prompt", "model"), False),
    },
    group_keys=("matcher", "hooks"),
    settings_keys=("disableAllHooks",),
    timeout_unit=1.0,
    default_timeout=600.0,
    timeout_by_event={"UserPromptSubmit": 30.0},
    project_var="CLAUDE_PROJECT_DIR",
    shell_key="shell",
    exec_key="args",
    background_key="async",
    condition_key="if",
    env_file_events=frozenset(("SessionStart",)),
    whole_file=True,
    vscode_reads=True,
    known_tools=("Bash", "BashOutput", "Edit", "NotebookEdit", "MultiEdit", "Read", "Write",
                 "Glob", "Grep", "LS", "WebFetch", "WebSearch", "Task", "TodoWrite"),
    path_variables=("CLAUDE_PROJECT_DIR", "CLAUDE_PLUGIN_ROOT"),
    plugin_vars=("CLAUDE_PLUGIN_ROOT", "CLAUDE_PLUGIN_DATA"),
    option_types={
        "args": "strings", "async": "boolean", "asyncRewake": "boolean", "once": "boolean",
        "shell": "string", "if": "string", "statusMessage": "string", "headers": "object",
        "allowedEnvVars": "strings", "input": "object", "model": "string",
    },
    schema={
        "file": "claude-settings.schema.json", "what": "Claude Code settings (`hooks`)",
        "title": "Claude Code settings: hooks",
        "description": "The hooks of a Claude Code settings file (.claude/settings.json, "
                       ".claude/settings.local.json, ~/.claude/settings.json) or of a plugin's "
                       "hooks/hooks.json, as agenthooks reads them; the file's other settings "
                       "are let through.",
        "build": "claude",
        "exact": " (only letters, digits, `_` and `|` make a list of exact names)",
    },
    convert={
        "project_dirs": ("CLAUDE_PROJECT_DIR",),
        "plugin_root": "CLAUDE_PLUGIN_ROOT",
        "foreign_options": (("model", ("prompt",)),),
    },
)


def selection(matcher: str | None, event: str) -> Selection:
    """What a Claude Code matcher selects on an event (its matcher field's values)."""
    # Its matchers' tables load only when a matcher of its files is read.
    from agenthooks.sources.dialects.matching import (
        ALL,
        CLAUDE_EXACT,
        CLAUDE_EXACT_NARROW,
        Selection,
        regex_error,
    )

    if CLAUDE.events.get(event, "tool_name") is None or matcher in (None, "", "*"):
        return ALL
    assert matcher is not None
    exact = CLAUDE_EXACT_NARROW if event in CLAUDE.exact_events else CLAUDE_EXACT
    if exact.issuperset(matcher):
        names = tuple(n.strip() for n in matcher.replace(",", "|").split("|") if n.strip())
        return Selection("names", names)
    if regex_error(matcher) is not None:
        return Selection("never", pattern=matcher)
    return Selection("search", pattern=matcher)
