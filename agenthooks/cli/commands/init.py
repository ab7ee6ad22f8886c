"""`agenthooks init --host HOST`: wire a workspace, and `--check` whether it is wired right.

Init writes the entries that make agenthooks the one hook of a host into that host's settings
file, exactly as docs/hosts.md documents them (one row of `WIRING` per host: a host is added
with a row), and creates a starter gate where agenthooks reads gates, when there is none. It
never changes anything silently: it prints the diff, then asks on a terminal, writes with
`--yes`, and otherwise writes nothing. What is already in the settings file stays as it is,
byte for byte: new entries are inserted as text at the end of the objects and lists they join,
never by rewriting the file, and an event that already runs `agenthooks run` is left alone.
A second run therefore finds nothing to do.

JSON has no comments, and Antigravity refuses unknown keys in a hook definition, so the
starter gate explains itself by its name (`no-rm-rf`) and by its message when it blocks, and
init prints where to read on (docs/format.md, `agenthooks list`, `agenthooks explain`). A
host that reads its settings as JSON with comments (Gemini CLI) keeps them where they are.

Every file is written through `agenthooks.userfiles`: whole or not at all, a linked settings
file through its link (the diff's heading names the file it leads to), the old file kept as
`.bak`. A host that runs an entry only once it trusts it (Codex) is a `trust` column of its
row: init adds that trust to its changes, and --check fails while it is missing.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from agenthooks.errors import AgentHooksError
from agenthooks.model.hosts import HOOKS_JSON_DIALECT, host_name
from agenthooks.sources.discovery import CUSTOMIZATION_DIRS, HOOKS_FILE, display_path
from agenthooks.userfiles import target_of, written
from agenthooks.userfiles import write as write_file

TYPE_CHECKING = False
if TYPE_CHECKING:
    from agenthooks.sources.dialects.codex_trust import CodexHook


class InitError(AgentHooksError):
    """A settings file init cannot add to (not JSON, or `hooks` of the wrong type)."""


class Event(NamedTuple):
    """One event of a host's wiring: its word, its matcher group (None: a flat event), and
    the options of its `agenthooks run` beyond `--host`."""

    word: str
    matcher: str | None = None
    flags: str = ""


class Wiring(NamedTuple):
    """How agenthooks is the one hook of a host (docs/hosts.md, "Wiring a host")."""

    host: str
    settings: str  # the host's file, under the workspace root ("/"-separated)
    # the key of the settings file's object of events; "": the events are the file's own
    # keys (a bare map, `Dialect.bare_files`: Devin CLI's hooks.v1.json)
    container: str
    events: tuple[Event, ...]
    handler: Callable[[str], dict[str, Any]]  # the handler object running a command
    gates: str  # where agenthooks reads the gates of this wiring, under the workspace root
    run_options: str = ""  # options every `agenthooks run` entry gives after --host
    bare_flat: bool = False  # a flat event lists handlers, not groups (hooks.json)
    preamble: str = ""  # members a new settings file starts with (`"version": 1, `)
    comments: bool = False  # the host reads its settings as JSON with comments (kept)
    # What the host itself needs before it runs the entries (Codex: their hashes trusted).
    trust: Callable[[Wiring, str, str], HostTrust] | None = None
    # A host with no settings to add to (OpenCode, which loads plugins): "module:function"
    # giving the whole file that runs the events, written as it is (each event's `command`
    # is in its text; `container` and `handler` are unused).
    whole: str | None = None
    # A host whose hooks are scripts named after their event, one file each (Cline's
    # `.clinerules/hooks/PreToolUse`): "module:function" giving an event's script from its
    # word and command; `settings` is then their folder, each event's file `<folder>/<word>`.
    scripts: str | None = None

    def script_path(self, root: str, event: Event) -> str:
        """Where an event's script goes (`scripts`), under the workspace root."""
        return os.path.join(root, *self.settings.split("/"), event.word)

    def script(self, event: Event) -> str:
        """An event's script (`scripts`), as init writes it."""
        from agenthooks.model.hosts import imported

        text: str = imported(self.scripts or "")(event.word, self.command(event))
        return text

    def command(self, event: Event) -> str:
        return f"agenthooks run {event.word} --host {self.host}{self.run_options}{event.flags}"

    def group(self, event: Event) -> dict[str, Any]:
        handler = self.handler(self.command(event))
        if event.matcher is None:
            return handler if self.bare_flat else {"hooks": [handler]}
        return {"matcher": event.matcher, "hooks": [handler]}

    def fresh(self) -> str:
        """A new settings file: one line per event, as docs/hosts.md shows it; a whole file's
        text."""
        if self.whole is not None:
            from agenthooks.model.hosts import imported

            text: str = imported(self.whole)()
            return text
        lines = [f"  {json.dumps(e.word)}: {json.dumps([self.group(e)])}" for e in self.events]
        if not self.container:
            return "{\n" + ",\n".join(lines) + "\n}\n"
        return ("{" + self.preamble + json.dumps(self.container) + ": {\n"
                + ",\n".join(lines) + "\n}}\n")


