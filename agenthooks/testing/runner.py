"""Runs fixture cases through the real engine and checks what each one expects.

Each case is one `python -m agenthooks run EVENT --report json --no-user --workspace WS`
process, exactly what a host starts, so command handlers, Markdown (Starlark) hooks and the
Python hooks of `--python` all run as they do in production. Cases run in parallel on a thread
pool (each thread waits on its own process), up to the CPU count.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, NamedTuple

from agenthooks.events import did_you_mean
from agenthooks.testing.loader import regex_of
from agenthooks.testing.model import Case, CaseResult, Mismatch

DEFAULT_TIMEOUT = 120.0  # seconds per case: longer than any sane hook, short of a hung CI job
_KILL_GRACE = 2.0
HOME_PREFIX = "agenthooks-test-home-"
# Inherited settings that would change what the hooks decide, or write where a test must not
# (an audit log): a case gets only the ones its own `env` sets.
KEPT_AGENTHOOKS_ENV = frozenset({"AGENTHOOKS_DEBUG"})
# Under a temporary HOME the XDG folders move with it: a user config (require_trust,
# audit_log...) or cache of the person running the tests must not leak into a case.
XDG_UNDER_HOME: dict[str, str] = {
    "XDG_CONFIG_HOME": ".config",
    "XDG_DATA_HOME": ".local/share",
    "XDG_STATE_HOME": ".local/state",
    "XDG_CACHE_HOME": ".cache",
}
# Handler statuses in `--report json` of handlers that did not run their command.
_NOT_RUN_STATUSES = frozenset({"not-started", "skipped"})


class Options(NamedTuple):
    """How every case runs: the Python hooks, the per-case time limit, the parallelism."""

    python: tuple[str, ...] = ()
    timeout: float = DEFAULT_TIMEOUT
    jobs: int | None = None  # None: os.cpu_count()
    cwd: str | None = None  # where `agenthooks run` starts (for --python modules): the caller's


class Live:
    """The runs under way, so that an interrupt can end every one of them."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.processes: set[subprocess.Popen[bytes]] = set()
        self.stopping = False

    def add(self, process: subprocess.Popen[bytes]) -> None:
        with self.lock:
            self.processes.add(process)
            stopping = self.stopping
        if stopping:  # started while the others were being killed
            _kill_group(process)

    def discard(self, process: subprocess.Popen[bytes]) -> None:
        with self.lock:
            self.processes.discard(process)

    def kill_all(self) -> None:
        with self.lock:
            self.stopping = True
            processes = list(self.processes)
        for process in processes:
            _signal_group(process, signal.SIGTERM)


class Finished(NamedTuple):
    exit_code: int | None
    stdout: bytes
    stderr: bytes
    ms: float
    problem: str | None  # why there is no exit status (timeout, could not start)


def run_cases(cases: Sequence[Case], options: Options,
              on_result: Callable[[int, CaseResult], None] | None = None) -> list[CaseResult]:
    """Every case's result, in the order given; `on_result` sees each as it finishes, with
    its index among `cases` (from the runner's threads)."""
    known = _known_names(cases, options)
    live = Live()
    jobs = max(1, min(options.jobs or os.cpu_count() or 1, len(cases) or 1))

    def one(indexed: tuple[int, Case]) -> CaseResult:
        index, case = indexed
        result = run_case(case, options, known.get(case.workspace), live)
        if on_result is not None:
            on_result(index, result)
        return result

    with ThreadPoolExecutor(max_workers=jobs, thread_name_prefix="hooktest") as pool:
        try:
            return list(pool.map(one, enumerate(cases)))
        except BaseException:
            # Ctrl-C reaches only us: each run is in a session of its own. End them all, or
            # the pool would wait for every hook to finish before the interrupt is seen.
            pool.shutdown(wait=False, cancel_futures=True)
            live.kill_all()
            raise


def run_case(case: Case, options: Options, known: frozenset[str] | None = None,
             live: Live | None = None) -> CaseResult:
    """Run one case and check it against its expectations."""
    home = tempfile.mkdtemp(prefix=HOME_PREFIX) if case.isolate_home else None
    try:
        finished = run_process(run_command(case, options.python), case.payload,
                               case_env(case, home), options, live or Live())
    finally:
        if home is not None:
            shutil.rmtree(home, ignore_errors=True)
    report = _report(finished.stdout)
    stderr = finished.stderr.decode("utf-8", "replace")
    mismatches = check(case, finished, report, known)
    return CaseResult(case, finished.exit_code, finished.ms, report, stderr, tuple(mismatches))


def run_command(case: Case, python: Sequence[str], report: bool = True) -> list[str]:
    command = [sys.executable, "-m", "agenthooks", "run", case.event, "--no-user",
               "--workspace", case.workspace]
    if report:
        command += ["--report", "json"]
    if case.host is not None:
        command += ["--host", case.host]
    if case.other_hosts:
        command += ["--other-hosts"]
    if case.tool is not None:
        command += ["--tool", case.tool]
    for target in python:
        command += ["--python", target]
    return command


