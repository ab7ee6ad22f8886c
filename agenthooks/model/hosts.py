"""The hosts agenthooks knows, as data: one row per host, naming the modules that are that host.

A host is its modules (`hosts/<id>/` writes its answer and reads its handlers' processes; for
a host with hook files of its own, `sources/dialects/<id>.py` says what its files are) and its words
in the shared tables (`model.events`, `model.tools`, `sources.payloads.SHAPES`). Every other
list of hosts is derived from `HOST_TABLE`: the writers (`hosts.writers.WRITERS`), the
protocols (`kinds.process.PROTOCOLS`), the dialects (`sources.dialects.check.DIALECT_SPECS`), the
matcher semantics (`sources.dialects.matching`), the files discovery looks for
(`sources.discovery.DIALECT_FILES`), and the choices of `--host` and `--dialect`. Modules are
named as "module:attribute" strings and imported only when used, so that a run imports no
host it does not answer or read.

A test (`tests/test_seams.py`) adds a host by rows alone and runs it through every command.
"""

from __future__ import annotations

from agenthooks._lean.records import NamedTuple

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any


class HostRow(NamedTuple):
    """One host: its word, its names, and the modules that read and write it."""

    id: str  # the word of `--host`, `--dialect` and every table's key
    name: str  # how messages name it ("Claude Code")
    title: str  # the docs tables' column heading
    # Its modules, each named by the word of the host whose module it is (itself, or the host
    # it answers or matches as), which the layer that uses it finds among its own
    # (`implementation`), so that this table names no module above it; a host from outside
    # the package names a "module:attribute" instead:
    #   writer     `hosts/<id>/render.py`'s `write`, its answer (`hosts.writers.HostAnswer`);
    #   protocol   `kinds/protocols/<id>.py`'s `answer`, reading one finished handler process;
    #   selection  `sources/dialects/<id>.py`'s `selection`, what one of its matchers selects;
    #   dialect    `sources/dialects/<id>.py`'s `<ID>`, its files' `Dialect` (a module of data,
    #              which the table of dialects loads while `sources.dialects.check` loads: it
    #              must not import that); None: hooks.json.
    # The "module:function" values of a derived host's `dialect_changes` (`reader`...) are
    # named within `sources/dialects/` alike (`grok_check:read`).
    writer: str
    protocol: str
    selection: str
    dialect: str | None = None
    # Its files under a project root and under the home directory, in the order it reads
    # them (relative paths; a `*` is one file name, as `.github/hooks/*.json`).
    project_files: tuple[str, ...] = ()
    user_files: tuple[str, ...] = ()
    # Machine-wide files (enterprise, MDM), absolute, read before the user's.
    system_files: tuple[str, ...] = ()
    # Whether the handlers of its user and system files run in the file's own folder
    # (Cursor: `~/.cursor/`) rather than in the project root.
    own_folder: bool = False
    # Files written for no one host: every host's run includes them (hooks.json).
    neutral: bool = False
    # The variable the host sets to the project root for its hooks (CLAUDE_PROJECT_DIR);
    # agenthooks sets every host's for every handler, so hooks written for it run unchanged.
    project_var: str | None = None
    # (variable, folder): the host's user folder under home (".codex") moves to the
    # variable's value when it is set ($CODEX_HOME), and its user files with it.
    user_folder_env: tuple[str, str] | None = None
    # (dialect, a function of its protocol's module): how it reads another host's handlers in
    # its own files,
    # where its rules are not that host's (a Copilot file's PascalCase hooks are Claude Code
    # handlers that Copilot reads with its own answers and exit codes too).
    guest_protocols: tuple[tuple[str, str], ...] = ()
    # (host, project files, user files): another host's files that it reads and runs itself,
    # so that agenthooks under it leaves them to it (as it leaves it its own), relative to
    # the project root and to the home directory.
    runs_files_of: tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...] = ()
    # Whether it reads a hook's output until the pipes close (a child the hook left running
    # still writing to them delays the answer, within the timeout) rather than when the hook
    # exits: what agenthooks does for its handlers (`ProcessSpec.until_closed`).
    reads_until_closed: bool = False
    # Whether its answers rank Claude Code's `defer` (deny > defer > ask > allow) rather than
    # take it for no opinion (`combine.merge`).
    ranks_defer: bool = False
    # The host it copies (`derive`): every fact this row does not state is that host's, its
    # event words and tool names included, so that it states only its differences.
    derived_from: str | None = None
    # Where its words differ from the host it is derived from: canonical event id (`tool.pre`)
    # -> its word, None where it has no such event; canonical tool id (`shell`) -> its names,
    # () where it has no such tool.
    # An id no event row has (`qwen.MessageDisplay`) adds an event of that host alone.
    event_words: Mapping[str, str | None] = {}
    tool_names: Mapping[str, tuple[str, ...]] = {}
    # Where it spells a tool's arguments otherwise: canonical tool id -> {canonical argument:
    # its key} (Augment's `view` reads `path` where Claude Code's Read reads `file_path`).
    tool_args: Mapping[str, Mapping[str, str]] = {}
    # The fields of the parent's `Dialect` it changes (`default_timeout`, `types`...); under
    # "events", the matcher field of each event it has and its parent has not (None: the
    # event ignores matchers).
    dialect_changes: Mapping[str, Any] = {}
    # Words of a host that names its tool events after the kind of tool (Windsurf's
    # `pre_run_command`, `pre_read_code`): word -> (the event row's id, the canonical tools it
    # fires for, the first being what its payload's tool is read as). Its payload names no
    # tool: the word does (`sources.payloads.tool_call`).
    tool_events: Mapping[str, tuple[str, tuple[str, ...]]] = {}
    # (file name, the file beside it that its host reads instead when present): Factory
    # Droid's settings.json and hooks.json. The shadowed file's hooks never run then, and a
    # cached reading of it holds only while that presence is unchanged (`sources.dialects.load`).
    shadowed_by: tuple[tuple[str, str], ...] = ()
    # A tool that runs no hook itself but writes each host's own files from its own
    # (rulesync): never a caller (`--host`); its files run offline, under a host with
    # --other-hosts (that host already runs what the tool wrote for it), or named.
    generator: bool = False
    # Whether it runs the hooks of its project files: JetBrains Junie reads a project's
    # .junie/config.json for other settings and runs none of its hooks, so `validate` lists
    # them as never run and `init` writes none there.
    project_hooks_run: bool = True
    # The file at a plugin's root that makes its `hooks/hooks.json` this host's (a Claude Code
    # plugin's `.claude-plugin/plugin.json`), relative to that root; None: it has no plugins
    # of its own shape.
    plugin_manifest: str | None = None



# A hooks.json file's dialect: Antigravity's format, which every host's run reads (the first
# row). Code that reads hooks.json apart from a host's own files says so by this name.
HOOKS_JSON_DIALECT = "antigravity"
# The host whose payload shape most hosts share (a flat `tool_name` and `tool_input`): an event
# that names no host's tool is written in its words (the AHP backend's).
COMMON_SHAPE = "claude"

HOST_TABLE: tuple[HostRow, ...] = (
    HostRow(HOOKS_JSON_DIALECT, "Antigravity", "hooks.json (Antigravity)",
            HOOKS_JSON_DIALECT, HOOKS_JSON_DIALECT,
            HOOKS_JSON_DIALECT, neutral=True),
    HostRow("claude", "Claude Code", "Claude Code",
            "claude",
            "claude",
            "claude", "claude",
            (".claude/settings.json", ".claude/settings.local.json"),
            (".claude/settings.json",), project_var="CLAUDE_PROJECT_DIR",
            plugin_manifest=".claude-plugin/plugin.json",
            # measured with Claude Code 2.1.331: a Stop hook's forked child's late answer
            # is read.
            reads_until_closed=True, ranks_defer=True),
    HostRow("gemini", "Gemini CLI", "Gemini CLI",
            "gemini",
            "gemini",
            "gemini", "gemini",
            (".gemini/settings.json",), (".gemini/settings.json",),
            # hookRunner answers on the child's `close`: a grandchild holding the pipe delays it
            project_var="GEMINI_PROJECT_DIR", reads_until_closed=True,
            plugin_manifest="gemini-extension.json"),
    # cursor.com/docs/hooks, "Configuration" (mirror mehmetbaykar/cursor-docs-skill@1cc1c99).
    HostRow("cursor", "Cursor", "Cursor",
            "cursor",
            "cursor",
            "cursor",
            "cursor",
            (".cursor/hooks.json",), (".cursor/hooks.json",),
            ("/etc/cursor/hooks.json", "/Library/Application Support/Cursor/hooks.json",
             "C:\\ProgramData\\Cursor\\hooks.json"), own_folder=True,
            project_var="CURSOR_PROJECT_DIR", plugin_manifest=".cursor-plugin/plugin.json",
            # cursor.com/docs/reference/third-party-hooks: with "Include third-party Plugins,
            # Skills, and other configs" on, Claude Code's project and user settings too.
            runs_files_of=(("claude", (".claude/settings.local.json", ".claude/settings.json"),
                            (".claude/settings.json",)),)),
    # developers.openai.com/codex/hooks, "Where Codex looks for hooks": hooks.json and the
    # inline [hooks] tables of config.toml, per layer (the user's folder is $CODEX_HOME when
    # set).
    HostRow("codex", "Codex", "Codex",
            "codex",
            "codex",
            "codex",
            "codex",
            (".codex/hooks.json", ".codex/config.toml"),
            (".codex/hooks.json", ".codex/config.toml"),
            user_folder_env=("CODEX_HOME", ".codex"),
            # hooks/src/engine/command_runner.rs: tokio's `wait_with_output`, within the timeout
            reads_until_closed=True),
    # github/docs@05da5bc content/copilot/reference/hooks-reference.md, "Hooks locations"
    # (the user folder moves with $COPILOT_HOME).
    HostRow("copilot", "GitHub Copilot CLI", "Copilot CLI",
            "copilot",
            "copilot",
            "copilot",
            "copilot",
            (".github/hooks/*.json",), (".copilot/hooks/*.json",),
            ("/etc/github-copilot/policy.d/*.json",),
            user_folder_env=("COPILOT_HOME", ".copilot"),
            # measured with copilot 1.0.102: the repository root
            project_var="COPILOT_PROJECT_DIR",
            guest_protocols=(("claude", "claude_answer"),),
            # hooks-reference.md, "Hooks locations": "Cross-tool `.claude/settings.json` and
            # `.claude/settings.local.json` files in the repository are also read."
            runs_files_of=(("claude", (".claude/settings.json", ".claude/settings.local.json"),
                            ()),)),
    # docs.windsurf.com/windsurf/cascade/hooks, "Configuration": system, user and workspace
    # files, all merged. Its tool events are one per kind of tool, with no matcher.
    HostRow("windsurf", "Windsurf", "Windsurf",
            "windsurf",
            "windsurf",
            "windsurf",
            "windsurf",
            (".windsurf/hooks.json",), (".codeium/windsurf/hooks.json",),
            ("/etc/windsurf/hooks.json", "/Library/Application Support/Windsurf/hooks.json",
             "C:\\ProgramData\\Windsurf\\hooks.json"),
            tool_events={
                "pre_run_command": ("tool.pre", ("shell",)),
                "post_run_command": ("tool.post", ("shell",)),
                "pre_read_code": ("tool.pre", ("read",)),
                "post_read_code": ("tool.post", ("read",)),
                "pre_write_code": ("tool.pre", ("write", "edit", "multi-edit")),
                "post_write_code": ("tool.post", ("write", "edit", "multi-edit")),
            }),
)


