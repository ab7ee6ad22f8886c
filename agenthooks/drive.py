"""Running a coroutine to its end without an event loop.

The engine and policies are written once, as coroutines, so that async hooks can be awaited
on a loop; when nothing selected is async, nothing in them awaits, and they complete on
their first step: no loop, no asyncio import.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Coroutine
    from typing import Any, TypeVar

    T = TypeVar("T")


def finish(step: Coroutine[Any, Any, T], what: str) -> T:
    """The value of a coroutine that never suspends; RuntimeError naming `what` if it does."""
    try:
        step.send(None)
    except StopIteration as done:
        value: T = done.value
        return value
    step.close()
    raise RuntimeError(f"{what} suspended outside an event loop")