# --- a host's own trust of the entries (a column of WIRING) -------------------------------


def codex_trust(wiring: Wiring, root: str, text: str) -> HostTrust:
    """Codex runs a hook of a project's .codex/hooks.json only once the user's config.toml
    records its hash (agenthooks.sources.dialects.codex_trust), and reads the project's .codex/
    only in a project it trusts: what of that keeps the entries of `text` that run agenthooks from
    running, and config.toml with those entries trusted (the project is Codex's to trust)."""
    from agenthooks.sources.dialects import codex_trust as codex
    from agenthooks.sources.dialects.codex_check import folder_trusted

    config = os.path.join(codex.codex_home(), "config.toml")
    parsed = codex.read_toml(config)
    recorded = codex.states(parsed)
    statuses = [(hook, codex.status_of(hook, recorded)) for hook in _codex_entries(wiring, root,
                                                                                  text)]
    why = {codex.UNTRUSTED: f"{config} records no hash for it",
           codex.MODIFIED: f"it changed since {config} recorded its hash"}
    skipped = [f"Codex skips the {hook.event} entry of {wiring.settings} ({why[status]}): "
               f"agenthooks init --host codex, or agenthooks trust --host codex, trusts it"
               for hook, status in statuses if status in why]
    skipped += [f"the {hook.event} entry of {wiring.settings} is turned off in {config} "
                f"(enabled = false under [hooks.state.{codex.toml_string(hook.key)}])"
                for hook, status in statuses if status == codex.DISABLED]
    if statuses and not folder_trusted(os.path.realpath(root), parsed):
        skipped.append(f"Codex reads {os.path.dirname(wiring.settings)}/ only in a project it "
                       f"trusts: run `codex exec --trust` here, or add [projects."
                       f"{codex.toml_string(os.path.realpath(root))}] trust_level = "
                       f"\"trusted\" to {config}")
    pending = [hook for hook, status in statuses if status in why]
    if not pending:
        return HostTrust(skipped, None)
    before = _read(config)
    return HostTrust(skipped, Change(
        config, before, codex.with_trust(before or "", pending), "trust these entries in "
        "Codex's config.toml (Codex skips a hook until its hash is recorded there)", mode=0o600))


def _codex_entries(wiring: Wiring, root: str, text: str) -> list[CodexHook]:
    """The command hooks of `text` that run agenthooks, keyed as Codex keys them: by the
    settings folder resolved (`sources.dialects.codex_check.codex_path`, as validate keys them)."""
    from agenthooks.sources.dialects import codex_trust as codex

    document = json.loads(text)
    events = document.get(wiring.container) if isinstance(document, dict) else None
    settings = os.path.join(root, *wiring.settings.split("/"))
    source = os.path.join(os.path.realpath(os.path.dirname(settings)),
                          os.path.basename(settings))
    return [hook for hook in codex.hooks_of(source, events if isinstance(events, dict) else {})
            if any(runs_agenthooks_for(hook.command, e.word) for e in wiring.events)]


FAIL_CLOSED = " --fail-closed"
AGENTS = CUSTOMIZATION_DIRS[0]
WORKSPACE_GATES = f"{AGENTS}/{HOOKS_FILE}"

