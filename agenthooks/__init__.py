"""agenthooks: one engine for the hooks of AI coding agents.

The package root stays import-light: `agenthooks run` starts once per tool call of an agent,
so the public API below is resolved lazily, and `from agenthooks import Hooks, Decision,
EventResult, policy` imports no asyncio, jsonschema, rich or click.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from agenthooks._version import __version__
    from agenthooks.api import Hooks, arun_event, load_hooks, run_event
    from agenthooks.engine.call import EventResult
    from agenthooks.errors import (
        AgentHooksError,
        ConfigError,
        PayloadError,
        UnknownEvent,
        UsageError,
    )
    from agenthooks.kinds import policy
    from agenthooks.kinds.inprocess.context import Context, Session, Turn
    from agenthooks.model.decision import Decision

# Public name -> the module that defines it.
_EXPORTS: dict[str, str] = {
    "Hooks": "agenthooks.api",
    "EventResult": "agenthooks.engine.call",
    "load_hooks": "agenthooks.api",
    "run_event": "agenthooks.api",
    "arun_event": "agenthooks.api",
    "Decision": "agenthooks.model.decision",
    "Context": "agenthooks.kinds.inprocess.context",
    "Session": "agenthooks.kinds.inprocess.context",
    "Turn": "agenthooks.kinds.inprocess.context",
    "AgentHooksError": "agenthooks.errors",
    "ConfigError": "agenthooks.errors",
    "PayloadError": "agenthooks.errors",
    "UnknownEvent": "agenthooks.errors",
    "UsageError": "agenthooks.errors",
    "__version__": "agenthooks._version",
}

__all__ = [
    "AgentHooksError",
    "ConfigError",
    "Context",
    "Decision",
    "EventResult",
    "Hooks",
    "PayloadError",
    "Session",
    "Turn",
    "UnknownEvent",
    "UsageError",
    "__version__",
    "arun_event",
    "load_hooks",
    "policy",
    "run_event",
]


def __getattr__(name: str) -> Any:
    # `__import__` and `sys.modules` rather than `importlib.import_module`: the same import,
    # without loading `importlib`'s package (and `warnings`) on every start.
    if name == "policy":
        __import__("agenthooks.kinds.policy")
        return sys.modules["agenthooks.kinds.policy"]
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'agenthooks' has no attribute {name!r}")
    __import__(module)
    return getattr(sys.modules[module], name)
