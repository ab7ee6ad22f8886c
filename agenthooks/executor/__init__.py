"""Run hook commands as subprocesses: concurrently, with timeouts, results as data.

The records and signal handling (`executor.records`) are imported at once; the process loop
(`executor.process`, with `subprocess` and selectors) only when something is to be started.
"""

from agenthooks.executor.descendants import own_descendants, reap_orphans
from agenthooks.executor.records import (
    EXIT_GRACE,
    KILL_GRACE,
    OUTPUT_LIMIT,
    Cancelled,
    Interrupted,
    ProcessResult,
    ProcessSpec,
    Terminated,
    install_signal_handlers,
    under_signals,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from agenthooks.executor.process import run_processes, start_cap

__all__ = [
    "EXIT_GRACE",
    "KILL_GRACE",
    "OUTPUT_LIMIT",
    "Cancelled",
    "Interrupted",
    "ProcessResult",
    "ProcessSpec",
    "Terminated",
    "install_signal_handlers",
    "own_descendants",
    "reap_orphans",
    "run_processes",
    "start_cap",
    "under_signals",
]


def __getattr__(name: str) -> object:
    if name in ("run_processes", "start_cap"):
        from agenthooks.executor import process

        return getattr(process, name)
    raise AttributeError(f"module 'agenthooks.executor' has no attribute {name!r}")
