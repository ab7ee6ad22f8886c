"""rulesync's canonical hooks file, as data (dyoshikawa/rulesync@cfebcd7 src/types/hooks.ts,
docs/reference/file-formats.md, "`.rulesync/hooks.jsonc`").

rulesync runs no hook itself: `rulesync generate` writes each tool's own hooks file from
`.rulesync/hooks.jsonc` (JSON with comments and trailing commas; the legacy
`.rulesync/hooks.json` is read only when no `.jsonc` is beside it). The file is

    {"version": 1,
     "hooks": {"<canonical event>": [{"command": ..., "matcher": ..., "timeout": ...}]},
     "claudecode": {"hooks": {...}}, "cursor": {"hooks": {...}}, ...}

`hooks` goes to every tool that has the event; each tool's block (`claudecode.hooks`...) to
that tool alone. Events are rulesync's camelCase words (`preToolUse`, `beforeSubmitPrompt`);
a matcher is a regex over the tool name, written in Claude Code's words in rulesync's own
examples (`Bash`, `Write|Edit`); `timeout` is in seconds. `sources.dialects.rulesync_check` walks
it.
"""

from __future__ import annotations

from agenthooks.model.hosts import HOOKS_JSON_DIALECT
from agenthooks.sources.dialects.spec import Dialect, HandlerType

# rulesync event -> what its matcher is matched against (the field of the payload that the
# tool it is written for matches), None where the event ignores matchers.
EVENTS: dict[str, str | None] = {
    "sessionStart": "source",
    "sessionEnd": "reason",
    "preToolUse": "tool_name",
    "postToolUse": "tool_name",
    "postToolUseFailure": "tool_name",
    "preModelInvocation": None,
    "postModelInvocation": None,
    "beforeSubmitPrompt": None,
    "stop": None,
    "subagentStart": "agent_type",
    "subagentStop": "agent_type",
    "preCompact": "trigger",
    "postCompact": "trigger",
    "permissionRequest": "tool_name",
    "permissionDenied": "tool_name",
    "notification": "notification_type",
    "setup": "trigger",
    "beforeShellExecution": "command",
    "afterShellExecution": "command",
    "beforeMCPExecution": None,
    "afterMCPExecution": None,
    "beforeReadFile": None,
    "afterFileEdit": None,
    "beforeAgentResponse": None,
    "afterAgentResponse": None,
    "afterAgentThought": None,
    "beforeTabFileRead": None,
    "afterTabFileEdit": None,
    "workspaceOpen": None,
    "afterError": None,
    "beforeToolSelection": None,
    "worktreeCreate": None,
    "worktreeRemove": None,
    "messageDisplay": None,
    "todoCreated": None,
    "todoCompleted": None,
    "stopFailure": "error",
    "stopCancelled": None,
    "instructionsLoaded": "load_reason",
    "userPromptExpansion": "command_name",
    "postToolBatch": None,
    "taskCreated": None,
    "taskCompleted": None,
    "teammateIdle": None,
    "configChange": "source",
    "cwdChanged": None,
    "fileChanged": "file_path",
    "directoryAdded": None,
    "elicitation": "mcp_server_name",
    "elicitationResult": "mcp_server_name",
    "contextOffload": None,
    "sessionDelete": None,
}

# Each tool's block (`claudecode`, `cursor`...) -> the host agenthooks answers for it, where it
# has one. `copilotcli` falls back to `copilot`, which rulesync writes for the VS Code
# extension too (file-formats.md, "copilotcli.hooks falls back to copilot.hooks").
TARGETS: dict[str, str] = {
    "claudecode": "claude",
    "cursor": "cursor",
    "copilotcli": "copilot",
    "codexcli": "codex",
    "antigravity-cli": HOOKS_JSON_DIALECT,
}
FALLBACK: dict[str, str] = {"copilotcli": "copilot"}
# The blocks rulesync's schema has (`HooksConfigSchema`), for the tools agenthooks does not
# answer: read, listed, never run.
OTHER_TOOLS = frozenset((
    "copilot", "opencode", "kilo", "pi", "amp", "factorydroid", "goose", "deepagents", "kiro",
    "kiro-cli", "kiro-ide", "devin", "augmentcode", "antigravity-ide", "hermesagent", "junie",
    "vibe", "reasonix", "grokcli", "kimi-code", "qwencode"))
