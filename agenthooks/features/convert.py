"""Rewriting a hook config from one dialect into another, and saying what cannot be carried.

Per handler: the event by the cross-dialect table; the matcher by its meaning
(`matching.Selection`), tool names by `model.tools` (the one table of each host's tool
names; a name it does not know is kept), written back in the target's syntax; the timeout in
seconds, written in the target's unit (left out where it is the target's default for that
event); the command so that it runs the same script from the folder the target runs it in
(see "commands" below: a relative script path, the project-dir variables, the plugin-root
variable). Labels (`name`, hook names, `description`) go where the target has a
place for them. Everything else that changes what runs (an event or handler type the target
lacks, `if`, `async`, `args`, `env`, `sequential`, a disabled handler Claude cannot express,
a command convert cannot rewrite safely...) is a `Loss` at its place.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Sequence

from agenthooks._lean.records import NamedTuple
from agenthooks.model.events import HOST_NAMES, counterpart
from agenthooks.model.handlers import Handler
from agenthooks.model.hosts import HOOKS_JSON_DIALECT, host_row, lineage
from agenthooks.model.matcher import is_plain_name
from agenthooks.model.tools import tool_name
from agenthooks.sources.dialects import matching
from agenthooks.sources.dialects.check import DIALECT_SPECS
from agenthooks.sources.dialects.matching import Selection

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from agenthooks.sources.dialects.spec import ConvertFacts

# Options that are labels: carried where the target has a place, else dropped quietly.
LABELS = frozenset(("description",))

# What convert writes for a host is its `Dialect`'s (`sources.dialects.spec`: its types and
# `ConvertFacts`), a derived host's filled in from its parent's
# (`sources.dialects.derived_dialect`). hooks.json has no `Dialect`: its handler types are
# `sources.reading.check.HANDLER_KEYS`, the rest is this. agenthooks gives its handlers
# both project-dir variables; it matches the whole tool name; a hook of it can be turned off
# (`enabled`); a prompt handler takes another host's `model`.
HOOKS_JSON: ConvertFacts = {"project_dirs": ("GEMINI_PROJECT_DIR", "CLAUDE_PROJECT_DIR"),
                             "whole_name": True, "handler_switch": True,
                             "foreign_options": (("model", ("prompt",)),)}


def family(host: str) -> str:
    """The host whose files a host's are: itself, or the first of the hosts it is derived
    from (`model.hosts.lineage`); a derived host's files are written by its rules."""
    return lineage(host)[-1]


def facts(host: str) -> ConvertFacts:
    """What convert writes for a host (`Dialect.convert`; hooks.json's `HOOKS_JSON`)."""
    return HOOKS_JSON if host == HOOKS_JSON_DIALECT else DIALECT_SPECS[host].convert


def plugin_variable(host: str) -> str | None:
    """The variable naming a plugin's folder for a host's handlers."""
    return facts(host).get("plugin_root")


def kinds(host: str) -> tuple[str, ...]:
    """The handler types convert writes for a host: those of its `Dialect.types` it runs."""
    if host == HOOKS_JSON_DIALECT:
        from agenthooks.sources.reading.check import HANDLER_KEYS

        return tuple(HANDLER_KEYS)
    spec = DIALECT_SPECS[host]
    unrun = spec.convert.get("unrun_types", frozenset())
    return tuple(kind for kind in spec.types if kind not in unrun)


class Loss(NamedTuple):
    pointer: str
    message: str


class Converted(NamedTuple):
    document: dict[str, Any]
    losses: list[Loss]
    # Set when a path was written for the target file's folder: where that file was taken to
    # be (with `assumed`, the host's standard place, as no output path was given).
    placed: Place | None = None


def translate_tools(chosen: Selection, source: str, target: str) -> Selection:
    """A selection with the source host's tool names as the target host names them."""
    if chosen.form == "names":
        return chosen._replace(names=tuple(tool_name(n, source, target) for n in chosen.names))
    if chosen.form in ("search", "full"):
        def swap(found: re.Match[str]) -> str:
            return tool_name(found.group(0), source, target)

        return chosen._replace(pattern=re.sub(r"[A-Za-z_][A-Za-z0-9_]*", swap, chosen.pattern))
    return chosen


def matcher_field(dialect: str, event: str) -> str | None:
    if dialect == HOOKS_JSON_DIALECT:
        from agenthooks.model.events import TOOL_EVENTS

        return "tool_name" if event in TOOL_EVENTS else None
    return DIALECT_SPECS[dialect].events.get(event)