def derive(parent: HostRow, id: str, name: str, title: str | None = None,
           **differences: Any) -> HostRow:
    """A host that copies another (Qwen Code is Claude Code's hooks in `.qwen/`): the parent's
    row with its own word, name and `differences`; its files, and the variable it sets for
    the project root, are its own or none. Its dialect (`dialects.dialect_spec`), payload
    shape (`sources.payloads.SHAPES`), event words and tool names (`Derived.cells`) are the
    parent's, renamed where `event_words`, `tool_names` and `tool_args` say."""
    own: dict[str, Any] = {"project_files": (), "user_files": (), "system_files": (),
                           "project_var": None, "user_folder_env": None, "runs_files_of": (),
                           "event_words": {}, "tool_names": {}, "tool_args": {},
                           "dialect_changes": {}, "plugin_manifest": None}
    return parent._replace(id=id, name=name, title=title or name, derived_from=parent.id,
                           neutral=False, **{**own, **differences})


# rulesync (dyoshikawa/rulesync@cfebcd7): `.rulesync/hooks.jsonc` is the one file `rulesync
# generate` writes every tool's hooks from (`sources.dialects.rulesync`). Its definitions are
# written for whichever tool runs them: they get the caller's payload with Claude Code's fields
# added (`neutral`), matchers in Claude Code's tool names as its examples are, and answers read as
# Cursor reads them, which takes Cursor's words and Claude Code's alike and `failClosed`.
_RULESYNC_WORDS: dict[str, str | None] = {
    "session.start": "sessionStart", "session.end": "sessionEnd", "tool.pre": "preToolUse",
    "tool.post": "postToolUse", "error": "postToolUseFailure",
    "turn.start": "beforeSubmitPrompt", "agent.stop": "stop", "compact.pre": "preCompact",
    "notification": "notification", "model.pre": "preModelInvocation",
    "model.post": "postModelInvocation", "tool.select": "beforeToolSelection",
    "copilot.errorOccurred": "afterError",
    **{f"claude.{word[0].upper()}{word[1:]}": word for word in (
        "permissionRequest", "permissionDenied", "postToolBatch", "userPromptExpansion",
        "subagentStart", "subagentStop", "stopFailure", "taskCreated", "taskCompleted",
        "teammateIdle", "postCompact", "instructionsLoaded", "configChange", "cwdChanged",
        "fileChanged", "worktreeCreate", "worktreeRemove", "elicitation",
        "elicitationResult", "setup")},
    **{f"cursor.{word}": word for word in (
        "beforeShellExecution", "afterShellExecution", "beforeMCPExecution",
        "afterMCPExecution", "beforeReadFile", "afterFileEdit", "afterAgentResponse",
        "afterAgentThought", "beforeTabFileRead", "afterTabFileEdit", "workspaceOpen")},
    **{f"rulesync.{word}": word for word in (
        "beforeAgentResponse", "messageDisplay", "todoCreated", "todoCompleted",
        "stopCancelled", "directoryAdded", "contextOffload", "sessionDelete")},
}
HOST_TABLE = (*HOST_TABLE, derive(
    next(row for row in HOST_TABLE if row.id == "claude"), "rulesync", "rulesync",
    "rulesync (.rulesync/hooks.jsonc)",
    dialect="rulesync",
    protocol="cursor",
    project_files=(".rulesync/hooks.jsonc", ".rulesync/hooks.json"),
    event_words=_RULESYNC_WORDS, reads_until_closed=False, ranks_defer=False,
)._replace(neutral=True, generator=True))


def caller_error(host: str | None) -> str | None:
    """Why `--host` cannot name a host (a tool that runs no hook itself), None when it can."""
    row = host_row(host) if host else None
    if row is None or not row.generator:
        return None
    callers = ", ".join(other.id for other in HOST_TABLE if not other.generator)
    return (f"{row.name} runs no hooks itself, so it never calls agenthooks: --host names the "
            f"host that does ({callers}); {row.name}'s file runs under each of them with "
            "--other-hosts, or named with --config")


def lineage(host: str) -> tuple[str, ...]:
    """A host and the hosts it is derived from, nearest first (`("qwen", "claude")`)."""
    found: list[str] = []
    row = host_row(host)
    while row is not None and row.id not in found:
        found.append(row.id)
        row = host_row(row.derived_from) if row.derived_from else None
    return tuple(found) or (host,)


def inherited(table: Mapping[str, Any], host: str) -> Any:
    """A host-keyed table's entry for a host, else for the nearest host it is derived from;
    None when neither has one."""
    for each in lineage(host):
        if each in table:
            return table[each]
    return None


class Derived:
    """The derived hosts of the table (`derive`), for filling a host-keyed table's rows (an
    event row's `words`, a tool's `names` or `args`) with their cells: each host's id, its
    parent's and its field `stated` (`event_words`, `tool_names`, `tool_args`). A plain class:
    it runs on the path of every run, once per row."""

    __slots__ = ("hosts", "parents", "stated")

    def __init__(self, stated: str) -> None:
        self.hosts: tuple[tuple[str, str, Mapping[str, Any]], ...] = tuple(
            (row.id, row.derived_from, getattr(row, stated))
            for row in HOST_TABLE if row.derived_from is not None)
        self.parents = frozenset(parent for _, parent, _ in self.hosts)
        # the rows a derived host gives a cell of its own (None: it has no such event)
        self.stated = frozenset(row_id for _, _, own in self.hosts
                                for row_id, value in own.items() if value)

    def cells(self, words: Mapping[str, Any], row_id: str) -> dict[str, Any]:
        """The cells a row lacks for the derived hosts: the one their row states where it
        states one, else their parent's; none where that is None or empty. A row that no
        parent has a cell in and no derived host states, most of them, is passed over at
        once."""
        if row_id not in self.stated and self.parents.isdisjoint(words):
            return {}
        added: dict[str, Any] = {}
        for host, parent, own in self.hosts:
            if host in words:
                continue
            value = own[row_id] if row_id in own else added.get(parent) or words.get(parent)
            if value:
                added[host] = value
        return added


def host_ids() -> tuple[str, ...]:
    """Every host's word that calls agenthooks (`--host`), in table order; not a tool that
    runs no hook itself (rulesync, `HostRow.generator`)."""
    return tuple(row.id for row in HOST_TABLE if not row.generator)


def dialect_ids() -> tuple[str, ...]:
    """Every format's word (`--dialect`, `convert --to`), in table order: every host's, and
    the tools' whose files the hosts' are written from (rulesync's)."""
    return tuple(row.id for row in HOST_TABLE)


def host_row(host: str) -> HostRow | None:
    """The row of a host's word, None for another word."""
    return next((row for row in HOST_TABLE if row.id == host), None)


def is_neutral(host: str) -> bool:
    """Whether a host's files are written for no one host (hooks.json): their handlers get
    a payload every host's scripts read (`sources.payloads.Translation.neutral`)."""
    row = host_row(host)
    return row is not None and row.neutral


def in_toml_alone(row: HostRow) -> bool:
    """Whether a host reads its hooks from TOML files alone (Kimi Code's config.toml, Mistral
    Vibe's hooks.toml), which `init` and `convert`, writing JSON, do not write."""
    files = (*row.project_files, *row.user_files)
    return bool(files) and all(name.endswith(".toml") for name in files)


def in_scripts(row: HostRow) -> bool:
    """Whether a host's hooks are scripts named after their event, every file of its folders
    one hook (Cline's `.clinerules/hooks/*`), which `convert`, writing JSON, does not write
    nor read."""
    files = (*row.project_files, *row.user_files)
    return bool(files) and all(name.endswith("/*") for name in files)


def in_flat_entries(row: HostRow) -> bool:
    """Whether a host reads its hooks as flat entries of its own, with no Claude Code matcher
    group (Charm Crush's `{matcher, command}`, Kimi Code's and Mistral Vibe's `[[hooks]]`),
    which `init` and `convert`, writing Claude Code's groups, do not write."""
    return row.derived_from is not None and row.dialect_changes.get("group_keys") == ()


def unwritable(row: HostRow) -> str | None:
    """Why `init` and `convert`, which write Claude Code's JSON groups, cannot write a host's
    hook file, as a clause naming the host; None when they can."""
    if has_no_files(row):
        return f"{row.name} reads no hook files (its hooks are plugins it loads)"
    if not row.project_hooks_run:
        return (f"{row.name} reads its hooks from ~/{', ~/'.join(row.user_files)} alone (a "
                f"project's {row.project_files[0]} runs none)")
    if in_toml_alone(row) or in_flat_entries(row):
        how = "alone" if in_toml_alone(row) else "as flat entries of its own"
        files = ", ".join(dict.fromkeys((*row.project_files, *row.user_files)))
        return f"{row.name} reads its hooks from {files} {how}"
    return None


def is_generator(host: str) -> bool:
    """Whether a host's files are a tool's source for every host's (`HostRow.generator`)."""
    row = host_row(host)
    return row is not None and row.generator


def runs_itself(host: str, dialect: str, relative: str, level: str) -> bool:
    """Whether `host` runs a `dialect` file itself: its own, or another host's it reads
    (`HostRow.runs_files_of`); `relative`: the file's path under the project root
    (`level` "workspace") or the home directory ("user")."""
    if dialect == host:
        return True
    row = host_row(host)
    for other, project, user in row.runs_files_of if row is not None else ():
        if other == dialect and relative.replace("\\", "/") in (
                project if level == "workspace" else user):
            return True
    return False


def host_name(host: str) -> str:
    """How messages name a host; the word itself for one no row knows."""
    row = host_row(host)
    return host if row is None else row.name


def implementation(word: str, module: str, attribute: str) -> str:
    """The "module:attribute" a row's word names: `module` (a pattern with `{}` for the
    word) and `attribute` for a host of the package, the word itself for a "module:function"
    from outside it (a host added by a plugin, or a test's)."""
    return word if ":" in word else f"{module.format(word)}:{attribute}"


def imported(path: str) -> Any:
    """The attribute a "module:attribute" string names, imported now."""
    module, _, name = path.partition(":")
    # __import__, not importlib: importing `importlib` costs a cold run about 1 ms.
    return getattr(__import__(module, fromlist=(name,)), name)


# --- hosts whose hook files are another host's, with their differences (`derive`) ----------

