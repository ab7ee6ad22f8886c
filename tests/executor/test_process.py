"""run_processes against real subprocesses: output, stdin, timeouts, groups, interruption,
cancellation.

Timing bounds are deliberately generous: they tell "waited for the slowest" from "ran one
after the other" and "returned" from "hung", nothing finer.
"""

from __future__ import annotations

import hashlib
import os
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import proctools
import pytest
from signal_state import default_dispositions

from agenthooks.executor import (
    KILL_GRACE,
    OUTPUT_LIMIT,
    Cancelled,
    Interrupted,
    ProcessResult,
    ProcessSpec,
    Terminated,
    install_signal_handlers,
    run_processes,
)

if TYPE_CHECKING:
    from tests.executor.conftest import Procs

REPO = Path(__file__).resolve().parents[2]


def run_one(
    command: str,
    stdin: bytes = b"",
    *,
    cwd: str = "/",
    timeout: float = 30.0,
    env: dict[str, str] | None = None,
) -> ProcessResult:
    [result] = run_processes([ProcessSpec(command, cwd, timeout, env)], stdin)
    return result


def timed(command: str, timeout: float) -> tuple[ProcessResult, float]:
    start = time.monotonic()
    result = run_one(command, timeout=timeout)
    return result, time.monotonic() - start


def pgid_prefix(tmp_path: Path) -> tuple[str, Path]:
    """A command prefix making the handler's shell write its pid (= its pgid) to a file."""
    pgid_file = tmp_path / "pgid"
    return f"echo $$ > {shlex.quote(str(pgid_file))}; ", pgid_file


def open_fds() -> int:
    return len(list(Path("/proc/self/fd").iterdir()))


def read_pgid(pgid_file: Path, timeout: float = 5.0) -> int:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        text = pgid_file.read_text() if pgid_file.exists() else ""
        if text.endswith("\n"):
            return int(text)
        time.sleep(0.01)
    raise AssertionError("the handler never wrote its pgid")


# --- exit status and output -------------------------------------------------------------


def test_exit_code_stdout_and_stderr() -> None:
    result = run_one("echo out; echo err >&2; exit 3")
    assert result.status == "exited"
    assert result.exit_code == 3
    assert result.signal is None
    assert result.stdout == b"out\n"
    assert result.stderr == b"err\n"
    assert not result.stdout_truncated
    assert not result.stderr_truncated
    assert result.error is None
    assert result.duration_ms >= 0


def test_a_command_without_shell_syntax_runs() -> None:
    result = run_one("true")
    assert (result.status, result.exit_code) == ("exited", 0)
    result = run_one("head -c 3 /dev/zero")
    assert (result.status, result.exit_code, result.stdout) == ("exited", 0, b"\0\0\0")


BASH = shutil.which("bash")


@pytest.mark.parametrize("shell", ["/bin/sh", *([BASH] if BASH else [])])
@pytest.mark.parametrize(
    "variables",
    [
        {"PWD": None, "SHLVL": None, "OLDPWD": None},
        {"PWD": "/", "SHLVL": "2", "OLDPWD": "/nonexistent"},
        {"PWD": "{link}", "OLDPWD": "/"},  # the directory, by another name: kept
        {"PWD": "{real}", "SHLVL": "999"},
        {"A-B": "1", "BASH_FUNC_f%%": "() { :; }"},
    ],
)
@pytest.mark.parametrize("where", ["link", "real", "here", "link, with a thread"])
def test_a_program_gets_what_its_shell_gives_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, shell: str,
    variables: dict[str, str | None], where: str,
) -> None:
    """`env -0` sees what the shell's own run of it sees, variable for variable. With another
    thread running, the executor does not chdir around the spawn (a shell changes into the
    directory)."""
    real = tmp_path / "real"
    real.mkdir()
    link = tmp_path / "link"
    link.symlink_to(real)
    monkeypatch.chdir(real)
    for name, value in variables.items():
        if value is None:
            monkeypatch.delenv(name, raising=False)
        else:
            named = value.replace("{link}", str(link)).replace("{real}", str(real))
            monkeypatch.setenv(name, named)
    cwd = str(real) if where == "here" else str(link if "link" in where else real)
    if where == "here":
        monkeypatch.chdir(tmp_path)
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    if "thread" in where:
        other.start()
    try:
        [result] = run_processes([ProcessSpec("env -0", cwd, 30, None, shell)], b"")
    finally:
        stop.set()
        if other.is_alive():
            other.join()
    reference = subprocess.run([shell, "-c", "env -0"], cwd=cwd,
                               env=dict(os.environ), capture_output=True, check=True)
    assert result.stderr == reference.stderr
    assert dict(sorted(v.split(b"=", 1) for v in result.stdout.split(b"\0") if v)) == dict(
        sorted(v.split(b"=", 1) for v in reference.stdout.split(b"\0") if v)
    )


