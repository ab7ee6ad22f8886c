"""What a dialect is, as data: its events, what each event's matcher is matched against, its
handler types with their fields, its timeout unit and defaults.

Each host with files of its own has one instance in its module (`claude.CLAUDE`,
`gemini.GEMINI`, `cursor.CURSOR`, `copilot.COPILOT`...), named by its row of `model.hosts`;
the walkers (`sources.dialects.check`, or the host's own `reader`) and `convert` read them, so a
host's rule lives in one table.
"""

from __future__ import annotations

from agenthooks._lean.records import NamedTuple

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import TypedDict

    class SchemaFacts(TypedDict, total=False):
        """What the JSON Schema of a host's files says (`agenthooks.schemagen`): text, and
        which builder of `schemagen.hostfiles` makes it; read by nothing else."""

        file: str  # its file name under schemas/, the last part of its `$id`
        what: str  # the file kind, as docs/schemas.md's table says it
        title: str
        description: str  # what the file is, before the sentence every schema ends with
        # The function of `schemagen.hostfiles` building it, given the `Dialect`: "settings"
        # (a `hooks` object of matcher groups beside other settings) when absent.
        build: str
        # What a matcher on one of its `exact_events` is, said after "Matchers select tools
        # by name" (Claude Code's exact-name alphabet, Gemini CLI's exact text).
        exact: str
        # Handler types it parses and then skips without checking anything else (Codex's
        # prompt and agent handlers).
        unchecked: tuple[str, ...]
        # The handler type read when `type` is absent, where `type` is optional.
        default_type: str
        # Its `timeout` is a whole number of seconds, 0 counting as 1 (Codex's u64).
        whole_seconds: bool
        # It documents no default timeout (Cursor's "platform default").
        no_default_timeout: bool

    class ConvertFacts(TypedDict, total=False):
        """What `convert` writes for a host, beyond its `Dialect`'s other fields: a key left out
        is False, empty or None. A derived host's are filled in from its parent's
        (`sources.dialects.derived_dialect`). A plain dict at run time, as a record class more
        would cost every run that loads a `Dialect`."""

        # Handler types it reads and runs none of, which convert does not write (Codex parses prompt
        # and agent handlers and skips them).
        unrun_types: frozenset[str]
        # The project-dir variables its handlers get, the one convert writes first (Gemini CLI sets
        # Claude Code's too); a derived host's own, then those of its parent's that its
        # `path_variables` still list. With none, convert names the root `$(git rev-parse
        # --show-toplevel)`, as Codex's docs write a project script.
        project_dirs: tuple[str, ...]
        # Whether it replaces its project-dir variable in the command text with the shell-quoted
        # path before the shell runs it (Gemini CLI): convert writes it unquoted, `$VAR/path`, and
        # braced inside double quotes, `${VAR}`, which it leaves to the shell.
        substitutes_root: bool
        # Whether a script path relative to the project root is written bare, a tool writing each
        # host's own prefix before it (rulesync writes `$CLAUDE_PROJECT_DIR/` for Claude Code).
        root_relative: bool
        # The variable naming a plugin's folder that convert rewrites into the target's (Codex sets
        # PLUGIN_ROOT for a plugin's hooks, discovery.rs); None: convert carries none.
        plugin_root: str | None
        # Options of another host's handlers it takes as they are: (key, the handler types that take
        # it, None for every type).
        foreign_options: tuple[tuple[str, tuple[str, ...] | None], ...]
        # The handler key convert writes a handler's label under (Gemini CLI's `name`).
        label_key: str | None
        # Whether one handler can be turned off (Gemini CLI's `hooksConfig.disabled`), so that a
        # disabled handler is carried there.
        handler_switch: bool
        # Whether its regex matchers match the whole tool name (Copilot CLI), not a part of it.
        whole_name: bool
        # Whether a `-` makes a matcher a regex on every event (Codex's `is_exact_matcher`), not on
        # its `exact_events` alone, so that convert anchors a list of names with one.
        dash_is_regex: bool
        # Whether its `exact_events` match a matcher's exact text, one name a group (Gemini CLI's
        # lifecycle events), rather than names in a narrower alphabet (Claude Code's).
        exact_text: bool
        # The `version` of its files when each event holds one flat list of handlers, each with its
        # own matcher (`{"version": 1, "hooks": {event: [handler]}}`: Cursor, Copilot CLI,
        # rulesync); None: Claude Code's matcher groups.
        flat_version: int | None
        # Events under whose word another host's handlers keep that host's word in its files, read
        # with that host's payload and answers (Copilot CLI's PascalCase keys, for the hosts of its
        # `HostRow.guest_protocols`).
        guest_events: frozenset[str]