def render(chosen: Selection, target: str, event: str) -> list[str | None] | None:
    """Matchers that select what `chosen` selects on a target event (one group each); None
    when the target cannot say it."""
    if chosen.form == "all":
        return [None]
    field = matcher_field(target, event)
    if field is None or chosen.form == "never":
        return None
    writes = facts(target)
    exact = DIALECT_SPECS[target].exact_events if target in DIALECT_SPECS else frozenset()
    if writes.get("exact_text") and event in exact:
        return list(chosen.names) if chosen.form == "names" else None
    names, pattern = chosen.names, chosen.pattern
    if chosen.form == "names":
        plain = all(map(is_plain_name, names))
        # a host that searches a plain name anywhere in the tool's (Gemini CLI, Cursor,
        # Augment): anchor the names
        if matching.selection(target, "name", event).form == "search":
            body = "|".join(map(literal, names))
            return [f"^{body}$" if len(names) == 1 else f"^({body})$"]
        # where a `-` makes a regex (on every event, or where names are of a narrower
        # alphabet), a list of names with one is written anchored
        narrow = writes.get("dash_is_regex") or event in exact
        if plain and not (narrow and any("-" in n for n in names)):
            return ["|".join(names)]
        return ["^(?:" + "|".join(map(literal, names)) + ")$"]
    anchored = writes.get("whole_name")
    if chosen.form == "search":
        return [f".*(?:{pattern}).*"] if anchored else [f".*(?:{pattern})"]
    return [pattern] if anchored else [f"^(?:{pattern})$"]


def literal(name: str) -> str:
    """A name as a regex, its syntax escaped and nothing more (`launch-process`, not
    `launch\\-process`), so that it reads back as a name."""
    return re.sub(r"([\\^$.*+?()\[\]{}|])", r"\\\1", name)


def reread(matcher: str | None, dialect: str, event: str) -> Selection:
    """What a matcher selects, in its plainest form (for round trips and `simplify`)."""
    chosen = matching.simplify(matching.selection(dialect, matcher, event))
    if chosen.form == "search" and chosen.pattern.startswith(".*(?:") and \
            chosen.pattern.endswith(")"):
        inner = chosen.pattern[5:-1]
        if matching._balanced(inner):
            return matching.simplify(Selection("search", pattern=inner))
    return chosen


# --- commands ------------------------------------------------------------------------------
#
# A hooks.json handler runs in the folder that holds its file (`.agents/`), a Claude Code or
# Gemini CLI handler in the project root, so a relative script path names another file once
# the handler moves. Paths are handled in project terms: a script at `.agents/scripts/x.py`
# of the source's project is written for the same place in the target's project.
#
# Into Claude Code and Gemini CLI a rewritten path is written on the host's project-dir
# variable, each host's documented idiom, because both start a hook in the session's current
# directory, which is not always the project root:
# - Claude Code: `"$CLAUDE_PROJECT_DIR"/path`, quoted as its hooks reference writes it: the
#   shell expands the variable, and a project path with a space would split unquoted.
# - Gemini CLI: `$GEMINI_PROJECT_DIR/path`, unquoted as its hooks guide writes it: Gemini CLI
#   replaces `$GEMINI_PROJECT_DIR` and `$CLAUDE_PROJECT_DIR` in the command text with the
#   shell-quoted path before the shell runs it, so `"$GEMINI_PROJECT_DIR"` would put those
#   quotes inside double quotes and break on such a path; inside double quotes the braced
#   `${GEMINI_PROJECT_DIR}`, which it leaves to the shell, is written instead.
# Into hooks.json a path is written relative to the hooks.json's folder (`./scripts/x.py`,
# `../.gemini/hooks/check.js`): Antigravity documents no project-dir variable (agenthooks
# sets both when it runs a handler, Antigravity itself may not), so one left in the command
# is reported.

# Codex sets no project-dir variable and runs a hook in the session's directory: its docs
# write a project script as `$(git rev-parse --show-toplevel)/.codex/hooks/x.py`, which
# convert writes for every host whose handlers get none.
GIT_ROOT = "$(git rev-parse --show-toplevel)"
# Variables that hold an absolute folder the same from any working directory.
ROOTED = frozenset(("HOME", "CLAUDE_PLUGIN_ROOT", "extensionPath"))


def project_names(host: str) -> tuple[str, ...]:
    """The project-dir variables a host's handlers get."""
    return facts(host).get("project_dirs", ())


def project_root(host: str) -> str:
    """How a command written for a host names the project root: its first project-dir
    variable, else `git rev-parse`."""
    names = project_names(host)
    return "$" + names[0] if names else GIT_ROOT


def project_prefix(host: str) -> str:
    """What a rewritten script path relative to the project root is written after: the root
    quoted, as each host's docs write it (a project path with a space would split unquoted);
    unquoted where the host substitutes it in the text first (`substitutes_root`),
    which would put its own quotes inside those."""
    root = project_root(host)
    return f"{root}/" if facts(host).get("substitutes_root") else f'"{root}"/'


def project_words(host: str) -> tuple[str, str]:
    """A project-dir variable `$NAME` written into a command for a host: (outside quotes,
    inside double quotes); the braced `${NAME}` is left to the shell by every host and keeps
    its quoting."""
    root = project_root(host)
    if facts(host).get("substitutes_root"):
        return root, "${" + root[1:] + "}"
    return f'"{root}"', root