@pytest.mark.parametrize("signum", [signal.SIGSEGV, signal.SIGTERM, signal.SIGINT,
                                    signal.SIGPIPE, signal.SIGABRT])
@pytest.mark.parametrize("shell", ["/bin/sh", *([BASH] if BASH else [])])
def test_a_program_a_signal_ends_reads_as_under_its_shell(
    tmp_path: Path, signum: int, shell: str
) -> None:
    """A program killed by a signal gives what the shell's run of it gives: dash's exit code
    and report, or bash's signal (it execs the program)."""
    program = tmp_path / "ends"
    program.write_text(f"#!/bin/sh\nkill -{int(signum)} $$\n")
    program.chmod(0o755)
    [result] = run_processes([ProcessSpec(str(program), "/", 30, None, shell)], b"")
    reference = subprocess.run([shell, "-c", str(program)], cwd="/", env=dict(os.environ),
                               capture_output=True, check=False)
    expected = (("exited", reference.returncode, None) if reference.returncode >= 0
                else ("signaled", None, -reference.returncode))
    assert (result.status, result.exit_code, result.signal) == expected
    assert result.stderr == reference.stderr


def test_no_specs() -> None:
    assert run_processes([], b"payload") == []


def test_exit_by_signal() -> None:
    result = run_one("kill -9 $$")
    assert result.status == "signaled"
    assert result.signal == signal.SIGKILL
    assert result.exit_code is None


def test_non_utf8_output_is_kept_raw() -> None:
    result = run_one(r"printf '\377\376ok'; printf '\200' >&2")
    assert result.stdout == b"\xff\xfeok"
    assert result.stderr == b"\x80"


def test_missing_command_is_reported_by_the_shell() -> None:
    result = run_one("agenthooks-no-such-command-4815162342")
    assert (result.status, result.exit_code) == ("exited", 127)
    assert b"agenthooks-no-such-command-4815162342" in result.stderr


def test_non_executable_file_is_reported_by_the_shell(tmp_path: Path) -> None:
    (tmp_path / "tool").write_text("echo hi\n")
    result = run_one("./tool", cwd=str(tmp_path))
    assert (result.status, result.exit_code) == ("exited", 126)


def test_script_without_shebang_falls_back_to_the_shell(tmp_path: Path) -> None:
    tool = tmp_path / "tool"
    tool.write_text('echo "ran with $1"\n')
    tool.chmod(0o755)
    result = run_one("./tool arg", cwd=str(tmp_path))
    assert (result.status, result.exit_code, result.stdout) == ("exited", 0, b"ran with arg\n")


def test_relative_program_runs_in_cwd(tmp_path: Path) -> None:
    tool = tmp_path / "tool"
    tool.write_text('#!/bin/sh\necho "$0 $1 $(pwd -P)"\n')
    tool.chmod(0o755)
    result = run_one("./tool x", cwd=str(tmp_path))
    assert result.stdout == f"./tool x {tmp_path.resolve()}\n".encode()


def test_cwd() -> None:
    result = run_one("pwd -P", cwd="/usr")
    assert result.stdout == b"/usr\n"


def test_env_is_added_to_the_inherited_environment() -> None:
    assert "PATH" in os.environ
    result = run_one(
        'echo "$AGENTHOOKS_TEST_X:${PATH:+inherited}"', env={"AGENTHOOKS_TEST_X": "42"}
    )
    assert result.stdout == b"42:inherited\n"
    assert "AGENTHOOKS_TEST_X" not in os.environ


def test_env_path_is_used_to_find_a_command(tmp_path: Path) -> None:
    tool = tmp_path / "agenthooks-env-tool"
    tool.write_text("#!/bin/sh\necho found\n")
    tool.chmod(0o755)
    env = {"PATH": f"{tmp_path}:{os.environ['PATH']}"}
    assert run_one("agenthooks-env-tool", env=env).stdout == b"found\n"
    assert run_one("agenthooks-env-tool").exit_code == 127


