"""The records of `agenthooks test`: fixture files, cases, expectations and results."""

from __future__ import annotations

from typing import Any, NamedTuple

from agenthooks.model.handlers import Diagnostic

FIXTURE_SUFFIXES: tuple[str, ...] = (".hooktest.yaml", ".hooktest.yml", ".hooktest.json")
TEST_DIRS: tuple[str, ...] = (".agents/tests", ".harness/tests")


class Expect(NamedTuple):
    """What a case expects; None (or empty) means "not checked"."""

    decision: str | None = None
    blocked: bool | None = None
    reason: str | None = None  # a substring, or `/regex/`
    system_message: str | None = None  # a substring, or `/regex/`
    modified_args: dict[str, Any] | None = None  # a subset of the rewritten arguments
    ran: tuple[str, ...] = ()
    not_ran: tuple[str, ...] = ()
    exit_code: int | None = None
    max_ms: float | None = None


class Case(NamedTuple):
    """One case of a fixture file, ready to run."""

    name: str
    file: str  # the fixture file as shown in messages
    line: int  # where the case starts in that file
    workspace: str  # absolute
    event: str
    tool: str | None
    payload: bytes  # exactly what `agenthooks run` reads on stdin
    env: dict[str, str]
    isolate_home: bool
    expect: Expect
    host: str | None = None  # `run --host`: whose words the answer is in; None: no --host
    other_hosts: bool = False  # `run --other-hosts`


class Fixture(NamedTuple):
    """One fixture file: its cases, or the diagnostics that make it unusable."""

    path: str  # as shown in messages
    file: str  # absolute
    cases: tuple[Case, ...]
    diagnostics: tuple[Diagnostic, ...]


class Mismatch(NamedTuple):
    """One expectation that did not hold."""

    field: str
    expected: Any
    actual: Any
    note: str = ""  # why, when expected and actual alone do not say it


class CaseResult(NamedTuple):
    """What one case did: the run's exit status, report and output, and every mismatch."""

    case: Case
    exit_code: int | None  # None: the run did not finish (timed out, could not start)
    ms: float
    report: dict[str, Any] | None  # `agenthooks run --report json`, when it printed one
    stderr: str
    mismatches: tuple[Mismatch, ...]

    @property
    def passed(self) -> bool:
        return not self.mismatches
