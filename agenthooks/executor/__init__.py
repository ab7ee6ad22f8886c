"""Run hook commands as subprocesses: concurrently, with timeouts, results as data."""

from agenthooks.executor.command import direct_argv
from agenthooks.executor.descendants import own_descendants, reap_orphans
from agenthooks.executor.process import (
    EXIT_GRACE,
    KILL_GRACE,
    OUTPUT_LIMIT,
    Cancelled,
    Interrupted,
    ProcessResult,
    ProcessSpec,
    Terminated,
    install_signal_handlers,
    run_processes,
    start_cap,
)

__all__ = [
    "EXIT_GRACE",
    "KILL_GRACE",
    "OUTPUT_LIMIT",
    "Cancelled",
    "Interrupted",
    "ProcessResult",
    "ProcessSpec",
    "Terminated",
    "direct_argv",
    "install_signal_handlers",
    "own_descendants",
    "reap_orphans",
    "run_processes",
    "start_cap",
]
