"""`agenthooks validate [PATH...]`: every finding in hook files, for people and for CI.

hooks.json files and Markdown hooks (`.harness/hooks/*.md`) alike: the same formats, the same
exit codes, every finding at `file:line:col` of the file itself.

Antigravity drops a whole file silently on any load error, so this command is strict and loud:
it reports everything it can find, each at `file:line:col`, and exits 1 on any error.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Sequence
from pathlib import Path

from agenthooks.escape import printable
from agenthooks.model.handlers import Diagnostic, Source
from agenthooks.model.rules import RULES
from agenthooks.plan.gates import cannot_block, refused
from agenthooks.plan.recursion import runs_itself
from agenthooks.plan.wired import runs_nothing
from agenthooks.report.diagnostics import ValidationResult, report
from agenthooks.report.sarif import RuleHelp
from agenthooks.sources import discovery
from agenthooks.sources.load import Loaded
from agenthooks.sources.paths import walk_directories
from agenthooks.userconfig import (
    UserConfig,
    UserConfigError,
    config_path,
    read_user_config,
)

USER_CONFIG_RULE = "user-config"


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


def _empty_message(given: str, recursive: bool) -> str:
    if recursive:
        return (f"agenthooks: {given}: no {discovery.HOOKS_FILE} in any {_folders()} and no "
                f"Markdown hook in any {discovery.MARKDOWN_DIR}/ below it\n")
    if Path(given).resolve().name in discovery.CUSTOMIZATION_DIRS:
        return f"agenthooks: {given}: no {discovery.HOOKS_FILE} in this folder\n"
    return f"agenthooks: {given}: no {discovery.HOOKS_FILE} in {_folders()}\n"


def user_config() -> tuple[UserConfig | None, list[Diagnostic]]:
    """The user config file as every run reads it, or the error that would break every run
    (rule `user-config`, at the file's line and column)."""
    try:
        return read_user_config(), []
    except UserConfigError as exc:
        path = config_path()
        found = re.match(rf"{re.escape(path)}(?::(\d+))?(?::(\d+))?: (.*)", str(exc), re.S)
        line, column, message = (found.groups() if found else (None, None, str(exc)))
        rule = RULES[USER_CONFIG_RULE]
        message = f"{message} (every agenthooks run fails on it)"
        return None, [Diagnostic(discovery.display_path(path), int(line or 1), int(column or 1),
                                 rule.severity, rule.id, message, "")]


def fixture_findings(named: Sequence[str], paths: Sequence[str], workspaces: Sequence[str],
                     recursive: bool) -> tuple[list[Source], list[Diagnostic]]:
    """The hook fixtures (`*.hooktest.yaml|json`) named, and those `agenthooks test` would run
    in each folder named (with `recursive`, every folder below), each `--workspace`, or the
    workspace found upward: each read and checked as `test` does before it runs anything.
    Returns the fixtures with findings, and the findings."""
    from agenthooks.cli.commands.test import find_fixtures
    from agenthooks.features.fixtures.loader import load
    from agenthooks.features.fixtures.model import FIXTURE_FORMAT

    folders = [p for p in paths if os.path.isdir(p)]
    if recursive:
        folders = [d for top in folders or ["."] for d in walk_directories(top)]
    if folders:
        found = find_fixtures([], folders)[0]
    elif paths or named:  # files only: those named
        found = []
    else:  # as `agenthooks test` finds them: each --workspace, else the one upward
        found = find_fixtures([], workspaces)[0]
    files = list(dict.fromkeys([*named, *found]))
    fixtures = [load(discovery.display_path(os.path.abspath(f))) for f in files]
    # A good fixture is not counted among the files checked: the summary stays the count of
    # hook files; one with findings is, so that they are shown with its lines.
    sources = [Source(f.path, f.file, "", "workspace", "", FIXTURE_FORMAT) for f in fixtures
               if f.diagnostics]
    return sources, [d for f in fixtures for d in f.diagnostics]


def near_miss_findings(paths: Sequence[str], workspaces: Sequence[str],
                       configs: Sequence[str], recursive: bool) -> list[Diagnostic]:
    """A warning at each file that looks like a hook file where agenthooks never looks: in
    each folder named (with `recursive`, every folder below), in each `--workspace`, else in
    the current directory and its parents up to the top of its git work tree."""
    from agenthooks.sources import nearmiss

    folders = [p for p in paths if os.path.isdir(p)] or list(workspaces)
    if recursive:
        folders = [d for top in folders or ["."] for d in walk_directories(top)]
    if folders:
        misses = [miss for folder in folders for miss in nearmiss.near_misses_in(folder)]
    elif paths or configs:
        return []
    else:
        misses = nearmiss.near_misses_upward(os.getcwd())
    rule = RULES[nearmiss.RULE]
    unique: dict[str, nearmiss.NearMiss] = {}
    for miss in misses:
        unique.setdefault(miss.path, miss)
    return [Diagnostic(discovery.display_path(miss.path), 1, 1, rule.severity, rule.id,
                       miss.describe(), "") for miss in unique.values()]


def with_wired(loaded: Loaded) -> tuple[Loaded, list[Diagnostic]]:
    """`loaded` and the gate files its agenthooks entries name with --config, each checked
    (`features.wired`), and an error at each entry that names a missing file."""
    from agenthooks.features.findings import check_every
    from agenthooks.features.wired import wired

    cwd = os.getcwd()
    checked = {os.path.realpath(source.file) for source in loaded.sources}
    files, missing, new = list(loaded.files), [], list(loaded.files)
    for _ in range(8):  # a gate file that wires another: a few levels at most
        found = wired(new, cwd, checked)
        missing.extend(found.missing)
        if not found.sources:
            break
        new, markdown = check_every(found.sources)
        files.extend(new)
        loaded = loaded._replace(markdown=(*loaded.markdown, *markdown))
    return loaded._replace(files=tuple(files)), missing


def _fixture_rules() -> dict[str, RuleHelp]:
    """What a SARIF log says of the rules of hook fixtures, which validate checks too."""
    from agenthooks.features.fixtures.reporters import SARIF_RULES

    return SARIF_RULES


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
    from agenthooks.features.findings import load_checked
    from agenthooks.features.fixtures.loader import is_fixture

    named_fixtures = [path for path in paths if is_fixture(path)]
    paths = [path for path in paths if not is_fixture(path)]
    if named_fixtures and not (paths or configs or workspaces or recursive):
        loaded = Loaded((), (), ())  # only fixtures named: no hook file to look for
    else:
        loaded = load_checked(configs=configs, workspaces=workspaces, no_user=no_user,
                              paths=paths, recursive=recursive, dialect=dialect)
    loaded, missing = with_wired(loaded)
    user, user_findings = user_config()
    fixtures = fixture_findings(named_fixtures, paths, workspaces, recursive)
    for given in loaded.empty:
        sys.stderr.write(_empty_message(printable(given), recursive))
    if not loaded.files and not loaded.empty and not loaded.notes and not named_fixtures:
        sys.stderr.write(
            f"agenthooks: no {discovery.HOOKS_FILE} found "
            f"(looked in {looked_in(workspaces=workspaces, no_user=no_user)})\n"
        )
    result = ValidationResult(
        sources=(*loaded.sources, *fixtures[0]),
        diagnostics=(*loaded.notes, *(d for f in loaded.files for d in f.diagnostics),
                     *fixtures[1], *missing,
                     *user_findings,
                     *runs_itself(loaded.files, user.default_host if user else None),
                     *runs_nothing(loaded.files, user.default_host if user else None),
                     *cannot_block(loaded.files),
                     *refused(loaded.files),
                     *near_miss_findings(paths, workspaces, configs, recursive)),
        empty_dirs=loaded.empty,
    )
    report(result, fmt, sys.stdout, rules=_fixture_rules() if fmt == "sarif" else None)
    if fmt in ("github", "sarif") and (result.sources or result.diagnostics):
        # Annotations (a SARIF log) go to stdout; the log still deserves a last line.
        sys.stderr.write(result.summary() + "\n")
    return result.exit_code(strict=strict)
