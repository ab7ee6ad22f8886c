"""Typed, immutable records for hook files, their handlers, what was found wrong with them,
and what each handler answered.

Every source reads its format into `Source`, `Handler`, `HookFile` and `Diagnostic`; `json_kind`
and `escape` are how a finding names a JSON value and a place in a file. `Answer` is one
handler's outcome: every protocol that reads a handler (hooks.json's, Claude Code's, Gemini
CLI's) and every kind that runs one (processes, http) gives it; `combine` merges them, the
engine, the API and the reports read them. The helpers after it are what every protocol shares:
the fields of a finished process, a handler that did not answer, one agenthooks cannot run.
Handlers and their outcomes share one module: both are on the path of every run.
"""

from __future__ import annotations

from agenthooks._lean.records import NamedTuple
from agenthooks.model.hosts import HOOKS_JSON_DIALECT

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Literal, Protocol
    Level = Literal["user", "workspace"]
    Severity = Literal["error", "warning", "note"]
    Status = Literal["ok", "blocked", "warning", "timeout", "not-started", "skipped"]

    class Ended(Protocol):
        """What the helpers read of a finished process (`executor.ProcessResult`)."""

        @property
        def status(self) -> str: ...
        @property
        def exit_code(self) -> int | None: ...
        @property
        def signal(self) -> int | None: ...
        @property
        def stdout(self) -> bytes: ...
        @property
        def stderr(self) -> bytes: ...
        @property
        def stdout_truncated(self) -> bool: ...
        @property
        def stderr_truncated(self) -> bool: ...
        @property
        def duration_ms(self) -> float: ...
        @property
        def error(self) -> str | None: ...


def json_kind(value: object) -> str:
    """How a message names the type of a JSON value: "a string", "an object", "null"..."""
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return "null"


def escape(token: str) -> str:
    """Escape one JSON pointer reference token (RFC 6901)."""
    return token.replace("~", "~0").replace("/", "~1")


class Source(NamedTuple):
    """One hooks.json file, the workspace it belongs to, and the folder its handlers run in."""

    path: str  # as the user named it, or relative to the current directory; used in messages
    file: str  # absolute path, used to read it
    workspace: str  # absolute project root: GEMINI_PROJECT_DIR / CLAUDE_PROJECT_DIR
    level: Level
    # Absolute directory the handlers run in: the folder that holds the file, as Antigravity
    # does (`python3 ../.githooks/stop.py`, `./scripts/gate.py` kept under `.agents/`); the
    # project root for Claude Code and Gemini CLI files, as those hosts do.
    cwd: str
    # The host whose format the file is in, whose rules read it: "antigravity" (hooks.json),
    # "claude" (Claude Code settings or plugin hooks), "gemini"... (`model.hosts`). Always
    # said: no format is the one a file is in by default.
    dialect: str
    # The plugin (or extension) folder of a plugin's `hooks/hooks.json`: CLAUDE_PLUGIN_ROOT.
    plugin_root: str | None = None
    # The plugin an installed plugin's hook file belongs to (`foo@marketplace`), for `list`
    # and `explain`; None for a file named by path and for every other file.
    plugin: str | None = None
    # Why its host does not load this plugin hook file (the plugin is disabled, the folder
    # is another client's...): it runs nothing, and `explain` says why; None when it loads.
    plugin_off: str | None = None
    # Read as hooks.json for want of anything better: named by path, no --dialect, and a
    # content that another host's format reads too (`dialects.ambiguous_shape`); such a file
    # is an error (`format-ambiguous`), never run in a format it was perhaps not written in.
    unsure: bool = False


