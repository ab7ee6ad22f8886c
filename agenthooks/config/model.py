"""Typed, immutable records for hook files, their handlers and what was found wrong with them."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Literal, NamedTuple
    Level = Literal["user", "workspace"]
    Severity = Literal["error", "warning"]
else:
    from agenthooks._records import NamedTuple


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
    # "antigravity" (hooks.json), "claude" (Claude Code settings or plugin hooks) or "gemini"
    # (Gemini CLI settings or extension hooks): whose rules read the file.
    dialect: str = "antigravity"
    # The plugin (or extension) folder of a plugin's `hooks/hooks.json`: CLAUDE_PLUGIN_ROOT.
    plugin_root: str | None = None


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
    # The fields below matter for Claude Code and Gemini CLI handlers only (agenthooks.dialects).
    # `kind` there is the host's `type` (claude: command, http, mcp_tool, prompt, agent; gemini:
    # command, plugin, runtime) and `command` the command, url, prompt or "server tool";
    # `timeout` is in seconds (a Gemini timeout, given in milliseconds, divided by 1000) and
    # the host's default when none is given; `matcher` is the group's matcher, as written,
    # on every event that has one.
    dialect: str = "antigravity"
    name: str | None = None  # Gemini's `name` (dedup key name:command, hooksConfig.disabled)
    sequential: bool = False  # Gemini: the group says `sequential: true`
    # Every other key of the handler object, sorted by key, values frozen (lists as tuples,
    # objects as sorted (key, value) tuples): Claude's args, async, shell, if, statusMessage,
    # once, headers, allowedEnvVars, server, tool, input, model; Gemini's env, description.
    options: tuple[tuple[str, object], ...] = ()
    # How it runs, as data its source puts here at load time (`dialects.spec.Dialect`): the
    # run path reads these, never the dialect.
    shell: str | None = None  # the shell that runs `command`; None: /bin/sh (hooks.json)
    args: tuple[str, ...] | None = None  # exec form: `command` run with these, no shell
    background: bool = False  # started, never waited for, no answer (Claude's `async`)
    condition: str | None = None  # checked per call before it runs (Claude's `if`)
    env_file: bool = False  # gets an env file to write variables to (CLAUDE_ENV_FILE)
    chain: str | None = None  # its sequence group (see `Dialect.chain`)


class Diagnostic(NamedTuple):
    """A finding at a place in a file; `line` and `column` are 1-based, columns in characters."""

    file: str
    line: int
    column: int
    severity: Severity
    rule: str
    message: str
    pointer: str

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
        return tuple(d for d in self.diagnostics if d.severity == "error")

    @property
    def ok(self) -> bool:
        return not self.errors
