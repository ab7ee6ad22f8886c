"""Gemini CLI's hooks, as data (`packages/core/src/hooks/` and `docs/hooks/` of gemini-cli).

Settings files: `~/.gemini/settings.json`, `<root>/.gemini/settings.json` (JSON with
comments); an extension's `hooks/hooks.json`. Only `hooks` and `hooksConfig` are read.
"""

from __future__ import annotations

import os

from agenthooks.sources.dialects.spec import Dialect, HandlerType

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

    from agenthooks.model.handlers import Handler
    from agenthooks.sources.dialects.matching import Selection

# event -> what its matcher is matched against. The planner passes a tool name on the tool
# events and a trigger on three lifecycle events; on every other event it has no context,
# so any matcher matches (hookPlanner.ts `matchesContext`).
EVENTS: dict[str, str | None] = {
    "BeforeTool": "tool_name",
    "AfterTool": "tool_name",
    "BeforeAgent": None,
    "AfterAgent": None,
    "BeforeModel": None,
    "AfterModel": None,
    "BeforeToolSelection": None,
    "SessionStart": "source",
    "SessionEnd": "reason",
    "PreCompress": "trigger",
    "Notification": None,
}

# Keys of `hooks` that are settings, not events (types.ts HOOKS_CONFIG_FIELDS): the registry
# skips them; they belong in `hooksConfig`.
LEGACY_CONFIG_KEYS = ("enabled", "disabled", "notifications")

GEMINI = Dialect(
    name="gemini",
    host="Gemini CLI",
    events=EVENTS,
    exact_events=frozenset(("SessionStart", "SessionEnd", "PreCompress")),
    types={
        "command": HandlerType(
            "command", ("command",),
            ("type", "command", "name", "description", "timeout", "env"), True,
        ),
        # An extension's in-process plugin, and hooks registered by code: both need the host.
        "plugin": HandlerType(None, (), ("type", "name", "description", "timeout"), False),
        "runtime": HandlerType(None, ("name",), ("type", "name", "description", "timeout"),
                               False),
    },
    group_keys=("matcher", "sequential", "hooks"),
    settings_keys=("hooksConfig",),
    timeout_unit=0.001,
    default_timeout=60.0,
    timeout_by_event={},
    project_var="GEMINI_PROJECT_DIR",
    chain="gemini",
    dedup_by_name=True,
    comments=True,
    option_types={"name": "string", "description": "string", "env": "string-map"},
    settings_switch="hooksConfig",
    matchers="regex-or-text",
    known_tools=("run_shell_command", "read_file", "read_many_files", "write_file", "replace",
                 "glob", "grep_search", "list_directory", "web_fetch", "google_web_search"),
    timeout_limit=2_147_483_647,  # a 32-bit integer of milliseconds
    # Gemini's registry skips its legacy settings keys (types.ts HOOKS_CONFIG_FIELDS).
    ignored_events=frozenset(LEGACY_CONFIG_KEYS),
    path_variables=("GEMINI_PROJECT_DIR", "CLAUDE_PROJECT_DIR", "extensionPath"),
    call_vars=(("GEMINI_SESSION_ID", "session_id"), ("GEMINI_CWD", "cwd")),
    own_vars="agenthooks.sources.dialects.gemini:handler_variables",
    # An extension's hooks: Gemini CLI writes its folder for `${extensionPath}` in the file
    # (`recursivelyHydrateStrings`); agenthooks sets `extensionPath` for the shell, which
    # gives the same outside single quotes. Gemini CLI names no data folder.
    plugin_vars=("extensionPath", ""),
    schema={
        "file": "gemini-settings.schema.json", "what": "Gemini CLI settings (`hooks`)",
        "title": "Gemini CLI settings: hooks",
        "description": "The hooks of a Gemini CLI settings file (.gemini/settings.json, "
                       "~/.gemini/settings.json) or of an extension's hooks/hooks.json, as "
                       "agenthooks reads them; the file's other settings are let through.",
        "build": "gemini", "exact": " as exact text",
    },
    convert={
        # Gemini CLI sets Claude Code's project-dir variable too, and writes both into the
        # command text before the shell runs it.
        "project_dirs": ("GEMINI_PROJECT_DIR", "CLAUDE_PROJECT_DIR"),
        "substitutes_root": True,
        "plugin_root": "extensionPath",
        "foreign_options": (("description", None),),
        "label_key": "name",
        "handler_switch": True,  # hooksConfig.disabled, by name or command
        "exact_text": True,
    },
)