# Each host's wiring, as docs/hosts.md documents it (tests/cli/commands/test_init.py keeps the two
# equal). Claude Code: settings.json `hooks`, a matcher group per event; Gemini CLI: the same,
# timeouts in milliseconds; Antigravity runs `.agents/hooks.json` itself, so its entries name
# the gates' file with --config.
WIRING: dict[str, Wiring] = {w.host: w for w in (
    Wiring("claude", ".claude/settings.json", "hooks", (
        Event("PreToolUse", "*", FAIL_CLOSED), Event("PostToolUse", "*"),
        Event("UserPromptSubmit"), Event("Stop"), Event("SessionStart")),
        lambda command: {"type": "command", "command": command}, WORKSPACE_GATES),
    Wiring("gemini", ".gemini/settings.json", "hooks", (
        Event("BeforeTool", ".*", FAIL_CLOSED), Event("AfterTool", ".*"),
        Event("BeforeAgent"), Event("AfterAgent"), Event("SessionStart")),
        lambda command: {"type": "command", "command": command, "timeout": 60000},
        WORKSPACE_GATES, comments=True),
    Wiring(HOOKS_JSON_DIALECT, f"{AGENTS}/{HOOKS_FILE}", "agenthooks", (
        Event("PreToolUse", "", f"{FAIL_CLOSED} --default-decision ask"),
        Event("PostToolUse", ""), Event("PreInvocation"), Event("PostInvocation"),
        Event("Stop")),
        lambda command: {"command": command, "timeout": 60}, f"{AGENTS}/agenthooks.json",
        f" --config {AGENTS}/agenthooks.json", bare_flat=True),
    # Codex: Claude Code's shape in .codex/hooks.json; it runs the entries only once their
    # hashes are trusted in the user's config.toml (`agenthooks trust --host codex`,
    # docs/hosts.md), so init offers that too and --check fails until it is done.
    Wiring("codex", ".codex/hooks.json", "hooks", (
        Event("PreToolUse", "*", FAIL_CLOSED), Event("PostToolUse", "*"),
        Event("UserPromptSubmit"), Event("Stop"), Event("SessionStart")),
        lambda command: {"type": "command", "command": command}, WORKSPACE_GATES,
        trust=codex_trust),
    # Cursor and GitHub Copilot CLI: `{"version": 1, "hooks": {...}}`, each event a list of
    # handlers; Cursor's `failClosed` blocks the call when agenthooks itself cannot answer,
    # Copilot names the command by its shell (`bash`) and its timeout `timeoutSec`.
    Wiring("cursor", ".cursor/hooks.json", "hooks", (
        Event("preToolUse", None, FAIL_CLOSED), Event("postToolUse"),
        Event("beforeSubmitPrompt"), Event("stop"), Event("sessionStart")),
        lambda command: {"command": command, "timeout": 60,
                         **({"failClosed": True} if FAIL_CLOSED in command else {})},
        WORKSPACE_GATES, bare_flat=True, preamble='"version": 1, '),
    Wiring("copilot", ".github/hooks/agenthooks.json", "hooks", (
        Event("preToolUse", None, FAIL_CLOSED), Event("postToolUse"), Event("agentStop"),
        Event("sessionStart")),
        lambda command: {"type": "command", "bash": command, "timeoutSec": 60},
        WORKSPACE_GATES, bare_flat=True, preamble='"version": 1, '),
    # Windsurf: `{"hooks": {...}}`, one event per kind of tool and no matcher
    # (docs.windsurf.com/windsurf/cascade/hooks); it lets an action through on any exit but 2,
    # so the gates of its pre-hooks fail closed.
    Wiring("windsurf", ".windsurf/hooks.json", "hooks", (
        Event("pre_run_command", None, FAIL_CLOSED), Event("pre_write_code", None, FAIL_CLOSED),
        Event("pre_read_code", None, FAIL_CLOSED), Event("post_write_code"),
        Event("pre_user_prompt"), Event("post_cascade_response")),
        lambda command: {"command": command}, WORKSPACE_GATES, bare_flat=True),
    # OpenCode runs no hook command but loads every `.js` of `.opencode/plugin/`: the plugin
    # runs agenthooks itself (`hosts.opencode.plugin.js`; its commands, these events').
    Wiring("opencode", ".opencode/plugin/agenthooks.js", "", (
        Event("PreToolUse", None, FAIL_CLOSED), Event("PostToolUse")),
        lambda command: {}, WORKSPACE_GATES,
        whole="agenthooks.hosts.opencode.wiring:plugin_text"),
    # Kiro reads every `*.json` of `.kiro/hooks/`: agenthooks' own file there, whole
    # (`hosts.kiro.wiring`: one hook per trigger, the gate failing closed, as Kiro lets a call
    # through on any exit but 2).
    Wiring("kiro", ".kiro/hooks/agenthooks.json", "", (
        Event("PreToolUse", None, FAIL_CLOSED), Event("PostToolUse"),
        Event("UserPromptSubmit"), Event("Stop"), Event("SessionStart")),
        lambda command: {}, WORKSPACE_GATES,
        whole="agenthooks.hosts.kiro.wiring:hooks_text"),
    # Cline runs every file of `.clinerules/hooks/` named after its event, and reads the
    # answers of PreToolUse and PostToolUse alone (the others run detached): one script each
    # (`hosts.cline.wiring`); its deny ends the task, as a cancel is Cline's only refusal.
    Wiring("cline", ".clinerules/hooks", "", (
        Event("PreToolUse", None, FAIL_CLOSED), Event("PostToolUse")),
        lambda command: {}, WORKSPACE_GATES,
        scripts="agenthooks.hosts.cline.wiring:script_text"),
)}