@pytest.mark.parametrize(
    ("value", "seen"),
    [
        ("plain", b"plain"),
        ("caf\u00e9", "caf\u00e9".encode()),
        ("a\0b", b"<unset>"),  # cannot reach the environment: the variable is dropped
        ("\0", b"<unset>"),
        ("tool\ud800x", b"tool\\ud800x"),  # a lone surrogate, from a JSON escape
        ("mcp_\udcff", b"mcp_\xff"),  # a byte decoded with surrogateescape gets it back
        ("\udcff\ud800", b"\\udcff\\ud800"),
    ],
)
@pytest.mark.parametrize("plain", [True, False])
def test_env_values_that_cannot_reach_the_environment(
    tmp_path: Path, value: str, seen: bytes, plain: bool
) -> None:
    script = tmp_path / "show"
    script.write_text('#!/bin/sh\nprintf "%s|%s" "${AGENTHOOKS_TOOL_NAME-<unset>}" "$OTHER"\n')
    script.chmod(0o755)
    command = "./show" if plain else "./show; true"
    env = {"AGENTHOOKS_TOOL_NAME": value, "OTHER": "kept"}
    result = run_one(command, cwd=str(tmp_path), env=env)
    assert (result.status, result.stdout) == ("exited", seen + b"|kept"), result.error


@pytest.mark.parametrize("name", ["", "A=B", "A\0B", "A\ud800"])
def test_env_names_that_cannot_reach_the_environment_are_dropped(name: str) -> None:
    result = run_one('printf "%s" "$OTHER"', env={name: "x", "OTHER": "kept"})
    assert (result.status, result.stdout) == ("exited", b"kept"), result.error


def test_env_with_nul_does_not_stop_the_others() -> None:
    env = {"AGENTHOOKS_TOOL_NAME": "evil\0tool"}
    specs = [ProcessSpec("echo a", "/", 10, env), ProcessSpec("echo b; true", "/", 10, env)]
    assert [(r.status, r.stdout) for r in run_processes(specs, b"")] == [
        ("exited", b"a\n"),
        ("exited", b"b\n"),
    ]


@pytest.mark.parametrize(
    ("command", "error"),
    [
        ("echo a\0b", "cannot start: the command contains a NUL byte"),
        ("\0", "cannot start: the command contains a NUL byte"),
        ("echo \ud800", "cannot start: the command contains a lone surrogate (\\ud800)"),
    ],
)
def test_command_that_cannot_reach_argv_is_not_started(command: str, error: str) -> None:
    results = run_processes([ProcessSpec(command, "/", 10), ProcessSpec("echo ok", "/", 10)], b"")
    assert results[0].status == "not-started"
    assert results[0].error == error
    assert (results[1].status, results[1].stdout) == ("exited", b"ok\n")


@pytest.mark.parametrize("command", ["true", "true; exit 0"])
def test_missing_cwd_is_not_started(command: str) -> None:
    result = run_one(command, cwd="/nonexistent")
    assert result.status == "not-started"
    assert result.error == "cannot start: [Errno 2] No such file or directory: '/nonexistent'"
    assert (result.exit_code, result.signal, result.stdout, result.stderr) == (
        None,
        None,
        b"",
        b"",
    )


def test_not_started_does_not_stop_the_others() -> None:
    results = run_processes(
        [ProcessSpec("echo a", "/", 10), ProcessSpec("echo b", "/nonexistent", 10)], b""
    )
    assert [r.status for r in results] == ["exited", "not-started"]
    assert results[0].stdout == b"a\n"


# --- concurrency ------------------------------------------------------------------------


def test_results_are_in_spec_order() -> None:
    specs = [
        ProcessSpec("sleep 0.3; echo slow", "/", 10),
        ProcessSpec("echo fast", "/", 10),
        ProcessSpec("sleep 0.1; echo middle; exit 1", "/", 10),
    ]
    results = run_processes(specs, b"")
    assert [r.stdout for r in results] == [b"slow\n", b"fast\n", b"middle\n"]
    assert [r.exit_code for r in results] == [0, 0, 1]


def test_handlers_run_in_parallel() -> None:
    start = time.monotonic()
    results = run_processes([ProcessSpec("sleep 0.5", "/", 10)] * 3, b"")
    elapsed = time.monotonic() - start
    assert [r.status for r in results] == ["exited"] * 3
    assert elapsed < 1.4


def test_every_handler_gets_the_whole_payload() -> None:
    payload = os.urandom(300_000)
    results = run_processes([ProcessSpec("cat", "/", 10)] * 4, payload)
    assert all(r.stdout == payload for r in results)


# --- stdin ------------------------------------------------------------------------------


def test_handler_that_never_reads_a_large_payload() -> None:
    result = run_one("true", b"x" * 3_000_000)
    assert (result.status, result.exit_code) == ("exited", 0)


def test_handler_that_reads_part_of_a_large_payload() -> None:
    result = run_one("head -c 10 >/dev/null; echo ok", b"y" * 3_000_000)
    assert (result.status, result.exit_code, result.stdout) == ("exited", 0, b"ok\n")


