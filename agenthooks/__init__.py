"""agenthooks: validate, inspect and run the hooks of AI coding agents.

The package root stays import-light: `agenthooks run` starts once per tool call of an agent,
so the public API below is resolved lazily.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

__all__ = ["__version__", "arun_event", "load_hooks", "run_event"]

if TYPE_CHECKING:
    from agenthooks.api import arun_event, load_hooks, run_event


def __getattr__(name: str) -> Any:
    if name in ("run_event", "arun_event", "load_hooks"):
        from agenthooks import api

        return getattr(api, name)
    raise AttributeError(f"module 'agenthooks' has no attribute {name!r}")