# The starter gate: the quick start's first gate (README.md). It refuses a shell command with
# `rm -rf` in it, under every host (the `run_command` matcher selects Claude Code's Bash and
# Gemini CLI's run_shell_command too), and says where it comes from when it blocks.
STARTER_COMMAND = ("if grep -q 'rm -rf'; then echo 'rm -rf needs a human (the no-rm-rf gate "
                   "of agenthooks init)' >&2; exit 2; fi")
STARTER = f"""\
{{
  "no-rm-rf": {{
    "PreToolUse": [
      {{
        "matcher": "run_command",
        "hooks": [{{"command": {json.dumps(STARTER_COMMAND)}}}]
      }}
    ]
  }}
}}
"""


class Change(NamedTuple):
    """One file init would write: its text before (None: a new file) and after."""

    path: str
    before: str | None
    after: str
    what: str  # for people: "wire Claude Code", "a starter gate"
    mode: int = 0o644  # a new file's mode (less the umask); an old file keeps its own


class HostTrust(NamedTuple):
    """What a host that trusts hooks one by one makes of the wiring's entries: those it would
    skip (one line each, for --check), and the change that trusts them (None: none needed,
    or none init can make)."""

    skipped: list[str]
    change: Change | None


def wiring_of(host: str) -> Wiring:
    wiring = wiring_for(host)
    if wiring is None:
        from agenthooks.model.hosts import host_row, unwritable

        row = host_row(host)
        why = unwritable(row) if row is not None else None
        if row is not None and why is not None:
            raise InitError(f"init cannot wire {row.name}: it writes JSON hook "
                            f"files, and {why}; add the entries docs/hosts.md shows")
        known = ", ".join(every_wiring())
        raise InitError(f"agenthooks init cannot wire {host_name(host)} yet (it wires {known}); "
                        "see docs/hosts.md for its entries")
    return wiring


def wiring_for(host: str) -> Wiring | None:
    """A host's row of WIRING; for a host derived from another (`model.hosts.derive`), its
    parent's wiring in its own file and event words (an event it lacks left out), without
    the parent's own trust; None for a host init cannot wire (one whose file is TOML: init
    writes JSON)."""
    from agenthooks.model.events import counterpart
    from agenthooks.model.hosts import host_row, unwritable
    from agenthooks.sources.dialects import dialect_spec

    if host in WIRING:
        return WIRING[host]
    row = host_row(host)
    parent = wiring_for(row.derived_from) if row and row.derived_from else None
    if row is None or parent is None or not row.project_files or unwritable(row) is not None:
        return None
    events = tuple(event._replace(word=word, matcher=every_tool(host, word, event.matcher))
                   for event in parent.events
                   if (word := counterpart(event.word, parent.host, host)) is not None)
    settings = row.project_files[0].replace("*", "agenthooks")
    container = "" if dialect_spec(host).bare_rule(settings) else parent.container
    return parent._replace(host=host, settings=settings, container=container, events=events,
                           trust=None, handler=with_time(host, parent.handler))


# What agenthooks is given to answer in, at least: a host that gives its hooks less (Grok
# Build's 5 s) would end agenthooks' run before its own handlers' timeouts, and let the call
# through.
ENOUGH_SECONDS = 60


def with_time(host: str, handler: Callable[[str], dict[str, Any]]
              ) -> Callable[[str], dict[str, Any]]:
    """A derived host's handler object: its parent's, with a `timeout` of ENOUGH_SECONDS
    where the host's own default is shorter."""
    from agenthooks.sources.dialects import dialect_spec

    dialect = dialect_spec(host)
    if dialect.default_timeout >= ENOUGH_SECONDS or "timeout" not in dialect.types[
            "command"].keys:
        return handler
    timeout = round(ENOUGH_SECONDS / dialect.timeout_unit)
    return lambda command: {**handler(command), "timeout": timeout}


def every_tool(host: str, event: str, matcher: str | None) -> str | None:
    """The parent's matcher of every tool, or the one the derived host documents
    (`Dialect.all_tools`), or `.*` where the derived host reads it otherwise (Augment takes `*`
    for a broken regex and runs none of the event's groups)."""
    from agenthooks.sources.dialects import dialect_spec
    from agenthooks.sources.dialects.matching import selection

    if matcher == "*" and dialect_spec(host).all_tools != matcher:
        return dialect_spec(host).all_tools
    if matcher is None or selection(host, matcher, event).form == "all":
        return matcher
    return ".*"


