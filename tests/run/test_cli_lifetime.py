"""`agenthooks run` as a program: nothing a hook starts outlives it (real processes, /proc)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from proctools import (
    children,
    killed,
    pids_with_argv,
    stat,
    wait_for,
    waiting_in_poll,
    watched,
    watching,
)

from .conftest import cli_env, on, write_hooks

pytestmark = [
    pytest.mark.program,
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the watch is Linux's"),
]


def agenthooks(*args: str, **popen: object) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-m", "agenthooks", "run", *args],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=cli_env(), **popen)  # type: ignore[call-overload]


def test_handlers_die_with_a_killed_agenthooks(
    workspace: Path, kill_argv: Callable[[list[str]], None]
) -> None:
    argv = ["sleep", "3121.5"]
    kill_argv(argv)
    write_hooks(workspace, {"slow": on("Stop", "exec sleep 3121.5")})
    runner = agenthooks("Stop", "--workspace", str(workspace), "--no-user")
    try:
        assert runner.stdin is not None
        runner.stdin.close()
        assert wait_for(lambda: bool(pids_with_argv(argv)), 10.0), "the handler did not start"
        assert watching(runner.pid), "no watch"  # started before the handler
        assert wait_for(lambda: waiting_in_poll(runner.pid), 10.0)  # the watch knows it
        runner.kill()  # SIGKILL: agenthooks cannot clean up; the watch must
        runner.wait(timeout=10)
    finally:
        if runner.poll() is None:
            runner.kill()
            runner.wait()
        for stream in (runner.stdout, runner.stderr):
            assert stream is not None
            stream.close()
    assert wait_for(lambda: not pids_with_argv(argv), 5.0)


def test_escaped_descendants_are_killed_before_agenthooks_exits(
    workspace: Path, kill_argv: Callable[[list[str]], None]
) -> None:
    argv = ["sleep", "3121.6"]
    kill_argv(argv)
    # Leaves its process group and session, then the handler answers at once.
    command = ("setsid sh -c 'exec sleep 3121.6' >/dev/null 2>&1 </dev/null & "
               "while ! pgrep -f 'sleep 3121.6' >/dev/null; do sleep 0.01; done; echo '{}'")
    write_hooks(workspace, {"escape": on("Stop", command)})
    runner = agenthooks("Stop", "--workspace", str(workspace), "--no-user")
    out, _ = runner.communicate(b"{}", timeout=30)
    assert runner.returncode == 0 and out == b"{}\n"
    assert wait_for(lambda: not pids_with_argv(argv), 5.0)


def _group(pid: int) -> int | None:
    found = stat(pid)
    return None if found is None else found[2]


def _kill_run(runner: subprocess.Popen[bytes]) -> None:
    """SIGKILL the run (agenthooks cannot clean up; its watch must), and close its pipes."""
    try:
        runner.kill()
        runner.wait(timeout=10)
    finally:
        if runner.poll() is None:
            runner.kill()
            runner.wait()
        for stream in (runner.stdin, runner.stdout, runner.stderr):
            if stream is not None:
                stream.close()


@pytest.mark.parametrize(
    ("escape", "orphaned"),
    [
        # A child of the running handler, in a session of its own.
        ("setsid sleep 3122.1 >/dev/null 2>&1 </dev/null &", False),
        # And one it started in turn, in that session.
        ("setsid sh -c 'sleep 3122.1 & exec sleep 3122.1' >/dev/null 2>&1 </dev/null &", False),
        # Orphaned at once (setsid -f forks, and its parent exits): agenthooks adopts it.
        ("setsid -f sleep 3122.1 >/dev/null 2>&1 </dev/null;", True),
        # A daemon's double fork: a new session whose leader forks it and exits.
        ("setsid sh -c 'sleep 3122.1 & exit' >/dev/null 2>&1 </dev/null;", True),
    ],
)
def test_escaped_descendants_die_with_a_killed_agenthooks(
    workspace: Path, kill_argv: Callable[[list[str]], None], escape: str, orphaned: bool
) -> None:
    escaped, handler = ["sleep", "3122.1"], ["sleep", "3122.2"]
    kill_argv(escaped)
    kill_argv(handler)
    write_hooks(workspace, {"escape": on("Stop", f"{escape} exec sleep 3122.2")})
    runner = agenthooks("Stop", "--workspace", str(workspace), "--no-user")
    try:
        assert runner.stdin is not None
        runner.stdin.close()
        assert wait_for(lambda: pids_with_argv(handler)), "the handler did not start"
        wanted = escape.count("sleep 3122.1")
        assert wait_for(lambda: len(pids_with_argv(escaped)) == wanted), "no escape"
        escapees = pids_with_argv(escaped)
        [leader] = pids_with_argv(handler)
        assert all(_group(pid) not in (None, leader) for pid in escapees), "in the group"
        assert wait_for(lambda: waiting_in_poll(runner.pid))  # the watch knows the handler
        if orphaned:  # the adopted orphan is listed for the watch once the loop looked
            assert wait_for(lambda: set(escapees) <= set(watched(runner.pid))), "not listed"
    finally:
        _kill_run(runner)
    assert wait_for(lambda: not pids_with_argv(escaped) and not pids_with_argv(handler), 5.0)


def test_a_handler_dies_with_agenthooks_killed_at_its_first_instruction(
    workspace: Path, tmp_path: Path, kill_argv: Callable[[list[str]], None]
) -> None:
    """The watch runs before the first handler starts, so a SIGKILL of agenthooks as soon as
    a handler runs leaves nothing. The handler's first instruction stops agenthooks (its
    parent), wherever it is; only then does it say it started, and start its processes."""
    argv = ["sleep", "3122.3"]
    kill_argv(argv)
    started = tmp_path / "started"
    command = f"kill -STOP $PPID; : >{started}; sleep 3122.3 & exec sleep 3122.3"
    write_hooks(workspace, {"early": on("Stop", command)})
    runner = agenthooks("Stop", "--workspace", str(workspace), "--no-user")
    try:
        assert runner.stdin is not None
        runner.stdin.close()
        assert wait_for(started.exists), "the handler did not start"
        assert wait_for(lambda: len(pids_with_argv(argv)) == 2), "its processes did not start"
        assert stat(runner.pid) is not None and stat(runner.pid)[0] == "T"  # type: ignore[index]
        [leader] = {_group(pid) for pid in pids_with_argv(argv)}
        if watching(runner.pid) and leader not in watched(runner.pid):
            # Stopped between the handler's spawn and its note in the list (an instant):
            # let it write the note.
            runner.send_signal(signal.SIGCONT)
            assert wait_for(lambda: leader in watched(runner.pid)), "the handler is not listed"
    finally:
        _kill_run(runner)
    assert wait_for(lambda: not pids_with_argv(argv), 5.0)


PYTHON_STARTER = """\
import subprocess, time
from agenthooks import Hooks