def standard_place(host: str) -> str:
    """Where a host keeps its file in a project: its first project file (one named `hooks`
    where its files are a pattern); hooks.json's first customization folder's."""
    if host == HOOKS_JSON_DIALECT:
        from agenthooks.sources.discovery import CUSTOMIZATION_DIRS, HOOKS_FILE

        return f"{CUSTOMIZATION_DIRS[0]}/{HOOKS_FILE}"
    row = host_row(host)
    if row is None or not row.project_files:
        raise KeyError(host)
    return row.project_files[0].replace("*", "hooks")


_VAR = r"\$(?:\{%s\}|%s\b)"
_VARIABLE_AT = re.compile(r"\$(?:\{(\w+)\}|(\w+))")
# Characters that end a word and start shell syntax convert does not rewrite.
_OPERATORS = frozenset("|&;<>()\n")


class Place(NamedTuple):
    """Where the converted file goes and its handlers run."""

    file: str  # absolute path of the target file: `-o`, else the host's standard place
    folder: str  # the folder its handlers run in, relative to its project root
    assumed: bool  # no `-o`: the host's standard place in the source's project


def place_of(target: str, output: str | None, workspace: str) -> Place:
    """The target file's place: `output`, else the target host's standard place in
    `workspace` (the source's project root)."""
    from agenthooks.sources.discovery import owner_of

    if output is None:
        file, root = os.path.join(workspace, standard_place(target)), workspace
    else:
        file = os.path.realpath(output)
        root = owner_of(file, workspace)
    folder = os.path.relpath(os.path.dirname(file), root) if target == HOOKS_JSON_DIALECT else "."
    return Place(file, folder, output is None)


class Word(NamedTuple):
    start: int
    end: int
    text: str  # as the shell passes it on: quotes and escapes removed


class Variable(NamedTuple):
    start: int
    end: int
    name: str
    braced: bool
    quoted: bool  # inside double quotes


class Shell(NamedTuple):
    """A command as the shell reads it, as far as convert needs."""

    words: tuple[Word, ...]
    variables: tuple[Variable, ...]  # expanded ones (not in single quotes)
    syntax: str | None  # shell syntax beyond one plain command ("|", "&&", "$(", ...)


def scan(command: str) -> Shell:
    """The words and variables of a command, and the first piece of shell syntax beyond one
    plain command (pipes, lists, redirections, subshells, substitutions, comments)."""
    return _Scanner(command).run()


class _Scanner:
    def __init__(self, command: str) -> None:
        self.command = command
        self.words: list[Word] = []
        self.variables: list[Variable] = []
        self.syntax: str | None = None
        self.start: int | None = None
        self.text: list[str] = []
        self.quote = ""

    def run(self) -> Shell:
        command, index = self.command, 0
        while index < len(command):
            index = self.step(index)
        self.finish(len(command))
        if self.quote:
            self.found("an unclosed quote")
        if self.words and re.fullmatch(r"\w+=.*", self.words[0].text):
            self.found("a variable assignment")
        return Shell(tuple(self.words), tuple(self.variables), self.syntax)

    def found(self, syntax: str) -> None:
        self.syntax = self.syntax or syntax

    def begin(self, index: int) -> None:
        if self.start is None:
            self.start = index

    def finish(self, index: int) -> None:
        if self.start is not None:
            self.words.append(Word(self.start, index, "".join(self.text)))
        self.start, self.text = None, []

    def step(self, index: int) -> int:
        char = self.command[index]
        if self.quote == "'":
            self.quote = "" if char == "'" else self.quote
            self.text.append("" if char == "'" else char)
            return index + 1
        if char == "\\":
            return self.escape(index)
        if char == "$":
            self.dollar(index)
        elif char == "`":
            self.found("`")
        if self.quote == '"':
            self.quote = "" if char == '"' else self.quote
            self.text.append("" if char == '"' else char)
            return index + 1
        return self.bare(index, char)

    def escape(self, index: int) -> int:
        self.begin(index)
        following = self.command[index + 1:index + 2]
        if self.quote == '"' and following not in ('$', '`', '"', "\\"):
            self.text.append("\\")
        self.text.append(following)
        return index + 2

    def dollar(self, index: int) -> None:
        if self.command.startswith("$(", index):
            self.found("$(")
            return
        match = _VARIABLE_AT.match(self.command, index)
        if match is not None:
            self.variables.append(Variable(index, match.end(), match.group(1) or match.group(2),
                                           match.group(1) is not None, self.quote == '"'))

    def bare(self, index: int, char: str) -> int:
        if char in " \t":
            self.finish(index)
        elif char in _OPERATORS:
            self.finish(index)
            pair = self.command[index:index + 2]
            self.found(pair if pair in ("&&", "||", ">>", "<<")
                       else "a newline" if char == "\n" else char)
        elif char == "#" and self.start is None:
            self.found("#")
            return len(self.command)  # the rest is a comment
        else:
            self.begin(index)
            if char in "'\"":
                self.quote = char
            else:
                self.text.append(char)
        return index + 1


