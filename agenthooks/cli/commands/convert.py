"""`agenthooks convert FILE --to antigravity|claude|gemini [-o OUT] [--lossy]`.

Reads FILE in its dialect (its place, else its shape, else `--dialect`), refuses a file with
errors, and writes the target dialect's whole document: `{"hooks": {...}}` settings for
Claude Code and Gemini CLI, the named-hook map for hooks.json. Into an OUT that exists, the
converted hooks are merged as `init` adds its entries: every other byte of OUT kept, the diff
shown, written with `--yes`; OUT is always written whole or not at all, its old text kept in
OUT.bak (`agenthooks.userfiles`). Commands are rewritten for the
folder the target runs them in, which for hooks.json is OUT's folder (without `-o`, the
target host's standard place in FILE's project, said on stderr when a path depends on it).
Whatever cannot be carried over is one line each on stderr, at its place in FILE; then
nothing is written and the exit status is 1, unless `--lossy` is given.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from typing import Any

from agenthooks.escape import printable
from agenthooks.model.handlers import Diagnostic, Handler, Source
from agenthooks.model.hosts import HOOKS_JSON_DIALECT
from agenthooks.sources import discovery

TYPE_CHECKING = False
if TYPE_CHECKING:
    from agenthooks.sources.reading.jsonpos import PositionMap


def _source(file: str, dialect: str | None) -> Source | None:
    """The file as a hook config of its dialect; None for a Markdown hook."""
    found = discovery.discover_all(configs=[file], dialects=True, dialect=dialect)
    if found.dialect_sources:
        return found.dialect_sources[0]
    return found.sources[0] if found.sources else None


def _handlers(source: Source) -> tuple[list[Handler], list[Diagnostic]]:
    """The file's handlers as its host registers them, and its errors."""
    if source.dialect == HOOKS_JSON_DIALECT:
        from agenthooks.sources.hooksjson.loader import check_file

        hook_file = check_file(source)
    else:
        from agenthooks.sources.dialects.load import check_dialect_file, settle

        hook_file = settle([check_dialect_file(source)])[0]
    return list(hook_file.handlers), list(hook_file.errors)


def _per_tool_kind(*dialects: str | None) -> str | None:
    """The first of `dialects` whose host names a tool event per kind of tool (Windsurf's
    `pre_run_command`), which convert cannot map group by group yet; None when none does."""
    from agenthooks.model.hosts import host_row

    for dialect in dialects:
        row = host_row(dialect) if dialect is not None else None
        if row is not None and row.tool_events:
            return dialect
    return None


def _refusal(file: str, source: Source | None, target: str) -> str | None:
    """Why convert cannot go from `file` to `target`, None when it can: a host with no hook
    files (OpenCode's plugins), a host whose hooks are in TOML alone (Kimi Code's config.toml,
    which holds its models and keys too), one that runs no hook of a project's file (JetBrains
    Junie), a host whose tool events are one per kind of tool, a Markdown hook."""
    from agenthooks.model.events import HOST_NAMES
    from agenthooks.model.hosts import has_no_files, host_row, in_scripts, unwritable

    row = host_row(target)
    scripts = next((each for each in (row, host_row(source.dialect) if source else None)
                    if each is not None and in_scripts(each)), None)
    if scripts is not None:
        return (f"{scripts.name}'s hooks are scripts named after their event, each reading "
                f"{scripts.name}'s own payload and answering in its words, with no matcher: "
                "convert writes and reads JSON hook files alone. agenthooks init --host "
                f"{scripts.id} writes the scripts that run agenthooks, and its gates "
                "(.agents/hooks.json) run under every host; nothing converted")
    why = unwritable(row) if row is not None else None
    if row is not None and why is not None:
        if has_no_files(row):
            return (f"{why}, so convert has nothing to write for it: agenthooks init --host "
                    f"{row.id} writes the plugin that runs agenthooks and its gates; nothing "
                    "converted")
        return (f"convert writes JSON hook files, and {why}: add the entries docs/hosts.md "
                "shows; nothing converted")
    unsupported = _per_tool_kind(target, source.dialect if source is not None else None)
    if unsupported is not None:
        return (f"convert does not read or write {HOST_NAMES[unsupported]}'s files yet: its "
                "tool events are one per kind of tool, with no matcher; nothing converted")
    if source is None:
        return f"{file}: convert reads hooks.json, Claude Code and Gemini CLI files, not " \
               "Markdown hooks"
    return None


