"""Cursor's hooks, as data (cursor.com/docs/hooks; mirror mehmetbaykar/cursor-docs-skill
@1cc1c99 skills/cursor-docs/references/hooks.md, "Configuration", "Matcher Configuration",
"Per-Script Configuration Options").

Files: `/etc/cursor/hooks.json` (enterprise; macOS `/Library/Application Support/Cursor/`,
Windows `C:\\ProgramData\\Cursor\\`), `<project>/.cursor/hooks.json`, `~/.cursor/hooks.json`;
all of them run, higher priority winning conflicting answers (enterprise, team, project,
user). A file is `{"version": 1, "hooks": {"<event>": [handler, ...]}}`: a flat list of
handlers per event, each with its own `matcher`. `sources.dialects.cursor_check` walks it.
"""

from __future__ import annotations

from agenthooks.sources.dialects.matching import ALL, Selection, regex_error
from agenthooks.sources.dialects.spec import Dialect, HandlerType

# event -> what its matcher is matched against: a payload field, `=Word` for the fixed word
# the docs give ("stop: matched against the value `Stop`"), None where the docs give no
# matcher target (the matcher is then ignored: a warning).
EVENTS: dict[str, str | None] = {
    "sessionStart": None,
    "sessionEnd": None,
    "preToolUse": "tool_name",
    "postToolUse": "tool_name",
    "postToolUseFailure": "tool_name",
    "subagentStart": "subagent_type",
    "subagentStop": "subagent_type",
    "beforeShellExecution": "command",
    "afterShellExecution": "command",
    "beforeMCPExecution": None,
    "afterMCPExecution": None,
    # "Filter by tool type (TabRead, Read)" / "(TabWrite, Write)": the Agent's own events see
    # Read and Write (Tab has events of its own). The payload carries no such field.
    "beforeReadFile": "=Read",
    "afterFileEdit": "=Write",
    "beforeSubmitPrompt": "=UserPromptSubmit",
    "preCompact": None,
    "stop": "=Stop",
    "afterAgentResponse": "=AgentResponse",
    "afterAgentThought": "=AgentThought",
    "beforeTabFileRead": None,
    "afterTabFileEdit": None,
    "workspaceOpen": None,
}

# Events whose answer can stop what happens: `failClosed` means something only there
# ("hook failures (crash, timeout, invalid JSON) block the action").
BLOCKING_EVENTS = frozenset(("preToolUse", "subagentStart", "beforeShellExecution",
                             "beforeMCPExecution", "beforeReadFile", "beforeSubmitPrompt",
                             "beforeTabFileRead"))
# Events whose `followup_message` continues the agent, capped by `loop_limit` (default 5).
LOOP_EVENTS = frozenset(("stop", "subagentStop"))
DEFAULT_LOOP_LIMIT = 5
VERSION = 1

_OPTIONS = ("type", "timeout", "matcher", "loop_limit", "failClosed")

CURSOR = Dialect(
    name="cursor",
    host="Cursor",
    events=EVENTS,
    exact_events=frozenset(),
    types={
        "command": HandlerType("command", ("command",), ("command", *_OPTIONS), True),
        "prompt": HandlerType("prompt", ("prompt",), ("prompt", "model", *_OPTIONS), False),
    },
    group_keys=(),
    settings_keys=("version",),
    timeout_unit=1.0,
    # "platform default": the value is not documented. agenthooks gives Cursor's handlers the
    # 60 s Gemini CLI documents for the same purpose; `timeout` says otherwise.
    default_timeout=60.0,
    timeout_by_event={},
    project_var="CURSOR_PROJECT_DIR",
    option_types={"matcher": "string", "failClosed": "boolean", "model": "string"},
    whole_file=True,
    reader="agenthooks.sources.dialects.cursor_check:read",
    marker_keys=("version",),
    path_variables=("CURSOR_PROJECT_DIR", "CLAUDE_PROJECT_DIR", "CURSOR_PLUGIN_ROOT"),
    # A plugin's hooks find its folder in CURSOR_PLUGIN_ROOT (cursor.com/docs/reference/
    # plugins: `${CURSOR_PLUGIN_ROOT}`); Cursor names no data folder.
    plugin_vars=("CURSOR_PLUGIN_ROOT", ""),
    # cursor.com/docs/hooks, "Environment Variables" (CURSOR_CODE_REMOTE is the host's own).
    call_vars=(("CURSOR_VERSION", "cursor_version"), ("CURSOR_USER_EMAIL", "user_email"),
               ("CURSOR_TRANSCRIPT_PATH", "transcript_path")),
    schema={
        "file": "cursor-hooks.schema.json", "what": "Cursor hooks.json",
        "title": "Cursor hooks.json",
        "description": "A Cursor hooks.json (.cursor/hooks.json, ~/.cursor/hooks.json, "
                       '/etc/cursor/hooks.json): {"version": 1, "hooks": {"<event>": '
                       "[handler, ...]}}, a flat list of handlers per event, each with its own "
                       "matcher.",
        "build": "cursor", "default_type": "command",
        "no_default_timeout": True,  # "platform default"
    },
    convert={
        # Cursor sets Claude Code's project-dir variable too (cursor.com/docs/hooks).
        "project_dirs": ("CURSOR_PROJECT_DIR", "CLAUDE_PROJECT_DIR"),
        "flat_version": VERSION,
    },
)


def selection(matcher: str | None, event: str) -> Selection:
    """What a Cursor matcher selects: everything when absent, empty or `*`, or on an event
    with no matcher target; else a regex searched anywhere in the value ("curl|wget|nc "
    runs "only when the command contains curl, wget, or nc"; "Shell|Read|Write" names tool
    types). One that does not compile selects nothing [unverified: Cursor's handling of a bad
    regex is not documented; `validate` reports it as an error]."""
    if matcher in (None, "", "*") or EVENTS.get(event) is None:
        return ALL
    assert matcher is not None
    if regex_error(matcher) is not None:
        return Selection("never", pattern=matcher)
    return Selection("search", pattern=matcher)