class Rewrite(NamedTuple):
    """A command for the target and what the user must check in it."""

    command: str
    problems: tuple[str, ...] = ()
    placed: bool = False  # a path was written for the target file's folder


class _Move(NamedTuple):
    """One handler's command moving from its source folder into the target's."""

    source: str  # dialect
    target: str
    before: str  # the folder it ran in, relative to its project root
    after: str  # the folder it will run in

    @property
    def moves(self) -> bool:
        return os.path.normpath(self.before) != os.path.normpath(self.after)

    def where(self, folder: str) -> str:
        return "the project root" if os.path.normpath(folder) == "." else f"{folder}/"


def rewrite_command(handler: Handler, target: str, place: Place) -> Rewrite:
    """The handler's command as it runs the same files from the target file's folder (from
    the project root for a handler that keeps its own host's payload: `speaks_in`)."""
    source = handler.dialect
    if source == target and handler.speaks is None:
        return Rewrite(handler.command)
    speaking = speaks_in(handler, target) is not None
    command, problems = _plugin_variables(handler.command, handler.speaks or source, target)
    ran = handler.source.cwd if handler.speaks is None else handler.source.workspace
    before = os.path.relpath(ran, handler.source.workspace)
    move = _Move(source, target, before, "." if speaking else place.folder)
    if speaking and not move.moves:
        return Rewrite(command, problems)  # run as its host runs it: the same command
    shell = scan(command)
    edits: list[tuple[int, int, str]] = []
    script = None
    if shell.syntax is None:
        script = _script_index(shell.words)
        edit, problem = _script_edit(shell, script, move) if script is not None else (None, None)
        problems += (problem,) if problem else ()
        if edit is not None:
            edits.append(edit)
        problems += _arguments(shell, script, move, handler.source.cwd)
    elif move.moves:
        problems += (f"the command {command!r} uses shell syntax convert does not rewrite "
                     f"({shell.syntax}): it is kept as written and will run in "
                     f"{move.where(move.after)} instead of {move.where(move.before)}: check "
                     "the paths it names",)
    taken = [(start, end) for start, end, _ in edits]
    variables = [v for v in shell.variables
                 if v.name in project_names(source)
                 and not any(start <= v.start < end for start, end in taken)]
    if target == HOOKS_JSON_DIALECT and not speaking:
        if variables:
            problems += (f"the command {command!r} uses ${variables[0].name}, kept as written: "
                         "agenthooks sets it for a hooks.json handler, but Antigravity "
                         "documents no project-dir variable, so run by Antigravity itself it "
                         "may be empty: check the handler works without it",)
    else:
        edits += [(v.start, v.end, _variable_word(v, target)) for v in variables]
    for start, end, text in sorted(edits, reverse=True):
        command = command[:start] + text + command[end:]
    placed = target == HOOKS_JSON_DIALECT and bool(taken) and not speaking
    return Rewrite(command, problems, placed)


def speaks_in(handler: Handler, target: str) -> str | None:
    """The host a converted command handler keeps speaking in hooks.json (its `dialect`):
    the one it was written for, so that it is given that host's payload, read with that
    host's protocol and run in the project root, as before; None: hooks.json's own."""
    own = handler.speaks or handler.dialect
    if target != HOOKS_JSON_DIALECT or handler.kind != "command" or own == HOOKS_JSON_DIALECT:
        return None
    from agenthooks.model.hosts import is_neutral

    return None if is_neutral(own) else own  # rulesync's are written for any host


def antigravity_runs(file: str) -> bool:
    """Whether Antigravity itself loads the hooks.json at `file`: one of a customization
    folder (`sources.discovery.CUSTOMIZATION_DIRS`) or the user's `~/.gemini/config/`. A
    handler there is run by Antigravity too, which ignores `dialect` and gives it
    Antigravity's own payload."""
    from agenthooks.sources.discovery import CUSTOMIZATION_DIRS, HOOKS_FILE

    folder = os.path.dirname(file)
    user = os.path.join(os.path.expanduser("~"), ".gemini", "config")
    return os.path.basename(file) == HOOKS_FILE and (
        os.path.basename(folder) in CUSTOMIZATION_DIRS
        or os.path.realpath(folder) == os.path.realpath(user))


def _plugin_variables(command: str, source: str, target: str) -> tuple[str, tuple[str, ...]]:
    if source == HOOKS_JSON_DIALECT:
        return command, ()
    plugin = plugin_variable(source)
    if plugin is None:  # a host with no plugin-folder variable (Cursor)
        return command, ()
    if not re.search(_VAR % (plugin, plugin), command):
        return command, ()
    theirs = plugin_variable(target)
    if theirs is None:
        return command, (f"${plugin} has no counterpart in {HOST_NAMES[target]}",)
    return re.sub(_VAR % (plugin, plugin), "${" + theirs + "}", command), ()


def _variable_word(variable: Variable, target: str) -> str:
    row = host_row(target)
    name = row.project_var if row is not None else None
    if variable.braced and name is not None:
        return "${" + name + "}"
    return project_words(target)[variable.quoted]