class HandlerType(NamedTuple):
    """One `type` of handler: the field that says what it runs, and every key it accepts."""

    field: str | None  # the required text field: command, url, prompt; None for mcp_tool
    required: tuple[str, ...]  # fields that must be non-empty strings
    keys: tuple[str, ...]  # every key a handler of this type may have
    runs_offline: bool  # whether agenthooks can run it outside the host


class Dialect(NamedTuple):
    name: str  # the host's word (`model.hosts`)
    host: str  # "Claude Code"
    # event -> the payload field its matcher is matched against; None when the event ignores
    # matchers; "tool_name" on tool events.
    events: dict[str, str | None]
    # Events whose matchers are exact text only (Gemini's lifecycle events), or use a
    # narrower exact-name alphabet (Claude's FileChanged, StopFailure).
    exact_events: frozenset[str]
    types: dict[str, HandlerType]
    group_keys: tuple[str, ...]
    # Top-level settings keys this dialect reads besides `hooks`.
    settings_keys: tuple[str, ...]
    timeout_unit: float  # seconds per unit of `timeout`: 1 (Claude), 0.001 (Gemini)
    default_timeout: float  # seconds
    timeout_by_event: dict[str, float]  # seconds, where an event's default differs
    project_var: str  # CLAUDE_PROJECT_DIR / GEMINI_PROJECT_DIR
    # Keys whose value type is checked: key -> (type name, predicate name)
    option_types: dict[str, str]

    # How its command handlers run, put on each Handler at load time, so that the run path
    # never asks which dialect a handler came from.
    shell: str = "bash"  # its host runs commands with `bash -c`
    shell_key: str | None = None  # the handler key naming another shell
    exec_key: str | None = None  # the handler key of the exec form's arguments (no shell)
    background_key: str | None = None  # the key that starts a handler and never waits
    condition_key: str | None = None  # the key of a per-call condition (Claude's `if`)
    env_file_events: frozenset[str] = frozenset()  # events whose commands get an env file
    # Its handlers of one event form one sequence: once one group says `sequential`, all of
    # them run in order, each seeing what the previous one rewrote (Gemini CLI).
    chain: str | None = None
    # Whether its host runs a handler once per name and command (Gemini CLI) rather than per
    # type, command and arguments (Claude Code).
    dedup_by_name: bool = False
    # How its files are read: JSON with comments (Gemini CLI); whether one error drops every
    # handler of the file (Claude Code) rather than the entry it is in; the "module:function"
    # walking a parsed document (`check_document(doc, source, thorough=...)`, returning what
    # `sources.dialects.check.DialectChecker` gives), None for the Claude Code / Gemini CLI walker.
    comments: bool = False
    whole_file: bool = False
    reader: str | None = None
    # The "module:function" reading a file of this format that is not JSON (Codex's
    # config.toml): `parse(source, text)` gives (document, positions, findings, text), or
    # None for a file it leaves to the JSON reader.
    parser: str | None = None
    # Top-level keys that mark a file of this format whatever its place (Cursor's `version`).
    marker_keys: tuple[str, ...] = ()
    # Names besides its own tool names (`model.tools`) that its matchers select tools by
    # (Codex's `Write`, `Edit`, `Agent`).
    matcher_aliases: tuple[str, ...] = ()
    # How the settings walker (`sources.dialects.check`) reads its files, which a host derived
    # from another keeps: the top-level key that turns every hook off ("disableAllHooks", a
    # boolean; "hooksConfig", an object whose `enabled` is false), and what a matcher is
    # ("names-or-regex": a list of exact names, else an unanchored regex; "regex-or-text": a
    # regex, exact text on its `exact_events` and where it does not compile).
    settings_switch: str = "disableAllHooks"
    matchers: str = "names-or-regex"
    # Tool names its built-in tools have, for the examples of matcher warnings.
    known_tools: tuple[str, ...] = ()
    # Whether VS Code's agent runs the hooks of its project files too, ignoring their matchers
    # (Claude Code's settings); a derived host's files are its own, which VS Code does not read.
    vscode_reads: bool = False
    timeout_limit: int = 2_147_483  # the largest `timeout` it takes, in its unit
    # Keys under `hooks` that are not events and that it skips without a word (Gemini CLI's
    # legacy `enabled`, `disabled`, `notifications`).
    ignored_events: frozenset[str] = frozenset()
    # Variables a command may start its script's path with (`$CLAUDE_PROJECT_DIR/...`).
    path_variables: tuple[str, ...] = ()
    # What its handlers find in their environment, put on each `Handler` at load time
    # (`kinds.process`): a plugin's handlers' variables for its folder and its data folder;
    # (variable, payload field) pairs set per call; the "module:function" giving the
    # variables a handler sets itself (Gemini CLI's `env`), over every other one.
    plugin_vars: tuple[str, str] | None = None
    call_vars: tuple[tuple[str, str], ...] = ()
    own_vars: str | None = None
    # "module:function" reading a key of its `hooks` object as the host reads it: the event
    # word it is (Grok Build reads `pre_tool_use`, `preToolUse` and Cursor's
    # `beforeShellExecution` as PreToolUse; Charm Crush any key that is `PreToolUse` once
    # lowercased without `_`), else the key itself. None: its keys are its words alone.
    event_key: str | None = None
    # Error rules that drop only what they point at (an event, a handler) in a host that
    # drops a whole file on any other error (Goose skips an unknown event, an action of
    # another `type` and one without `command`, and loads the rest).
    spared: frozenset[str] = frozenset()
    # Files of its own read as a bare map of events, keyed by event name with no `hooks`
    # wrapper (Factory Droid's hooks.json, Devin CLI's hooks.v1.json): (file name, the rule
    # said of a `hooks` wrapper there, under which the host finds no event). `init` and
    # `convert` write such a file bare too.
    bare_files: tuple[tuple[str, str], ...] = ()
    # The matcher `init` writes for every tool, where its docs name another than Claude Code's
    # `*` (Devin CLI documents "" alone: `*` is no regex).
    all_tools: str = "*"
    # The rule said in a project file of its own when the project's files of another host that
    # it runs too (`HostRow.runs_files_of`) have hooks: a gate in both runs twice in it, an
    # `agenthooks run` entry in both runs agenthooks twice (Devin CLI's `devin-reads-claude`).
    reads_rule: str | None = None

    def bare_rule(self, path: str) -> str | None:
        """The wrapper rule of `path` when it is one of its bare files (by its name), else
        None: a settings file, whose events are under `hooks`."""
        name = path.replace("\\", "/").rsplit("/", 1)[-1]
        return next((rule for file, rule in self.bare_files if file == name), None)
    # Whether each of its files is a script, one handler named by the file (Cline's
    # `.clinerules/hooks/PreToolUse`), not a document of handlers: its `parser` reads it
    # whatever its bytes, a link or a folder included, and finds no JSON in it.
    script: bool = False
    # What `agenthooks schema` says of its own files (`agenthooks.schemagen`), as plain data;
    # None: no schema. A derived host's is its own row's, never its parent's.
    schema: SchemaFacts | None = None
    # What `convert` writes for it, in one field of plain data, which costs a run that loads
    # a `Dialect` less than a record of its own would.
    convert: ConvertFacts = {}  # noqa: RUF012 (a field's default, never changed in place)

    def default_timeout_for(self, event: str) -> float:
        return self.timeout_by_event.get(event, self.default_timeout)
