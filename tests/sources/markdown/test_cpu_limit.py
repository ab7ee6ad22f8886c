"""A Markdown hook's `timeout_ms` counts the CPU time a call computes, not the wall time: on a
busy machine a process also waits for a CPU, and a quick script must not time out for that."""

from __future__ import annotations

import time

import pytest

from agenthooks.kinds import starlark as kind

COUNT = """
def count():
    n = 0
    for i in range(20000):
        n += i
    return n

counted = count()
"""


def evaluate(options: object) -> int:
    sl, dialect, globals_ = kind._engine()
    module = sl.Module()
    sl.eval_with(options, module, sl.parse("count", COUNT, dialect), globals_)
    return int(module["counted"])


def test_time_off_the_cpu_does_not_count() -> None:
    options = kind.deadline_check(50)
    time.sleep(0.2)  # off the CPU for four times the limit, as on a machine busy elsewhere
    assert evaluate(options) == 199990000


def test_time_computing_does() -> None:
    options = kind.deadline_check(1)
    started = time.thread_time()
    while time.thread_time() - started < 0.01:  # this thread computes past the limit
        pass
    sl, _, _ = kind._engine()
    with pytest.raises(sl.StarlarkError, match="cancel"):
        evaluate(options)