def _handler(field: str, keys: tuple[str, ...], runs_offline: bool
             ) -> tuple[str, tuple[str, ...], tuple[str, ...], bool]:
    """A handler type of a derived host's files, as `sources.dialects.spec.HandlerType`'s fields
    (this layer does not import it): its text field is required; every type takes the keys all
    of them share."""
    return (field, (field,), ("type", "timeout", "name", "description", "statusMessage", *keys),
            runs_offline)


_CLAUDE_ONLY = ("Setup", "TaskCreated", "TaskCompleted", "TeammateIdle", "ConfigChange",
                "CwdChanged", "FileChanged", "WorktreeCreate", "WorktreeRemove", "Elicitation",
                "ElicitationResult")

HOST_TABLE += (
    # Qwen Code: Claude Code's settings in `.qwen/` (qwenlm.github.io/qwen-code-docs
    # /1.x/en/users/hooks, "Configuration structure and scopes"; QwenLM/qwen-code@01ed106
    # packages/core/src/hooks/types.ts `HookEventName`, `HookType`, `*HookConfig`): Claude
    # Code's events but those `_CLAUDE_ONLY` names, and four of its own; handlers `command`,
    # `http`, `prompt` (`function` is registered in code, never in a file); timeouts in seconds,
    # a value from 1000 up still read as milliseconds (hook-timeout.ts); a command's default is
    # 60 on every event in the release tested end to end (0.24.4's bundled hook-timeout.ts,
    # where the source above says 600, and 60 on the events that outlive the session); one
    # matcher rule on every event (hook-matcher.ts); the tool names of its payload are its
    # runtime ids, its display names matched as aliases (tools/tool-names.ts,
    # docs/users/features/hooks.md "Matcher Syntax"); its commands get QWEN_PROJECT_DIR,
    # CLAUDE_PROJECT_DIR and GEMINI_PROJECT_DIR (hooks/hookRunner.ts).
    derive(HOST_TABLE[1], "qwen", "Qwen Code",
           project_files=(".qwen/settings.json", ".qwen/settings.local.json"),
           user_files=(".qwen/settings.json",), project_var="QWEN_PROJECT_DIR",
           reads_until_closed=False, ranks_defer=False,
           event_words={**{f"claude.{word}": None for word in _CLAUDE_ONLY},
                        **{f"qwen.{word}": word for word in (
                            "MessageDisplay", "SessionDelete", "TodoCreated", "TodoCompleted")}},
           tool_names={
               "shell": ("run_shell_command", "Shell"), "read": ("read_file", "ReadFile"),
               "read-many": (), "write": ("write_file", "WriteFile"),
               "edit": ("edit", "Edit", "replace"), "multi-edit": (),
               "grep": ("grep_search", "Grep", "search_file_content", "SearchFiles"),
               "glob": ("glob", "Glob", "FindFiles"),
               "list": ("list_directory", "ListFiles", "ReadFolder"),
               "web-fetch": ("web_fetch", "WebFetch"), "web-search": ("web_search", "WebSearch"),
               "subagent": ("agent", "Agent", "task", "Task"), "todo": (),
               "ask-user": ("ask_user_question", "AskUserQuestion"), "plan-enter": (),
               "plan-exit": ("exit_plan_mode", "ExitPlanMode"), "skill": ("skill", "Skill"),
               "mcp-resources": (), "mcp-resource": (), "send-message": (),
               "notebook-edit": ()},
           dialect_changes={
               "events": {"MessageDisplay": None, "SessionDelete": None, "TodoCreated": None,
                          "TodoCompleted": None},
               "exact_events": frozenset(), "whole_file": False,
               # a group's `sequential: true` runs the event's handlers in order (1.x docs,
               # "Configuration structure and scopes"); an unknown event or a bad handler is
               # skipped alone (hookRegistry.ts `processHooksConfiguration`).
               "group_keys": ("matcher", "sequential", "hooks"), "chain": "gemini",
               "default_timeout": 60.0, "timeout_by_event": {},
               "types": {
                   "command": _handler("command", ("command", "args", "async", "env", "shell",
                                                   "failMode"), True),
                   "http": _handler("url", ("url", "headers", "allowedEnvVars", "if", "once"),
                                    True),
                   "prompt": _handler("prompt", ("prompt", "model"), False)},
               "path_variables": ("QWEN_PROJECT_DIR", "CLAUDE_PROJECT_DIR",
                                  "GEMINI_PROJECT_DIR"),
               "plugin_vars": None, "env_file_events": frozenset(),
               "option_types": {"args": "strings", "async": "boolean", "once": "boolean",
                                "shell": "string", "if": "string", "statusMessage": "string",
                                "headers": "object", "allowedEnvVars": "strings",
                                "model": "string", "env": "object", "failMode": "string",
                                "name": "string", "description": "string"},
               "schema": {"file": "qwen-settings.schema.json",
                          "what": "Qwen Code settings (`hooks`)",
                          "title": "Qwen Code settings: hooks",
                          "description": "The hooks of a Qwen Code settings file "
                                         "(.qwen/settings.json, .qwen/settings.local.json, "
                                         "~/.qwen/settings.json), as agenthooks reads them; the "
                                         "file's other settings are let through."}}),
)

# Claude Code's events that Factory Droid has not: its nine (docs.factory.ai/reference
# /hooks-reference, "Hook Events") are PreToolUse, PostToolUse, UserPromptSubmit,
# Notification, Stop, SubagentStop, PreCompact, SessionStart and SessionEnd.
_NOT_FACTORY = ("error", *(f"claude.{word}" for word in (
    "PermissionRequest", "PermissionDenied", "PostToolBatch", "UserPromptExpansion",
    "SubagentStart", "StopFailure", "TaskCreated", "TaskCompleted", "TeammateIdle",
    "PostCompact", "InstructionsLoaded", "ConfigChange", "CwdChanged", "FileChanged",
    "WorktreeCreate", "WorktreeRemove", "Elicitation", "ElicitationResult", "Setup")))

HOST_TABLE += (
    # Factory Droid: Claude Code's hooks in `.factory/` (docs.factory.ai/harness/hooks,
    # "Configuration", "Structure"): `hooks.json` in `~/.factory/` and a project's
    # `.factory/`, keyed by event name with no `hooks` wrapper; "If hooks.json is absent,
    # Droid also reads hook declarations from the hooks key in the matching settings.json"
    # (`sources.dialects.factory_check`). Its settings file comes first here: it is the one `init`
    # and `convert` write (Claude Code's `hooks` object). `.factory/settings.local.json`, its
    # nine events, matchers "case-sensitive" (`startup`, `resume`... on SessionStart, `manual`
    # and `auto` on PreCompact, though its "Structure" says "only applicable for PreToolUse
    # and PostToolUse"), `type` "Currently only "command" is supported" with `command` and
    # `timeout` in seconds, 60 by default, $FACTORY_PROJECT_DIR, exit code 2 and Claude Code's
    # JSON answers: docs.factory.ai/reference/hooks-reference (its source
    # Factory-AI/factory docs/reference/hooks-reference.mdx@2a4debc). Its write tool `Create`:
    # the same page as served now (matchers `Create`, `Edit|Create`). Its shell tool
    # `Execute`, a payload's `hook_event_name`, `tool_name` and `tool_input`, and a group's
    # `commandRegex`: Factory-AI/factory .factory/settings.json@0a475b8 and
    # .factory/hooks/guard_execute.py@7fe9976, Factory's own hooks.
    # [unverified: its other tool names (Claude Code's; the page at 2a4debc names Bash,
    # Write, Read, Edit, Glob, Grep, Task, WebFetch, WebSearch, before Create and Execute),
    # `disableAllHooks`, what `commandRegex` does with a call (`sources.dialects.factory_check`);
    # the legacy `.factory/hooks/hooks.json` and plugins' hooks (${DROID_PLUGIN_ROOT}) are not read
    # here. Factory-AI/factory#3 reports droid 0.186.0 running settings.json's hooks alone,
    # never a hooks.json.]
    derive(HOST_TABLE[1], "factory", "Factory Droid",
           project_files=(".factory/settings.json", ".factory/settings.local.json",
                          ".factory/hooks.json"),
           user_files=(".factory/settings.json", ".factory/hooks.json"),
           project_var="FACTORY_PROJECT_DIR", reads_until_closed=False, ranks_defer=False,
           shadowed_by=(("settings.json", "hooks.json"), ("settings.local.json", "hooks.json")),
           event_words=dict.fromkeys(_NOT_FACTORY),
           tool_names={"shell": ("Execute",), "write": ("Create",)},
           dialect_changes={
               "reader": "factory_check:read",
               "bare_files": (("hooks.json", "factory-hooks-wrapper"),),
               "group_keys": ("matcher", "hooks", "commandRegex"),
               # "events like UserPromptSubmit, Notification, Stop, and SubagentStop that
               # don't use matchers"; SessionStart's and PreCompact's matchers are listed.
               "events": dict.fromkeys(("SessionEnd", "Notification", "SubagentStop")),
               "types": {"command": ("command", ("command",), ("type", "command", "timeout"),
                                     True)},
               "shell_key": None, "exec_key": None, "background_key": None,
               "condition_key": None, "plugin_vars": None, "env_file_events": frozenset(),
               "default_timeout": 60.0, "timeout_by_event": {},
               "path_variables": ("FACTORY_PROJECT_DIR",),
               "schema": {"file": "factory-hooks.schema.json",
                          "what": "Factory Droid hooks.json and settings (`hooks`)",
                          "title": "Factory Droid hooks.json and settings: hooks",
                          "description": "The hooks of a Factory Droid file, as agenthooks reads "
                                         "them: `hooks` in a settings file "
                                         "(.factory/settings.json, .factory/settings.local.json, "
                                         "~/.factory/settings.json), its events at the top level "
                                         "of a hooks.json (.factory/hooks.json, "
                                         "~/.factory/hooks.json). The settings file's other "
                                         "settings are let through; in a hooks.json, validate "
                                         "reports a key that is no event, and a `hooks` wrapper, "
                                         "under which Droid finds none.",
                          "build": "factory"}}),
)

