"""`agenthooks run` as a program: nothing a hook starts outlives it (real processes, /proc)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from proctools import pids_with_argv, wait_for, waiting_in_poll, watching

from .conftest import cli_env, on, write_hooks

pytestmark = pytest.mark.program


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
        # The watch starts once the handler has run for a few milliseconds.
        assert wait_for(lambda: watching(runner.pid), 10.0), "no watch for a long handler"
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
