"""What a run leaves behind, seen from outside: handlers that outlive a SIGKILLed agenthooks,
descendants that escaped their group with setsid, and more handlers than file descriptors.

Each case runs a small script in a fresh interpreter, since it changes that process (a child
subreaper, a low RLIMIT_NOFILE) or kills it.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import TYPE_CHECKING

import proctools
import pytest
from signal_state import default_dispositions

if TYPE_CHECKING:
    from tests.executor.conftest import Procs

REPO = Path(__file__).resolve().parents[2]
LINUX = sys.platform.startswith("linux")


def script_env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(REPO)}


def run_script(code: str, timeout: float = 60.0) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        env=script_env(),
        timeout=timeout,
        check=False,
    )


def last_json(done: subprocess.CompletedProcess[str]) -> object:
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


# --- dying with agenthooks (the watch) ----------------------------------------------------


DIES_WITH_US = """
import sys
from agenthooks import executor

executor.own_descendants()
executor.run_processes([executor.ProcessSpec(sys.argv[1], "/", 60)], b"")
"""


@pytest.mark.skipif(not LINUX, reason="own_descendants is Linux's")
@pytest.mark.parametrize(
    ("command", "marker"),
    [
        ("sleep 3104.1", "3104.1"),  # exec'd directly
        ("exec sleep 3104.2", "3104.2"),  # through the shell, and kept across its exec
    ],
)
def test_handlers_die_with_a_killed_agenthooks(procs: Procs, command: str, marker: str) -> None:
    argv = ["sleep", marker]
    procs.reap_argv(argv)
    runner = subprocess.Popen([sys.executable, "-c", DIES_WITH_US, command], env=script_env())
    try:
        assert proctools.wait_for(lambda: procs.with_argv(argv)), "the handler did not start"
        assert proctools.wait_for(lambda: proctools.watching(runner.pid)), "no watch"
        assert proctools.wait_for(lambda: proctools.waiting_in_poll(runner.pid))
        runner.kill()
        runner.wait(timeout=10)
    finally:
        if runner.poll() is None:
            runner.kill()
            runner.wait()
    assert proctools.wait_for(lambda: not procs.with_argv(argv), 3.0)


@pytest.mark.skipif(not LINUX, reason="own_descendants is Linux's")
def test_the_whole_group_dies_with_a_killed_agenthooks(procs: Procs) -> None:
    """Children a shell forks are reached too: the watch kills the group, not one process."""
    argv = ["sleep", "3104.4"]
    procs.reap_argv(argv)
    command = "sleep 3104.4 & sleep 3104.4 & sleep 3104.4; wait"
    runner = subprocess.Popen([sys.executable, "-c", DIES_WITH_US, command], env=script_env())
    try:
        assert proctools.wait_for(lambda: len(procs.with_argv(argv)) == 3), "not started"
        assert proctools.wait_for(lambda: proctools.watching(runner.pid)), "no watch"
        assert proctools.wait_for(lambda: proctools.waiting_in_poll(runner.pid))
        groups = {st[2] for pid in procs.with_argv(argv) if (st := procs.stat(pid))}
        runner.kill()
        runner.wait(timeout=10)
    finally:
        if runner.poll() is None:
            runner.kill()
            runner.wait()
    [pgid] = groups
    assert procs.wait_group_gone(pgid, 3.0) == []


WATCH_ENDS = """
import json, os, sys
from agenthooks import executor
from agenthooks.executor import descendants

