"""Windsurf's hooks, as data (docs.windsurf.com/windsurf/cascade/hooks, "Configuration",
"Hook Events", "Exit Codes"; the same page is also published as Devin Desktop's).

Files: `/etc/windsurf/hooks.json` (system; macOS `/Library/Application Support/Windsurf/`,
Windows `C:\\ProgramData\\Windsurf\\`), `~/.codeium/windsurf/hooks.json` (user),
`<workspace>/.windsurf/hooks.json`; Cascade loads and merges all of them. A file is
`{"hooks": {"<event>": [handler, ...]}}`: a flat list per event, each handler a `command`
(and a `powershell` for Windows), `show_output` and `working_directory`. There is no
matcher, no handler type and no timeout: each tool event is one kind of tool
(`pre_run_command` fires for terminal commands only), so its handlers run on every call of
that kind. `sources.dialects.windsurf_check` walks it.
"""

from __future__ import annotations

from agenthooks.sources.dialects.matching import ALL, Selection
from agenthooks.sources.dialects.spec import Dialect, HandlerType

# Its events; none has a matcher (None: every handler of the event runs).
EVENTS: dict[str, str | None] = {
    "pre_read_code": None,
    "post_read_code": None,
    "pre_write_code": None,
    "post_write_code": None,
    "pre_run_command": None,
    "post_run_command": None,
    "pre_mcp_tool_use": None,
    "post_mcp_tool_use": None,
    "pre_user_prompt": None,
    "post_cascade_response": None,
    "post_cascade_response_with_transcript": None,
    "post_setup_worktree": None,
}
# "For pre-hooks (executed before an action), your script can block the action by exiting
# with exit code 2": the pre_* events.
BLOCKING_EVENTS = frozenset(word for word in EVENTS if word.startswith("pre_"))
# Events whose `show_output` the docs say does not apply.
NO_OUTPUT_EVENTS = frozenset(("pre_user_prompt", "post_cascade_response"))

_KEYS = ("command", "powershell", "show_output", "working_directory")

WINDSURF = Dialect(
    name="windsurf",
    host="Windsurf",
    events=EVENTS,
    exact_events=frozenset(),
    types={"command": HandlerType("command", ("command",), _KEYS, True)},
    group_keys=(),
    settings_keys=(),
    timeout_unit=1.0,
    # Windsurf documents no timeout [unverified]: agenthooks gives its handlers the 60 s
    # Gemini CLI documents for the same purpose, as it does Cursor's.
    default_timeout=60.0,
    timeout_by_event={},
    project_var="",
    option_types={"show_output": "boolean", "working_directory": "string",
                  "powershell": "string"},
    whole_file=True,
    reader="agenthooks.sources.dialects.windsurf_check:read",
    schema={
        "file": "windsurf-hooks.schema.json", "what": "Windsurf hooks.json",
        "title": "Windsurf hooks file",
        "description": "A Windsurf hooks file (.windsurf/hooks.json, "
                       '~/.codeium/windsurf/hooks.json): {"hooks": {"<event>": [handler, '
                       "...]}}, a flat list per event with no matcher: each tool event is one "
                       "kind of tool.",
        "build": "windsurf",
    },
)


def selection(matcher: str | None, event: str) -> Selection:
    """Windsurf has no matchers: every handler of an event runs on it."""
    return ALL
