"""`suppress`: `contextlib.suppress` for the run path (see the class)."""

from __future__ import annotations

import sys


class suppress:
    """`contextlib.suppress`: ignore the given exceptions in a `with` block.

    On the run path in its place because `contextlib` imports `functools` and `collections`:
    about 13 million instructions, a third of the interpreter's own start. Proven the same,
    exception groups included (from 3.12 on, a group whose every exception is suppressed is,
    and the rest of one is raised), by tests/shipped/test_lean_differential.py in a fresh
    interpreter of every supported Python.
    """

    def __init__(self, *exceptions: type[BaseException]) -> None:
        self._exceptions = exceptions

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 traceback: object) -> bool:
        if kind is None:
            return False
        if issubclass(kind, self._exceptions):
            return True
        # contextlib.suppress takes exception groups apart from Python 3.12 on.
        if sys.version_info >= (3, 12) and isinstance(
                value, BaseExceptionGroup):  # noqa: F821 - a builtin from 3.11 on
            _, rest = value.split(self._exceptions)
            if rest is None:
                return True
            raise rest
        return False