def test_cat_echoes_a_large_payload_exactly() -> None:
    payload = os.urandom(2_000_000)
    # stdin is written while stdout is read, so neither side blocks the other; what comes
    # back is bounded by OUTPUT_LIMIT, so check the kept part and a digest of the whole.
    result = run_one("cat", payload)
    assert result.stdout == payload[:OUTPUT_LIMIT]
    assert result.stdout_truncated
    digest = run_one("md5sum", payload).stdout.split()[0]
    assert digest == hashlib.md5(payload).hexdigest().encode()
    exact = payload[:OUTPUT_LIMIT]
    assert run_one("cat", exact).stdout == exact


def test_empty_payload_gives_eof() -> None:
    assert run_one("cat; echo done", b"").stdout == b"done\n"


# --- output limits ----------------------------------------------------------------------


def test_large_stdout_is_truncated_without_hanging() -> None:
    result = run_one("head -c 5000000 /dev/zero", timeout=20)
    assert result.status == "exited"
    assert len(result.stdout) == OUTPUT_LIMIT == 1024 * 1024
    assert result.stdout_truncated
    assert not result.stderr_truncated


def test_large_stderr_is_truncated_while_stdout_is_read() -> None:
    result = run_one("head -c 3000000 /dev/zero >&2; echo tail", timeout=20)
    assert (len(result.stderr), result.stderr_truncated) == (OUTPUT_LIMIT, True)
    assert (result.stdout, result.stdout_truncated) == (b"tail\n", False)


def test_output_of_exactly_the_limit_is_not_truncated() -> None:
    result = run_one(f"head -c {OUTPUT_LIMIT} /dev/zero")
    assert (len(result.stdout), result.stdout_truncated) == (OUTPUT_LIMIT, False)


# --- exit with background children -------------------------------------------------------


def test_background_child_holding_the_pipes_is_not_waited_for(procs: Procs) -> None:
    procs.reap_argv(["sleep", "31.7"])
    start = time.monotonic()
    result = run_one('sleep 31.7 & echo \'{"decision":"deny"}\'')
    assert time.monotonic() - start < 2.0
    assert (result.status, result.exit_code) == ("exited", 0)
    assert result.stdout == b'{"decision":"deny"}\n'


@pytest.mark.parametrize(
    "command",
    [
        "sleep 31.6 & echo '{}'",  # holds the pipes
        "sleep 31.6 >/dev/null 2>&1 & echo '{}'",  # lets them close at once
        "sh -c 'sleep 31.6 & sleep 31.6' & exit 3",  # grandchildren, and an exit status
    ],
)
def test_background_children_are_killed_once_the_answer_is_read(
    procs: Procs, tmp_path: Path, command: str
) -> None:
    procs.reap_argv(["sleep", "31.6"])
    prefix, pgid_file = pgid_prefix(tmp_path)
    result = run_one(prefix + command)
    pgid = read_pgid(pgid_file)
    procs.reap_group(pgid)
    assert result.status == "exited"
    assert result.stdout == (b"" if "exit 3" in command else b"{}\n")
    assert procs.wait_group_gone(pgid) == []
    assert procs.with_argv(["sleep", "31.6"]) == []