HOST_TABLE += (
    # Augment's Auggie CLI: Claude Code's hooks in `.augment/` (docs.augmentcode.com/cli/hooks,
    # "Settings File Locations", "Structure"), each fact below read in the code of
    # @augmentcode/auggie 0.36.0 (its bundled augment.mjs): the files, read system, user, the
    # project's settings.local.json, then settings.json, their events' groups concatenated and
    # run in parallel (`cle`, `wgi`, `I7n`); seven events, PromptSubmit for UserPromptSubmit
    # (`dgi`); a group's `matcher` a regex searched in the tool name, `.*` by default, stripped
    # on the other events, and `mcp:` (`sources.dialects.augment`); handlers `{type: "command",
    # command, args, timeout}` in milliseconds, 60000 by default (`Hnt`, `Sao`), run with
    # `bash -c` when the command has a shell character, else split into words and spawned,
    # `args` spawned with the command alone (`dao`); AUGMENT_PROJECT_DIR,
    # AUGMENT_CONVERSATION_ID, AUGMENT_HOOK_EVENT and AUGMENT_TOOL_NAME set (`vao`); output
    # read on `close`; one event's entry that fails its schema ignored whole, an unknown event
    # or key skipped (`Cgi`); its answers and payload (`hosts.augment`,
    # `sources.payloads.SHAPES`). Its tools: `launch-process` {command, cwd}, `view` {path},
    # `save-file` {path, file_content}, `str-replace-editor` {path, old_str_1, new_str_1...},
    # `grep-search`, `web-fetch`, `web-search`, `ask-user`; an MCP tool is `<tool>_<server>`,
    # matched here as other hosts spell it (`sources.dialects.augment`). Not read here: the hooks of
    # Augment plugins, and the Cursor-style events its settings also take.
    derive(HOST_TABLE[1], "augment", "Augment (Auggie)", "Augment",
           writer="augment",
           protocol="augment",
           selection="augment",
           # Its groups run side by side, whatever file they come from: the shared file
           # first, which `init` and `convert` write, as for Claude Code.
           project_files=(".augment/settings.json", ".augment/settings.local.json"),
           user_files=(".augment/settings.json",),
           system_files=("/etc/augment/settings.json", "C:\\ProgramData\\Augment\\settings.json"),
           project_var="AUGMENT_PROJECT_DIR", reads_until_closed=True, ranks_defer=False,
           event_words={**dict.fromkeys((*_NOT_FACTORY, "compact.pre", "claude.SubagentStop")),
                        "turn.start": "PromptSubmit"},
           tool_names={
               "shell": ("launch-process",), "read": ("view",), "write": ("save-file",),
               "edit": ("str-replace-editor",), "multi-edit": (), "grep": ("grep-search",),
               "glob": (), "web-fetch": ("web-fetch",), "web-search": ("web-search",),
               "ask-user": ("ask-user",), "subagent": (), "todo": (), "notebook-edit": (),
               "plan-enter": (), "plan-exit": (), "skill": (), "list": (),
               "mcp-resources": (), "mcp-resource": (), "send-message": ()},
           tool_args={"shell": {"command": "command", "cwd": "cwd"},
                      "read": {"file_path": "path"},
                      "write": {"file_path": "path", "content": "file_content"},
                      "edit": {"file_path": "path"}, "grep": {}, "web-fetch": {},
                      "web-search": {}, "ask-user": {}},
           dialect_changes={
               "reader": "augment_check:read",
               "events": dict.fromkeys(("SessionStart", "SessionEnd", "Notification")),
               "group_keys": ("matcher", "hooks", "metadata"), "settings_keys": (),
               "types": {"command": ("command", ("command",),
                                     ("type", "command", "args", "timeout"), True)},
               "timeout_unit": 0.001, "default_timeout": 60.0, "timeout_by_event": {},
               "shell_key": None, "background_key": None, "condition_key": None,
               "whole_file": False, "plugin_vars": None, "env_file_events": frozenset(),
               "path_variables": ("AUGMENT_PROJECT_DIR",),
               "call_vars": (("AUGMENT_CONVERSATION_ID", "conversation_id"),
                             ("AUGMENT_HOOK_EVENT", "hook_event_name"),
                             ("AUGMENT_TOOL_NAME", "tool_name")),
               "option_types": {"args": "strings"},
               "schema": {"file": "augment-settings.schema.json",
                          "what": "Augment settings (`hooks`)",
                          "title": "Augment settings: hooks",
                          "description": "The hooks of an Augment settings file "
                                         "(.augment/settings.json, .augment/settings.local.json, "
                                         "~/.augment/settings.json), as agenthooks reads them; the "
                                         "file's other settings are let through."}}),
)

HOST_TABLE += (
    # Kimi Code: Claude Code's tool names, payload and exit codes, in a file of its own. Each
    # fact read in the code of @moonshot-ai/kimi-code 2.1.0 (dist/main.mjs, the externalHooks
    # regions of packages/agent-core-v2; `sources.dialects.kimi`): the `[[hooks]]` entries of
    # the user's `$KIMI_CODE_HOME/config.toml` (`~/.kimi-code/` by default, `resolveKimiHome`),
    # none in a project; twenty events, six of its own (`HOOK_EVENT_TYPES`); an entry
    # `{event, matcher, command, timeout}` in whole seconds, 30 by default, 600 at most, run
    # with `sh -c` in the session's folder, with no variable of its own (`runHook`,
    # `configSection`); its answers (`kinds.protocols.kimi`, `hosts.kimi`) and payload
    # (`sources.payloads.SHAPES`). Its tools (`name = ...` of each tool class): Bash
    # {command, cwd, timeout...}, Read, Write and Edit {path...}, Glob, Grep, FetchURL {url},
    # WebSearch, Agent, AskUserQuestion, EnterPlanMode, ExitPlanMode, Skill; an MCP tool
    # `mcp__<server>__<tool>`. Not read here: the hooks of Kimi Code plugins.
    derive(HOST_TABLE[1], "kimi", "Kimi Code",
           writer="kimi",
           protocol="kimi",
           selection="kimi",
           user_files=(".kimi-code/config.toml",), user_folder_env=("KIMI_CODE_HOME", ".kimi-code"),
           reads_until_closed=True, ranks_defer=False,
           event_words={**dict.fromkeys(f"claude.{word}" for word in (
               "PermissionDenied", "PostToolBatch", "UserPromptExpansion", "TaskCreated",
               "TaskCompleted", "TeammateIdle", "InstructionsLoaded", "ConfigChange",
               "CwdChanged", "FileChanged", "WorktreeCreate", "WorktreeRemove", "Elicitation",
               "ElicitationResult", "Setup")),
                        # Codex's word for the same moment: the user ended a turn
                        "codex.Interrupt": "Interrupt",
                        **{f"kimi.{word}": word for word in (
                            "PermissionResult", "UserPromptQueued", "TurnStarted",
                            "SessionHeartbeat", "TaskStarted")}},
           tool_names={
               "shell": ("Bash",), "web-fetch": ("FetchURL",), "subagent": ("Agent",),
               "multi-edit": (), "todo": (), "notebook-edit": (), "mcp-resources": (),
               "mcp-resource": (), "send-message": ()},
           tool_args={"shell": {"command": "command", "description": "description",
                                "run_in_background": "run_in_background"},
                      "read": {"file_path": "path"},
                      "write": {"file_path": "path", "content": "content"},
                      "edit": {"file_path": "path", "old_string": "old_string",
                               "new_string": "new_string", "replace_all": "replace_all"}},
           dialect_changes={
               "parser": "kimi_check:parse",
               "reader": "kimi_check:read",
               # Its events' matcher values where they are not Claude Code's (None: none,
               # so a matcher is tested against "", `sources.dialects.kimi`).
               "events": {"PermissionResult": "tool_name", "UserPromptQueued": "prompt",
                          "TurnStarted": "origin_kind", "Interrupt": None,
                          "SessionHeartbeat": None, "TaskStarted": "kind",
                          "UserPromptSubmit": "prompt", "StopFailure": "error_type",
                          "SubagentStart": "agent_name", "SubagentStop": "agent_name"},
               "group_keys": (), "settings_keys": (),
               "types": {"command": ("command", ("command",),
                                     ("event", "matcher", "command", "timeout"), True)},
               "timeout_unit": 1.0, "default_timeout": 30.0, "timeout_by_event": {},
               "timeout_limit": 600, "shell": "sh", "shell_key": None, "exec_key": None,
               "background_key": None, "condition_key": None, "whole_file": True,
               "plugin_vars": None, "env_file_events": frozenset(), "path_variables": (),
               "call_vars": (), "own_vars": None, "project_var": "",
               "schema": {"file": "kimi-config.schema.json",
                          "what": "Kimi Code config.toml (`[[hooks]]`)",
                          "title": "Kimi Code config.toml: hooks",
                          "description": "The [[hooks]] entries of a Kimi Code config.toml "
                                         "($KIMI_CODE_HOME/config.toml, ~/.kimi-code/config.toml), "
                                         "as agenthooks reads them: one entry that fails this "
                                         "schema makes Kimi Code drop every entry. The file's "
                                         "other settings are let through.",
                          "build": "kimi"}}),
)

# Claude Code's events that deepagents-code has not: it reads twelve (PyPI deepagents-code
# 0.2.2, deepagents_code/hooks/models/domain.py): SessionStart, UserPromptSubmit, SessionEnd,
# PermissionRequest, Notification, PreToolUse, PostToolUse, PostToolUseFailure, PreCompact,
# Stop, SubagentStart, SubagentStop.
_NOT_DEEPAGENTS = (*(f"claude.{word}" for word in _CLAUDE_ONLY), *(f"claude.{word}" for word in (
    "PermissionDenied", "PostToolBatch", "UserPromptExpansion", "StopFailure", "PostCompact",
    "InstructionsLoaded")))

HOST_TABLE += (
    # deepagents-code, LangChain's terminal agent: Claude Code's hooks in `.deepagents/`
    # (`sources.dialects.deepagents`, each fact read in deepagents-code 0.2.2): its twelve
    # events, `command` handlers alone, `sh -c` with no project variable, matchers of exact
    # names or a Python regex, Claude Code's answers without `updatedInput` or `defer`. Its
    # tools are Claude Code's names where it maps them (hooks/tools.py `_WIRE_NAMES`): Bash
    # {command, timeout in ms}, Read {file_path, limit, offset}, Write, Edit, Glob, Grep, LS
    # {path}; `task` {description, subagent_type} and `write_todos` by their own names.
    derive(HOST_TABLE[1], "deepagents", "deepagents-code",
           protocol="deepagents",
           writer="deepagents",
           selection="deepagents",
           project_files=(".deepagents/hooks.json",), user_files=(".deepagents/hooks.json",),
           user_folder_env=("DEEPAGENTS_HOME", ".deepagents"), project_var="",
           # its runner waits for the hook to exit, then reads both pipes to their end
           # (hooks/runner.py `_communicate_bounded`), within the timeout
           reads_until_closed=True, ranks_defer=False,
           event_words=dict.fromkeys(_NOT_DEEPAGENTS),
           tool_names={
               "shell": ("Bash",), "list": ("LS",), "subagent": ("task",),
               "todo": ("write_todos",), "multi-edit": (), "web-fetch": (), "web-search": (),
               "ask-user": (), "plan-enter": (), "plan-exit": (), "skill": (),
               "mcp-resources": (), "mcp-resource": (), "send-message": (),
               "notebook-edit": ()},
           tool_args={"shell": {"command": "command"}, "list": {"path": "path"},
                      "subagent": {"prompt": "description", "subagent_type": "subagent_type"}},
           dialect_changes={
               "reader": "deepagents_check:read",
               "types": {"command": ("command", ("command",),
                                     ("type", "command", "timeout", "statusMessage", "async"),
                                     True)},
               "exact_events": frozenset(), "whole_file": False, "shell": "sh",
               "shell_key": None, "exec_key": None, "background_key": None,
               "condition_key": None, "plugin_vars": None, "env_file_events": frozenset(),
               "path_variables": (), "project_var": "",
               "option_types": {"statusMessage": "string", "async": "boolean"},
               "schema": {"file": "deepagents-hooks.schema.json",
                          "what": "deepagents-code hooks.json",
                          "title": "deepagents-code hooks.json",
                          "description": "The hooks of a deepagents-code hooks.json "
                                         "(.deepagents/hooks.json, ~/.deepagents/hooks.json), as "
                                         "agenthooks reads them; other top-level keys are let "
                                         "through, as deepagents-code ignores them."}}),
)

