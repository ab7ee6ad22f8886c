"""`agenthooks validate [PATH...]`: every finding in hooks.json files, for people and for CI.

Antigravity drops a whole file silently on any load error, so this command is strict and loud:
it reports everything it can find, each at `file:line:col`, and exits 1 on any error.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path

from agenthooks.config import discovery
from agenthooks.config.loader import check_file
from agenthooks.config.model import Source
from agenthooks.report.diagnostics import ValidationResult, report


def _folders() -> str:
    return ", ".join(f"{folder}/" for folder in discovery.CUSTOMIZATION_DIRS)


def looked_in(*, workspaces: Sequence[str], no_user: bool) -> str:
    """Where discovery looked, for the message that says it found nothing."""
    places = []
    if not no_user:
        places.append(discovery.display_path(discovery.user_hooks_path()))
    if workspaces:
        places.extend(f"{given}/{{{_folders()}}}" for given in workspaces)
    else:
        places.append(f"{_folders()} of the current directory and its parents")
    return "; ".join(places)


def collect_sources(
    paths: Sequence[str],
    *,
    configs: Sequence[str],
    workspaces: Sequence[str],
    no_user: bool,
) -> tuple[list[Source], list[str]]:
    """The files to check, each once, and the named directories that hold none.

    PATHs are checked as given; `--config`/`--workspace` add what `list` and `run` would
    read; with neither PATHs nor options, discovery decides (the user file, then the nearest
    workspace).
    """
    sources: list[Source] = []
    empty: list[str] = []
    if paths:
        sources, empty = discovery.sources_for_paths(paths)
    if configs or workspaces or not paths:
        seen = {os.path.realpath(source.file) for source in sources}
        for source in discovery.discover(configs=configs, workspaces=workspaces, no_user=no_user):
            if os.path.realpath(source.file) not in seen:
                seen.add(os.path.realpath(source.file))
                sources.append(source)
    return sources, empty


def _empty_message(given: str) -> str:
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
) -> int:
    """Check the files; 1 if any error (or, with `strict`, any warning), else 0."""
    sources, empty = collect_sources(
        paths, configs=configs, workspaces=workspaces, no_user=no_user
    )
    for given in empty:
        sys.stderr.write(_empty_message(given))
    if not sources and not empty:
        sys.stderr.write(
            f"agenthooks: no {discovery.HOOKS_FILE} found "
            f"(looked in {looked_in(workspaces=workspaces, no_user=no_user)})\n"
        )
    checked = [check_file(source) for source in sources]
    result = ValidationResult(
        sources=tuple(sources),
        diagnostics=tuple(d for hook_file in checked for d in hook_file.diagnostics),
        empty_dirs=tuple(empty),
    )
    report(result, fmt, sys.stdout)
    if fmt == "github" and result.sources:
        # Annotations go to stdout for the runner; the log still deserves a last line.
        sys.stderr.write(result.summary() + "\n")
    return result.exit_code(strict=strict)