def test_background_children_are_killed_without_pidfd(
    procs: Procs, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delattr(os, "pidfd_open")
    procs.reap_argv(["sleep", "31.5"])
    result = run_one("sleep 31.5 & echo '{}'")
    assert (result.status, result.stdout) == ("exited", b"{}\n")
    assert proctools.wait_for(lambda: not procs.with_argv(["sleep", "31.5"]), 2.0)


# --- timeouts ---------------------------------------------------------------------------


def test_timeout_terminates(procs: Procs) -> None:
    procs.reap_argv(["sleep", "30.1"])
    result, elapsed = timed("sleep 30.1", timeout=1)
    assert elapsed < 2.0
    assert result.status == "timeout"
    assert result.signal == signal.SIGTERM
    assert result.exit_code is None
    assert procs.with_argv(["sleep", "30.1"]) == []


def test_output_before_a_timeout_is_kept(procs: Procs) -> None:
    procs.reap_argv(["sleep", "36.2"])
    result = run_one("echo before; echo warn >&2; sleep 36.2", timeout=0.5)
    assert result.status == "timeout"
    assert (result.stdout, result.stderr) == (b"before\n", b"warn\n")


def test_timeout_kills_a_shell_ignoring_sigterm(procs: Procs, tmp_path: Path) -> None:
    prefix, pgid_file = pgid_prefix(tmp_path)
    start = time.monotonic()
    result = run_one(prefix + "trap '' TERM; sleep 32.2; sleep 32.2", timeout=0.5)
    elapsed = time.monotonic() - start
    pgid = read_pgid(pgid_file)
    procs.reap_group(pgid)
    assert result.status == "timeout"
    assert result.signal == signal.SIGKILL
    assert 0.5 + KILL_GRACE - 0.1 < elapsed < 0.5 + KILL_GRACE + 1.5
    assert procs.wait_group_gone(pgid) == []


def test_timeout_kills_a_python_child_ignoring_sigterm(procs: Procs, tmp_path: Path) -> None:
    prefix, pgid_file = pgid_prefix(tmp_path)
    ignore_term = (
        "import signal, sys, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); "
        "print('ready', flush=True); time.sleep(37.4)"
    )
    command = f"{prefix}{shlex.quote(sys.executable)} -c {shlex.quote(ignore_term)}; true"
    start = time.monotonic()
    result = run_one(command, timeout=1.0)
    elapsed = time.monotonic() - start
    pgid = read_pgid(pgid_file)
    procs.reap_group(pgid)
    assert result.status == "timeout"
    assert result.stdout == b"ready\n"
    assert elapsed < 1.0 + KILL_GRACE + 1.5
    assert procs.wait_group_gone(pgid) == []


def test_timeout_kills_grandchildren(procs: Procs, tmp_path: Path) -> None:
    prefix, pgid_file = pgid_prefix(tmp_path)
    inner = "trap '' TERM; sleep 33.3 & wait"
    result, elapsed = timed(f"{prefix}sh -c {shlex.quote(inner)}", timeout=0.5)
    pgid = read_pgid(pgid_file)
    procs.reap_group(pgid)
    procs.reap_argv(["sleep", "33.3"])
    assert result.status == "timeout"
    assert elapsed < 0.5 + KILL_GRACE + 1.5
    assert procs.wait_group_gone(pgid) == []


def test_exit_near_the_deadline_is_still_an_exit(procs: Procs) -> None:
    procs.reap_argv(["sleep", "31.8"])
    result, elapsed = timed("sleep 31.8 & exit 4", timeout=0.05)
    assert (result.status, result.exit_code) == ("exited", 4)
    assert elapsed < 1.0


def test_timeouts_are_per_handler(procs: Procs) -> None:
    procs.reap_argv(["sleep", "34.1"])
    specs = [ProcessSpec("sleep 34.1", "/", 0.3), ProcessSpec("sleep 0.6; echo ok", "/", 10)]
    results = run_processes(specs, b"")
    assert [r.status for r in results] == ["timeout", "exited"]
    assert results[1].stdout == b"ok\n"


@pytest.mark.parametrize("timeout", [2147483.0, 2147484.0, 2147483647.0, 1e300, float("inf")])
@pytest.mark.parametrize("pidfd", [True, False])
def test_any_timeout_runs(timeout: float, pidfd: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """Up to the validator's maximum and beyond: a wait too long for the selector is no error."""
    if not pidfd:
        monkeypatch.delattr(os, "pidfd_open")
    specs = [ProcessSpec("sleep 0.2; echo slow", "/", timeout), ProcessSpec("cat", "/", timeout)]
    results = run_processes(specs, b"payload")
    assert [(r.status, r.stdout) for r in results] == [
        ("exited", b"slow\n"),
        ("exited", b"payload"),
    ]


def test_huge_timeout_is_still_interruptible(procs: Procs) -> None:
    procs.reap_argv(["sleep", "39.7"])

    def on_alarm(signum: int, frame: object) -> None:
        raise Terminated(signum)

    previous = signal.signal(signal.SIGALRM, on_alarm)
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.3)
        with pytest.raises(Interrupted):
            run_processes([ProcessSpec("sleep 39.7", "/", 2147483647)], b"")
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert procs.with_argv(["sleep", "39.7"]) == []


# --- without pidfd ----------------------------------------------------------------------


def test_exit_detection_without_pidfd(
    procs: Procs, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Stands in for a kernel older than 5.3; the processes are still real.
    monkeypatch.delattr(os, "pidfd_open")
    procs.reap_argv(["sleep", "31.9"])
    assert run_one("echo hi; exit 5").exit_code == 5
    start = time.monotonic()
    result = run_one("sleep 31.9 & echo bg")
    assert (result.stdout, time.monotonic() - start < 2.0) == (b"bg\n", True)
    prefix, pgid_file = pgid_prefix(tmp_path)
    result = run_one(prefix + "trap '' TERM; sleep 35.5; sleep 35.5", timeout=0.3)
    pgid = read_pgid(pgid_file)
    procs.reap_group(pgid)
    assert (result.status, result.signal) == ("timeout", signal.SIGKILL)
    assert procs.wait_group_gone(pgid) == []


# --- resources --------------------------------------------------------------------------


def test_no_fd_or_zombie_leaks(procs: Procs) -> None:
    procs.reap_argv(["sleep", "38.1"])
    specs = [
        ProcessSpec("true", "/", 10),
        ProcessSpec("cat", "/", 10),
        ProcessSpec("echo out; echo err >&2; exit 2", "/", 10),
        ProcessSpec("true", "/nonexistent", 10),
        ProcessSpec("kill -9 $$", "/", 10),
        ProcessSpec("head -c 1 >/dev/null", "/", 10),
    ]
    run_processes(specs, b"warm-up")
    before = open_fds()
    for i in range(50):
        specs_i = [*specs, ProcessSpec("sleep 38.1", "/", 0.01)] if i % 10 == 0 else specs
        run_processes(specs_i, b"z" * 100_000)
    assert open_fds() == before
    assert procs.children(os.getpid()) == []


# --- interruption -----------------------------------------------------------------------

INTERRUPTIBLE = """
import signal, sys
from agenthooks.executor import Interrupted, ProcessSpec, install_signal_handlers, run_processes

signal.signal(signal.SIGINT, signal.default_int_handler)  # in case SIGINT was inherited ignored
install_signal_handlers()
try:
    run_processes([ProcessSpec(sys.argv[1], "/", 60)], b"")
except Interrupted as exc:
    print("interrupted", exc.signum, flush=True)
    sys.exit(100 + exc.signum)
sys.exit(0)
"""


@pytest.mark.parametrize(
    ("signum", "ignore_term", "marker"),
    [
        (signal.SIGTERM, False, "39.1"),
        (signal.SIGINT, False, "39.2"),
        (signal.SIGTERM, True, "39.3"),
        (signal.SIGHUP, False, "39.4"),
        (signal.SIGQUIT, False, "39.5"),
        (signal.SIGHUP, True, "39.6"),
    ],
)
@default_dispositions()
def test_interrupted_run_kills_its_handlers(
    procs: Procs, tmp_path: Path, signum: int, ignore_term: bool, marker: str
) -> None:
    procs.reap_argv(["sleep", marker])
    # The second sleep keeps the shell from exec'ing the first one.
    handler = f"sleep {marker}; sleep {marker}"
    max_seconds = 3.0
    if ignore_term:
        handler = "trap '' TERM; " + handler
        max_seconds += KILL_GRACE
    script = tmp_path / "run.py"
    script.write_text(INTERRUPTIBLE)
    prefix, pgid_file = pgid_prefix(tmp_path)
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    child = subprocess.Popen(
        [sys.executable, str(script), prefix + handler], stdout=subprocess.PIPE, env=env
    )
    try:
        pgid = read_pgid(pgid_file)
        procs.reap_group(pgid)
        start = time.monotonic()
        child.send_signal(signum)
        out, _ = child.communicate(timeout=max_seconds + 2)
        elapsed = time.monotonic() - start
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert out == f"interrupted {signum}\n".encode()
    assert child.returncode == 100 + signum
    assert elapsed < max_seconds
    assert procs.wait_group_gone(pgid) == []


def test_interruption_in_process_cleans_up(procs: Procs, tmp_path: Path) -> None:
    """An exception carrying a signum, raised by a signal handler mid-run, becomes Interrupted."""
    procs.reap_argv(["sleep", "39.9"])
    prefix, pgid_file = pgid_prefix(tmp_path)

    def on_alarm(signum: int, frame: object) -> None:
        raise Terminated(signum)

    previous = signal.signal(signal.SIGALRM, on_alarm)
    fds_before = open_fds()
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.5)
        with pytest.raises(Interrupted) as caught:
            run_processes([ProcessSpec(prefix + "sleep 39.9", "/", 60)] * 2, b"x" * 500_000)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert caught.value.signum == signal.SIGALRM
    assert isinstance(caught.value.__cause__, Terminated)
    assert open_fds() == fds_before
    assert procs.children(os.getpid()) == []
    pgid = read_pgid(pgid_file)
    procs.reap_group(pgid)
    assert procs.wait_group_gone(pgid) == []


class _SignalOnRead(Mapping[str, str]):
    """Extra env that sends this process a signal as run_processes reads it, mid-start."""

    def __init__(self, signum: int) -> None:
        self.signum = signum

    def __getitem__(self, key: str) -> str:
        if key != "X":
            raise KeyError(key)
        os.kill(os.getpid(), self.signum)
        return "1"

    def __iter__(self) -> Iterator[str]:
        return iter(["X"])

    def __len__(self) -> int:
        return 1


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT])
@default_dispositions()
def test_signal_while_starting_is_held_until_all_started(
    procs: Procs, monkeypatch: pytest.MonkeyPatch, signum: int
) -> None:
    procs.reap_argv(["sleep", "40.5"])
    procs.reap_argv(["sleep", "40.6"])
    started: list[int] = []
    real_spawn = os.posix_spawn

    def recording_spawn(*args: Any, **kwargs: Any) -> int:
        """The real posix_spawn, noting each pid, to check what was started and then killed."""
        pid = real_spawn(*args, **kwargs)
        started.append(pid)
        return pid

    monkeypatch.setattr(os, "posix_spawn", recording_spawn)
    specs = [
        ProcessSpec("sleep 40.5", "/", 60),
        ProcessSpec("sleep 40.6", "/", 60, _SignalOnRead(signum)),
    ]
    restore = install_signal_handlers()
    fds_before = open_fds()
    try:
        with pytest.raises(Interrupted) as caught:
            run_processes(specs, b"")
    finally:
        restore()
    assert caught.value.signum == signum
    # The signal came before the second handler's spawn: it was held, so that handler
    # still started, and was then killed with the first.
    assert len(started) == 2
    assert procs.children(os.getpid()) == []
    assert open_fds() == fds_before
    for pgid in started:
        assert procs.wait_group_gone(pgid) == []


