"""One error base class; `agenthooks.cli` is the one place that turns errors into exit codes."""

from __future__ import annotations

import sys


class AgentHooksError(Exception):
    """An error agenthooks reports in one line and exits 1 for (never a traceback)."""


class UsageError(AgentHooksError):
    """Bad options or arguments on the command line."""


class PayloadError(AgentHooksError):
    """The event payload on stdin is not a JSON object."""


class ConfigError(AgentHooksError):
    """A hooks.json file or path cannot be read."""


class UnknownEvent(UsageError, ValueError):
    """An event name that is neither an event nor an alias of one."""


class HookFailure(AgentHooksError):
    """An in-process hook raised, timed out or returned something that is not a decision."""


def describe(exc: BaseException) -> str:
    """One line naming an error: agenthooks' own as is, anything else with its type."""
    if isinstance(exc, AgentHooksError):
        return str(exc)
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


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