def case_env(case: Case, home: str | None) -> dict[str, str]:
    """The environment of one case: ours without agenthooks' settings, HOME (and the XDG
    folders) in `home` when given, then the case's own `env`."""
    return {**clean_env(home), **case.env}


def clean_env(home: str | None) -> dict[str, str]:
    """Our environment without agenthooks' settings; HOME and the XDG folders in `home`."""
    env = {key: value for key, value in os.environ.items()
           if not key.startswith("AGENTHOOKS_") or key in KEPT_AGENTHOOKS_ENV}
    if home is not None:
        env.pop("USERPROFILE", None)
        env["HOME"] = home
        env.update({key: os.path.join(home, sub) for key, sub in XDG_UNDER_HOME.items()})
    return env


def run_process(command: list[str], stdin: bytes, env: dict[str, str], options: Options,
                live: Live) -> Finished:
    """Run `command` in its own session; on timeout its whole group gets SIGTERM, then
    SIGKILL, so nothing a hook started outlives the case."""
    start = time.perf_counter()
    try:
        process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, env=env, cwd=options.cwd,
                                   start_new_session=True)
    except OSError as exc:
        return Finished(None, b"", b"", 0.0, f"could not start {command[0]}: {exc}")
    live.add(process)
    try:
        out, err = process.communicate(stdin, timeout=options.timeout)
    except subprocess.TimeoutExpired:
        _kill_group(process)
        out, err = process.communicate()
        ms = (time.perf_counter() - start) * 1000
        return Finished(None, out, err, ms, f"timed out after {options.timeout:g} s")
    finally:
        live.discard(process)
    ms = (time.perf_counter() - start) * 1000
    return Finished(process.returncode, out, err, ms, None)


def _signal_group(process: subprocess.Popen[bytes], sig: int) -> bool:
    try:
        os.killpg(process.pid, sig)
    except (ProcessLookupError, PermissionError):
        return False
    return True


def _kill_group(process: subprocess.Popen[bytes]) -> None:
    """SIGTERM (agenthooks run then kills its handlers' groups), SIGKILL after a grace."""
    for sig, wait in ((signal.SIGTERM, _KILL_GRACE), (signal.SIGKILL, None)):
        if not _signal_group(process, sig):
            return
        try:
            process.wait(wait)
            return
        except subprocess.TimeoutExpired:
            continue


def _report(stdout: bytes) -> dict[str, Any] | None:
    try:
        report = json.loads(stdout)
    except ValueError:
        return None
    return report if isinstance(report, dict) and "decision" in report else None


# -- what the report says


def actual_reason(output: dict[str, Any]) -> str | None:
    """The merged answer's reason: `reason`, else (for `continue: false`) `stopReason`."""
    for key in ("reason", "stopReason"):
        if isinstance(output.get(key), str):
            return str(output[key])
    return None


def actual_args(output: dict[str, Any]) -> dict[str, Any] | None:
    """The arguments the hooks rewrote (`hookSpecificOutput.updatedInput`), or None."""
    specific = output.get("hookSpecificOutput")
    updated = specific.get("updatedInput") if isinstance(specific, dict) else None
    return updated if isinstance(updated, dict) else None


def ran_names(report: dict[str, Any]) -> list[str]:
    """Every hook that ran: command handlers that started, and in-process hooks."""
    names = [h["hook"] for h in report.get("handlers", [])
             if h.get("status") not in _NOT_RUN_STATUSES]
    names += [h["hook"] for h in report.get("hooks", [])]
    return list(dict.fromkeys(names))


def _output(report: dict[str, Any]) -> dict[str, Any]:
    output = report.get("output")
    return output if isinstance(output, dict) else {}


# -- the checks


def check(case: Case, finished: Finished, report: dict[str, Any] | None,
          known: frozenset[str] | None) -> list[Mismatch]:
    """Every expectation of the case that does not hold, in the order they are written."""
    expect = case.expect
    found = list(_check_exit(expect.exit_code, finished))
    needs_report = any(value is not None for value in (
        expect.decision, expect.blocked, expect.reason, expect.system_message,
        expect.modified_args)) or expect.ran or expect.not_ran
    if report is None:
        if needs_report and finished.exit_code is not None:
            found.append(Mismatch("report", "a --report json object", None,
                                  "agenthooks run printed no report"))
    else:
        for checker in _CHECKS:
            found.extend(checker(case, report))
    if known is not None:
        found.extend(_unknown_names(case, known))
    if expect.max_ms is not None and finished.ms > expect.max_ms:
        found.append(Mismatch("max_ms", expect.max_ms, round(finished.ms, 1),
                              "the run took longer than allowed"))
    return found


def _check_exit(expected: int | None, finished: Finished) -> Iterable[Mismatch]:
    if finished.exit_code is None:
        yield Mismatch("exit_code", expected if expected is not None else "0 or 2", None,
                       finished.problem or "the run did not finish")
    elif expected is not None and finished.exit_code != expected:
        yield Mismatch("exit_code", expected, finished.exit_code)
    elif expected is None and finished.exit_code not in (0, 2):
        yield Mismatch("exit_code", "0 or 2", finished.exit_code,
                       "agenthooks run failed and gave no answer")


