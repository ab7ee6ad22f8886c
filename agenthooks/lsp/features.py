"""What the language server answers, as pure functions of a file's path and text.

Diagnostics are `validate`'s findings of the editor's text (`features.findings.check_text`), at
their places: `validate` counts lines and columns from 1 in characters, the protocol from 0
in UTF-16 code units. A quick fix writes a finding's `fix` (the event or tool name meant, a
timeout in the right unit) in place of the key or value it points at. Hover says what an
event is called under each host and which tools a matcher selects; completion offers the
events of the file's own format. `server` only wires these to the protocol.
"""

from __future__ import annotations

import json
import os
import re

from lsprotocol import types

from agenthooks.model.events import DIALECTS, HOST_NAMES, EventRow, find_row, row_of, word_of
from agenthooks.model.handlers import Diagnostic, HookFile
from agenthooks.model.hosts import HOOKS_JSON_DIALECT
from agenthooks.model.rules import DIALECT_RULES
from agenthooks.sources.discovery import dialect_of_place
from agenthooks.sources.formats import MARKDOWN
from agenthooks.sources.paths import hook_files_pattern

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from agenthooks.model.tools import Tool
    from agenthooks.sources.dialects.matching import Selection

SOURCE = "agenthooks"
SEVERITIES = {
    "error": types.DiagnosticSeverity.Error,
    "warning": types.DiagnosticSeverity.Warning,
    "note": types.DiagnosticSeverity.Information,
}
# The rules whose findings `plan` places by reading the file on disk again: placed here in
# the editor's text instead (JSON files; a pointer into TOML or YAML keeps its place).
PLACED_FROM_DISK = frozenset({"runs-itself", "wiring-runs-nothing", "config-missing",
                              "gate-cannot-block", "run-refused"})
MARKDOWN_FORMAT = MARKDOWN  # the format of a Markdown hook, beside the dialects
_FIXTURE = re.compile(r"\.hooktest\.(yaml|yml|json)$")
# A bare word of a matcher, an event or a number: what a quick fix or a hover reads where no
# quote opens the token.
_BARE = re.compile(r"[A-Za-z0-9_.|*^$()\[\]?+\\-]+")


# --- which files ------------------------------------------------------------------------------


def is_hook_file(path: str) -> bool:
    """Whether agenthooks reads `path` as a hook file: a place `validate` checks by path
    (hooks.json and the gate file in a customization folder, Markdown hooks, each host's
    own files), a user hooks.json, or a plugin's hooks; never a hook fixture."""
    posix = path.replace(os.sep, "/")
    if _FIXTURE.search(posix):
        return False
    return re.search(hook_files_pattern(), posix) is not None or dialect_of_place(path) is not None


# --- diagnostics ------------------------------------------------------------------------------


def check(path: str, text: str, cwd: str | None = None) -> list[Diagnostic]:
    """`validate`'s findings of one file, read from `text`: the file's own, and those of its
    agenthooks entries (a run that reads its own file, runs nothing, names no file, gates
    where its host cannot block, or refuses its own words)."""
    from agenthooks.features.findings import check_text
    from agenthooks.features.wired import wired
    from agenthooks.plan.gates import cannot_block, refused
    from agenthooks.plan.recursion import runs_itself
    from agenthooks.plan.wired import runs_nothing

    base = cwd or os.path.dirname(path)
    hook_file = check_text(path, text.encode("utf-8", "surrogatepass"), cwd=base)
    host = _default_host()
    entries = [*runs_itself([hook_file], host), *runs_nothing([hook_file], host),
               *wired([hook_file], base, set()).missing, *cannot_block([hook_file]),
               *refused([hook_file])]
    return [*hook_file.diagnostics, *(_placed(d, text, hook_file) for d in entries)]


def _default_host() -> str | None:
    """The user config's default host, as `validate` reads it; None when it does not read
    (`validate` reports that file itself)."""
    from agenthooks.userconfig import UserConfigError, read_user_config

    try:
        return read_user_config().default_host
    except UserConfigError:
        return None


