"""Grok Build's hooks (`model.hosts`: a host derived from Claude Code, whose settings shape and
event names it reads): what differs is read here.

Each fact read in xai-org/grok-build@19d42e3 (paths under `crates/codegen/`):

    files       every `*.json` directly in `$GROK_HOME/hooks/` (`~/.grok/hooks/` by default) and
                in a project's `.grok/hooks/`, sorted by name, a name starting with `.` or ending
                in `~`, `.swp` or `.swo` skipped; the project is the git root (no project files
                outside a repository), and its files run only in a folder the user trusts
                (`xai-grok-shell/src/util/hooks.rs`, `xai-grok-config/src/global_hook_sources.rs`).
                It also reads Claude Code's settings and Cursor's hooks.json itself
                (`HostRow.runs_files_of`). A file is `{"hooks": {"<event>": [group...]}}`; one
                without `hooks` loads nothing, without a word (`xai-grok-hooks/src/config.rs`
                `parse_hook_file`).
    events      fifteen (`xai-grok-hooks/src/event.rs` `hook_events!`), each under its
                PascalCase, snake_case and camelCase keys, Cursor's per-operation words read as
                PreToolUse, PostToolUse, UserPromptSubmit and Stop (`EVENT_ALIASES`); an
                unknown key is skipped with a log line alone
    handlers    `type` "command" (`command`) or "http" (`url`), `timeout` in whole seconds (5 by
                default, 600 on Stop and SubagentStop), `env`; any other type drops the handler,
                and a value of the wrong JSON type drops the whole file (`config.rs`
                `RawHandler`, `build_one_spec`, `HooksMap::from_value`)
    matchers    absent, "" or "*" select everything; one of only ASCII letters, digits, `_` and
                `|` is a list of exact names, each with the Grok tools a Claude Code name stands
                for (`Bash` is `run_terminal_command`); anything else a regex searched in the
                value and in the Claude Code names of a Grok tool; a regex that does not compile
                drops the group; on UserPromptSubmit and Stop a matcher is ignored
                (`xai-grok-hooks/src/matcher.rs`, `xai-grok-tools/src/types/claude_alias.rs`)
    answers     its own (`kinds.protocols.grok`)
"""

from __future__ import annotations

from agenthooks.model.events import snake_case
from agenthooks.sources.dialects.matching import ALL, Selection, regex_error

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

    from agenthooks.model.handlers import Handler

# Each event's keys besides its own word (`hook_events!`'s aliases; SubagentEnd is its old
# name of SubagentStop).
_CAMEL = ("SessionStart", "PreToolUse", "PostToolUse", "PostToolUseFailure",
          "PermissionDenied", "StopFailure", "StopCancelled", "SubagentStart", "SubagentStop",
          "PreCompact", "PostCompact", "SessionEnd")
_SNAKE = (*_CAMEL, "UserPromptSubmit", "Stop", "Notification")


EVENT_ALIASES: Mapping[str, str] = {
    **{snake_case(word): word for word in _SNAKE},
    **{word[0].lower() + word[1:]: word for word in _CAMEL},
    "beforeSubmitPrompt": "UserPromptSubmit",
    **dict.fromkeys(("beforeShellExecution", "beforeMCPExecution", "beforeReadFile"),
                    "PreToolUse"),
    **dict.fromkeys(("afterShellExecution", "afterMCPExecution", "afterFileEdit",
                     "afterAgentResponse", "afterAgentThought"), "PostToolUse"),
    "SubagentEnd": "SubagentStop", "subagent_end": "SubagentStop",
    "subagentEnd": "SubagentStop",
}


def event_key(key: str) -> str:
    """The event Grok Build reads a `hooks` key as (`Dialect.event_key`)."""
    return EVENT_ALIASES.get(key, key)