def test_other_exceptions_are_re_raised_after_cleanup(procs: Procs) -> None:
    procs.reap_argv(["sleep", "39.8"])

    def on_alarm(signum: int, frame: object) -> None:
        raise RuntimeError("boom")

    previous = signal.signal(signal.SIGALRM, on_alarm)
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.3)
        with pytest.raises(RuntimeError, match="boom"):
            run_processes([ProcessSpec("sleep 39.8", "/", 60)], b"")
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert procs.children(os.getpid()) == []
    assert procs.with_argv(["sleep", "39.8"]) == []


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT])
@default_dispositions()
def test_install_signal_handlers_restores(signum: int) -> None:
    previous = signal.getsignal(signum)
    restore = install_signal_handlers()
    try:
        assert signal.getsignal(signum) is not previous
        with pytest.raises(Terminated) as caught:
            os.kill(os.getpid(), signum)
            time.sleep(1)  # the handler runs at the next bytecode boundary
        assert caught.value.signum == signum
    finally:
        restore()
    assert signal.getsignal(signum) == previous


def test_interrupted_and_terminated_carry_the_signal() -> None:
    assert Interrupted(2).signum == 2
    assert str(Terminated(15)) == "terminated by signal 15"
    assert issubclass(Interrupted, BaseException)
    assert not issubclass(Interrupted, Exception)