# hooksConfig keys and their types.
HOOKS_CONFIG: dict[str, str] = {"enabled": "boolean", "disabled": "strings",
                                "notifications": "boolean"}


# --- A command handler's `env` ---------------------------------------------------------------
#
# hookRunner.ts `executeCommandHook` spawns each command with
#     {...sanitizeEnvironment(process.env), GEMINI_PROJECT_DIR, GEMINI_PLANS_DIR, GEMINI_CWD,
#      GEMINI_SESSION_ID, CLAUDE_PROJECT_DIR, ...hookConfig.env}
# so a handler's own `env` is set last, over every variable the host sets. Its values were
# expanded when the file was read: a settings file's strings by `resolveEnvVarsInObject`
# (packages/cli/src/config/settings.ts, utils/envVarResolver.ts: `$NAME`, `${NAME}`,
# `${NAME:-default}` from the environment; a variable that is unset and has no default stays
# as written), an extension's `hooks/hooks.json` by `recursivelyHydrateStrings`
# (config/extension-manager.ts `loadExtensionHooks`, config/extensions/variables.ts: only
# `${key}` of extensionPath, workspacePath, `/` and pathSeparator; anything else stays).

ENV_KEY = "env"
# Patterns for `re`, which loads only for a value that holds a `$`.
_SETTINGS_VARIABLE = r"\$(?:([A-Za-z0-9_]+)|\{([^}]+?)(?::-([^}]*))?\})"
_EXTENSION_VARIABLE = r"\$\{(.*?)\}"


def handler_variables(handler: Handler) -> dict[str, str]:
    """The variables a Gemini CLI command handler's `env` sets, expanded as Gemini CLI
    expands them when it reads the file they come from."""
    pairs = dict(handler.options).get(ENV_KEY)
    if not isinstance(pairs, tuple) or not pairs:
        return {}
    source = handler.source
    if source.plugin_root is not None:
        context = {"extensionPath": source.plugin_root, "workspacePath": source.workspace,
                   "/": os.sep, "pathSeparator": os.sep}
        return {str(k): hydrate(str(v), context) for k, v in pairs}
    return {str(k): expand_settings_value(str(v), os.environ) for k, v in pairs}


def expand_settings_value(value: str, environ: Mapping[str, str]) -> str:
    """`resolveEnvVarsInString`: `$NAME`, `${NAME}`, `${NAME:-default}`; a set variable wins
    even when empty (JavaScript's `typeof val === 'string'`), then the default, else the text
    stays as written."""
    if "$" not in value:
        return value
    import re

    def one(found: re.Match[str]) -> str:
        name = found.group(1) or found.group(2) or ""
        if name in environ:
            return environ[name]
        default = found.group(3)
        return default if default is not None else found.group(0)

    return re.sub(_SETTINGS_VARIABLE, one, value)


def hydrate(value: str, context: Mapping[str, str]) -> str:
    """`hydrateString`: `${key}` of the context, anything else left as written."""
    if "$" not in value:
        return value
    import re

    return re.sub(_EXTENSION_VARIABLE, lambda m: context.get(m.group(1), m.group(0)), value)


def selection(matcher: str | None, event: str) -> Selection:
    """What a Gemini CLI matcher selects on an event."""
    # Its matchers' tables load only when a matcher of its files is read.
    from agenthooks.sources.dialects.matching import ALL, Selection, regex_error

    field = GEMINI.events.get(event)
    text = (matcher or "").strip()
    if field is None or text in ("", "*"):
        return ALL
    if event in GEMINI.exact_events or regex_error(text) is not None:
        return Selection("names", (text,))
    return Selection("search", pattern=text)