# The Grok tools each Claude Code tool name stands for in a matcher (`CLAUDE_TOOLS`).
CLAUDE_NAMES: Mapping[str, tuple[str, ...]] = {
    "Read": ("read_file", "hashline_read"),
    "Write": ("write", "search_replace", "hashline_edit"),
    "Edit": ("search_replace", "hashline_edit"),
    "MultiEdit": ("search_replace", "hashline_edit"),
    "NotebookEdit": ("search_replace", "hashline_edit"),
    "Bash": ("run_terminal_command",),
    "Grep": ("grep", "hashline_grep"),
    "Glob": ("list_dir",),
    "LSP": ("lsp",),
    "WebSearch": ("web_search",),
    "WebFetch": ("web_fetch",),
    "TodoWrite": ("todo_write",),
    "AskUserQuestion": ("ask_user_question",),
    "TaskOutput": ("get_command_or_subagent_output", "get_terminal_command_output"),
    "BashOutput": ("get_command_or_subagent_output", "get_terminal_command_output"),
    "BashOutputTool": ("get_command_or_subagent_output", "get_terminal_command_output"),
    "AgentOutputTool": ("get_command_or_subagent_output", "get_terminal_command_output"),
    "TaskStop": ("kill_command_or_subagent", "kill_terminal_command"),
    "KillShell": ("kill_command_or_subagent", "kill_terminal_command"),
    "KillBash": ("kill_command_or_subagent", "kill_terminal_command"),
    "Skill": ("skill",),
    "ToolSearch": ("search_tool",),
    "Agent": ("spawn_subagent",),
    "Task": ("spawn_subagent",),
    "EnterPlanMode": ("enter_plan_mode",),
    "ExitPlanMode": ("exit_plan_mode",),
    "CronCreate": ("scheduler_create",),
    "CronDelete": ("scheduler_delete",),
    "CronList": ("scheduler_list",),
    "ListMcpResourcesTool": ("ListMcpResources",),
}
# Events whose matcher it ignores (`MatcherPolicy::Ignored`): every group runs.
IGNORES_MATCHER = frozenset(("UserPromptSubmit", "Stop"))
_SIMPLE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_|")


def exact_names(matcher: str) -> tuple[str, ...]:
    """A simple matcher's names: each term and the Grok tools it stands for, once each."""
    names: list[str] = []
    for term in matcher.split("|"):
        for name in (term, *CLAUDE_NAMES.get(term, ())):
            if name and name not in names:
                names.append(name)
    return tuple(names)


def selection(matcher: str | None, event: str) -> Selection:
    """What a Grok Build matcher selects on an event (`HookMatcher::new`, `is_match`)."""
    if matcher is None or matcher in ("", "*") or event in IGNORES_MATCHER:
        return ALL
    if all(char in _SIMPLE for char in matcher):
        return Selection("names", exact_names(matcher))
    if regex_error(matcher, True) is not None:
        return Selection("never", pattern=matcher)
    # A Grok tool is also matched by its Claude Code names: the tools only those select are
    # added as exact names beside the search.
    import re

    pattern = re.compile(matcher)
    by_alias = sorted({grok for claude, groks in CLAUDE_NAMES.items() if pattern.search(claude)
                       for grok in groks if not pattern.search(grok)})
    if not by_alias:
        return Selection("search", pattern=matcher, python=True)
    listed = "|".join(re.escape(name) for name in by_alias)
    return Selection("search", pattern=f"(?:{matcher})|^(?:{listed})$", python=True)


# The variables it sets itself, which a handler's `env` cannot change (`config.rs`
# `RUNNER_ALWAYS_SET_ENV`).
RESERVED_VARS = frozenset(("GROK_HOOK_EVENT", "GROK_HOOK_NAME", "GROK_SESSION_ID",
                           "GROK_WORKSPACE_ROOT", "CLAUDE_PROJECT_DIR"))


def handler_variables(handler: Handler) -> dict[str, str]:
    """The variables a Grok handler's `env` sets, as written (Grok expands variables in
    `command` and `url` alone), but those it sets itself."""
    pairs = dict(handler.options).get("env")
    if not isinstance(pairs, tuple):
        return {}
    return {str(key): str(value) for key, value in pairs if key not in RESERVED_VARS}