# Claude Code's events that Mistral Vibe has not: it has three, pre_tool, post_tool and
# post_agent (mistral-vibe 3.0.3, vibe/core/hooks/models.py `HookType`).
_NOT_VIBE = (*_NOT_DEEPAGENTS, "error", "turn.start", "session.start", "session.end",
             "compact.pre", "notification", "claude.PermissionRequest", "claude.SubagentStart",
             "claude.SubagentStop")

HOST_TABLE += (
    # Mistral Vibe: `[[hooks]]` entries of `.vibe/hooks.toml` and `$VIBE_HOME/hooks.toml`
    # (`sources.dialects.vibe`, each fact read in PyPI mistral-vibe 3.0.3). Derived from
    # Claude Code for its payload, whose field names Vibe keeps for hook authors
    # (mistralai_vibe_local_harness/vibe/_foreign_hooks.py: session_id, transcript_path,
    # cwd, hook_event_name, tool_name, tool_input with Claude Code's `file_path`); its file,
    # events, matchers, answers and tools are its own. Its tools by their qualified names,
    # which its payload carries (`file_system.bash` {command, timeout}, `file_system.read_file`
    # {file_path, offset, limit}, `file_system.write_file` {file_path, content},
    # `file_system.edit` {file_path, old_string, new_string, replace_all}, `vibe.todo`,
    # `ui.ask_user_question`, `skill.read`, the web search connector's `web_search` and
    # `open_url`); an MCP tool `mcp_<server>.<tool>`.
    derive(HOST_TABLE[1], "vibe", "Mistral Vibe",
           writer="vibe",
           protocol="vibe",
           selection="vibe",
           project_files=(".vibe/hooks.toml",), user_files=(".vibe/hooks.toml",),
           user_folder_env=("VIBE_HOME", ".vibe"),
           # it gathers both pipes to their end and the exit, within the timeout
           # (`_foreign_hooks.py` `_run_command`, `_read_capped`)
           reads_until_closed=True, ranks_defer=False,
           event_words={**dict.fromkeys(_NOT_VIBE), "tool.pre": "pre_tool",
                        "tool.post": "post_tool", "agent.stop": "post_agent"},
           tool_names={
               "shell": ("file_system.bash",), "read": ("file_system.read_file",),
               "write": ("file_system.write_file",), "edit": ("file_system.edit",),
               "todo": ("vibe.todo",), "ask-user": ("ui.ask_user_question",),
               "skill": ("skill.read",), "web-search": ("connector_web_search.web_search",),
               "web-fetch": ("connector_web_search.open_url",), "multi-edit": (),
               "grep": (), "glob": (), "subagent": (), "plan-enter": (), "plan-exit": (),
               "mcp-resources": (), "mcp-resource": (), "send-message": (),
               "notebook-edit": ()},
           tool_args={"shell": {"command": "command"}, "web-search": {}, "web-fetch": {}},
           dialect_changes={
               "parser": "vibe_check:parse",
               "reader": "vibe_check:read",
               # the value each event's `match` is tested against
               "events": {"pre_tool": "tool_name", "post_tool": "tool_name",
                          "post_agent": "agent_name"},
               "exact_events": frozenset(), "group_keys": (), "settings_keys": (),
               "types": {"command": ("command", ("command",),
                                     ("name", "type", "command", "match", "timeout",
                                      "strict", "description"), True)},
               "timeout_unit": 1.0, "default_timeout": 60.0, "timeout_by_event": {},
               "shell": "sh", "shell_key": None, "exec_key": None, "background_key": None,
               "condition_key": None, "whole_file": False, "plugin_vars": None,
               "env_file_events": frozenset(), "path_variables": (), "call_vars": (),
               "own_vars": None, "project_var": "",
               # a tool is matched by the name after its last dot too (`_hook_matcher.py`
               # `candidate_names`)
               "matcher_aliases": ("bash", "read_file", "write_file", "edit", "todo",
                                   "ask_user_question", "read", "web_search", "open_url"),
               "option_types": {"strict": "boolean", "description": "string"},
               "schema": {"file": "vibe-hooks.schema.json",
                          "what": "Mistral Vibe hooks.toml (`[[hooks]]`)",
                          "title": "Mistral Vibe hooks.toml",
                          "description": "The [[hooks]] entries of a Mistral Vibe hooks.toml "
                                         "(.vibe/hooks.toml, $VIBE_HOME/hooks.toml, "
                                         "~/.vibe/hooks.toml), as agenthooks reads them: Vibe "
                                         "skips an entry that fails this schema and runs the "
                                         "others.",
                          "build": "vibe"}}),
)

# Claude Code's events that Grok Build has not: it has fifteen (xai-org/grok-build@19d42e3
# crates/codegen/xai-grok-hooks/src/event.rs `hook_events!`).
_NOT_GROK = (*(f"claude.{word}" for word in _CLAUDE_ONLY), *(f"claude.{word}" for word in (
    "PermissionRequest", "PostToolBatch", "UserPromptExpansion", "InstructionsLoaded")))

HOST_TABLE += (
    # Grok Build (xAI's `grok`): Claude Code's groups and event names in `.grok/hooks/*.json`
    # (`sources.dialects.grok`, each fact read in xai-org/grok-build@19d42e3, paths under
    # crates/codegen/). Its payload is camelCase (`sources.payloads.SHAPES`), its answers its
    # own (`kinds.protocols.grok`, `hosts.grok`); it sets GROK_WORKSPACE_ROOT and Claude Code's
    # CLAUDE_PROJECT_DIR to the git root, GROK_HOOK_EVENT, GROK_HOOK_NAME and GROK_SESSION_ID
    # (`xai-grok-hooks/src/runner/command.rs`), and runs Claude Code's settings and Cursor's
    # hooks.json itself (`xai-grok-shell/src/util/hooks.rs` `discover_hook_source_paths`). Its
    # tools (`xai-grok-tools/src/implementations/grok_build/`): run_terminal_command
    # {command, timeout in ms, description}, read_file {target_file, offset}, search_replace
    # {file_path, old_string, new_string, replace_all}, write, grep, list_dir, web_search,
    # web_fetch, spawn_subagent, todo_write, ask_user_question, skill, enter_plan_mode,
    # exit_plan_mode; an MCP tool `<server>__<tool>`. Not read here: hooks in its config.toml
    # layers and in plugins; a project's hooks in a folder it does not trust are said
    # (`sources.dialects.grok_check`).
    derive(HOST_TABLE[1], "grok", "Grok Build",
           writer="grok",
           protocol="grok",
           selection="grok",
           project_files=(".grok/hooks/*.json",), user_files=(".grok/hooks/*.json",),
           user_folder_env=("GROK_HOME", ".grok"), project_var="GROK_WORKSPACE_ROOT",
           runs_files_of=(("claude", (".claude/settings.json", ".claude/settings.local.json"),
                           (".claude/settings.json", ".claude/settings.local.json")),
                          ("cursor", (".cursor/hooks.json",), (".cursor/hooks.json",))),
           # it reads both pipes to their end with the exit, within the timeout
           # (`runner/command.rs`)
           reads_until_closed=True, ranks_defer=False,
           event_words={**dict.fromkeys(_NOT_GROK), "rulesync.stopCancelled": "StopCancelled"},
           tool_names={
               "shell": ("run_terminal_command",), "read": ("read_file", "hashline_read"),
               "write": ("write",), "edit": ("search_replace", "hashline_edit"),
               "grep": ("grep", "hashline_grep"), "list": ("list_dir",),
               "web-fetch": ("web_fetch",), "web-search": ("web_search",),
               "ask-user": ("ask_user_question",), "subagent": ("spawn_subagent",),
               "todo": ("todo_write",), "skill": ("skill",), "plan-enter": ("enter_plan_mode",),
               "plan-exit": ("exit_plan_mode",), "glob": (), "multi-edit": (),
               "notebook-edit": (), "mcp-resources": (), "mcp-resource": (),
               "send-message": ()},
           tool_args={"shell": {"command": "command", "description": "description",
                                "timeout": "timeout"},
                      "read": {"file_path": "target_file", "offset": "offset"}},
           dialect_changes={
               "reader": "grok_check:read",
               "event_key": "grok:event_key",
               # the value each event's matcher is tested against (`HookPayload::match_value`)
               "events": {"StopCancelled": "reason", "UserPromptSubmit": None, "Stop": None},
               "types": {"command": ("command", ("command",),
                                     ("type", "command", "timeout", "env"), True),
                         "http": ("url", ("url",), ("type", "url", "timeout", "env"), True)},
               "settings_keys": (), "timeout_unit": 1.0, "default_timeout": 5.0,
               "timeout_by_event": {"Stop": 600.0, "SubagentStop": 600.0},
               "shell": "sh", "shell_key": None, "exec_key": None, "background_key": None,
               "condition_key": None, "plugin_vars": None, "env_file_events": frozenset(),
               "exact_events": frozenset(),
               "path_variables": ("GROK_WORKSPACE_ROOT", "CLAUDE_PROJECT_DIR"),
               "call_vars": (("GROK_SESSION_ID", "sessionId"),),
               "own_vars": "grok:handler_variables",
               "option_types": {"env": "object"},
               # Claude Code's names, which its matchers select its tools by
               # (`sources.dialects.grok.CLAUDE_NAMES`)
               "matcher_aliases": (
                   "Read", "Write", "Edit", "MultiEdit", "NotebookEdit", "Bash", "Grep", "Glob",
                   "LSP", "WebSearch", "WebFetch", "TodoWrite", "AskUserQuestion", "TaskOutput",
                   "BashOutput", "BashOutputTool", "AgentOutputTool", "TaskStop", "KillShell",
                   "KillBash", "Skill", "ToolSearch", "Agent", "Task", "EnterPlanMode",
                   "ExitPlanMode", "CronCreate", "CronDelete", "CronList",
                   "ListMcpResourcesTool"),
               "schema": {"file": "grok-hooks.schema.json",
                          "what": "Grok Build hook files (.grok/hooks/*.json)",
                          "title": "Grok Build hook files",
                          "description": "The hooks of a Grok Build hook file (.grok/hooks/*.json, "
                                         "~/.grok/hooks/*.json), as agenthooks reads them; other "
                                         "top-level keys are let through, as Grok ignores them.",
                          "build": "grok"}}),
)