executor.own_descendants()
results = executor.run_processes([executor.ProcessSpec("sleep 0.2; echo $$", "/", 60)], b"")
watch = descendants.handler_watch()
print(json.dumps([watch.pid, int(results[0].stdout), executor.reap_orphans()]))
"""


@pytest.mark.skipif(not LINUX, reason="own_descendants is Linux's")
def test_the_watch_ends_with_the_run_and_kills_nothing_done(procs: Procs) -> None:
    """Told of each handler's end before its pgid is freed, the watch kills nothing after a
    normal run; `reap_orphans` ends and reaps it, leaving no process behind."""
    watch, handler, reaped = last_json(run_script(WATCH_ENDS))  # type: ignore[misc]
    assert watch > 0 and watch != handler and reaped == 0  # ended apart: no orphan
    assert procs.stat(watch) is None


def test_handlers_outlive_a_killed_python_api_by_default(procs: Procs) -> None:
    """Without `own_descendants` (an embedding harness), spawning stays on the fast path."""
    argv = ["sleep", "3104.3"]
    procs.reap_argv(argv)
    code = DIES_WITH_US.replace("executor.own_descendants()", "")
    runner = subprocess.Popen([sys.executable, "-c", code, "sleep 3104.3"], env=script_env())
    try:
        assert proctools.wait_for(lambda: procs.with_argv(argv)), "the handler did not start"
        runner.kill()
        runner.wait(timeout=10)
    finally:
        if runner.poll() is None:
            runner.kill()
            runner.wait()
    time.sleep(0.3)
    assert procs.with_argv(argv), "no death signal unless asked for"


# --- escaping the group (PR_SET_CHILD_SUBREAPER) ------------------------------------------

ESCAPES = r"""
import json, os, sys
from agenthooks import executor

owned = executor.own_descendants()
# Each escaped process notes that it left the handler's session, and the handler waits for
# those notes before it exits, so that its group kill cannot catch one that had not yet.
spec = executor.ProcessSpec(
    "setsid sh -c 'touch r1; exec sleep 3105.1' >/dev/null 2>&1 </dev/null & "
    "setsid sh -c 'sleep 3105.2 & touch r2; sleep 3105.3; true' >/dev/null 2>&1 </dev/null & "
    "until [ -e r1 ] && [ -e r2 ]; do sleep 0.01; done; echo '{}'",
    sys.argv[1], 60,
)
[result] = executor.run_processes([spec], b"")
# Wait until both escaped chains are up, so that the kill is not a race with their start.
import time
deadline = time.monotonic() + 10
def running(marker):
    for pid in os.listdir("/proc"):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                if f.read() == b"sleep\0" + marker + b"\0":
                    return True
        except OSError:
            pass
    return False
while not all(running(m) for m in (b"3105.1", b"3105.2", b"3105.3")):
    assert time.monotonic() < deadline, "the escaped processes did not start"
    time.sleep(0.02)
killed = executor.reap_orphans()
print(json.dumps([owned, result.stdout.decode(), killed]))
"""


@pytest.mark.skipif(not LINUX, reason="PR_SET_CHILD_SUBREAPER is Linux's")
def test_descendants_escaping_with_setsid_are_killed(procs: Procs, tmp_path: Path) -> None:
    for marker in ("3105.1", "3105.2", "3105.3"):
        procs.reap_argv(["sleep", marker])
    done = subprocess.run(
        [sys.executable, "-c", ESCAPES, str(tmp_path)],
        capture_output=True,
        text=True,
        env=script_env(),
        timeout=60,
        check=False,
    )
    owned, stdout, killed = last_json(done)  # type: ignore[misc]
    assert (owned, stdout) == (True, "{}\n")
    assert killed >= 3  # the two sleeps and the sh of the second chain, maybe more
    for marker in ("3105.1", "3105.2", "3105.3"):
        assert procs.with_argv(["sleep", marker]) == [], marker


def test_reap_orphans_leaves_other_children_alone_unless_owned() -> None:
    """In a harness that never called `own_descendants`, its own children are not ours."""
    code = """
    import json, subprocess
    from agenthooks import executor
    child = subprocess.Popen(["sleep", "3105.9"])
    try:
        killed = executor.reap_orphans()
        alive = child.poll() is None
    finally:
        child.kill()
        child.wait()
    print(json.dumps([killed, alive]))
    """
    assert last_json(run_script(code)) == [0, True]


# --- more handlers than file descriptors --------------------------------------------------

MANY = """
import json, os, resource, sys
from collections import Counter
from agenthooks import executor