# --- cancellation -----------------------------------------------------------------------


def cancel_later(
    write_fd: int, delay: float, before: Callable[[], None] | None = None
) -> threading.Timer:
    """A started timer that calls `before` (if given), then writes one byte to `write_fd`."""

    def fire() -> None:
        if before is not None:
            before()
        os.write(write_fd, b"c")

    timer = threading.Timer(delay, fire)
    timer.start()
    return timer


def test_cancel_fd_kills_the_handler_group(procs: Procs) -> None:
    procs.reap_argv(["sleep", "37.3"])
    seen: list[int] = []
    fds_before = open_fds()
    read_fd, write_fd = os.pipe()
    timer = cancel_later(write_fd, 0.3, lambda: seen.extend(procs.with_argv(["sleep", "37.3"])))
    try:
        start = time.monotonic()
        with pytest.raises(Cancelled):
            run_processes([ProcessSpec("sleep 37.3", "/", 60)], b"", cancel_fd=read_fd)
        elapsed = time.monotonic() - start
    finally:
        timer.cancel()
        timer.join()
        os.close(read_fd)
        os.close(write_fd)
    assert elapsed < 3.0
    [pid] = seen  # started directly, in a session of its own: its pid is its pgid
    assert procs.wait_group_gone(pid) == []
    assert procs.children(os.getpid()) == []
    assert open_fds() == fds_before


