"""`agenthooks test [PATH...]`: run hook fixtures and check what the hooks decide.

With `--replay`, each case runs under the host that recorded it and under every other host, its
payload translated (`testing.replay`): a case that fails under a host is a decision that
changed there.

Exit status: 0 every case passed (or no fixture file was found by default discovery), 1 a
case failed (with `--replay`: a decision changed under some host; with `--record`: a payload
got no answer), 2 a fixture file is invalid or a PATH is
missing: nothing runs then, as a test suite that does not load runs no test.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Sequence
from typing import TextIO

from agenthooks.escape import printable
from agenthooks.features.fixtures.loader import is_fixture, load
from agenthooks.features.fixtures.model import FIXTURE_FORMAT, TEST_DIRS, Fixture
from agenthooks.features.fixtures.reporters import SARIF_RULES, Live, Summary, write
from agenthooks.features.fixtures.runner import DEFAULT_TIMEOUT, Options, run_cases
from agenthooks.model.handlers import Diagnostic, Source
from agenthooks.report.diagnostics import REPORTERS, TextReporter, ValidationResult
from agenthooks.report.table import is_terminal
from agenthooks.sources import discovery

EXIT_FAILED = 1
EXIT_INVALID = 2
_SKIPPED_DIRS = frozenset({".git", "node_modules", "__pycache__"})
# Formats for tools: a fixture file's errors go where the results would (stdout or -o FILE),
# in that format; for people they go to stderr as validate's text.
_TO_OUTPUT = frozenset({"json", "sarif"})


def _default_workspaces(workspaces: Sequence[str]) -> list[str]:
    if workspaces:
        return list(workspaces)
    return [discovery.find_workspace_root(os.getcwd()) or "."]


def _under(folder: str) -> list[str]:
    found: list[str] = []
    for directory, children, files in os.walk(folder):
        children[:] = sorted(child for child in children if child not in _SKIPPED_DIRS)
        found += [os.path.join(directory, name) for name in sorted(files) if is_fixture(name)]
    return found


def find_fixtures(paths: Sequence[str], workspaces: Sequence[str]) -> tuple[list[str], list[str]]:
    """(fixture files, PATHs that do not exist). PATHs: files as given, folders searched
    below; none: `.agents/tests/` and `.harness/tests/` of each workspace."""
    if not paths:
        return [file for root in _default_workspaces(workspaces)
                for folder in TEST_DIRS for file in _under(os.path.join(root, folder))], []
    files: list[str] = []
    missing: list[str] = []
    for path in paths:
        if os.path.isdir(path):
            files += _under(path)
        elif os.path.exists(path):
            files.append(path)
        else:
            missing.append(path)
    return list(dict.fromkeys(files)), missing


def _shown(path: str) -> str:
    return discovery.display_path(os.path.abspath(path))


def _report_invalid(fixtures: Sequence[Fixture], extra: Sequence[Diagnostic], fmt: str,
                    out: TextIO) -> int:
    sources = tuple(Source(f.path, f.file, "", "workspace", "", FIXTURE_FORMAT) for f in fixtures)
    diagnostics = (*extra, *(d for f in fixtures for d in f.diagnostics))
    result = ValidationResult(sources=sources, diagnostics=diagnostics)
    if fmt in _TO_OUTPUT:
        REPORTERS[fmt](out, rules=SARIF_RULES).report(result)
    else:
        TextReporter(sys.stderr, summary=False).report(result)
    sys.stderr.write(f"agenthooks: {len(diagnostics)} error"
                     f"{'' if len(diagnostics) == 1 else 's'} in fixture files: no case ran\n")
    return EXIT_INVALID


def run_tests(
    paths: Sequence[str],
    *,
    workspaces: Sequence[str] = (),
    python: Sequence[str] = (),
    fmt: str = "text",
    output: str | None = None,
    jobs: int | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    replay: bool = False,
) -> int:
    """Load every fixture file, run every case (`replay`: under every host), report; 0, 1 (a
    failure) or 2 (invalid)."""
    absent = [given for given in workspaces if not os.path.isdir(given)]
    if absent:
        sys.stderr.write(f"agenthooks: error: --workspace {printable(absent[0])} is not a "
                         "directory\n")
        return EXIT_INVALID
    files, missing = find_fixtures(paths, workspaces)
    missing_found = [Diagnostic(path, 1, 1, "error", "fixture-unreadable",
                                "no such file or directory", "") for path in missing]
    if not files and not missing:
        where = ", ".join(f"{root}/{folder}/" for root in _default_workspaces(workspaces)
                          for folder in TEST_DIRS) if not paths else ", ".join(paths)
        sys.stderr.write(f"agenthooks: no *.hooktest.yaml or *.hooktest.json in {where}\n")
        if fmt == "sarif":  # code scanning reads a log with no result as "nothing failed"
            with _output(output) as out:
                write(Summary([], [], 0.0), fmt, out)
        return 0
    default = workspaces[0] if len(workspaces) == 1 else None
    fixtures = [load(_shown(file), default_workspace=default) for file in files]
    if missing_found or any(f.diagnostics for f in fixtures):
        if fmt not in _TO_OUTPUT:
            return _report_invalid(fixtures, missing_found, fmt, sys.stdout)
        with _output(output) as out:
            return _report_invalid(fixtures, missing_found, fmt, out)
    with _output(output) as out:
        cases = [case for fixture in fixtures for case in fixture.cases]
        if replay:
            from agenthooks.features.fixtures.replay import across_hosts

            cases = across_hosts(cases)
        live = _live(fmt, out, len(cases))
        start = time.perf_counter()
        options = Options(tuple(python), timeout, jobs, os.getcwd())
        results = run_cases(cases, options, live)
        summary = Summary(results, [f.path for f in fixtures], time.perf_counter() - start)
        if live is not None:
            live.finish(summary)
        if live is None or not live.lines:
            write(summary, fmt, out)
    if output is not None:
        sys.stderr.write(summary.line() + "\n")
    return EXIT_FAILED if summary.failed else 0


def _live(fmt: str, out: TextIO, total: int) -> Live | None:
    """Text on stdout is written as the cases finish, with a progress line on a terminal;
    other formats and files are written at the end, a progress line on stderr meanwhile
    when it is a terminal."""
    if fmt == "text" and out is sys.stdout:
        return Live(out, total, lines=True, progress=is_terminal(out))
    if is_terminal(sys.stderr):
        return Live(sys.stderr, total, lines=False, progress=True)
    return None


class _output:
    """stdout, or the report for `-o FILE`, written whole at the end or not at all
    (`agenthooks.userfiles`; no `.bak`: a report is output made again on every run, not
    something a user wrote). A missing folder is said before any case runs."""

    def __init__(self, path: str | None) -> None:
        import io

        self.path = path
        self.buffer = io.StringIO()

    def __enter__(self) -> TextIO:
        if self.path is None:
            return sys.stdout
        from agenthooks.userfiles import WriteError, target_of

        folder = os.path.dirname(os.path.abspath(target_of(self.path)))
        if not os.path.isdir(folder):
            raise WriteError(f"cannot write {self.path}: no such folder {folder}")
        return self.buffer

    def __exit__(self, kind: type[BaseException] | None, *exc: object) -> None:
        if self.path is not None and kind is None:
            from agenthooks.userfiles import write

            write(self.path, self.buffer.getvalue(), backup=False)


def record_fixture(
    payloads: Sequence[str],
    *,
    event: str | None,
    tool: str | None,
    output: str | None,
    workspaces: Sequence[str] = (),
    python: Sequence[str] = (),
    timeout: float = DEFAULT_TIMEOUT,
) -> int:
    """`--record`: run the payloads and write their answers as a fixture file."""
    from agenthooks.features.fixtures.loader import EVENT_NAMES
    from agenthooks.features.fixtures.record import RecordError, record

    problem = _record_usage(payloads, event, output, workspaces)
    if problem is not None:
        sys.stderr.write(f"agenthooks: error: {problem}\n")
        return EXIT_INVALID
    assert event is not None and output is not None
    if event not in EVENT_NAMES:
        from agenthooks.model.eventnames import unknown_event_hint

        sys.stderr.write(f"agenthooks: error: unknown event {printable(event)!r}: "
                         f"{unknown_event_hint(event, EVENT_NAMES)}\n")
        return EXIT_INVALID
    workspace = _default_workspaces(workspaces)[0]
    try:
        count, wrote = record(payloads, event=event, tool=tool, workspace=workspace,
                              output=output,
                              options=Options(tuple(python), timeout, None, os.getcwd()))
    except RecordError as exc:
        sys.stderr.write(f"agenthooks: error: {printable(str(exc))}\n")
        return exc.code
    kept = f"; what it replaced is kept in {wrote.backup}" if wrote.backup else ""
    sys.stderr.write(f"agenthooks: recorded {count} case{'' if count == 1 else 's'} "
                     f"in {printable(output)}{printable(kept)}\n")
    return 0


def _record_usage(payloads: Sequence[str], event: str | None, output: str | None,
                  workspaces: Sequence[str]) -> str | None:
    if not payloads:
        return "--record needs PAYLOAD files (JSON)"
    if event is None:
        return "--record needs --event EVENT"
    if output is None:
        return "--record needs -o FILE (.yaml/.yml writes YAML, anything else JSON)"
    if len(workspaces) > 1:
        return "--record takes one --workspace"
    return None