def _positions(source: Source) -> PositionMap | None:
    from agenthooks.sources.dialects.load import parse
    from agenthooks.sources.reading.jsonpos import read_positions

    if source.dialect != HOOKS_JSON_DIALECT:
        found: PositionMap | None = parse(source)[1]
        return found
    with open(source.file, encoding="utf-8-sig") as handle:
        return read_positions(handle.read())[1]


def convert(file: str, *, target: str, output: str | None = None, lossy: bool = False,
            dialect: str | None = None, yes: bool = False,
            confirm: Callable[[str], bool] | None = None) -> int:
    """Convert FILE; 0 when written, 1 on errors, an unallowed loss or an existing OUT not
    merged into (declined, or no terminal to ask on without `yes`): nothing written."""
    from agenthooks.features.convert import convert_handlers, place_of
    from agenthooks.model.events import HOST_NAMES
    from agenthooks.report.diagnostics import TextReporter, ValidationResult

    if not os.path.isfile(file):
        sys.stderr.write(printable(f"agenthooks: {file}: no such file") + "\n")
        return 1
    source = _source(file, dialect)
    refusal = _refusal(file, source, target)
    if refusal is not None or source is None:
        sys.stderr.write(printable(f"agenthooks: {refusal}") + "\n")
        return 1
    handlers, errors = _handlers(source)
    if errors:
        result = ValidationResult(sources=(source,), diagnostics=tuple(errors))
        TextReporter(sys.stderr, summary=False).report(result)
        sys.stderr.write(printable(f"agenthooks: {source.path} has errors; nothing converted")
                         + "\n")
        return 1
    converted = convert_handlers(handlers, target,
                                 place=place_of(target, output, source.workspace))
    if converted.placed is not None and converted.placed.assumed:
        sys.stderr.write(printable(f"agenthooks: note: no -o given: paths are written for "
                                   f"{converted.placed.file} (the standard place of "
                                   f"{HOST_NAMES[target]} in this project)") + "\n")
    if converted.losses:
        positions = _positions(source)
        for loss in converted.losses:
            line, column = positions.locate(loss.pointer, "value") if positions else (1, 1)
            sys.stderr.write(printable(f"{source.path}:{line}:{column}: lossy: {loss.message}")
                             + "\n")
        if not lossy:
            sys.stderr.write("agenthooks: nothing written: the lines above cannot be carried "
                             "over (--lossy writes the rest)\n")
            return 1
    text = json.dumps(converted.document, indent=2, ensure_ascii=False) + "\n"
    if output is None:
        sys.stdout.write(text)
        return 0
    return write_output(output, target, converted.document, text, yes=yes, confirm=confirm)


def write_output(output: str, target: str, document: dict[str, Any], text: str, *,
                 yes: bool, confirm: Callable[[str], bool] | None) -> int:
    """Write the converted document to OUT whole or not at all (`agenthooks.userfiles`). A
    new file gets the document; an existing one keeps every byte it has and gets the
    converted hooks merged in as `init` adds its entries, shown as a diff and written with
    `--yes` (or when confirmed on a terminal)."""
    from agenthooks.cli.commands import init as edit
    from agenthooks.userfiles import target_of, write, written

    existing = _existing(output)
    if existing is None:
        sys.stdout.write(printable(written(write(output, text))) + "\n")
        return 0
    wiring = edit.wiring_for(target)
    merged = edit.merged_text(output, existing, document, wiring is not None and wiring.comments)
    if merged == existing:
        sys.stdout.write(printable(f"agenthooks: {output} holds every converted hook already; "
                                   "nothing to change") + "\n")
        return 0
    into = target_of(output)
    link = f" (a symbolic link: the change goes into {into})" if into != output else ""
    sys.stdout.write(printable(f"# merge the converted hooks into {output}{link}") + "\n"
                     + edit.diff(edit.Change(output, existing, merged, "merge")))
    sys.stdout.flush()
    if not yes and (confirm is None or not confirm(f"Write {output}?")):
        why = "" if confirm is not None else (": run again with --yes to merge these changes "
                                              "into it (or on a terminal, to be asked)")
        sys.stderr.write(printable(f"agenthooks: nothing written{why}") + "\n")
        return 1
    sys.stdout.write(printable(written(write(output, merged))) + "\n")
    return 0


def _existing(output: str) -> str | None:
    """OUT's text when it has any (not only blanks); None: a new file."""
    from agenthooks.errors import AgentHooksError

    if os.path.isdir(output):
        raise AgentHooksError(f"-o {output}: a folder, not a file")
    try:
        with open(output, encoding="utf-8") as handle:
            text = handle.read()
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise AgentHooksError(f"-o {output}: cannot read: {exc}") from None
    return text if text.strip() else None