def _script_index(words: Sequence[Word]) -> int | None:
    """Which word names the script: an interpreter's script (`python3 x.py`, `node x.js`,
    validate's `script-missing` rule reads them alike), else the program itself."""
    from agenthooks.sources.reading.check import _interpreter

    texts = [word.text for word in words]
    if not texts:
        return None
    found = _interpreter(texts)
    if found is None:
        return 0
    return next((index for index in range(1, len(texts)) if texts[index] == found[1]), None)


def _script_edit(shell: Shell, index: int, move: _Move
                 ) -> tuple[tuple[int, int, str] | None, str | None]:
    """(the edit that makes the script path right in the target, what cannot be told)."""
    from agenthooks.sources.reading.check import _relative_path

    word = shell.words[index]
    inside = [v for v in shell.variables if word.start <= v.start < word.end]
    found = _VARIABLE_AT.match(word.text)
    if found is not None and len(inside) == 1 and inside[0].name in project_names(move.source):
        rest = word.text[found.end():]
        if rest.startswith("/") and "$" not in rest:
            return (word.start, word.end, _project_path(rest.lstrip("/"), move)), None
    if word.text.startswith(("/", "~")) or (index == 0 and "/" not in word.text):
        return None, None  # absolute, or found on PATH: the same from any folder
    if found is not None and len(inside) == 1 and inside[0].name in ROOTED:
        return None, None  # the plugin root is the plugin's own business (and reported)
    if not _relative_path(word.text):
        if not move.moves:
            return None, None
        return None, (f"the script path {word.text!r} holds a variable or a pattern, so "
                      f"convert cannot tell where it points: it is kept as written and will "
                      f"run in "
                      f"{move.where(move.after)} instead of {move.where(move.before)}: check "
                      "that it still finds its script")
    if not move.moves:
        return None, None
    in_project = os.path.normpath(os.path.join(move.before, word.text))
    return (word.start, word.end, _project_path(in_project, move)), None


def _project_path(path: str, move: _Move) -> str:
    """A path relative to the project root, written for the target."""
    import shlex

    if facts(move.target).get("root_relative"):  # the tool writes each host's prefix itself
        return shlex.quote(path)
    if move.target != HOOKS_JSON_DIALECT:
        return project_prefix(move.target) + shlex.quote(path)
    relative = os.path.relpath(path, move.after).replace(os.sep, "/")
    return shlex.quote(relative if relative.startswith("../") else "./" + relative)


def _arguments(shell: Shell, script: int | None, move: _Move, cwd: str) -> tuple[str, ...]:
    """Arguments that look like relative paths, which stay as written in a moved command."""
    if not move.moves:
        return ()
    named = [word.text for index, word in enumerate(shell.words)
             if index not in (0, script) and _looks_relative(word.text, cwd)]
    if not named:
        return ()
    listed = ", ".join(repr(text) for text in named)
    return (f"argument {listed} looks like a path relative to {move.where(move.before)}: "
            f"it is kept as written and will be read from {move.where(move.after)}: check it",)


def _looks_relative(text: str, cwd: str) -> bool:
    from agenthooks.sources.reading.check import _relative_path

    if text in (".", "..") or text.startswith(("./", "../")):
        return True
    return _relative_path(text) and "/" in text and os.path.exists(os.path.join(cwd, text))


# --- handlers ------------------------------------------------------------------------------


def default_timeout(dialect: str, event: str) -> float:
    if dialect == HOOKS_JSON_DIALECT:
        from agenthooks.model.eventnames import DEFAULT_TIMEOUT

        return float(DEFAULT_TIMEOUT)
    return DIALECT_SPECS[dialect].default_timeout_for(event)


def timeout_value(seconds: float, target: str, event: str) -> tuple[int | float | None, bool]:
    """(the `timeout` to write, None to leave it out; whether it was rounded)."""
    if math.isclose(seconds, default_timeout(target, event)):
        return None, False
    unit = DIALECT_SPECS[target].timeout_unit if target in DIALECT_SPECS else 1.0
    if unit != 1.0:  # milliseconds (Gemini CLI, Augment)
        return round(seconds / unit), False
    whole = math.ceil(seconds - 1e-9)
    return whole, not math.isclose(whole, seconds)


class Entry(NamedTuple):
    """One converted handler: where it goes, and its object."""

    hook: str  # the hooks.json definition name (antigravity), else ""
    event: str
    matcher: str | None
    sequential: bool
    handler: dict[str, Any]
    enabled: bool


def _no_event(handler: Handler, target: str) -> str | None:
    if counterpart(handler.event, handler.dialect, target) is None:
        return f"{handler.event} has no counterpart in {HOST_NAMES[target]}"
    return None


def _no_kind(handler: Handler, target: str) -> str | None:
    if handler.kind not in kinds(target):
        return f"a {handler.kind} handler cannot be written for {HOST_NAMES[target]}"
    return None