def _check_decision(case: Case, report: dict[str, Any]) -> Iterable[Mismatch]:
    from agenthooks.testing.loader import NO_DECISION

    expected = case.expect.decision
    if expected is None:
        return
    wanted = None if expected == NO_DECISION else expected
    if report.get("decision") != wanted:
        yield Mismatch("decision", wanted, report.get("decision"))


def _check_blocked(case: Case, report: dict[str, Any]) -> Iterable[Mismatch]:
    expected = case.expect.blocked
    if expected is not None and report.get("blocked") is not expected:
        yield Mismatch("blocked", expected, report.get("blocked"))


def _check_reason(case: Case, report: dict[str, Any]) -> Iterable[Mismatch]:
    yield from _text_check("reason", case.expect.reason, actual_reason(_output(report)))


def _check_system_message(case: Case, report: dict[str, Any]) -> Iterable[Mismatch]:
    actual = _output(report).get("systemMessage")
    yield from _text_check("system_message", case.expect.system_message,
                           actual if isinstance(actual, str) else None)


def _text_check(field: str, expected: str | None, actual: str | None) -> Iterable[Mismatch]:
    if expected is None:
        return
    if actual is None:
        yield Mismatch(field, expected, None, f"the answer has no {field.replace('_', ' ')}")
        return
    pattern = regex_of(expected)
    if pattern is not None:
        if re.search(pattern, actual) is None:
            yield Mismatch(field, expected, actual, "the regex does not match")
    elif expected not in actual:
        yield Mismatch(field, expected, actual, "not a substring of the actual text")


def _check_modified_args(case: Case, report: dict[str, Any]) -> Iterable[Mismatch]:
    expected = case.expect.modified_args
    if expected is None:
        return
    actual = actual_args(_output(report))
    if actual is None:
        yield Mismatch("modified_args", expected, None, "the hooks did not rewrite the arguments")
        return
    missing = {key: value for key, value in expected.items()
               if key not in actual or not contains(actual[key], value)}
    if missing:
        yield Mismatch("modified_args", expected, actual,
                       f"differs at {', '.join(sorted(missing))}")


def contains(actual: Any, expected: Any) -> bool:
    """Whether `actual` holds `expected`: objects by subset, recursively; else equality."""
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(
            key in actual and contains(actual[key], value) for key, value in expected.items())
    if isinstance(expected, bool) or isinstance(actual, bool):
        return type(expected) is type(actual) and expected == actual
    return bool(actual == expected)


def _check_handlers(case: Case, report: dict[str, Any]) -> Iterable[Mismatch]:
    ran = ran_names(report)
    missing = [name for name in case.expect.ran if name not in ran]
    if missing:
        yield Mismatch("handlers.ran", list(case.expect.ran), ran,
                       f"did not run: {', '.join(missing)}")
    unwanted = [name for name in case.expect.not_ran if name in ran]
    if unwanted:
        yield Mismatch("handlers.not_ran", list(case.expect.not_ran), ran,
                       f"ran: {', '.join(unwanted)}")


_CHECKS: tuple[Callable[[Case, dict[str, Any]], Iterable[Mismatch]], ...] = (
    _check_decision, _check_blocked, _check_reason, _check_system_message,
    _check_modified_args, _check_handlers,
)


def _unknown_names(case: Case, known: frozenset[str]) -> Iterable[Mismatch]:
    """A `not_ran` name that is no hook at all would pass forever: a typo is a failure."""
    for name in (*case.expect.ran, *case.expect.not_ran):
        if name not in known:
            guess = did_you_mean(name, sorted(known))
            hint = f"; did you mean {guess!r}?" if guess else ""
            yield Mismatch("handlers", name, None,
                           f"no hook of the workspace is named {name!r}{hint}")


def _known_names(cases: Sequence[Case], options: Options) -> dict[str, frozenset[str]]:
    """The hook names of each workspace whose cases name hooks (`agenthooks list`)."""
    workspaces = {case.workspace for case in cases if case.expect.ran or case.expect.not_ran}
    known: dict[str, frozenset[str]] = {}
    for workspace in sorted(workspaces):
        command = [sys.executable, "-m", "agenthooks", "list", "--workspace", workspace,
                   "--no-user", "--format", "json"]
        for target in options.python:
            command += ["--python", target]
        try:
            done = subprocess.run(command, capture_output=True, env=clean_env(None),
                                  cwd=options.cwd,
                                  timeout=options.timeout, check=False)
            listed = json.loads(done.stdout)
        except (OSError, ValueError, subprocess.TimeoutExpired):
            continue  # no list, no check: the case's own checks still run
        if isinstance(listed, list):
            known[workspace] = frozenset(
                item["hook"] for item in listed if isinstance(item, dict) and "hook" in item)
    return known
