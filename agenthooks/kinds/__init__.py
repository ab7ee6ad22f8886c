"""Kinds of hook: each runs the selected specs of its kind for one call and returns outcomes.

A kind never decides what an outcome means for the event: `combine` and the host do.

Command handlers run as processes on the executor (`kinds.process`), all of an event's
together on one selector loop. Every other kind that agenthooks can run offline is a row of
`KINDS`: started before the processes (its own threads, or nothing to wait for at all) and
joined after them, so all kinds of one event run at the same time. A handler type named
nowhere (a prompt, an MCP tool, an agent) needs its host and is skipped with a warning.

    Starter(jobs: Sequence[tuple[int, Handler, bytes]], event: str)   # (position, spec,
        .answers() -> dict[int, Answer]                              #  its own payload)
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Protocol

    from agenthooks.model.handlers import Answer, Handler

    class Started(Protocol):
        def answers(self) -> dict[int, Answer]: ...

    class Starter(Protocol):
        def __call__(self, jobs: Sequence[tuple[int, Handler, bytes]],
                     event: str) -> Started: ...

COMMAND = "command"
# handler kind -> "module:callable" that starts that kind's handlers of one event; imported
# only when a plan selects a handler of that kind.
KINDS: dict[str, str] = {
    "http": "agenthooks.kinds.http:Requests",
}


def runs_beside(kind: str) -> bool:
    """Whether a kind runs beside the processes (a row of `KINDS`)."""
    return kind in KINDS


def runs_offline(kind: str) -> bool:
    """Whether agenthooks runs handlers of this kind at all."""
    return kind == COMMAND or kind in KINDS


def starter(kind: str) -> Starter:
    module, _, name = KINDS[kind].partition(":")
    # __import__, not importlib: importing `importlib` costs a cold run about 1 ms.
    found: Starter = getattr(__import__(module, fromlist=(name,)), name)
    return found
