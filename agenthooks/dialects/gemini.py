"""Gemini CLI's hooks, as data (`packages/core/src/hooks/` and `docs/hooks/` of gemini-cli).

Settings files: `~/.gemini/settings.json`, `<root>/.gemini/settings.json` (JSON with
comments); an extension's `hooks/hooks.json`. Only `hooks` and `hooksConfig` are read.
"""

from __future__ import annotations

from agenthooks.dialects.spec import Dialect, HandlerType

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
    option_types={"name": "string", "description": "string", "env": "string-map"},
)

# hooksConfig keys and their types.
HOOKS_CONFIG: dict[str, str] = {"enabled": "boolean", "disabled": "strings",
                                "notifications": "boolean"}