limit, handlers, already_open = map(int, sys.argv[1:4])
command = sys.argv[4]
resource.setrlimit(resource.RLIMIT_NOFILE, (limit, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))
held = [os.open("/dev/null", os.O_RDONLY) for _ in range(already_open)]
specs = [executor.ProcessSpec(command.replace("N", str(i)), "/tmp", 60) for i in range(handlers)]
fds = len(os.listdir("/proc/self/fd"))
results = executor.run_processes(specs, b"payload")
assert len(os.listdir("/proc/self/fd")) == fds, "descriptors leaked"
in_order = all(r.stdout == f"{i}\\n".encode() for i, r in enumerate(results))
errors = sorted({r.error for r in results if r.error})
print(json.dumps([Counter(r.status for r in results), in_order, errors]))
"""


@pytest.mark.parametrize(
    ("limit", "handlers", "already_open"),
    [
        (256, 300, 0),
        (1024, 300, 0),
        (256, 300, 200),  # few descriptors left: starting waits for others to finish
        (64, 50, 48),
    ],
)
def test_more_handlers_than_descriptors_all_run(
    limit: int, handlers: int, already_open: int
) -> None:
    done = subprocess.run(
        [sys.executable, "-c", MANY, str(limit), str(handlers), str(already_open), "echo N"],
        capture_output=True,
        text=True,
        env=script_env(),
        timeout=120,
        check=False,
    )
    assert last_json(done) == [{"exited": handlers}, True, []]


def test_handlers_started_at_once_are_capped(tmp_path: Path) -> None:
    log = tmp_path / "log"
    # Each handler notes its start and end; the cap under a limit of 128 is 128 // 8 = 16.
    command = f"echo s >> {log}; sleep 0.05; echo e >> {log}; echo N"
    done = subprocess.run(
        [sys.executable, "-c", MANY, "128", "60", "0", command],
        capture_output=True,
        text=True,
        env=script_env(),
        timeout=120,
        check=False,
    )
    assert last_json(done) == [{"exited": 60}, True, []]
    running = peak = 0
    for line in log.read_text().split():
        running += 1 if line == "s" else -1
        peak = max(peak, running)
    assert 1 < peak <= 16


# --- signals to agenthooks run ------------------------------------------------------------


@pytest.mark.program
@pytest.mark.parametrize(
    ("signum", "marker"), [(signal.SIGHUP, "3106.1"), (signal.SIGQUIT, "3106.2")]
)
@default_dispositions()
def test_cli_hangup_and_quit_kill_every_handler_group(
    procs: Procs, tmp_path: Path, signum: int, marker: str
) -> None:
    argv = ["sleep", marker]
    procs.reap_argv(argv)
    config = tmp_path / ".agents" / "hooks.json"
    config.parent.mkdir()
    command = f"sleep {marker} & sleep {marker}; wait"
    handlers = [{"command": command}, {"command": f"sleep {marker}"}]
    config.write_text(json.dumps({"h": {"Stop": handlers}}))
    proc = subprocess.Popen(
        [sys.executable, "-m", "agenthooks", "run", "Stop", "--no-user", "--config", str(config)],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**script_env(), "HOME": str(tmp_path)},
        cwd=tmp_path,
    )
    try:
        sleepers = proctools.wait_for(
            lambda: len(procs.with_argv(argv)) >= 3 and procs.with_argv(argv)
        )
        assert sleepers, "the handlers did not start"
        groups = {st[2] for pid in sleepers if (st := procs.stat(pid)) is not None}
        assert len(groups) == 2
        proc.send_signal(signum)
        out, err = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 128 + signum, err
    assert out == b""
    for pgid in groups:
        assert procs.wait_group_gone(pgid, 3.0) == [], pgid


@pytest.mark.skipif(not LINUX, reason="own_descendants is Linux's")
@pytest.mark.parametrize(
    "notes",
    [
        "+A +B +C -A cover",
        "cover +A +B +C -A",  # handlers started once the watch runs
        "+A +B -A +C cover",  # C in the slot A left
        "+C +B -B +B +A -A cover",  # a slot blanked and written again
    ],
)
def test_the_watch_kills_the_groups_not_done_and_only_those(procs: Procs, notes: str) -> None:
    """The watch's bookkeeping, on real groups: at EOF it kills every group still listed, and
    none blanked out, whenever it was started."""
    from agenthooks.executor import descendants

    sleepers = [
        os.posix_spawn("/bin/sh", ["sh", "-c", "sleep 3107.1 & wait"], os.environ, setsid=True)
        for _ in range(3)
    ]
    for pid in sleepers:
        procs.reap_group(pid)
    named = dict(zip("ABC", sleepers, strict=True))
    listed: set[int] = set()
    watch = descendants._new_watch(())
    assert watch is not None
    try:
        for note in notes.split():
            if note == "cover":
                watch.cover()
            elif note[0] == "+":
                watch.started(named[note[1]])
                listed.add(named[note[1]])
            else:
                watch.done(named[note[1]])
                listed.discard(named[note[1]])
        assert watch.pid > 0
    finally:
        watch.close()  # EOF: the watch kills what is listed, and exits
    os.waitpid(watch.pid, 0)
    for pid in sleepers:
        if pid not in listed:
            assert procs.group_members(pid), f"{pid}: a group the watch was told is done died"
            os.killpg(pid, signal.SIGKILL)
        else:
            assert procs.wait_group_gone(pid) == [], pid
    for pid in sleepers:
        os.waitpid(pid, 0)


ADOPTS = """
import json, os
from agenthooks.executor import descendants

