"""The gate files a wiring names, for `validate`: each agenthooks entry's `--config` files.

A host runs `agenthooks run ... --config .agents/agenthooks.json` (Antigravity's wiring, or
any host's with a gate file of its own): that file holds the gates, and no discovery finds
it. `validate` reads the entries of every file it checks, checks each file they name as a
run reads it (relative to where the host runs the entry, or to the workspace root above a
customization folder; `--dialect` as given), and errors where one names no file: its run
skips it, so none of its gates runs (a deny under `--fail-closed`, an allow otherwise).
"""

from __future__ import annotations

import os

from agenthooks._lean.records import NamedTuple
from agenthooks.model.handlers import Diagnostic, Handler, HookFile, Source
from agenthooks.model.hosts import HOST_TABLE
from agenthooks.model.rules import RULES
from agenthooks.sources import discovery

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

RULE = "config-missing"
# The variables a host sets to the project root, which a wiring may name its file under.
PROJECT_VARIABLES = ("CLAUDE_PROJECT_DIR", "GEMINI_PROJECT_DIR",
                     *(row.project_var for row in HOST_TABLE if row.project_var))


class Named(NamedTuple):
    """One `--config` of one agenthooks entry: as written, and where the run reads it."""

    handler: Handler
    given: str
    path: str
    dialect: str | None


class Wired(NamedTuple):
    sources: list[Source]  # the gate files named, not among the files checked already
    missing: list[Diagnostic]  # an error at each entry whose --config names no file


def wired(files: Sequence[HookFile], cwd: str, checked: set[str]) -> Wired:
    """The files the agenthooks entries of `files` name with --config, less those in
    `checked` (real paths, updated), and an error at each entry naming a missing file."""
    from agenthooks.sources.paths import sources_for_paths

    sources: list[Source] = []
    missing: list[Diagnostic] = []
    for hook_file in files:
        for named in named_configs(hook_file):
            if not os.path.lexists(named.path):
                missing.append(_missing(hook_file, named))
                continue
            real = os.path.realpath(named.path)
            if real in checked:
                continue
            checked.add(real)
            found, _ = sources_for_paths([discovery.display_path(named.path, cwd)], cwd,
                                         dialect=named.dialect)
            sources.extend(found)
    return Wired(sources, missing)


def named_configs(hook_file: HookFile) -> list[Named]:
    """Each `--config` of each agenthooks entry of a file, resolved as its run reads it."""
    from agenthooks.model.itself import entry

    found: list[Named] = []
    for handler in hook_file.handlers:
        if handler.kind != "command" or not any(
                "agenthooks" in word for word in (handler.command, *(handler.args or ()))):
            continue
        parsed = entry(handler.command, handler.args)
        if parsed is None:
            continue
        folders, words = parsed
        base = handler.source.cwd
        for folder in folders:
            base = os.path.join(base, _filled(folder, handler.source))
        configs, dialect = _options(words)
        found.extend(Named(handler, given, _resolved(_filled(given, handler.source), base),
                           dialect) for given in configs)
    return found


def _options(words: Sequence[str]) -> tuple[list[str], str | None]:
    """The `--config` values and the `--dialect` of a run's words."""
    from agenthooks.plan.recursion import option_values

    dialects = option_values(words, "--dialect")
    return [c for c in option_values(words, "--config") if c], dialects[-1] if dialects else None


def _filled(text: str, source: Source) -> str:
    """A path with the hosts' project-root variables filled in."""
    for name in PROJECT_VARIABLES:
        text = text.replace("${" + name + "}", source.workspace).replace("$" + name,
                                                                       source.workspace)
    return os.path.expanduser(text)


def _resolved(given: str, base: str) -> str:
    """Where a run started in `base` reads `--config given` (`cli.run_args.config_path`):
    relative to `base`, else, from a customization folder, to the workspace root above."""
    path = os.path.join(base, given)
    if os.path.lexists(path) or os.path.basename(base) not in discovery.CUSTOMIZATION_DIRS:
        return path
    from_root = os.path.join(os.path.dirname(base), given)
    return from_root if os.path.lexists(from_root) else path


def _missing(hook_file: HookFile, named: Named) -> Diagnostic:
    from agenthooks.plan.recursion import _position

    pointer = named.handler.pointer + "/command"
    line, column = _position(hook_file, pointer)
    rule = RULES[RULE]
    return Diagnostic(
        hook_file.source.path, line, column, rule.severity, rule.id,
        f"this agenthooks entry runs --config {named.given}, which names no file "
        f"({named.path}): each run skips it, so none of its gates runs (every call is "
        "allowed with a warning, or denied under --fail-closed); create the gate file there "
        "or correct the path", pointer)