def _no_switch(handler: Handler, target: str) -> str | None:
    if not handler.enabled and not facts(target).get("handler_switch"):
        return f"a disabled handler: {HOST_NAMES[target]} has no switch for one handler"
    return None


# Why a handler cannot be written at all, checked in this order (the first one is reported).
REFUSALS = (_no_event, _no_kind, _no_switch)
# The field that holds a handler's text, by handler type (none: nothing to carry).
TEXT_FIELDS = {"command": "command", "prompt": "prompt", "agent": "prompt", "http": "url"}


def convert_handler(handler: Handler, target: str, place: Place,
                    losses: list[Loss], *, ordered: bool = True) -> tuple[list[Entry], bool]:
    """The handler's entries in the target (none when it cannot be written), and whether a
    path in it was written for the target file's folder. `ordered`: whether its place in a
    sequence can matter (`in_sequence`)."""
    where = handler.pointer
    for refusal in REFUSALS:
        message = refusal(handler, target)
        if message is not None:
            losses.append(Loss(where, message))
            return [], False
    event = counterpart(handler.event, handler.dialect, target)
    assert event is not None  # refused above
    guest = _guest_event(handler, target)
    matchers: list[str | None] | None
    if guest is not None:  # written in its own host's words, which the target reads there
        event, matchers = guest, [_guest_matcher(handler)]
    else:
        matchers = _matchers(handler, target, event, losses)
    if matchers is None:
        return [], False
    body, placed = _body(handler, target, event, place, losses)
    sequential = handler.sequential and target in DIALECT_SPECS and \
        DIALECT_SPECS[target].chain is not None
    if handler.sequential and ordered and not sequential:
        losses.append(Loss(where, f"`sequential: true`: {HOST_NAMES[target]} runs handlers in "
                                  "parallel"))
    if handler.condition_test is not None:  # a group's own filter (Droid's `commandRegex`)
        losses.append(Loss(where, f"the condition {handler.condition!r} of its group has no "
                                  f"place in {HOST_NAMES[target]}'s entry: it would run for "
                                  "every call its matcher selects"))
    hook = handler.hook or handler.name or ""
    return [Entry(hook, event, matcher, sequential, body, handler.enabled)
            for matcher in matchers], placed


def _guest_event(handler: Handler, target: str) -> str | None:
    """The event a handler keeps, in its own host's word, in the file of a target that reads
    that host's handlers under that word (the target's `guest_events`, for a host its
    `HostRow.guest_protocols` name), or None.

    Under a PascalCase key Copilot CLI sends a hook Claude Code's payload (`tool_input`,
    `Bash`), reads its matcher as Claude Code's and its answer too (`hookSpecificOutput`),
    where under the camelCase key the same script would read a payload it does not know and
    its deny would be ignored (measured with copilot 1.0.102; github/docs@05da5bc
    hooks-reference.md, "Claude-format matchers")."""
    row = host_row(target)
    if row is None or handler.event not in facts(target).get("guest_events", ()) or \
            handler.dialect not in dict(row.guest_protocols):
        return None
    return handler.event


def _guest_matcher(handler: Handler) -> str | None:
    """A guest handler's matcher as the target reads it under the guest's word: a name or
    list as it is; a regex, which Claude Code searches anywhere in the name and Copilot
    anchors, with the anchoring undone."""
    chosen = matching.selection(handler.dialect, handler.matcher, handler.event)
    if chosen.form == "all":
        return None
    if chosen.form == "names":
        return "|".join(chosen.names)
    return f".*(?:{handler.matcher}).*"


def _matchers(handler: Handler, target: str, event: str,
              losses: list[Loss]) -> list[str | None] | None:
    """The target's matchers, checked to select exactly what the source's selects
    (`features.carry`); what cannot be carried exactly is a loss."""
    from agenthooks.features.carry import carry

    chosen = reread(handler.matcher, handler.dialect, handler.event)
    tools = matcher_field(handler.dialect, handler.event) == "tool_name"
    first = translate_tools(chosen, handler.dialect, target) if tools else chosen
    carried = carry(chosen, first, handler.dialect, target, event, tools, render)
    said = f"the matcher {handler.matcher!r} ({matching.describe(chosen)})"
    if carried.matchers is None:
        losses.append(Loss(handler.pointer, f"{said} cannot be said on "
                                            f"{HOST_NAMES[target]}'s {event}"))
    elif carried.difference is not None:
        losses.append(Loss(handler.pointer, f"{said} cannot be carried exactly into "
                                            f"{HOST_NAMES[target]}: {carried.difference}"))
    return carried.matchers