hooks = Hooks()


def starter(ctx):
    subprocess.Popen(["sleep", "3122.4"])
    time.sleep(600)


hooks.on("Stop", starter, timeout=300)
"""


def test_what_a_python_hook_started_dies_with_a_killed_agenthooks(
    workspace: Path, kill_argv: Callable[[list[str]], None]
) -> None:
    """A `--python` hook's process dies with the run (its parent-death signal); the watch
    kills what it started in its group, which that signal does not reach."""
    argv = ["sleep", "3122.4"]
    kill_argv(argv)
    (workspace / "starter.py").write_text(PYTHON_STARTER, encoding="utf-8")
    runner = agenthooks("Stop", "--workspace", str(workspace), "--no-user",
                        "--python", "starter:hooks", cwd=workspace)
    try:
        assert runner.stdin is not None
        runner.stdin.close()
        assert wait_for(lambda: pids_with_argv(argv)), "the hook did not start its process"
        [group] = {_group(pid) for pid in pids_with_argv(argv)}
        # `--python`: the event runs in a child of the process the host started.
        [(event, _)] = [(pid, st) for pid, st in children(runner.pid) if st != "Z"]
        if watching(event):  # it notes the hook's process right after the fork
            assert wait_for(lambda: group in watched(event)), "the hook's group is not listed"
    finally:
        _kill_run(runner)
    assert wait_for(lambda: not pids_with_argv(argv), 5.0)


PYTHON_FORKER = """\
import os, time
from agenthooks import Hooks

hooks = Hooks()


def first(ctx):  # its process is the first noted: the watch starts then
    return None


def forker(ctx):  # forked after the watch started, so it inherited the watch's pipe
    if os.fork() == 0:  # a child that never execs keeps whatever descriptors it inherited
        with open(os.environ["FORKED_PID"] + ".tmp", "w") as f:
            f.write(str(os.getpid()))
        os.rename(os.environ["FORKED_PID"] + ".tmp", os.environ["FORKED_PID"])
        time.sleep(600)
        os._exit(0)
    time.sleep(600)


hooks.on("Stop", first)
hooks.on("Stop", forker, timeout=300)
"""


def test_a_fork_of_a_python_hook_does_not_keep_the_watch_from_its_work(
    workspace: Path, tmp_path: Path
) -> None:
    """Only the run holds the pipe the watch waits on: a process forked from a Python hook's
    process (which closed its copies) does not keep the watch from seeing the run die."""
    (workspace / "forker.py").write_text(PYTHON_FORKER, encoding="utf-8")
    noted = tmp_path / "forked"
    runner = subprocess.Popen(
        [sys.executable, "-m", "agenthooks", "run", "Stop", "--workspace", str(workspace),
         "--no-user", "--python", "forker:hooks"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        env=cli_env(FORKED_PID=str(noted)), cwd=workspace)
    forked = 0
    try:
        assert runner.stdin is not None
        runner.stdin.close()
        assert wait_for(noted.exists), "the hook did not fork"
        forked = int(noted.read_text())
    finally:
        _kill_run(runner)
        try:
            assert wait_for(lambda: _gone(forked), 5.0), "the forked process outlived the run"
        finally:
            if forked and not _gone(forked):
                os.kill(forked, signal.SIGKILL)


def _gone(pid: int) -> bool:
    found = stat(pid)
    return found is None or found[0] == "Z" or killed(pid)