def every_wiring() -> dict[str, Wiring]:
    """Every host init wires, in WIRING's order, then the hosts derived from them."""
    from agenthooks.model.hosts import HOST_TABLE

    derived = {row.id: wiring for row in HOST_TABLE
               if row.id not in WIRING and (wiring := wiring_for(row.id)) is not None}
    return {**WIRING, **derived}


def workspace_root(given: str | None) -> str:
    """`--workspace`, else the top of the git work tree above the current directory, else
    the current directory."""
    if given is not None:
        if not os.path.isdir(given):
            raise InitError(f"--workspace {given}: no such directory")
        return os.path.abspath(given)
    from agenthooks.sources.reading.places import git_root

    here = os.getcwd()
    return git_root(here) or here


# --- what a settings file already runs ------------------------------------------------------


def runs_agenthooks_for(command: str, event: str) -> bool:
    """Whether a command is `agenthooks run EVENT ...` itself (`model.itself`: a command that
    only mentions such a run among others is a handler, not the wiring)."""
    from agenthooks.model.itself import run_arguments

    after = run_arguments(command)
    return after is not None and after[:1] == (event,)


# The keys that hold a command in a handler: Copilot names its shells (`bash`, `powershell`).
COMMAND_KEYS = ("command", "bash", "powershell")


def commands_in(value: Any) -> list[str]:
    """Every command string anywhere in a JSON value."""
    if isinstance(value, dict):
        found = [value[key] for key in COMMAND_KEYS if isinstance(value.get(key), str)]
        return found + [c for item in value.values() for c in commands_in(item)]
    if isinstance(value, list):
        return [c for item in value for c in commands_in(item)]
    return []


def missing_events(wiring: Wiring, document: Any) -> list[Event]:
    """The events of the wiring that no command of the document runs agenthooks for (of a
    whole file, the text: that its text does not name)."""
    if wiring.whole is not None:
        return [event for event in wiring.events if wiring.command(event) not in document]
    commands = commands_in(document)
    return [event for event in wiring.events
            if not any(runs_agenthooks_for(c, event.word) for c in commands)]


# --- adding to JSON text, keeping what is there -----------------------------------------------
#
# Every edit inserts text into the file as it is. A host that reads JSON with comments (Gemini
# CLI) keeps them: positions are found in a shadow of the text with each comment blanked out
# (offsets kept, `sources.dialects.load.strip_comments`), and the new text goes into the original.


def shadow(text: str, comments: bool) -> str:
    """The text as JSON sees it: comments blanked out when the host allows them."""
    if not comments:
        return text
    from agenthooks.sources.dialects.load import strip_comments

    return strip_comments(text)


def parse(path: str, text: str, comments: bool = False) -> Any:
    try:
        return json.loads(shadow(text, comments))
    except ValueError as exc:
        raise InitError(f"{display_path(path)} is not valid JSON ({exc}); fix it first "
                        f"(agenthooks validate {display_path(path)}) and run init again") from None


def _value_span(text: str, pointer: str) -> tuple[int, int]:
    """Where the value at a JSON pointer starts and ends (one past its last character), in
    text without comments."""
    from agenthooks.sources.reading.jsonpos import read_positions

    _, positions = read_positions(text)
    start = positions.values[pointer]
    _, end = json.JSONDecoder().raw_decode(text, start)
    return start, end


def _indent_of(text: str, offset: int) -> str:
    line = text[text.rfind("\n", 0, offset) + 1:offset]
    return line[:len(line) - len(line.lstrip())]


def insert_member(text: str, pointer: str, key: str, value: Any, comments: bool = False) -> str:
    """`text` with `"key": value` added as the last member of the object at `pointer` (an
    object of events one event a line, when the text has lines)."""
    if isinstance(value, dict) and "\n" in text.strip():
        start, _ = _value_span(shadow(text, comments), pointer)
        indent = _indent_of(shadow(text, comments), start) + "    "
        members = ",\n".join(f"{indent}{json.dumps(k)}: {json.dumps(v)}" for k, v in value.items())
        return _insert(text, pointer, f"{json.dumps(key)}: {{\n{members}\n{indent[:-2]}}}",
                       comments)
    return _insert(text, pointer, f"{json.dumps(key)}: {json.dumps(value)}", comments)


def append_item(text: str, pointer: str, value: Any, comments: bool = False) -> str:
    """`text` with `value` added as the last item of the list at `pointer`."""
    return _insert(text, pointer, json.dumps(value), comments)


