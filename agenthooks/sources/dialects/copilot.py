"""GitHub Copilot CLI's hooks, as data (github/docs@05da5bc
content/copilot/reference/hooks-reference.md: "Hooks locations", "Hook configuration format",
"Hook events", "Matcher filtering", "Exit codes for command hooks").

Files: `/etc/github-copilot/policy.d/*.json` (policy), `<repo>/.github/hooks/*.json`,
`~/.copilot/hooks/*.json`; all of them run, in that order. A file is `{"version": 1,
"hooks": {"<event>": [handler, ...]}}`: a flat list of handlers per event, each with its own
`matcher`, run one after another. `sources.dialects.copilot_check` walks it. The camelCase event
names are read here; the PascalCase ones ("VS Code compatible": Claude Code's payloads, tool
names, matchers and answers) are read as Claude Code handlers by `sources.dialects.copilot_check`.
"""

from __future__ import annotations

from agenthooks.sources.dialects.matching import ALL, Selection, regex_error
from agenthooks.sources.dialects.spec import Dialect, HandlerType

TYPE_CHECKING = False
if TYPE_CHECKING:
    from agenthooks.model.handlers import Handler

# event -> what its matcher is matched against ("Matcher filtering"); None: no matcher.
EVENTS: dict[str, str | None] = {
    "sessionStart": None,
    "sessionEnd": None,
    "userPromptSubmitted": None,
    "userPromptTransformed": None,
    "preToolUse": "tool_name",
    "postToolUse": "tool_name",
    "postToolUseFailure": None,
    "permissionRequest": "tool_name",
    "agentStop": None,
    "subagentStart": "agentName",
    "subagentStop": None,
    "preCompact": "trigger",
    "errorOccurred": None,
    "notification": "notification_type",
}
# The PascalCase names Copilot also accepts, with the other payload format.
PASCAL_EVENTS = frozenset(("SessionStart", "SessionEnd", "UserPromptSubmit", "PreToolUse",
                           "PostToolUse", "PostToolUseFailure", "PermissionRequest", "Stop",
                           "SubagentStop", "ErrorOccurred", "PreCompact"))
VERSION = 1
COMMAND_FIELDS = ("bash", "powershell", "command")
_COMMON = ("type", "timeoutSec", "timeout", "matcher")

COPILOT = Dialect(
    name="copilot",
    host="GitHub Copilot CLI",
    events=EVENTS,
    exact_events=frozenset(),
    types={
        "command": HandlerType("command", (), (*_COMMON, *COMMAND_FIELDS, "exec", "args", "cwd",
                                               "env"), True),
        "http": HandlerType("url", ("url",), (*_COMMON, "url", "headers", "allowedEnvVars"),
                            False),
        "prompt": HandlerType("prompt", ("prompt",), (*_COMMON, "prompt"), False),
    },
    group_keys=(),
    settings_keys=("version", "disableAllHooks"),
    timeout_unit=1.0,
    default_timeout=30.0,  # `timeoutSec`: "Default: 30"
    timeout_by_event={},
    project_var="",  # Copilot sets none
    option_types={"matcher": "string", "cwd": "string", "env": "string-map",
                  "args": "strings", "exec": "string", "headers": "object",
                  "allowedEnvVars": "strings"},
    exec_key="args",
    chain="copilot",  # "If multiple hooks of the same type are configured, they execute in order"
    reader="agenthooks.sources.dialects.copilot_check:read",
    marker_keys=("version",),
    own_vars="agenthooks.sources.dialects.copilot:handler_variables",
    schema={
        "file": "copilot-hooks.schema.json", "what": "Copilot CLI hooks files",
        "title": "GitHub Copilot CLI hooks file",
        "description": "A GitHub Copilot CLI hooks file (.github/hooks/*.json, "
                       '~/.copilot/hooks/*.json): {"version": 1, "hooks": {"<event>": '
                       "[handler, ...]}}. A bad version, or an event whose value is not a "
                       "list, makes Copilot reject the file; a malformed handler is dropped "
                       "alone and the rest loads, so this schema describes handlers without "
                       "rejecting them (agenthooks validate warns about each).",
        "build": "copilot", "default_type": "command",
    },
    convert={
        "project_dirs": ("COPILOT_PROJECT_DIR",),  # measured with copilot 1.0.102
        "whole_name": True,  # `^(?:PATTERN)$` (`selection`)
        "flat_version": VERSION,
        "guest_events": PASCAL_EVENTS,
    },
)


def selection(matcher: str | None, event: str) -> Selection:
    """A matcher "compiled as ^(?:PATTERN)$ and must match the full value"; an invalid regex
    skips the entry; no matcher, or an event without one, selects everything."""
    if matcher in (None, "") or EVENTS.get(event) is None:
        return ALL
    assert matcher is not None
    if regex_error(matcher) is not None:
        return Selection("never", pattern=matcher)
    return Selection("full", pattern=matcher)


def handler_variables(handler: Handler) -> dict[str, str]:
    """What Copilot sets for a handler (measured with copilot 1.0.102: COPILOT_PROJECT_DIR, the
    repository root; COPILOT_HOOK_DIR, the hooks file's folder; COPILOT_CLI=1), then what its
    `env` sets ("supports variable expansion": `$NAME` and `${NAME}` of the environment
    agenthooks runs in)."""
    import os

    found = {"COPILOT_PROJECT_DIR": handler.source.workspace,
             "COPILOT_HOOK_DIR": os.path.dirname(handler.source.file), "COPILOT_CLI": "1"}
    pairs = dict(handler.options).get("env")
    if isinstance(pairs, tuple):
        found.update({str(key): os.path.expandvars(str(value)) for key, value in pairs})
    return found
