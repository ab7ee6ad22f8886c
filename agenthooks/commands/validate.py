"""`agenthooks validate [PATH...]`: every finding in hook files, for people and for CI.

hooks.json files and Markdown hooks (`.harness/hooks/*.md`) alike: the same formats, the same
exit codes, every finding at `file:line:col` of the file itself.

Antigravity drops a whole file silently on any load error, so this command is strict and loud:
it reports everything it can find, each at `file:line:col`, and exits 1 on any error.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

from agenthooks.config import discovery
from agenthooks.config.loader import check_file
from agenthooks.config.model import Diagnostic, HookFile, Source
from agenthooks.report.diagnostics import ValidationResult, report
from agenthooks.report.escape import printable


def _folders() -> str:
    return ", ".join(f"{folder}/" for folder in discovery.CUSTOMIZATION_DIRS)


def looked_in(*, workspaces: Sequence[str], no_user: bool) -> str:
    """Where discovery looked, for the message that says it found nothing."""
    places = []
    if not no_user:
        places.append(discovery.display_path(discovery.user_hooks_path()))
        places.extend(discovery.display_path(path) for _, path in discovery.user_dialect_files())
    settings = ", ".join(path for _, path in discovery.DIALECT_FILES)
    if workspaces:
        places.extend(f"{given}/{{{_folders()}, {discovery.MARKDOWN_DIR}/, {settings}}}"
                      for given in workspaces)
    else:
        places.append(f"{_folders()}, {discovery.MARKDOWN_DIR}/, {settings} of the current "
                      "directory and its parents")
    return "; ".join(places)


class Collected(NamedTuple):
    """What `validate` checks: the files, the named directories that hold none, and what
    discovery skipped (as diagnostics)."""

    sources: list[Source]
    empty: list[str]
    skipped: list[Diagnostic]


def collect_sources(
    paths: Sequence[str],
    *,
    configs: Sequence[str],
    workspaces: Sequence[str],
    no_user: bool,
    recursive: bool = False,
    dialect: str | None = None,
) -> Collected:
    """The files to check, each once, the named directories that hold none, and warnings.

    PATHs are checked as given (with `recursive`, every customization folder under them,
    the current directory by default); `--config`/`--workspace` add what `list` and `run`
    would read; with neither PATHs nor options, discovery decides (the user file, then the
    nearest safe workspace).
    """
    if recursive and not paths:
        paths = ["."]
    sources: list[Source] = []
    empty: list[str] = []
    skipped: list[Diagnostic] = []
    if paths:
        sources, empty = discovery.sources_for_paths(paths, recursive=recursive,
                                                     dialect=dialect)
    if configs or workspaces or not paths:
        seen = {os.path.realpath(source.file) for source in sources}
        found = discovery.discover_all(configs=configs, workspaces=workspaces, no_user=no_user,
                                       dialects=True, dialect=dialect)
        skipped = found.diagnostics
        for source in (*found.sources, *found.markdown, *found.dialect_sources):
            if os.path.realpath(source.file) not in seen:
                seen.add(os.path.realpath(source.file))
                sources.append(source)
    return Collected(sources, empty, skipped)


def check_any(source: Source) -> HookFile:
    """Every finding in one file: a Claude Code or Gemini CLI file by its dialect, a Markdown
    hook by its `.md` name, else a hooks.json."""
    if source.dialect != "antigravity":
        from agenthooks.dialects.load import check_dialect_file

        return check_dialect_file(source).hook_file
    if discovery.is_markdown(source.file):
        from agenthooks.markdown.files import check_markdown

        return check_markdown(source)
    return check_file(source)


def _empty_message(given: str, recursive: bool) -> str:
    if recursive:
        return (f"agenthooks: {given}: no {discovery.HOOKS_FILE} in any {_folders()} and no "
                f"Markdown hook in any {discovery.MARKDOWN_DIR}/ below it\n")
    if Path(given).resolve().name in discovery.CUSTOMIZATION_DIRS:
        return f"agenthooks: {given}: no {discovery.HOOKS_FILE} in this folder\n"
    return f"agenthooks: {given}: no {discovery.HOOKS_FILE} in {_folders()}\n"


def validate(
    paths: Sequence[str],
    *,
    configs: Sequence[str] = (),
    workspaces: Sequence[str] = (),
    no_user: bool = False,
    fmt: str = "text",
    strict: bool = False,
    recursive: bool = False,
    dialect: str | None = None,
) -> int:
    """Check the files; 1 if any error (or, with `strict`, any warning), else 0.

    `dialect` (--dialect) reads every named file in that dialect, and limits discovery to it.
    """
    collected = collect_sources(
        paths, configs=configs, workspaces=workspaces, no_user=no_user, recursive=recursive,
        dialect=dialect,
    )
    for given in collected.empty:
        sys.stderr.write(_empty_message(printable(given), recursive))
    if not collected.sources and not collected.empty and not collected.skipped:
        sys.stderr.write(
            f"agenthooks: no {discovery.HOOKS_FILE} found "
            f"(looked in {looked_in(workspaces=workspaces, no_user=no_user)})\n"
        )
    checked = [check_any(source) for source in collected.sources]
    result = ValidationResult(
        sources=tuple(collected.sources),
        diagnostics=(
            *collected.skipped, *(d for hook_file in checked for d in hook_file.diagnostics)
        ),
        empty_dirs=tuple(collected.empty),
    )
    report(result, fmt, sys.stdout)
    if fmt == "github" and (result.sources or result.diagnostics):
        # Annotations go to stdout for the runner; the log still deserves a last line.
        sys.stderr.write(result.summary() + "\n")
    return result.exit_code(strict=strict)