class Handler(NamedTuple):
    """One handler of one event, with everything needed to select and run it."""

    source: Source
    hook: str
    event: str
    matcher: str | None  # the group's matcher on tool events; None on flat events
    command: str
    timeout: float  # seconds: whole in hooks.json; a shell hook's may be a fraction
    kind: str  # "command" or "prompt"
    enabled: bool
    pointer: str  # JSON pointer of the handler object inside its file
    # The fields below matter for Claude Code and Gemini CLI handlers only
    # (agenthooks.sources.dialects). `kind` there is the host's `type` (claude: command, http,
    # mcp_tool, prompt, agent; gemini: command, plugin, runtime) and `command` the command, url,
    # prompt or "server tool"; `timeout` is in seconds (a Gemini timeout, given in milliseconds,
    # divided by 1000) and the host's default when none is given; `matcher` is the group's matcher,
    # as written, on every event that has one. `dialect`: the host whose rules read the handler,
    # always said (its file's, or the one a hooks.json handler names).
    dialect: str
    name: str | None = None  # Gemini's `name` (dedup key name:command, hooksConfig.disabled)
    sequential: bool = False  # Gemini: the group says `sequential: true`
    # Every other key of the handler object, sorted by key, values frozen (lists as tuples,
    # objects as sorted (key, value) tuples): Claude's args, async, shell, if, statusMessage,
    # once, headers, allowedEnvVars, server, tool, input, model; Gemini's env, description.
    options: tuple[tuple[str, object], ...] = ()
    # How it runs, as data its source puts here at load time (`sources.dialects.spec.Dialect`): the
    # run path reads these, never the dialect.
    shell: str | None = None  # the shell that runs `command`; None: /bin/sh (hooks.json)
    args: tuple[str, ...] | None = None  # exec form: `command` run with these, no shell
    background: bool = False  # started, never waited for, no answer (Claude's `async`)
    condition: str | None = None  # checked per call before it runs (Claude's `if`)
    env_file: bool = False  # gets an env file to write variables to (CLAUDE_ENV_FILE)
    chain: str | None = None  # its sequence group (see `Dialect.chain`)
    # The host whose payload it reads and whose answers it writes, where not its file's
    # (a hooks.json handler's `dialect`, as `convert` writes a Claude Code hook there): it is
    # given that host's payload, read with that host's protocol, run in the project root.
    speaks: str | None = None
    # What it finds in its environment (`Dialect.plugin_vars`, `call_vars`, `own_vars`).
    plugin_vars: tuple[str, str] | None = None
    call_vars: tuple[tuple[str, str], ...] = ()
    own_vars: str | None = None
    # Hosts it is written for alone, or not for: a handler of one tool's block of a file
    # written for several (rulesync's `claudecode.hooks`) runs only when that host calls;
    # a shared one whose event such a block replaces never runs under that host.
    only_under: str | None = None
    not_under: tuple[str, ...] = ()
    # The "module:function" testing `condition` where it is not Claude Code's `if` (Factory
    # Droid's `commandRegex`): `test(condition, tool, tool_input)`, true when it runs.
    condition_test: str | None = None


def host_why(handler: Handler, host: str | None) -> str | None:
    """Why a handler written for some hosts only (`Handler.only_under`, `not_under`: a
    rulesync tool block) does not run, or is not written, for `host`; None when it is."""
    if handler.only_under is None and not handler.not_under:
        return None
    from agenthooks.model.events import HOST_NAMES

    if handler.only_under is not None and handler.only_under != host:
        name = HOST_NAMES.get(handler.only_under, handler.only_under)
        return (f"written for {name} alone (its own block of the file): it runs under "
                f"--host {handler.only_under}")
    if host is not None and host in handler.not_under:
        name = HOST_NAMES.get(host, host)
        return f"{name}'s own block of the file replaces the shared {handler.event} hooks"
    return None


def run_folder(handler: Handler) -> str:
    """Where a handler runs: its file's handlers' folder, or, for one written for another
    host (`Handler.speaks`), the project root, where that host runs its hooks."""
    return handler.source.cwd if handler.speaks is None else handler.source.workspace


# Errors about one matcher that never selects the tool it names (`model.toolwords`): `validate`
# fails on them, but the host runs the file, that handler included, for every other call; so
# does agenthooks. Every other error keeps the file (or its entry) from running.
SELECTS_NOTHING = frozenset({"matcher-misspelt", "matcher-wrong-host", "augment-mcp-matcher",
                             "augment-cursor-event", "matcher-never-runs"})


def breaks_file(severity: str, rule: str) -> bool:
    """Whether a finding of this severity and rule keeps its file (or entry) from running."""
    return severity == "error" and rule not in SELECTS_NOTHING


class Diagnostic(NamedTuple):
    """A finding at a place in a file; `line` and `column` are 1-based, columns in characters."""

    file: str
    line: int
    column: int
    severity: Severity
    rule: str
    message: str
    pointer: str
    # What to write in place of the key or value the finding points at, when the rule knows
    # (the event or tool name meant, a timeout in the right unit): an editor's quick fix.
    # A string whatever the value's type; reports leave it out, the message says it.
    fix: str | None = None

    def __str__(self) -> str:
        """`file:line:col: severity [rule] message`, the one-line form every report uses."""
        place = f"{self.file}:{self.line}:{self.column}"
        return f"{place}: {self.severity} [{self.rule}] {self.message}"

    def as_json(self) -> dict[str, object]:
        return {
            "file": self.file,
            "line": self.line,
            "column": self.column,
            "severity": self.severity,
            "rule": self.rule,
            "message": self.message,
            "pointer": self.pointer,
        }


class HookFile(NamedTuple):
    """A loaded file: its handlers in file order, and its diagnostics (empty when not checked)."""

    source: Source
    handlers: tuple[Handler, ...]
    diagnostics: tuple[Diagnostic, ...] = ()

    @property
    def errors(self) -> tuple[Diagnostic, ...]:
        """The errors that keep the file from running (`breaks_file`)."""
        return tuple(d for d in self.diagnostics if breaks_file(d.severity, d.rule))

    @property
    def ok(self) -> bool:
        return not self.errors