def test_cancel_kills_a_group_ignoring_sigterm(procs: Procs, tmp_path: Path) -> None:
    procs.reap_argv(["sleep", "37.4"])
    prefix, pgid_file = pgid_prefix(tmp_path)
    specs = [
        ProcessSpec(prefix + "trap '' TERM; sleep 37.4; sleep 37.4", "/", 60),
        ProcessSpec("echo done", "/", 60),  # finished long before the cancel
    ]
    read_fd, write_fd = os.pipe()
    timer = cancel_later(write_fd, 0.3)
    try:
        start = time.monotonic()
        with pytest.raises(Cancelled):
            run_processes(specs, b"x" * 500_000, cancel_fd=read_fd)
        elapsed = time.monotonic() - start
    finally:
        timer.cancel()
        timer.join()
        os.close(read_fd)
        os.close(write_fd)
    pgid = read_pgid(pgid_file)
    procs.reap_group(pgid)
    assert 0.3 + KILL_GRACE * 0.9 < elapsed < 3.0 + KILL_GRACE
    assert procs.wait_group_gone(pgid) == []
    assert procs.children(os.getpid()) == []


def test_closing_the_write_end_cancels_too(procs: Procs) -> None:
    procs.reap_argv(["sleep", "37.5"])
    read_fd, write_fd = os.pipe()
    timer = threading.Timer(0.3, os.close, (write_fd,))
    timer.start()
    try:
        start = time.monotonic()
        with pytest.raises(Cancelled):
            run_processes([ProcessSpec("sleep 37.5", "/", 60)], b"", cancel_fd=read_fd)
        assert time.monotonic() - start < 3.0
    finally:
        timer.cancel()
        timer.join()
        os.close(read_fd)
    assert procs.children(os.getpid()) == []
    assert procs.with_argv(["sleep", "37.5"]) == []


def test_cancelled_before_the_start_starts_nothing(procs: Procs, tmp_path: Path) -> None:
    marker = tmp_path / "started"
    read_fd, write_fd = os.pipe()
    try:
        os.write(write_fd, b"c")
        with pytest.raises(Cancelled):
            run_processes([ProcessSpec(f"touch {marker}", "/", 60)], b"", cancel_fd=read_fd)
        assert os.read(read_fd, 10) == b"c", "the byte is left in the pipe"
    finally:
        os.close(read_fd)
        os.close(write_fd)
    assert procs.children(os.getpid()) == []
    assert not marker.exists()


def test_cancel_fd_never_written_changes_nothing() -> None:
    read_fd, write_fd = os.pipe()
    try:
        results = run_processes(
            [ProcessSpec("cat", "/", 10), ProcessSpec("sleep 0.2; exit 3", "/", 10)],
            b"payload",
            cancel_fd=read_fd,
        )
    finally:
        os.close(read_fd)
        os.close(write_fd)
    assert [(r.status, r.exit_code, r.stdout) for r in results] == [
        ("exited", 0, b"payload"),
        ("exited", 3, b""),
    ]


def test_cancelled_is_an_ordinary_exception() -> None:
    assert issubclass(Cancelled, Exception)
    assert not issubclass(Cancelled, Interrupted)
    assert str(Cancelled()) == "cancelled"


# --- what the child gets from posix_spawn ---------------------------------------------------


def test_a_handler_inherits_no_descriptor_but_its_three_pipes() -> None:
    read_fd, write_fd = os.pipe()
    os.set_inheritable(read_fd, True)  # as a caller's pass_fds would leave it
    try:
        result = run_one("ls /proc/self/fd")
    finally:
        os.close(read_fd)
        os.close(write_fd)
    # ls's own descriptor of the directory it lists shows up too.
    assert sorted(int(fd) for fd in result.stdout.split()) in ([0, 1, 2], [0, 1, 2, 3])


def test_a_handler_gets_sigpipe_at_its_default() -> None:
    # Python ignores SIGPIPE; with it ignored, `yes` would complain of a broken pipe.
    result = run_one("yes | head -n 1")
    assert (result.exit_code, result.stdout, result.stderr) == (0, b"y\n", b"")


@pytest.mark.parametrize("command", ["pwd", "pwd; true", "./here.sh"])
def test_a_process_with_threads_runs_handlers_in_their_directory(
    command: str, tmp_path: Path
) -> None:
    """With another thread running, the directory is not changed around the spawn (the
    other thread would see it): /bin/sh changes into it before it execs the handler."""
    script = tmp_path / "here.sh"
    script.write_text("#!/bin/sh\necho \"$0\"; pwd\n")
    script.chmod(0o755)
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        result = run_one(command, cwd=str(tmp_path))
        missing = run_one("true", cwd=str(tmp_path / "missing"))
    finally:
        stop.set()
        other.join()
    expected = f"./here.sh\n{tmp_path}\n" if command == "./here.sh" else f"{tmp_path}\n"
    assert (result.status, result.stdout.decode()) == ("exited", expected)
    assert missing.status == "not-started"
    assert missing.error == f"cannot start: [Errno 2] No such file or directory: " \
                            f"'{tmp_path / 'missing'}'"
    assert os.getcwd() != str(tmp_path)