# Claude Code's events that Charm Crush has not: every one but PreToolUse
# (charmbracelet/crush internal/hooks/hooks.go@37f36e9 `EventPreToolUse`; the coordinator reads
# only `Hooks["PreToolUse"]`, internal/agent/coordinator.go@37f36e9).
_NOT_CRUSH = (*_NOT_VIBE, "tool.post", "agent.stop")

HOST_TABLE += (
    # Charm Crush: a flat `{"hooks": {"PreToolUse": [{name, matcher, command, timeout}]}}` in
    # its crush.json (`sources.dialects.crush`, each fact read in charmbracelet/crush at
    # 37f36e9). Derived from Claude Code, whose `hookSpecificOutput` it reads (its docs call
    # it Claude Code-compatible; internal/hooks/input.go@37f36e9); its files, its one event,
    # its matchers (Go RE2, searched, case-sensitive), its answer envelope and its tools are its
    # own. Files, lowest priority first (internal/config/load.go@37f36e9 `lookupConfigs`):
    # /etc/crush/crush.json, `$CRUSH_GLOBAL_CONFIG/crush.json` (else
    # `~/.config/crush/crush.json`; $XDG_CONFIG_HOME is not followed here), the data folder's
    # `~/.local/share/crush/crush.json`, then the project's `crush.json`, `.crush.json` and
    # `.crush/crush.json`; their `hooks.PreToolUse` lists concatenated in that order
    # (qjebbs/go-jsons). Its tools (internal/agent/tools/*.go@37f36e9): `bash` {command,
    # description, working_dir, run_in_background}, `edit` {file_path, old_string, new_string,
    # replace_all}, `multiedit` {file_path, edits}, `write` {file_path, content}, `view`
    # {file_path, offset, limit}, `fetch` {url, format, timeout}, `glob` and `grep` {pattern,
    # path}, `ls` {path}, `agent` {prompt}, `todos`; an MCP tool `mcp_<server>_<tool>`. Its
    # handlers get CRUSH_EVENT, CRUSH_TOOL_NAME, CRUSH_SESSION_ID, CRUSH_CWD,
    # CRUSH_PROJECT_DIR, CRUSH_TOOL_INPUT_COMMAND, CRUSH_TOOL_INPUT_FILE_PATH, CRUSH=1,
    # AGENT=crush and AI_AGENT=crush (internal/hooks/input.go@37f36e9 `BuildEnv`). Not read
    # here: `crushrc` and `.crushrc` (a Bash DSL whose `hook add` lines also define hooks).
    derive(HOST_TABLE[1], "crush", "Charm Crush", "Crush",
           writer="crush",
           protocol="crush",
           selection="crush",
           project_files=("crush.json", ".crush.json", ".crush/crush.json"),
           user_files=(".config/crush/crush.json", ".local/share/crush/crush.json"),
           system_files=("/etc/crush/crush.json",),
           user_folder_env=("CRUSH_GLOBAL_CONFIG", ".config/crush"),
           project_var="CRUSH_PROJECT_DIR",
           # it waits for the hook's process, its pipes read into unbounded buffers
           # (internal/hooks/runner.go@37f36e9)
           reads_until_closed=True, ranks_defer=False,
           event_words=dict.fromkeys(_NOT_CRUSH),
           tool_names={
               "shell": ("bash",), "read": ("view",), "write": ("write",), "edit": ("edit",),
               "multi-edit": ("multiedit",), "grep": ("grep",), "glob": ("glob",),
               "list": ("ls",), "web-fetch": ("fetch",), "subagent": ("agent",),
               "todo": ("todos",), "web-search": (), "ask-user": (), "plan-enter": (),
               "plan-exit": (), "skill": (), "mcp-resources": ("list_mcp_resources",),
               "mcp-resource": ("read_mcp_resource",), "send-message": (),
               "notebook-edit": ()},
           tool_args={"shell": {"command": "command", "description": "description",
                                "run_in_background": "run_in_background",
                                "cwd": "working_dir"},
                      "read": {"file_path": "file_path"},
                      "write": {"file_path": "file_path", "content": "content"},
                      "edit": {"file_path": "file_path", "old_string": "old_string",
                               "new_string": "new_string", "replace_all": "replace_all"},
                      "multi-edit": {"file_path": "file_path"},
                      "grep": {"pattern": "pattern", "path": "path"},
                      "glob": {"pattern": "pattern", "path": "path"},
                      "list": {"path": "path"}, "web-fetch": {"url": "url"},
                      "subagent": {"prompt": "prompt"}, "todo": {},
                      "mcp-resources": {}, "mcp-resource": {}},
           dialect_changes={
               "reader": "crush_check:read",
               "events": {"PreToolUse": "tool_name"},
               "event_key": "crush:event_key",
               "exact_events": frozenset(), "group_keys": (), "settings_keys": (),
               "types": {"command": ("command", ("command",),
                                     ("name", "matcher", "command", "timeout"), True)},
               "timeout_unit": 1.0, "default_timeout": 30.0, "timeout_by_event": {},
               "timeout_limit": 2_147_483,
               # an embedded POSIX shell (mvdan.cc/sh), not bash
               "shell": "sh", "shell_key": None, "exec_key": None, "background_key": None,
               "condition_key": None, "whole_file": True, "plugin_vars": None,
               "env_file_events": frozenset(), "path_variables": ("CRUSH_PROJECT_DIR",),
               "call_vars": (("CRUSH_EVENT", "event"), ("CRUSH_TOOL_NAME", "tool_name"),
                             ("CRUSH_SESSION_ID", "session_id"), ("CRUSH_CWD", "cwd"),
                             ("CRUSH_TOOL_INPUT_COMMAND", "tool_input.command"),
                             ("CRUSH_TOOL_INPUT_FILE_PATH", "tool_input.file_path")),
               "own_vars": "crush:handler_variables",
               "project_var": "CRUSH_PROJECT_DIR", "option_types": {},
               "schema": {"file": "crush.schema.json",
                          "what": "Charm Crush crush.json (`hooks`)",
                          "title": "Charm Crush crush.json: hooks",
                          "description": "The hooks of a Charm Crush crush.json (crush.json, "
                                         ".crush.json, .crush/crush.json, "
                                         "~/.config/crush/crush.json), as agenthooks reads them: "
                                         "Crush does not start with one that fails this schema. "
                                         "Its other settings are let through.",
                          "build": "crush"}}),
)

# Claude Code's events that JetBrains Junie has not: it has seven, SessionStart,
# UserPromptSubmit, PreToolUse, Stop, StopFailure, PermissionRequest, SessionEnd
# (junie.jetbrains.com/docs/junie-cli-hooks.html, the page of 10 July 2026).
_NOT_JUNIE = (*(f"claude.{word}" for word in _CLAUDE_ONLY), "tool.post", "error", "compact.pre",
              "notification", *(f"claude.{word}" for word in (
                  "PermissionDenied", "PostToolBatch", "UserPromptExpansion", "SubagentStart",
                  "SubagentStop", "PostCompact", "InstructionsLoaded")))

HOST_TABLE += (
    # JetBrains Junie CLI: Claude Code's groups under `hooks` in `$JUNIE_HOME/config.json`
    # (`~/.junie/` by default); a project's `.junie/config.json` is read for its other settings,
    # its hooks "ignored by default for safety" (`sources.dialects.junie_check`). Each fact read
    # on junie.jetbrains.com/docs/junie-cli-hooks.html (the page of 10 July 2026, marked Early
    # Access) and in the Junie CLI docs ("Junie CLI configuration files"): `command` handlers
    # alone, with `timeout` in seconds (10 by default, 600 on Stop, 60 on StopFailure, 2 on
    # SessionEnd), `blockOnError` (Stop alone) and `async`; `sh -c`; no project variable; its
    # answers (`kinds.protocols.junie`, `hosts.junie`). Its tools by Claude Code's names (Bash,
    # Write, Read, Edit, Glob, Grep; WebSearch, AskUserQuestion). [unverified: whether a matcher
    # is searched or matched whole (read as Claude Code's), PreToolUse's default timeout (10,
    # as the earlier page says), whether the release build fires every event.] No test runs
    # Junie itself: its npm package downloads it from GitHub at install.
    derive(HOST_TABLE[1], "junie", "JetBrains Junie",
           writer="junie",
           protocol="junie",
           project_files=(".junie/config.json",), user_files=(".junie/config.json",),
           user_folder_env=("JUNIE_HOME", ".junie"), project_var="",
           reads_until_closed=True, ranks_defer=False, project_hooks_run=False,
           event_words=dict.fromkeys(_NOT_JUNIE),
           tool_names={"multi-edit": (), "notebook-edit": (), "web-fetch": (), "subagent": (),
                       "todo": (), "plan-enter": (), "plan-exit": (), "skill": (), "list": (),
                       "mcp-resources": (), "mcp-resource": (), "send-message": ()},
           dialect_changes={
               "reader": "junie_check:read",
               "types": {"command": ("command", ("command",),
                                     ("type", "command", "timeout", "blockOnError", "async"),
                                     True)},
               "settings_keys": (), "default_timeout": 10.0,
               "timeout_by_event": {"Stop": 600.0, "StopFailure": 60.0, "SessionEnd": 2.0},
               "shell": "sh", "shell_key": None, "exec_key": None, "condition_key": None,
               "plugin_vars": None, "env_file_events": frozenset(), "path_variables": (),
               "project_var": "", "exact_events": frozenset(),
               # [unverified: what Junie does with an entry it cannot read; its page says
               # "invalid configuration" is a warning, and it goes on]
               "whole_file": False,
               "option_types": {"blockOnError": "boolean", "async": "boolean"},
               "schema": {"file": "junie-config.schema.json",
                          "what": "JetBrains Junie config.json (`hooks`)",
                          "title": "JetBrains Junie config.json",
                          "description": "The hooks of a JetBrains Junie config.json "
                                         "(~/.junie/config.json; a project's .junie/config.json "
                                         "runs none), as agenthooks reads them; the file's other "
                                         "settings are let through."}}),
)

# OpenCode runs two events of agenthooks: its plugin's `tool.execute.before` and
# `tool.execute.after` (Charm Crush's one, PreToolUse, and PostToolUse).
_NOT_OPENCODE = tuple(event for event in _NOT_CRUSH if event != "tool.post")