def _insert(text: str, pointer: str, item: str, comments: bool) -> str:
    plain = shadow(text, comments)  # positions and indents are read here, text is kept
    start, end = _value_span(plain, pointer)
    closing = end - 1
    last = len(plain[start + 1:closing].rstrip()) + start + 1  # after the last item, if any
    empty = last == start + 1
    if "\n" not in plain[start:end]:  # a one-line object or list stays on one line
        return f"{text[:last]}{'' if empty else ', '}{item}{text[last:]}"
    outer = _indent_of(plain, start)
    if empty:  # what is inside is blank, or comments: kept, the item after them
        inner = outer + "  "
        return f"{text[:closing].rstrip()}\n{inner}{item}\n{outer}{text[closing:]}"
    first = len(plain[start + 1:]) - len(plain[start + 1:].lstrip()) + start + 1
    inner = _indent_of(plain, first) if plain.rfind("\n", start, first) != -1 else outer + "  "
    # A comment closing the last item's line stays with that item: the comma goes after the
    # item, the new item on a line of its own after the comment.
    line_end = plain.find("\n", last, closing)
    rest = text[last:line_end]
    closed = rest.rfind("/*") <= rest.rfind("*/")  # no block comment runs on past the line
    after_comma = line_end if line_end != -1 and not plain[last:line_end].strip() and closed \
        else last
    return f"{text[:last]},{text[last:after_comma]}\n{inner}{item}{text[after_comma:]}"


def wired_text(wiring: Wiring, text: str | None, path: str) -> str:
    """The settings file's text with every missing entry of the wiring added; a whole file's
    text, whatever was there."""
    if text is None or not text.strip() or wiring.whole is not None:
        return wiring.fresh()
    comments = wiring.comments
    document = parse(path, text, comments)
    if not isinstance(document, dict):
        raise InitError(f"{display_path(path)} is not a JSON object; init adds to an object only")
    for event in missing_events(wiring, document):
        container = document.get(wiring.container) if wiring.container else document
        pointer = f"/{wiring.container}" if wiring.container else ""
        if container is None:
            text = insert_member(text, "", wiring.container, {event.word: [wiring.group(event)]},
                                 comments)
        elif not isinstance(container, dict):
            raise InitError(f"{display_path(path)}: `{wiring.container}` is not an object")
        elif not isinstance(container.get(event.word, []), list):
            raise InitError(f"{display_path(path)}: `{wiring.container}.{event.word}` is not a "
                            "list")
        elif event.word in container:
            text = append_item(text, f"{pointer}/{event.word}", wiring.group(event), comments)
        else:
            text = insert_member(text, pointer, event.word, [wiring.group(event)], comments)
        document = parse(path, text, comments)
    return text


def merged_text(path: str, text: str, value: Any, comments: bool = False,
                pointer: str = "") -> str:
    """`text` (a JSON object) with `value` merged in as text, every other byte kept: a
    missing member is added, a list gets the items it lacks, an object is merged member by
    member, an equal value stays; anything else (a member of another type or value) is
    refused, since either choice would drop something the user wrote."""
    from agenthooks.model.handlers import escape

    present = _at(parse(path, text, comments), pointer)
    if present == value:
        return text
    if isinstance(present, dict) and isinstance(value, dict):
        for key, item in value.items():
            present = _at(parse(path, text, comments), pointer)
            if key in present:
                text = merged_text(path, text, item, comments, f"{pointer}/{escape(key)}")
            else:
                text = insert_member(text, pointer, key, item, comments)
        return text
    if isinstance(present, list) and isinstance(value, list):
        for item in value:
            if item not in _at(parse(path, text, comments), pointer):
                text = append_item(text, pointer, item, comments)
        return text
    raise InitError(f"{display_path(path)}: {pointer or 'the file'} holds "
                    f"{json.dumps(present)[:60]}, not what is to be written there "
                    f"({json.dumps(value)[:60]}); nothing written")


def _at(document: Any, pointer: str) -> Any:
    for part in pointer.split("/")[1:]:
        document = document[part.replace("~1", "/").replace("~0", "~")]
    return document


# --- init -------------------------------------------------------------------------------------


def _read(path: str) -> str | None:
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read()
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise InitError(f"cannot read {display_path(path)}: {exc}") from None


def has_gates(wiring: Wiring, root: str) -> bool:
    """Whether agenthooks already has gates to run here: the wiring's gate file, or (for a
    host that reads the workspace's own files) any hooks.json or Markdown hook."""
    if os.path.lexists(os.path.join(root, wiring.gates)):
        return True
    if wiring.gates != WORKSPACE_GATES:
        return False
    from agenthooks.sources.discovery import markdown_files, workspace_files

    return bool(workspace_files(root) or markdown_files(root))