VERSION = 1
FILE = ".rulesync/hooks.jsonc"
LEGACY_FILE = ".rulesync/hooks.json"

_SHARED = ("type", "timeout", "matcher", "name", "description", "enabled", "statusMessage",
           "once", "if", "failClosed", "loop_limit", "cacheTtl", "commandRegex",
           "sequential", "metadata")
_COMMAND = ("command", "args", "async", "asyncRewake", "shell", "env", "commandWindows",
            "additionalContextLimit", "continueOnBlock")

RULESYNC = Dialect(
    name="rulesync",
    host="rulesync",
    events=EVENTS,
    exact_events=frozenset(),
    types={
        "command": HandlerType("command", ("command",), (*_SHARED, *_COMMAND), True),
        "prompt": HandlerType("prompt", ("prompt",), (*_SHARED, "prompt", "model"), False),
        "agent": HandlerType("prompt", ("prompt",), (*_SHARED, "prompt", "model"), False),
        "http": HandlerType("url", ("url",), (*_SHARED, "url", "headers", "allowedEnvVars"),
                            False),
        "mcp_tool": HandlerType(None, ("server", "tool"), (*_SHARED, "server", "tool", "input"),
                                False),
        "function": HandlerType(None, (), (*_SHARED, "command"), False),
    },
    group_keys=(),
    settings_keys=("version",),
    timeout_unit=1.0,
    # rulesync sets none: each tool's own default applies. agenthooks gives 60 s, Cursor's and
    # Gemini CLI's; `timeout` says otherwise.
    default_timeout=60.0,
    timeout_by_event={},
    project_var="CLAUDE_PROJECT_DIR",
    option_types={"matcher": "string", "failClosed": "boolean", "enabled": "boolean",
                  "args": "strings", "async": "boolean", "asyncRewake": "boolean",
                  "shell": "string", "env": "string-map", "if": "string",
                  "statusMessage": "string", "headers": "object", "allowedEnvVars": "strings",
                  "model": "string", "name": "string", "description": "string",
                  "sequential": "boolean", "once": "boolean"},
    shell_key="shell",
    exec_key="args",
    background_key="async",
    condition_key="if",
    comments=True,
    reader="agenthooks.sources.dialects.rulesync_check:read",
    parser="agenthooks.sources.dialects.rulesync_check:parse",
    path_variables=("CLAUDE_PROJECT_DIR",),
    own_vars="agenthooks.sources.dialects.rulesync_check:handler_variables",
    schema={
        "file": "rulesync-hooks.schema.json", "what": "rulesync `.rulesync/hooks.jsonc`",
        "title": "rulesync hooks.jsonc",
        "description": "rulesync's canonical hooks file (.rulesync/hooks.jsonc, JSON with "
                       'comments and trailing commas): {"version": 1, "hooks": {"<event>": '
                       '[definition, ...]}, "<tool>": {"hooks": {...}}}; `rulesync generate` '
                       "writes each tool's own hooks file from it.",
        "build": "rulesync", "default_type": "command",
    },
    convert={
        "unrun_types": frozenset(("function",)),
        # rulesync sets none; agenthooks gives a rulesync handler every host's, and rulesync
        # writes `$CLAUDE_PROJECT_DIR/` before a relative script for Claude Code itself.
        "project_dirs": ("CLAUDE_PROJECT_DIR",),
        "root_relative": True,
        # As into Claude Code's files: the fields of its definitions written for the hosts of
        # Claude Code's lineage come by `types`.
        "foreign_options": (("model", ("prompt",)),),
        "flat_version": VERSION,
    },
)