HOST_TABLE += (
    # OpenCode (npm `opencode-ai` 1.x, GitHub anomalyco/opencode, formerly sst/opencode): no
    # hook file of its own, but in-process JavaScript plugins, every `.js` and `.ts` of a config
    # folder's `plugin/` or `plugins/` (`.opencode/` from the working folder up, and
    # `$XDG_CONFIG_HOME/opencode/`), loaded at startup (measured with opencode 1.18.33).
    # `agenthooks init --host opencode` writes one, `.opencode/plugin/agenthooks.js`
    # (`hosts.opencode.plugin`): it runs `agenthooks run PreToolUse --host opencode` on
    # `tool.execute.before` and `agenthooks run PostToolUse --host opencode` on
    # `tool.execute.after`, with Claude Code's payload (hook_event_name, session_id, cwd,
    # tool_name, tool_input, tool_use_id; tool_response after the call), so it is derived from
    # Claude Code and has no files, no dialect of its own, and those two events alone. It reads
    # the answers `hosts.opencode.render` writes. Its tools, as `input.tool` and `output.args`
    # (measured with opencode 1.18.33, the tools' JSON schemas in a captured request): bash
    # {command, timeout in ms, workdir}, read {filePath, offset, limit}, write {filePath,
    # content}, edit {filePath, oldString, newString, replaceAll}, glob and grep {pattern,
    # path}, webfetch {url, format, timeout}, websearch {query}, task {description, prompt,
    # subagent_type}, todowrite {todos}, skill {name}, question; apply_patch {patchText} in
    # place of edit and write for GPT models; an MCP tool `<server>_<tool>`, each part with
    # every character outside [A-Za-z0-9_-] made `_` (no prefix: read as any other tool name).
    derive(HOST_TABLE[1], "opencode", "OpenCode",
           writer="opencode",
           reads_until_closed=False, ranks_defer=False,
           event_words=dict.fromkeys(_NOT_OPENCODE),
           tool_names={
               "shell": ("bash",), "read": ("read",), "write": ("write",),
               "edit": ("edit", "apply_patch"), "glob": ("glob",), "grep": ("grep",),
               "web-fetch": ("webfetch",), "web-search": ("websearch",),
               "subagent": ("task",), "todo": ("todowrite",), "skill": ("skill",),
               "ask-user": ("question",), "multi-edit": (), "list": (), "plan-enter": (),
               "plan-exit": ("plan_exit",), "mcp-resources": ("list_mcp_resources",),
               "mcp-resource": ("read_mcp_resource",), "send-message": (),
               "notebook-edit": ()},
           tool_args={"shell": {"command": "command", "cwd": "workdir", "timeout": "timeout"},
                      "read": {"file_path": "filePath", "offset": "offset", "limit": "limit"},
                      "write": {"file_path": "filePath", "content": "content"},
                      "edit": {"file_path": "filePath", "old_string": "oldString",
                               "new_string": "newString", "replace_all": "replaceAll"},
                      "multi-edit": {},
                      "grep": {"pattern": "pattern", "path": "path"},
                      "glob": {"pattern": "pattern", "path": "path"},
                      "web-fetch": {"url": "url"}, "web-search": {"query": "query"},
                      "subagent": {"prompt": "prompt", "subagent_type": "subagent_type"},
                      "todo": {}, "mcp-resources": {}, "mcp-resource": {}}),
)


def has_no_files(row: HostRow) -> bool:
    """Whether a host reads no hook file at all: its hooks are code it loads (OpenCode's
    plugins), so `convert` has nothing to write for it and `validate` and `list` nothing to
    read; `init` writes the plugin that runs agenthooks."""
    return row.derived_from is not None and not row.generator and not (
        row.project_files or row.user_files or row.system_files)


# Claude Code's events that Goose has not: it has twelve (measured with goose 1.52.0;
# block/goose@0825b57 crates/goose/src/hooks/mod.rs `from_name`), seven of them Claude Code's.
_NOT_GOOSE = (*_NOT_DEEPAGENTS, "compact.pre", "notification", "claude.PermissionRequest",
              "claude.SubagentStart", "claude.SubagentStop")

HOST_TABLE += (
    # Goose (Block's, now AAIF's `goose`): Claude Code's groups in each Open Plugins plugin's
    # `hooks/hooks.json` (`sources.dialects.goose`; each fact measured with goose 1.52.0 from
    # npm @aaif/goose-binary-linux-x64, and read in block/goose@0825b57
    # crates/goose/src/hooks/mod.rs and block/goose@21aecaf crates/goose/src/plugins/
    # discovery.rs): a plugin is a folder of `<launch folder>/.agents/plugins/` or
    # `~/.agents/plugins/`; twelve events, Cursor's four per-operation events among them; its
    # payload (`sources.payloads.SHAPES`: `event`, `matcher_context`...), answers
    # (`kinds.protocols.goose`, `hosts.goose`) and `PLUGIN_ROOT`. Its tools: `shell`
    # {command, timeout_secs}, `write` {path, content}, `edit` {path, before, after}, `tree`
    # {path, depth}, `read_image` {source, crop}, and `<extension>__<tool>` (crates/goose/src/
    # agents/platform_extensions/developer; the payload measured: `"tool_name": "shell"`). Not
    # read here: which plugins Goose's settings.json and config.yaml disable, and
    # $GOOSE_PATH_ROOT.
    derive(HOST_TABLE[1], "goose", "Goose",
           writer="goose",
           protocol="goose",
           selection="goose",
           project_files=(".agents/plugins/*/hooks/hooks.json",),
           user_files=(".agents/plugins/*/hooks/hooks.json",),
           # it reads both pipes to their end, then waits for the exit, within the timeout
           # (`hook_command`; a backgrounded child outlived a 1 s timeout, measured)
           reads_until_closed=True, ranks_defer=False,
           event_words={**dict.fromkeys(_NOT_GOOSE),
                        "cursor.beforeShellExecution": "BeforeShellExecution",
                        "cursor.afterShellExecution": "AfterShellExecution",
                        "cursor.beforeReadFile": "BeforeReadFile",
                        "cursor.afterFileEdit": "AfterFileEdit",
                        "goose.PreToolUseResult": "PreToolUseResult"},
           tool_names={
               "shell": ("shell",), "write": ("write",), "edit": ("edit",), "list": ("tree",),
               "read": (), "read-many": (), "multi-edit": (), "grep": (), "glob": (),
               "web-fetch": (), "web-search": (), "subagent": (), "todo": (), "ask-user": (),
               "plan-enter": (), "plan-exit": (), "skill": (), "mcp-resources": (),
               "mcp-resource": (), "send-message": (), "notebook-edit": (), "delete": (),
               "subagent-define": ()},
           tool_args={"shell": {"command": "command"},
                      "write": {"file_path": "path", "content": "content"},
                      "edit": {"file_path": "path", "old_string": "before",
                               "new_string": "after"},
                      "list": {"path": "path"}},
           dialect_changes={
               "reader": "goose_check:read",
               # the value its matcher is tested against (`matcher_context`): the tool's name,
               # the command, the file, the prompt; None: none, so ""
               "events": {"UserPromptSubmit": "matcher_context", "SessionStart": None,
                          "SessionEnd": None, "Stop": None,
                          "PreToolUseResult": "tool_name",
                          "BeforeShellExecution": "matcher_context",
                          "AfterShellExecution": "matcher_context",
                          "BeforeReadFile": "matcher_context",
                          "AfterFileEdit": "matcher_context"},
               "exact_events": frozenset(), "settings_keys": (),
               "types": {"command": ("command", ("command",),
                                     ("type", "command", "timeout", "on_failure"), True)},
               "timeout_unit": 1.0, "default_timeout": 30.0, "timeout_by_event": {},
               "timeout_limit": 2**64 - 1, "project_var": "",
               "shell": "sh", "shell_key": None, "exec_key": None, "background_key": None,
               "condition_key": None, "env_file_events": frozenset(),
               "plugin_vars": ("PLUGIN_ROOT", ""), "path_variables": ("PLUGIN_ROOT",),
               "spared": frozenset(("unknown-event", "handler-kind", "command-missing",
                                     "timeout-invalid")),
               "option_types": {"on_failure": "string"},
               "schema": {"file": "goose-hooks.schema.json",
                          "what": "Goose plugin hooks (.agents/plugins/*/hooks/hooks.json)",
                          "title": "Goose plugin hooks",
                          "description": "The hooks of a Goose plugin's hooks/hooks.json "
                                         "(.agents/plugins/<name>/hooks/hooks.json, "
                                         "~/.agents/plugins/<name>/hooks/hooks.json), as "
                                         "agenthooks reads them; other top-level keys are let "
                                         "through, as Goose ignores them.",
                          "build": "goose"}}),
)

# Claude Code's events that Devin CLI has not: it has seven, PreToolUse, PostToolUse,
# PermissionRequest, UserPromptSubmit, Stop, SessionStart, SessionEnd
# (docs.devin.ai/cli/extensibility/hooks/overview, "Hook Events").
_NOT_DEVIN = (*(f"claude.{word}" for word in _CLAUDE_ONLY), "error", "compact.pre",
              "notification", *(f"claude.{word}" for word in (
                  "PermissionDenied", "PostToolBatch", "UserPromptExpansion", "SubagentStart",
                  "SubagentStop", "StopFailure", "PostCompact", "InstructionsLoaded")))