def changes(wiring: Wiring, root: str) -> list[Change]:
    """What init would write: the host's settings file, a starter gate if none, and what the
    host needs before it runs the entries (Codex: their hashes trusted)."""
    if wiring.scripts is not None:
        return [*script_changes(wiring, root), *_starter(wiring, root)]
    found: list[Change] = []
    settings = os.path.join(root, *wiring.settings.split("/"))
    target_of(settings)  # a link to nothing is refused before anything is shown
    before = _read(settings)
    after = wired_text(wiring, before, settings)
    if after != before:
        found.append(Change(settings, before, after, f"wire {host_name(wiring.host)}"))
    found.extend(_starter(wiring, root))
    if wiring.trust is not None:
        trusted = wiring.trust(wiring, root, after).change
        if trusted is not None:
            found.append(trusted)
    return found


def _starter(wiring: Wiring, root: str) -> list[Change]:
    """The starter gate, when agenthooks has no gate to run here yet."""
    if has_gates(wiring, root):
        return []
    gates = os.path.join(root, *wiring.gates.split("/"))
    return [Change(gates, None, STARTER, "a starter gate")]


def script_changes(wiring: Wiring, root: str) -> list[Change]:
    """Each event's script of a host whose hooks are scripts (`Wiring.scripts`): written where
    there is none; one that runs agenthooks there already is left as it is; another is the
    user's hook, which init never replaces."""
    found: list[Change] = []
    for event in wiring.events:
        path = wiring.script_path(root, event)
        target_of(path)  # a link to nothing is refused before anything is shown
        before = _read(path)
        if before is None:
            found.append(Change(path, None, wiring.script(event),
                                f"wire {host_name(wiring.host)} ({event.word})", mode=0o755))
        elif wiring.command(event) not in before:
            raise InitError(
                f"{display_path(path)} is a hook of its own, which init does not replace: "
                f"{host_name(wiring.host)} runs every file named after its event, so keep it "
                f"under another such name ({event.word}.sh, {event.word.lower()}.py...) and "
                "run init again; nothing written")
    return found


def diff(change: Change) -> str:
    import difflib

    shown = display_path(change.path)
    lines = difflib.unified_diff(
        (change.before or "").splitlines(keepends=True), change.after.splitlines(keepends=True),
        "/dev/null" if change.before is None else f"a/{shown}", f"b/{shown}")
    return "".join(line if line.endswith("\n") else line + "\n" for line in lines)


def heading(change: Change) -> str:
    """The line above a change's diff: what it is, and where it goes when the file is a link
    (the link stays; its target gets the change)."""
    target = target_of(change.path)
    into = f" (a symbolic link: the change goes into {target})" if target != change.path else ""
    return f"# {change.what}: {display_path(change.path)}{into}\n"


def write(change: Change) -> str:
    """Write one change whole or not at all (`agenthooks.userfiles`); the line that says
    where it went and where the old file is kept."""
    result = write_file(change.path, change.after, make_folders=True, new_mode=change.mode)
    return written(result, display_path)


NEXT_STEPS = """\
Next: agenthooks validate   (check the hook files)
      agenthooks list       (what runs, for which event and tool)
      agenthooks init --check --host {host}
Gates live in {gates}; their format: docs/format.md."""


def init(host: str, *, workspace: str | None = None, yes: bool = False,
         confirm: Callable[[str], bool] | None = None) -> int:
    """Wire the workspace for `host`; 0 when it is wired (now or already), 1 when changes
    were not written (declined, or no terminal to ask on without `--yes`)."""
    wiring = wiring_of(host)
    root = workspace_root(workspace)
    pending = changes(wiring, root)
    out = sys.stdout
    if not pending:
        out.write(f"agenthooks: {display_path(root) or '.'} is already wired for "
                  f"{host_name(host)}; nothing to change\n")
        return 0
    for change in pending:
        out.write(heading(change) + diff(change))
    out.flush()
    if not yes:
        if confirm is None:
            sys.stderr.write("agenthooks: nothing written: run again with --yes to write "
                             "these changes (or on a terminal, to be asked)\n")
            return 1
        if not confirm(f"Write {len(pending)} file{'s' if len(pending) > 1 else ''}?"):
            sys.stderr.write("agenthooks: nothing written\n")
            return 1
    for change in pending:
        out.write(write(change) + "\n")
    if wiring.trust is not None:  # what the host still needs, which init does not write
        text = _read(os.path.join(root, *wiring.settings.split("/"))) or ""
        out.writelines(f"note: {line}\n" for line in wiring.trust(wiring, root, text).skipped)
    out.write(NEXT_STEPS.format(host=host, gates=wiring.gates) + "\n")
    return 0