class Answer(NamedTuple):
    """One handler's result: how its process ended and what it answered.

    `status`: ok (exit 0), blocked (exit 2), warning (another exit code or a signal), timeout,
    not-started, skipped (a prompt handler). `output` is the parsed answer of an exit 0;
    `decision` is already in this format's words for the event; `warning` is the one-line
    message naming the hook, and `failed` says whether `--fail-closed` counts it as a failure.
    """

    handler: Handler
    status: Status
    exit_code: int | None = None
    signal: int | None = None
    duration_ms: float = 0.0
    stdout: str = ""
    stderr: str = ""
    stdout_truncated: bool = False
    stderr_truncated: bool = False
    output: dict[str, Any] | None = None
    decision: str | None = None
    reason: str | None = None
    warning: str | None = None
    failed: bool = False
    # A Claude Code SessionStart handler's CLAUDE_ENV_FILE that agenthooks made: (path, what
    # the handlers wrote to it), shown in `--report json`.
    env_file: tuple[str, str] | None = None

    @property
    def hook(self) -> str:
        return self.handler.hook

    @property
    def source(self) -> str:
        return self.handler.source.path

    @property
    def command(self) -> str:
        return self.handler.command

    @property
    def timed_out(self) -> bool:
        return self.status == "timeout"

    @property
    def signal_name(self) -> str | None:
        return None if self.signal is None else signal_name(self.signal)

    @property
    def first_stderr_line(self) -> str:
        return first_line(self.stderr)

    def as_json(self) -> dict[str, Any]:
        """The handler object of `agenthooks run --report json`."""
        return {
            "hook": self.hook,
            "source": self.source,
            "command": self.command,
            "status": self.status,
            "exitCode": self.exit_code,
            "signal": self.signal_name,
            "durationMs": round(self.duration_ms, 3),
            "timedOut": self.timed_out,
            "stdout": self.stdout,
            "stderr": self.stderr,
            "stdoutTruncated": self.stdout_truncated,
            "stderrTruncated": self.stderr_truncated,
            "output": self.output,
            "decision": self.decision,
            **({"envFile": {"path": self.env_file[0], "content": self.env_file[1]}}
               if self.env_file is not None else {}),
        }


def signal_name(number: int) -> str:
    # Imported here: `signal` builds its enums with `enum` on import, and a run that names
    # no signal should not pay for it.
    from signal import Signals

    try:
        return Signals(number).name
    except ValueError:
        return f"signal {number}"


def first_line(text: str) -> str:
    for line in text.splitlines():
        if line.strip():
            return line.strip()
    return ""


def _decode(data: bytes) -> str:
    return data.decode("utf-8", "replace")


# Handler types only their host can run, and what of their host they need.
_NEEDS_HOST: dict[str, str] = {
    "mcp_tool": "{host}'s MCP servers", "prompt": "{host}'s model",
    "agent": "{host}'s model and tools", "plugin": "{host}'s extension code",
    "runtime": "{host}'s process",
}


def prompt_warning(handler: Handler) -> str:
    if handler.dialect == HOOKS_JSON_DIALECT:
        return f"hook {handler.hook!r}: prompt handlers need the agent's model; skipped"
    from agenthooks.model.events import HOST_NAMES

    needs = _NEEDS_HOST.get(handler.kind, "its host").format(
        host=HOST_NAMES.get(handler.dialect, handler.dialect))
    return f"hook {handler.hook!r}: {handler.kind} handlers need {needs}; skipped"


def skipped(handler: Handler) -> Answer:
    """A prompt handler: it needs the agent's model, which agenthooks does not have."""
    return Answer(handler, "skipped", warning=prompt_warning(handler))


def process_fields(result: Ended) -> dict[str, Any]:
    """The fields of an `Answer` that say how the process ended, its output decoded."""
    return {
        "exit_code": result.exit_code,
        "signal": result.signal,
        "duration_ms": result.duration_ms,
        "stdout": _decode(result.stdout),
        "stderr": _decode(result.stderr),
        "stdout_truncated": result.stdout_truncated,
        "stderr_truncated": result.stderr_truncated,
    }


def failure(handler: Handler, result: Ended, name: str, stderr: str) -> Answer:
    """A handler that did not answer: another exit code, a signal, a timeout, no start."""
    status: Status
    if result.status == "timeout":
        status = "timeout"
        what = f"timed out after {handler.timeout:g} s"
    elif result.status == "not-started":
        status = "not-started"
        error = result.error or "cannot start"
        what = error if error.startswith("cannot start") else f"cannot start: {error}"
    elif result.status == "signaled":
        status = "warning"
        what = f"killed by {signal_name(result.signal or 0)}"
    else:
        status = "warning"
        what = f"exited {result.exit_code}"
    detail = first_line(stderr)
    warning = f"hook {name!r} {what}" + (f": {detail}" if detail else "")
    return Answer(handler, status, warning=warning, failed=True, **process_fields(result))