def _placed(diagnostic: Diagnostic, text: str, hook_file: HookFile) -> Diagnostic:
    """A finding placed on disk, placed again in the editor's text (a JSON file's)."""
    if diagnostic.rule not in PLACED_FROM_DISK or not hook_file.source.file.endswith(".json"):
        return diagnostic
    from agenthooks.sources.dialects.load import strip_comments
    from agenthooks.sources.reading.jsonpos import read_positions

    try:
        _, positions = read_positions(strip_comments(text))
        line, column = positions.locate(diagnostic.pointer, "value")
    except (ValueError, RecursionError):
        return diagnostic
    return diagnostic._replace(line=line, column=column)


def rule_href(rule: str, docs_url: str | None) -> str | None:
    """Where the docs explain a rule: validate's table, or the dialects' one."""
    if not docs_url:
        return None
    page = "dialects/#validate" if rule in DIALECT_RULES else "validate/#rules"
    return f"{docs_url.rstrip('/')}/{page}"


def to_lsp(diagnostic: Diagnostic, text: str, docs_url: str | None = None) -> types.Diagnostic:
    """A finding as the protocol's diagnostic: over the key or value it points at, its rule
    as the code, its fix (if any) kept in `data` for the quick fix."""
    lines = text.split("\n")
    line = max(0, min(diagnostic.line - 1, len(lines) - 1))
    line_text = lines[line].rstrip("\r") if lines else ""
    start = max(0, min(diagnostic.column - 1, len(line_text)))
    end = token_end(line_text, start)
    href = rule_href(diagnostic.rule, docs_url)
    return types.Diagnostic(
        range=types.Range(types.Position(line, utf16(line_text, start)),
                          types.Position(line, utf16(line_text, end))),
        message=diagnostic.message,
        severity=SEVERITIES.get(diagnostic.severity, types.DiagnosticSeverity.Error),
        code=diagnostic.rule,
        code_description=types.CodeDescription(href=href) if href else None,
        source=SOURCE,
        data={"fix": diagnostic.fix} if diagnostic.fix is not None else None,
    )


def diagnostics(path: str, text: str, docs_url: str | None = None,
                cwd: str | None = None) -> list[types.Diagnostic]:
    """The protocol's diagnostics of a hook file's text."""
    return [to_lsp(found, text, docs_url) for found in check(path, text, cwd)]


# --- places in a line: characters and UTF-16 ---------------------------------------------------


def utf16(line: str, index: int) -> int:
    """The UTF-16 offset of the character at `index` of `line` (the protocol's column)."""
    return len(line[:index].encode("utf-16-le")) // 2


def from_utf16(line: str, offset: int) -> int:
    """The index in `line` of the character at UTF-16 `offset`."""
    units = 0
    for index, char in enumerate(line):
        if units >= offset:
            return index
        units += 2 if ord(char) > 0xFFFF else 1
    return len(line)


def token_end(line: str, start: int) -> int:
    """Where the token at `start` ends: a quoted string (its quotes included), or a bare word
    or number; at least one character on when the line has one there."""
    if start >= len(line):
        return start
    quote = line[start]
    if quote in "\"'":
        index = start + 1
        while index < len(line) and line[index] != quote:
            index += 2 if line[index] == "\\" and quote == '"' else 1
        return min(index + 1, len(line))
    found = _BARE.match(line, start)
    return found.end() if found else start + 1


def token_at(line: str, index: int) -> tuple[int, int, str] | None:
    """The token under the cursor (`index` in characters): its start, end (quotes included)
    and value (a JSON string's unescaped), or None on punctuation or space."""
    for quoted in re.finditer(r'"(?:[^"\\]|\\.)*"?', line):
        if quoted.start() <= index <= quoted.end() and quoted.end() > quoted.start() + 1:
            raw = quoted.group()
            try:
                value = json.loads(raw)
            except ValueError:
                value = raw.strip('"')
            return quoted.start(), quoted.end(), str(value)
    for bare in _BARE.finditer(line):
        if bare.start() <= index <= bare.end():
            return bare.start(), bare.end(), bare.group()
    return None