descendants.own_descendants()
watch = descendants.handler_watch()  # the watch starts at once, before any handler
assert watch is not None and watch.pid > 0

def listed():
    return [int(word) for word in os.pread(watch.list_fd, 4096, 0).split()]

same = os.posix_spawn("/bin/sh", ["sh", "-c", "exec sleep 3108.1"], os.environ)
other = os.posix_spawn("/bin/sh", ["sh", "-c", "exec sleep 3108.2"], os.environ, setsid=True)
try:
    watch.adopt()
    adopted = listed()
    os.kill(other, 9)
    descendants.reap(other)  # reaped by its caller: its pid is free, and must not be listed
    after_reap = listed()
finally:
    for pid in (same, other):
        try:
            os.kill(pid, 9)
        except ProcessLookupError:
            pass
    descendants.reap(same)
    descendants.reap_orphans()
print(json.dumps([adopted, other, after_reap]))
"""


@pytest.mark.skipif(not LINUX, reason="own_descendants is Linux's")
def test_the_watch_lists_children_from_other_sessions_until_reaped() -> None:
    """`adopt` lists a child that left this session (an orphan adopted as its subreaper),
    not one of this session (a hook's own process, `git`) nor the watch; `reap` blanks one
    before its pid is freed."""
    adopted, other, after_reap = last_json(run_script(ADOPTS))  # type: ignore[misc]
    assert (adopted, after_reap) == ([other], [])


@pytest.mark.skipif(not LINUX, reason="own_descendants is Linux's")
def test_the_watch_kills_what_a_listed_handler_started_in_other_sessions(procs: Procs) -> None:
    """At EOF the watch stops and kills every descendant of a listed handler, however deep
    and in whatever session, before their parents die and they are re-parented to init."""
    from agenthooks.executor import descendants

    argv = ["sleep", "3108.3"]
    procs.reap_argv(argv)
    command = ("setsid sleep 3108.3 & setsid sh -c 'setsid sleep 3108.3 & exec sleep 3108.3' & "
               "wait")
    handler = os.posix_spawn("/bin/sh", ["sh", "-c", command], os.environ, setsid=True)
    procs.reap_group(handler)
    watch = descendants._new_watch(())
    assert watch is not None
    try:
        watch.started(handler)
        watch.cover()
        assert proctools.wait_for(lambda: len(procs.with_argv(argv)) == 3), "not started"
        assert len({st[2] for pid in procs.with_argv(argv) if (st := procs.stat(pid))}) == 3
    finally:
        watch.close()  # EOF: the watch kills what is listed, and exits
    os.waitpid(watch.pid, 0)
    os.waitpid(handler, 0)
    assert proctools.wait_for(lambda: not procs.with_argv(argv), 3.0)