def _body(handler: Handler, target: str, event: str, place: Place,
          losses: list[Loss]) -> tuple[dict[str, Any], bool]:
    """The handler object for the target, and whether a path was written for its folder."""
    where = handler.pointer
    body: dict[str, Any] = {}
    if target != HOOKS_JSON_DIALECT or handler.kind != "command":
        body["type"] = handler.kind
    label = facts(target).get("label_key")
    if label is not None and (handler.name or handler.hook):
        body[label] = handler.name or handler.hook
    field = TEXT_FIELDS.get(handler.kind)
    placed = False
    _keep_dialect(handler, target, place, body, losses)
    if field == "command":
        rewritten = rewrite_command(handler, target, place)
        losses.extend(Loss(f"{where}/command", problem) for problem in rewritten.problems)
        body[field], placed = rewritten.command, rewritten.placed
    elif field is not None:
        body[field] = handler.command
    timeout, rounded = timeout_value(handler.timeout, target, event)
    if rounded:
        losses.append(Loss(where, f"timeout {handler.timeout:g} s rounded up to {timeout} s"))
    if timeout is not None:
        body["timeout"] = timeout
    for key, value in handler.options:
        if _carried(key, handler, target):
            body[key] = _thaw(value)
        elif key not in LABELS:
            losses.append(Loss(f"{where}/{key}", f"`{key}` has no counterpart in "
                                                 f"{HOST_NAMES[target]}"))
    return body, placed


def _keep_dialect(handler: Handler, target: str, place: Place, body: dict[str, Any],
                  losses: list[Loss]) -> None:
    """Into hooks.json, the host a command handler was written for (`speaks_in`); lossy
    where Antigravity itself runs the file, as it ignores the key."""
    speaks = speaks_in(handler, target)
    if speaks is None:
        return
    body["dialect"] = speaks
    if not place.assumed and antigravity_runs(place.file):
        losses.append(Loss(handler.pointer, f"written for {HOST_NAMES[speaks]}'s payload: "
                                            "agenthooks gives it that (`dialect`), but "
                                            "Antigravity runs "
                                            f"{os.path.basename(os.path.dirname(place.file))}"
                                            "/hooks.json itself and gives it its own "
                                            "(`toolCall`): write it to a file only agenthooks "
                                            "reads (-o .agents/agenthooks.json, run with "
                                            "--config)"))


def _carried(key: str, handler: Handler, target: str) -> bool:
    """Whether an option goes into the target as it is: into its own dialect, into another
    of its family that takes the key on that handler type (Qwen Code's command handlers
    take Claude Code's `async`, not its `if`), or where the target takes it from any host
    (its `foreign_options`)."""
    if handler.dialect == target:
        return True
    if family(target) == family(handler.dialect) and target in DIALECT_SPECS:
        kind = DIALECT_SPECS[target].types.get(handler.kind)
        return kind is not None and key in kind.keys
    carried = dict(facts(target).get("foreign_options", ()))
    if key not in carried:
        return False
    types = carried[key]
    return types is None or handler.kind in types


def _thaw(value: object) -> Any:
    if isinstance(value, tuple):
        if value and all(isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], str)
                         for item in value):
            return {key: _thaw(item) for key, item in value}
        return [_thaw(item) for item in value]
    return value


# --- documents -----------------------------------------------------------------------------


def _flat_document(entries: Sequence[Entry], version: int) -> dict[str, Any]:
    """A file of flat lists (Cursor's, Copilot CLI's, rulesync's): each event's handlers in
    one list, each carrying its own matcher, `command` being the default type."""
    hooks: dict[str, list[dict[str, Any]]] = {}
    for entry in entries:
        handler = dict(entry.handler)
        if handler.get("type") == "command":
            del handler["type"]
        if entry.matcher is not None:
            handler["matcher"] = entry.matcher
        hooks.setdefault(entry.event, []).append(handler)
    return {"version": version, "hooks": hooks}


def assemble(entries: Sequence[Entry], target: str, file: str = "") -> dict[str, Any]:
    """The target document of these entries; `file`: where it goes, which a host may read as
    a bare map of events (`Dialect.bare_files`: Devin CLI's hooks.v1.json)."""
    document = _assembled(entries, target)
    if file and target != HOOKS_JSON_DIALECT and isinstance(document.get("hooks"), dict):
        from agenthooks.sources.dialects import dialect_spec

        spec = dialect_spec(target)
        if spec.bare_rule(file) is not None and set(document) == {"hooks"}:
            bare: dict[str, Any] = document["hooks"]
            return bare
    return document


def _assembled(entries: Sequence[Entry], target: str) -> dict[str, Any]:
    if target == HOOKS_JSON_DIALECT:
        return _hooks_json(entries)
    version = facts(target).get("flat_version")
    if version is not None:
        return _flat_document(entries, version)
    hooks: dict[str, list[dict[str, Any]]] = {}
    disabled: list[str] = []
    for entry in entries:
        groups = hooks.setdefault(entry.event, [])
        last = groups[-1] if groups else None
        if last is None or last.get("matcher") != entry.matcher or \
                bool(last.get("sequential")) != entry.sequential:
            last = {"matcher": entry.matcher} if entry.matcher is not None else {}
            if entry.sequential:
                last["sequential"] = True
            last["hooks"] = []
            groups.append(last)
        last["hooks"].append(entry.handler)
        if not entry.enabled:
            key = entry.handler.get("name") or entry.handler.get("command")
            if key and key not in disabled:
                disabled.append(key)
    document: dict[str, Any] = {"hooks": hooks}
    if disabled:
        document["hooksConfig"] = {"disabled": disabled}
    return document


