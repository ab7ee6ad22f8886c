"""One error base class; `agenthooks.cli` is the one place that turns errors into exit codes."""

from __future__ import annotations


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
