"""OpenAI Codex's hooks, as data (developers.openai.com/codex/hooks; openai/codex
`codex-rs/config/src/hooks.rs`, `codex-rs/hooks/src/engine/discovery.rs`,
`codex-rs/hooks/src/events/common.rs`).

Files: every active config layer has hooks next to it, as `hooks.json` and/or inline `[hooks]`
tables of its `config.toml`: the user's `$CODEX_HOME` (default `~/.codex`), each project
`.codex/` folder (read only in a project Codex trusts), managed requirements, plugins. All of
them load, and every matching hook runs, concurrently. A hooks.json is
`{"hooks": {"<Event>": [{"matcher": ..., "hooks": [handler, ...]}]}}`; any other top-level key
rejects the whole file (`HooksFile` is `deny_unknown_fields`), while an unknown event name is
skipped without a word (the event table is a struct with defaults). A handler is
`{"type": "command", "command", "commandWindows", "timeout" (seconds, default 600), "async",
"statusMessage"}`; `prompt` and `agent` handlers parse and are skipped with a warning. A
non-managed hook runs only when its hash is trusted in the user's config.toml
(`sources.dialects.codex_trust`). `sources.dialects.codex_check` walks a file.
"""

from __future__ import annotations

from agenthooks.sources.dialects.matching import ALL, Selection, regex_error
from agenthooks.sources.dialects.spec import Dialect, HandlerType

# event -> what its matcher is matched against; None where Codex drops the matcher
# (`matcher_pattern_for_event`: UserPromptSubmit, Stop, Interrupt).
EVENTS: dict[str, str | None] = {
    "SessionStart": "source",  # startup, resume, clear, compact
    "SessionEnd": "reason",  # [unverified: the field is not documented]
    "UserPromptSubmit": None,
    "PreToolUse": "tool_name",
    "PermissionRequest": "tool_name",
    "PostToolUse": "tool_name",
    "PreCompact": "trigger",  # manual, auto
    "PostCompact": "trigger",
    "SubagentStart": "agent_type",
    "SubagentStop": "agent_type",
    "Stop": None,
    "Interrupt": None,
}
TOP_KEYS = ("hooks",)
# Other names a tool event's matcher also selects a tool by (`HookToolName::apply_patch`,
# `spawn_agent`): Claude Code's words for Codex's own tools.
MATCHER_ALIASES: dict[str, tuple[str, ...]] = {"apply_patch": ("Write", "Edit"),
                                               "spawn_agent": ("Agent",)}
TOOL_EVENTS = frozenset(("PreToolUse", "PermissionRequest", "PostToolUse"))
# Events whose hooks Codex stops after a few seconds whatever their timeout (shutdown-bounded:
# `CommandExecutionPolicy::ShutdownBounded`, 3 s per third-party reading) [unverified value].
SHUTDOWN_EVENTS = frozenset(("SessionEnd", "Interrupt"))

_COMMAND_KEYS = ("type", "command", "commandWindows", "command_windows", "timeout", "async",
                 "statusMessage")

CODEX = Dialect(
    name="codex",
    host="Codex",
    events=EVENTS,
    exact_events=frozenset(),
    types={
        "command": HandlerType("command", ("command",), _COMMAND_KEYS, True),
        # Parsed, then skipped by Codex ("prompt hooks are not supported yet").
        "prompt": HandlerType(None, (), ("type", "prompt", "model", "timeout",
                                         "statusMessage"), False),
        "agent": HandlerType(None, (), ("type", "prompt", "model", "timeout",
                                        "statusMessage"), False),
    },
    group_keys=("matcher", "hooks"),
    settings_keys=(),
    timeout_unit=1.0,
    default_timeout=600.0,
    timeout_by_event={},
    # Codex sets no project variable for hooks; it runs them in the session's directory.
    project_var="CODEX_PROJECT_DIR",
    option_types={"async": "boolean", "statusMessage": "string", "commandWindows": "string",
                  "command_windows": "string"},
    background_key="async",
    whole_file=True,
    reader="agenthooks.sources.dialects.codex_check:read",
    parser="agenthooks.sources.dialects.codex_toml:parse",
    matcher_aliases=tuple(name for names in MATCHER_ALIASES.values() for name in names),
    schema={
        "file": "codex-hooks.schema.json", "what": "Codex hooks.json",
        "title": "Codex hooks.json",
        "description": "A Codex hooks.json (.codex/hooks.json, ~/.codex/hooks.json): "
                       '{"hooks": {"<Event>": [matcher group, ...]}}. Any other top-level key, '
                       "or a value of the wrong type, makes Codex reject the whole file. The "
                       "[hooks] tables of config.toml take the same shape; this schema covers "
                       "hooks.json only.",
        "build": "codex",
        # `CodexChecker.dialect_handler` parses these and checks nothing else.
        "unchecked": ("prompt", "agent"),
        "whole_seconds": True,  # `CodexChecker.timeout`: a u64; 0 counts as 1 s
    },
    convert={
        "unrun_types": frozenset(("prompt", "agent")),
        # Codex sets PLUGIN_ROOT (and CLAUDE_PLUGIN_ROOT) for a plugin's hooks (discovery.rs).
        "plugin_root": "PLUGIN_ROOT",
        "dash_is_regex": True,  # `exact_names`
    },
)


def exact_names(matcher: str) -> bool:
    """Codex reads a matcher of ASCII letters, digits, `_` and `|` alone as exact names
    (`is_exact_matcher`): a `-`, a space or a dot makes it a regex."""
    return all(char.isascii() and (char.isalnum() or char in "_|") for char in matcher)


def selection(matcher: str | None, event: str) -> Selection:
    """What a Codex matcher selects (`matches_matcher`): everything when absent, empty or `*`,
    or on an event that drops matchers; exact names for a plain `A|B` list; else a Rust regex
    searched anywhere in the value (Python's `re` agrees on the patterns matchers use). A
    regex that does not compile skips its group (`invalid matcher` warning)."""
    if matcher in (None, "", "*") or EVENTS.get(event) is None:
        return ALL
    assert matcher is not None
    if exact_names(matcher):
        names = tuple(matcher.split("|"))
        if event in TOOL_EVENTS:  # `Edit` selects apply_patch too (its matcher aliases)
            names += tuple(tool for tool, aliases in MATCHER_ALIASES.items()
                           if tool not in names and set(aliases) & set(names))
        return Selection("names", names)
    if regex_error(matcher) is not None:
        return Selection("never", pattern=matcher)
    return Selection("search", pattern=matcher)