# --- init --check -------------------------------------------------------------------------------


def problems(wiring: Wiring, root: str) -> list[str]:
    """What keeps the workspace from running agenthooks under the host; none: wired right."""
    if wiring.scripts is not None:
        return [*script_problems(wiring, root), *_common_problems(wiring, root)]
    settings = os.path.join(root, *wiring.settings.split("/"))
    shown = display_path(settings)
    text = _read(settings)
    found: list[str] = []
    if text is None:
        found.append(f"{shown} does not exist: agenthooks init --host {wiring.host} writes it")
    else:
        try:
            document = read_document(wiring, text)
        except ValueError as exc:
            document = None
            found.append(f"{shown} is not valid JSON ({exc}): {host_name(wiring.host)} "
                         "reads none of its hooks")
        if wiring.whole is not None and text != wiring.fresh():
            found.append(f"{shown} is not the file this agenthooks writes: agenthooks init "
                         f"--host {wiring.host} writes it anew")
        missing = missing_events(wiring, document) if document is not None else []
        if missing:
            found.append(f"{shown} does not run agenthooks on "
                         f"{', '.join(e.word for e in missing)}")
        if document is not None and wiring.trust is not None:
            found.extend(wiring.trust(wiring, root, text).skipped)
    return [*found, *_common_problems(wiring, root)]


def _common_problems(wiring: Wiring, root: str) -> list[str]:
    """agenthooks missing from PATH, and gates that cannot run."""
    import shutil

    found = []
    if shutil.which("agenthooks") is None:
        found.append("agenthooks is not on PATH, where the host looks for it: see "
                     "docs/install.md")
    found.extend(_gate_problems(wiring, root))
    return found


def script_problems(wiring: Wiring, root: str) -> list[str]:
    """Each event's script that is missing or does not run agenthooks (`Wiring.scripts`)."""
    found = []
    for event in wiring.events:
        path = wiring.script_path(root, event)
        text = _read(path)
        shown = display_path(path)
        if text is None:
            found.append(f"{shown} does not exist: agenthooks init --host {wiring.host} "
                         "writes it")
        elif wiring.command(event) not in text:
            found.append(f"{shown} does not run agenthooks on {event.word}")
    return found


def _gate_problems(wiring: Wiring, root: str) -> list[str]:
    """No gate to run, or gates with errors (which run nothing)."""
    if not has_gates(wiring, root):
        return [f"no gate for agenthooks to run: {wiring.gates} does not exist"]
    from agenthooks.features.findings import load_checked

    named = [] if wiring.gates == WORKSPACE_GATES else [os.path.join(root, wiring.gates)]
    loaded = load_checked(configs=named, workspaces=[] if named else [root], no_user=True,
                          cwd=root)
    return [f"{f.source.path} has errors, so none of its hooks run: agenthooks validate "
            f"{display_path(f.source.file)}" for f in loaded.broken]


def read_document(wiring: Wiring, text: str) -> Any:
    """The settings file as JSON (ValueError when it is not); a whole file's text as it is."""
    return text if wiring.whole is not None else json.loads(shadow(text, wiring.comments))


def wired_at_all(wiring: Wiring, root: str) -> bool:
    """Whether the host's settings file runs agenthooks on any event of the wiring."""
    if wiring.scripts is not None:
        return len(script_problems(wiring, root)) < len(wiring.events)
    text = _read(os.path.join(root, *wiring.settings.split("/")))
    try:
        document = read_document(wiring, text) if text is not None else None
    except ValueError:
        return False
    return document is not None and len(missing_events(wiring, document)) < len(wiring.events)


def check(hosts: Sequence[str], *, workspace: str | None = None) -> int:
    """Say, per host, whether the workspace is wired right: 0 when every host is, else 1.
    With no host named, every host whose settings file runs agenthooks at all (none: 1)."""
    root = workspace_root(workspace)
    wirings = [wiring_of(h) for h in hosts] or [w for w in every_wiring().values()
                                                if wired_at_all(w, root)]
    if not wirings:
        sys.stdout.write(f"agenthooks: {display_path(root) or '.'} is wired for no host: "
                         f"agenthooks init --host {'|'.join(every_wiring())}\n")
        return 1
    status = 0
    for wiring in wirings:
        found = problems(wiring, root)
        name = host_name(wiring.host)
        if not found:
            sys.stdout.write(f"ok: {name} runs agenthooks ({wiring.settings}, gates in "
                             f"{wiring.gates})\n")
            continue
        status = 1
        sys.stdout.write(f"not wired right for {name}:\n")
        sys.stdout.writelines(f"  - {problem}\n" for problem in found)
    return status