# --- quick fixes ------------------------------------------------------------------------------


def replacement(token: str, fix: str) -> str:
    """`fix` written as the token it replaces was: quoted as it was quoted, else bare."""
    if token.startswith('"'):
        return json.dumps(fix, ensure_ascii=False)
    if token.startswith("'"):
        return "'" + fix.replace("'", "''") + "'"
    return fix


def quick_fixes(uri: str, text: str,
                found: Sequence[types.Diagnostic]) -> list[types.CodeAction]:
    """A quick fix for each of our diagnostics that carries a fix: its key or value
    replaced by what the finding says to write."""
    lines = text.split("\n")
    actions = []
    for diagnostic in found:
        fix = diagnostic.data.get("fix") if isinstance(diagnostic.data, dict) else None
        if diagnostic.source != SOURCE or not isinstance(fix, str):
            continue
        span = diagnostic.range
        if span.start.line != span.end.line or span.start.line >= len(lines):
            continue
        line = lines[span.start.line].rstrip("\r")
        token = line[from_utf16(line, span.start.character):from_utf16(line, span.end.character)]
        new_text = replacement(token, fix)
        if not token or token == new_text:
            continue
        edit = types.TextEdit(range=span, new_text=new_text)
        actions.append(types.CodeAction(
            title=f"Write {new_text}", kind=types.CodeActionKind.QuickFix,
            diagnostics=[diagnostic], is_preferred=True,
            edit=types.WorkspaceEdit(changes={uri: [edit]})))
    return actions


# --- the file's format ------------------------------------------------------------------------


def file_format(path: str, text: str) -> str:
    """How agenthooks reads the file: a dialect ("antigravity" for hooks.json, "claude"...),
    or "markdown" for a Markdown hook; from its place, else the shape of `text`."""
    from agenthooks.sources.discovery import detect, is_markdown

    if is_markdown(path):
        return MARKDOWN_FORMAT
    try:
        return detect(path, None, text.encode("utf-8", "surrogatepass"))
    except (OSError, ValueError):
        return HOOKS_JSON_DIALECT


def events_of_format(fmt: str) -> list[tuple[str, EventRow | None]]:
    """The event names a file of this format takes, each with its row of the event table."""
    if fmt == MARKDOWN_FORMAT:
        from agenthooks.model.events import MARKDOWN_WORDS

        return [(word, find_row(word)) for word in MARKDOWN_WORDS]
    if fmt == HOOKS_JSON_DIALECT:
        from agenthooks.model.events import EVENTS

        return [(word, row_of(HOOKS_JSON_DIALECT, word)) for word in EVENTS]
    from agenthooks.sources.dialects import dialect_spec

    return [(word, row_of(fmt, word)) for word in dialect_spec(fmt).events]


# --- completion -------------------------------------------------------------------------------


def completions(path: str, text: str, position: types.Position) -> list[types.CompletionItem]:
    """The file's own format's event names; inside a quoted string, each replaces it."""
    lines = text.split("\n")
    line = lines[position.line].rstrip("\r") if position.line < len(lines) else ""
    index = from_utf16(line, position.character)
    token = token_at(line, index)
    quoted = token is not None and line[token[0]] == '"'
    items = []
    for order, (word, row) in enumerate(events_of_format(file_format(path, text))):
        edit = None
        if quoted and token is not None:
            span = types.Range(types.Position(position.line, utf16(line, token[0])),
                               types.Position(position.line, utf16(line, token[1])))
            edit = types.TextEdit(range=span, new_text=json.dumps(word))
        items.append(types.CompletionItem(
            label=word, kind=types.CompletionItemKind.Event,
            detail=row.meaning if row is not None else None,
            sort_text=f"{order:03d}", filter_text=f'"{word}"' if quoted else word,
            text_edit=edit))
    return items


# --- hover ------------------------------------------------------------------------------------