def _hooks_json(entries: Sequence[Entry]) -> dict[str, Any]:
    from agenthooks.model.events import TOOL_EVENTS

    document: dict[str, Any] = {}
    names: dict[tuple[str, bool], str] = {}
    for entry in entries:
        base = entry.hook or _name_from(entry)
        key = (base, entry.enabled)
        name = names.get(key)
        if name is None:
            name = base
            counter = 2
            while name in document:
                name = f"{base}-{counter}"
                counter += 1
            names[key] = name
            document[name] = {} if entry.enabled else {"enabled": False}
        definition = document[name]
        items = definition.setdefault(entry.event, [])
        if entry.event not in TOOL_EVENTS:
            items.append(entry.handler)
            continue
        last = items[-1] if items else None
        if last is None or last.get("matcher") != entry.matcher:
            last = {"matcher": entry.matcher} if entry.matcher is not None else {}
            last["hooks"] = []
            items.append(last)
        last["hooks"].append(entry.handler)
    return document


def _name_from(entry: Entry) -> str:
    text = str(entry.handler.get("command") or entry.handler.get("prompt") or entry.event)
    words = scan(text).words
    index = _script_index(words)
    word = words[index].text if index is not None else text
    stem = os.path.splitext(os.path.basename(word))[0]
    name = re.sub(r"[^A-Za-z0-9]+", "-", stem).strip("-").lower()
    return name or entry.event


def convert_handlers(handlers: Sequence[Handler], target: str, *,
                     place: Place | None = None) -> Converted:
    """The target document for these handlers (in file order), and what was lost. `place`:
    where the target file goes (by default the target host's standard place in the first
    handler's project)."""
    losses: list[Loss] = []
    entries: list[Entry] = []
    placed = False
    if place is None:
        workspace = handlers[0].source.workspace if handlers else os.getcwd()
        place = place_of(target, None, workspace)
    handlers = _for_target(handlers, target)
    ordered = in_sequence(handlers)
    for index, handler in enumerate(handlers):
        converted, moved = convert_handler(handler, target, place, losses,
                                           ordered=index in ordered)
        entries += converted
        placed = placed or moved
    return Converted(assemble(entries, target, place.file), losses, place if placed else None)


def _for_target(handlers: Sequence[Handler], target: str) -> list[Handler]:
    """The handlers written for the target: of a file written for several hosts (rulesync),
    the shared ones and the target's own block, which replaces the shared hooks of its
    events, as `rulesync generate` writes them; the other blocks are other hosts' business."""
    from agenthooks.model.handlers import host_why

    return [handler for handler in handlers if host_why(handler, target) is None]


def in_sequence(handlers: Sequence[Handler]) -> set[int]:
    """The positions of the sequential handlers whose order can change what happens: another
    handler of the same file and event may run on the same call. A lone handler, or handlers
    whose matchers select no tool in common, run alike in any order."""
    from agenthooks.model.events import row_of

    def key(handler: Handler) -> tuple[str, str]:
        row = row_of(handler.dialect, handler.event)
        return handler.source.file, row.id if row is not None else handler.event

    return {index for index, handler in enumerate(handlers) if handler.sequential
            and any(other is not handler and key(other) == key(handler)
                    and _may_meet(handler, other) for other in handlers)}


def _may_meet(one: Handler, other: Handler) -> bool:
    """Whether two handlers of one event may both run on one call: not when each matcher is
    a list of tools and the lists share none."""
    names = [_tools(handler) for handler in (one, other)]
    return names[0] is None or names[1] is None or bool(names[0] & names[1])


def _tools(handler: Handler) -> frozenset[tuple[str, ...]] | None:
    """The tools a handler's matcher selects, each as the same key whichever name its host
    gives it (`_tool_key`); None: not a list."""
    chosen = matching.simplify(matching.selection(handler.dialect, handler.matcher,
                                                  handler.event))
    if chosen.form == "never":
        return frozenset()
    names = chosen.names
    if chosen.form == "full" and all(map(is_plain_name, chosen.pattern.split("|"))):
        names = tuple(chosen.pattern.split("|"))  # an anchored `a|b` is a list of names
    elif chosen.form != "names":
        return None
    return frozenset(_tool_key(name, handler.dialect) for name in names)


def _tool_key(name: str, dialect: str) -> tuple[str, ...]:
    """A host's tool name as one key for every name of that tool: its row of `model.tools`,
    else its MCP server and tool, else the name itself."""
    from agenthooks.model.tools import mcp_parts, tool_for

    tool = tool_for(dialect, name)
    if tool is not None:
        return ("tool", tool.id)
    parts = mcp_parts(dialect, name)
    return ("name", name) if parts is None else ("mcp", *parts)