HOST_TABLE += (
    # Devin CLI (Cognition's `devin`): Claude Code's groups, answers and exit codes in `.devin/`.
    # Each fact read on docs.devin.ai/cli/extensibility/hooks/overview ("Quick Example", "Hook
    # Events", "Hook Format", "Command Hooks", "Exit Codes") and .../hooks/lifecycle-hooks: a
    # project's `.devin/hooks.v1.json` is keyed by event name, with no `hooks` wrapper
    # (`devin-hooks-wrapper`, `Dialect.bare_files`); seven events; a group's `matcher` a regex
    # on the event's `tool_name`, "" or none every tool; handlers `command` and `prompt` (an LLM
    # prompt, which only Devin runs) with `timeout` in seconds; DEVIN_PROJECT_DIR set to the
    # project root; `decision` approve|block|deny with `reason` on stdout, "deny" a block
    # (`kinds.protocols.devin`); exit 0 goes on, exit 2 blocks, "Other: Error — logged" (the
    # overview's first lines say a non-zero exit blocks; its later page,
    # docs.devin.ai/cli/extensibility/hooks, says any other non-zero exit "is logged as an
    # error and does not block", read here as Claude Code reads it). `hooks` in
    # `.devin/config.json`, `.devin/config.local.json` and the user's
    # `~/.config/devin/config.json` (docs.devin.ai/cli/extensibility/configuration, "Project vs
    # User Settings"; .../reference/configuration/global-vs-local: project files win over the
    # user's; $XDG_CONFIG_HOME is not followed here, nor Windows' %APPDATA%\devin). It runs
    # Claude Code's settings too ("If you already have hooks configured for Claude Code, they
    # will work with Devin CLI automatically"; "Existing hooks in .claude/ directories are also
    # picked up automatically"). Its tools: `exec` {command, shell_id}, `edit`, `mcp__<server>__
    # <tool>` (lifecycle-hooks, "PreToolUse"); read, grep, glob and the `edit`/`write` tools
    # (docs.devin.ai/cli/reference/permissions, "Default Permission Behavior"). [unverified:
    # the default timeout (none documented; Claude Code's here), whether a matcher is searched
    # or matched whole (read as Claude Code's), whether Devin reads Claude Code's tool names in
    # a matcher as its own (its docs match the matcher against `tool_name`, which is `exec`),
    # a user-level hooks.v1.json; the names of webfetch, run_subagent {task, profile},
    # todo_write, ask_user_question, skill, notebook_edit and grep's `glob_pattern`, taken from
    # third-party captures of Devin CLI 3000.6.14 payloads.] No test runs Devin itself: it is on
    # neither npm nor PyPI (an install script downloads it), and every run needs a sign-in.
    derive(HOST_TABLE[1], "devin", "Devin CLI",
           protocol="devin",
           project_files=(".devin/hooks.v1.json", ".devin/config.json",
                          ".devin/config.local.json"),
           user_files=(".config/devin/config.json",), project_var="DEVIN_PROJECT_DIR",
           runs_files_of=(("claude", (".claude/settings.json", ".claude/settings.local.json"),
                           (".claude/settings.json",)),),
           reads_until_closed=False, ranks_defer=False,
           event_words=dict.fromkeys(_NOT_DEVIN),
           tool_names={
               "shell": ("exec",), "read": ("read",), "write": ("write",), "edit": ("edit",),
               "grep": ("grep",), "glob": ("glob",), "web-fetch": ("webfetch",),
               "subagent": ("run_subagent",), "todo": ("todo_write",),
               "ask-user": ("ask_user_question",), "skill": ("skill",),
               "notebook-edit": ("notebook_edit",), "read-many": (), "multi-edit": (),
               "list": (), "web-search": (), "plan-enter": (), "plan-exit": (),
               "mcp-resources": (), "mcp-resource": (), "send-message": (), "delete": (),
               "subagent-define": ()},
           tool_args={"shell": {"command": "command"},
                      "grep": {"pattern": "pattern", "path": "path", "glob": "glob_pattern"},
                      "glob": {"pattern": "pattern", "path": "path"},
                      "subagent": {"prompt": "task", "subagent_type": "profile"}},
           dialect_changes={
               "bare_files": (("hooks.v1.json", "devin-hooks-wrapper"),), "all_tools": "",
               "reads_rule": "devin-reads-claude",
               "types": {"command": ("command", ("command",), ("type", "command", "timeout"),
                                     True),
                         "prompt": ("prompt", ("prompt",), ("type", "prompt", "timeout"),
                                    False)},
               "settings_keys": (), "shell_key": None, "exec_key": None,
               "background_key": None, "condition_key": None, "plugin_vars": None,
               "env_file_events": frozenset(), "path_variables": ("DEVIN_PROJECT_DIR",),
               "option_types": {},
               "schema": {"file": "devin-hooks.schema.json",
                          "what": "Devin CLI hooks.v1.json and config.json (`hooks`)",
                          "title": "Devin CLI hooks.v1.json and config.json: hooks",
                          "description": "The hooks of a Devin CLI file, as agenthooks reads them: "
                                         "its events at the top level of .devin/hooks.v1.json, "
                                         "`hooks` in .devin/config.json, .devin/config.local.json "
                                         "and ~/.config/devin/config.json. A config file's other "
                                         "settings are let through; in a hooks.v1.json, validate "
                                         "reports a key that is no event, and a `hooks` wrapper, "
                                         "under which Devin finds none.",
                          "build": "bare_or_settings"}}),
)

# Kiro has five of the canonical events: SessionStart, UserPromptSubmit, PreToolUse,
# PostToolUse, Stop (kiro.dev/docs/cli/v3/hooks, "Trigger reference").
_NOT_KIRO = tuple(event for event in _NOT_VIBE if event not in ("turn.start", "session.start"))

HOST_TABLE += (
    # Kiro (AWS's agent: Kiro CLI 3.x and the Kiro IDE): standalone hook files, every `*.json`
    # directly in a project's `.kiro/hooks/`, each `{"version": "v1", "hooks": [{name, trigger,
    # matcher, action: {type: command|agent, command|prompt}, timeout, enabled}]}`
    # (`sources.dialects.kiro`; kiro.dev/docs/cli/v3/hooks, "The new format", "Trigger
    # reference"); the user's in `~/.kiro/hooks/` (measured with Kiro CLI 2.13.0 in its V3 mode:
    # dev.classmethod.jp/articles/kiro-cli-213-v3-introspect-global-hooks). Eleven triggers, five
    # of them Claude Code's words; a command gets "hook context as JSON on stdin", exit 2 blocks
    # PreToolUse, UserPromptSubmit and PreTaskExec with stderr for the model, exit 0's stdout is
    # context (`kinds.protocols.kiro`, `hosts.kiro`). Derived from Claude Code for its payload's
    # fields, which Kiro CLI's hooks page lists (kiro.dev/docs/cli/hooks, "Hook event";
    # aws/amazon-q-developer-cli@35b5266 docs/hooks.md): hook_event_name (camelCase there,
    # `preToolUse`), cwd, tool_name, tool_input, tool_response, prompt. Its tools by their
    # names in a payload, its aliases matched too (docs/hooks.md: `fs_read`, `fs_write`,
    # `execute_bash`, `use_aws`; aliases read, write, shell, aws; an MCP tool
    # `@<server>/<tool>`): execute_bash {command}, fs_write {command, path, file_text, old_str,
    # new_str}, fs_read {operations}. Not read here: hooks embedded in agent configs
    # (`.kiro/agents/*.json` `hooks`, Kiro CLI 2.x's form, still run during the transition) and
    # the IDE 0.x `.kiro.hook` files. No test runs Kiro itself: it installs from AWS's
    # servers, with no registry package.
    derive(HOST_TABLE[1], "kiro", "Kiro",
           writer="kiro",
           protocol="kiro",
           selection="kiro",
           project_files=(".kiro/hooks/*.json",), user_files=(".kiro/hooks/*.json",),
           project_var="",
           # [unverified: whether Kiro waits for the pipes to close or for the exit]
           reads_until_closed=False, ranks_defer=False,
           # (its own triggers are rows of `model.events`: PreTaskExec, PostTaskExec,
           # PostFileCreate, PostFileSave, PostFileDelete, Manual)
           event_words=dict.fromkeys(_NOT_KIRO),
           tool_names={
               "shell": ("execute_bash", "shell"), "read": ("fs_read", "read"),
               "write": ("fs_write", "write"), "edit": (), "multi-edit": (),
               "web-search": ("web_search",), "web-fetch": ("web_fetch",),
               "todo": ("todo_list",), "read-many": (), "grep": (), "glob": (), "list": (),
               "subagent": (), "ask-user": (), "plan-enter": (), "plan-exit": (),
               "skill": (), "mcp-resources": (), "mcp-resource": (), "send-message": (),
               "notebook-edit": (), "delete": (), "subagent-define": ()},
           tool_args={"shell": {"command": "command"},
                      "write": {"file_path": "path", "content": "file_text"},
                      "read": {}, "web-search": {}, "web-fetch": {}, "todo": {}},
           dialect_changes={
               "reader": "kiro_check:read",
               # what each trigger's matcher is tested against: the tool's name, the file's
               # path; None: the trigger takes no matcher ("Trigger reference")
               "events": {"PreToolUse": "tool_name", "PostToolUse": "tool_name",
                          "UserPromptSubmit": None, "Stop": None, "SessionStart": None,
                          "PreTaskExec": None, "PostTaskExec": None, "Manual": None,
                          "PostFileCreate": "file_path", "PostFileSave": "file_path",
                          "PostFileDelete": "file_path"},
               "exact_events": frozenset(), "group_keys": (), "settings_keys": (),
               "types": {"command": ("command", ("command",),
                                     ("name", "description", "trigger", "matcher", "action",
                                      "timeout", "enabled", "confirm"), True),
                         "agent": ("prompt", ("prompt",),
                                   ("name", "description", "trigger", "matcher", "action",
                                    "timeout", "enabled", "confirm"), False)},
               # seconds (the page's example: `"timeout": 30`); [unverified: 60 when absent]
               "timeout_unit": 1.0, "default_timeout": 60.0, "timeout_by_event": {},
               "shell": "sh", "shell_key": None, "exec_key": None, "background_key": None,
               "condition_key": None, "whole_file": False, "plugin_vars": None,
               "env_file_events": frozenset(), "path_variables": (),
               # the prompt of UserPromptSubmit (kiro.dev/docs/hooks/types, "Prompt Submit")
               "call_vars": (("USER_PROMPT", "prompt"),),
               "own_vars": None, "project_var": "",
               # its aliases of the built-in tools (docs/hooks.md, "Tool matching")
               "matcher_aliases": ("read", "write", "shell", "aws", "@builtin"),
               "option_types": {"description": "string", "confirm": "boolean"},
               "schema": {"file": "kiro-hooks.schema.json",
                          "what": "Kiro hooks files (.kiro/hooks/*.json)",
                          "title": "Kiro hooks file",
                          "description": "A Kiro hooks file (.kiro/hooks/*.json, "
                                         "~/.kiro/hooks/*.json), as agenthooks reads it: Kiro "
                                         "reads every *.json directly in .kiro/hooks/.",
                          "build": "kiro"}}),
)

HOST_TABLE += (
    # Cline (npm `cline`, its CLI; the VS Code extension is another engine, not modelled
    # here): no JSON at all, but scripts named after their event in four folders, each file
    # one hook, with no matcher (`sources.dialects.cline`, each fact read in cline 3.0.65's
    # bundled @cline/core 0.0.86 and measured with cline 3.0.65): `.clinerules/hooks/` and
    # `.cline/hooks/` of the workspace (the git root), `~/Documents/Cline/Hooks/` and
    # `$CLINE_DIR/hooks/` (`~/.cline/hooks/`). Its payload is camelCase with its own event
    # names (`sources.payloads.SHAPES`), its answers `{cancel, contextModification,
    # errorMessage, overrideInput}` on stdout or a `HOOK_CONTROL\t` line (`kinds.protocols.
    # cline`, `hosts.cline`); it sets no variable of its own. Its tools (@cline/core
    # `DefaultToolNames`, their schemas in a captured request): run_commands {commands: [...]},
    # read_files {files: [{path, start_line, end_line}]}, editor {path, old_text, new_text,
    # insert_line}, apply_patch {input}, search_codebase {queries}, fetch_web_content
    # {requests}, ask_question {question, options}, spawn_agent {systemPrompt, task}, skills,
    # submit_and_exit; an MCP tool `<server>__<tool>`.
    HostRow("cline", "Cline", "Cline",
            "cline",
            "cline",
            "cline",
            "cline",
            (".clinerules/hooks/*", ".cline/hooks/*"),
            ("Documents/Cline/Hooks/*", ".cline/hooks/*"),
            user_folder_env=("CLINE_DIR", ".cline")),
)
