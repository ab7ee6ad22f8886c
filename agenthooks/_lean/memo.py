"""`memo`: remember a one-argument function's results, a bounded number of them.

`functools.lru_cache` in its place on the run path, where importing `functools` (with
`collections` behind it) would cost a cold `agenthooks run` more than every lookup it saves.
Results for names that come from payloads must not grow without bound: at `size` entries the
memory is emptied and starts again, which keeps the common names' lookups a dict hit.

What it saves: `functools` with `collections` costs about 10 million instructions, a quarter
of the interpreter's own start; this module about 1.6. How it is proven:
tests/shipped/test_lean_differential.py compares what a remembered function returns and
raises, its name and docstring, with `lru_cache(maxsize=size)`'s over generated calls, in a
fresh interpreter of every supported Python. Every remembered function takes a text (or None);
for numbers of mixed types the two differ by design (`lru_cache` holds `0` and `0.0` apart
but `False` and `0.0` together; a dict holds all three together).
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
