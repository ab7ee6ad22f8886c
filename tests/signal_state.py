"""Signal dispositions as a fresh terminal session has them, whatever the suite inherited.

A suite started under `nohup` inherits SIGHUP ignored; one started as a script's background job
inherits SIGINT and SIGQUIT ignored. An ignored signal stays ignored across exec, and agenthooks
rightly keeps it so (a run started under `nohup` must survive the hangup). Tests that send one
of these signals to agenthooks, or install its handlers in this process, therefore set the
default dispositions first, here in the test process, so that children inherit them too.
"""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Iterator

SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT)


@contextlib.contextmanager
def default_dispositions() -> Iterator[None]:
    """SIGINT raises KeyboardInterrupt (and is SIG_DFL in children, since exec resets a
    handled signal), the others take their default action; the previous dispositions are put
    back afterwards."""
    previous = {signum: signal.getsignal(signum) for signum in SIGNALS}
    for signum in SIGNALS:
        signal.signal(signum, signal.default_int_handler if signum == signal.SIGINT
                      else signal.SIG_DFL)
    try:
        yield
    finally:
        for signum, handler in previous.items():
            if handler is not None:  # None: set outside Python, cannot be put back
                signal.signal(signum, handler)
