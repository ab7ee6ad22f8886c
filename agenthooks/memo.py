"""`memo`: remember a one-argument function's results, a bounded number of them.

`functools.lru_cache` in its place on the run path, where importing `functools` (with
`collections` behind it) would cost a cold `agenthooks run` more than every lookup it saves.
Results for names that come from payloads must not grow without bound: at `size` entries the
memory is emptied and starts again, which keeps the common names' lookups a dict hit.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Hashable
    from typing import TypeVar

    K = TypeVar("K", bound=Hashable)
    V = TypeVar("V")


def memo(size: int) -> Callable[[Callable[[K], V]], Callable[[K], V]]:
    """A decorator: `fn(key)` computed once per key while at most `size` keys are kept.
    Exceptions are not remembered: the next call raises again."""
    def decorate(fn: Callable[[K], V]) -> Callable[[K], V]:
        found: dict[K, V] = {}

        def remembered(key: K) -> V:
            try:
                return found[key]
            except KeyError:
                pass
            if len(found) >= size:
                found.clear()
            value = found[key] = fn(key)
            return value

        remembered.__name__ = getattr(fn, "__name__", "remembered")
        remembered.__doc__ = fn.__doc__
        remembered.cache_clear = found.clear  # type: ignore[attr-defined]
        return remembered

    return decorate