def hover(path: str, text: str, position: types.Position) -> types.Hover | None:
    """What the word under the cursor means: an event's name under each host, or the tools
    a matcher selects."""
    lines = text.split("\n")
    if position.line >= len(lines):
        return None
    line = lines[position.line].rstrip("\r")
    token = token_at(line, from_utf16(line, position.character))
    if token is None:
        return None
    start, end, word = token
    fmt = file_format(path, text)
    if re.search(r"matcher['\"]?\s*[:=]\s*$", line[:start]):
        body = matcher_hover(word, fmt)
    else:
        row = _event_row(word, fmt)
        body = event_hover(word, row) if row is not None else None
    if body is None:
        return None
    span = types.Range(types.Position(position.line, utf16(line, start)),
                       types.Position(position.line, utf16(line, end)))
    return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=body),
                       range=span)


def _event_row(word: str, fmt: str) -> EventRow | None:
    """The event-table row of a word: the file's format's own, else any host's."""
    own = dict(events_of_format(fmt)).get(word)
    if own is not None:
        return own
    from agenthooks.model.events import any_dialect_event

    found = any_dialect_event(word)
    return find_row(found) if found is not None else find_row(word)


def event_hover(word: str, row: EventRow) -> str:
    """An event's meaning and its name under each host (a Markdown hook's word too)."""
    cells = [f"| {HOST_NAMES[dialect]} | {_code(word_of(dialect, row))} |"
             for dialect in DIALECTS]
    return "\n".join([
        f"**{word}**: {row.meaning}", "",
        "| Host | Event |", "| --- | --- |", *cells,
        f"| Markdown hook | {_code(row.id if row.engine else None)} |",
    ])


def _code(word: str | None) -> str:
    return f"`{word}`" if word else "(none)"


def matcher_hover(matcher: str, fmt: str) -> str | None:
    """Which tools of the tool table a matcher selects, by each host's names for them.

    A hooks.json matcher selects by any host's name, under every host; a host's own file's
    matcher is that host's alone."""
    from agenthooks.model.tools import TOOLS
    from agenthooks.sources.dialects.matching import describe, selection, simplify

    dialect = HOOKS_JSON_DIALECT if fmt == MARKDOWN_FORMAT else fmt
    tool_row = find_row("tool.pre")
    event = word_of(dialect, tool_row) if tool_row is not None else None
    if event is None:
        return None
    chosen = selection(dialect, matcher, event)
    hosts = list(DIALECTS) if dialect == HOOKS_JSON_DIALECT else [dialect]
    picked = [tool for tool in TOOLS if _selected(chosen, tool, dialect)]
    head = [f"**matcher** `{matcher}` ({HOST_NAMES[dialect]}): selects "
            f"{describe(simplify(chosen))}", ""]
    if chosen.form == "all":
        return "\n".join([*head, "every tool, under " + _under(hosts)])
    if not picked:
        return "\n".join([*head, "no tool of the tool table (a custom or MCP tool may match)"])
    from agenthooks.model.tools import filled

    filled()
    table = ["| Tool | " + " | ".join(HOST_NAMES[h] for h in hosts) + " |",
             "| --- " * (len(hosts) + 1) + "|"]
    table.extend(f"| {tool.id} | " + " | ".join(
        ", ".join(f"`{n}`" for n in tool.names.get(h, ())) or "(none)" for h in hosts) + " |"
        for tool in picked)
    return "\n".join([*head, *table])


def _under(hosts: list[str]) -> str:
    return ", ".join(HOST_NAMES[h] for h in hosts)


def _selected(chosen: Selection, tool: Tool, dialect: str) -> bool:
    """Whether a selection picks a tool: by the file's host's names for it (hooks.json
    compares a call's tool in its own words, `plan.select`; a list of names also by any
    host's name, for a tool hooks.json has no name of)."""
    from agenthooks.model.tools import every_name, filled
    from agenthooks.sources.dialects.matching import selects

    filled(dialect)
    own = tool.names.get(dialect, ())
    if any(selects(chosen, name) for name in own):
        return True
    return dialect == HOOKS_JSON_DIALECT and not own and chosen.form == "names" and any(
        name in chosen.names for name in every_name(tool))
