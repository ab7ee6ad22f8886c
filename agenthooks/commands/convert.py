"""`agenthooks convert FILE --to antigravity|claude|gemini [-o OUT] [--lossy]`.

Reads FILE in its dialect (its place, else its shape, else `--dialect`), refuses a file with
errors, and writes the target dialect's whole document: `{"hooks": {...}}` settings for
Claude Code and Gemini CLI, the named-hook map for hooks.json. Commands are rewritten for the
folder the target runs them in, which for hooks.json is OUT's folder (without `-o`, the
target host's standard place in FILE's project, said on stderr when a path depends on it).
Whatever cannot be carried over is one line each on stderr, at its place in FILE; then
nothing is written and the exit status is 1, unless `--lossy` is given.
"""

from __future__ import annotations

import json
import os
import sys

from agenthooks.config import discovery
from agenthooks.model.handlers import Diagnostic, Handler, Source
from agenthooks.report.escape import printable

TYPE_CHECKING = False
if TYPE_CHECKING:
    from agenthooks.config.jsonpos import PositionMap


def _source(file: str, dialect: str | None) -> Source | None:
    """The file as a hook config of its dialect; None for a Markdown hook."""
    found = discovery.discover_all(configs=[file], dialects=True, dialect=dialect)
    if found.dialect_sources:
        return found.dialect_sources[0]
    return found.sources[0] if found.sources else None


def _handlers(source: Source) -> tuple[list[Handler], list[Diagnostic]]:
    """The file's handlers as its host registers them, and its errors."""
    if source.dialect == "antigravity":
        from agenthooks.config.loader import check_file

        hook_file = check_file(source)
    else:
        from agenthooks.dialects.load import check_dialect_file, settle

        hook_file = settle([check_dialect_file(source)])[0]
    return list(hook_file.handlers), list(hook_file.errors)


def _positions(source: Source) -> PositionMap | None:
    from agenthooks.config.jsonpos import read_positions
    from agenthooks.dialects.load import parse

    if source.dialect != "antigravity":
        found: PositionMap | None = parse(source)[1]
        return found
    with open(source.file, encoding="utf-8-sig") as handle:
        return read_positions(handle.read())[1]


def convert(file: str, *, target: str, output: str | None = None, lossy: bool = False,
            dialect: str | None = None) -> int:
    """Convert FILE; 0 when written, 1 on errors or an unallowed loss (nothing written)."""
    from agenthooks.dialects.convert import convert_handlers, place_of
    from agenthooks.model.events import HOST_NAMES
    from agenthooks.report.diagnostics import TextReporter, ValidationResult

    if not os.path.isfile(file):
        sys.stderr.write(printable(f"agenthooks: {file}: no such file") + "\n")
        return 1
    source = _source(file, dialect)
    if source is None:
        sys.stderr.write(printable(f"agenthooks: {file}: convert reads hooks.json, Claude Code "
                                   "and Gemini CLI files, not Markdown hooks") + "\n")
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
    else:
        with open(output, "w", encoding="utf-8") as handle:
            handle.write(text)
    return 0
