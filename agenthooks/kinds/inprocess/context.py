"""Scoped state for hooks: a session holds turns, a turn holds operations (one per call).

A read falls back to the enclosing scope (operation → turn → session); a write stays in its
own scope. So a turn's `correlation_id` is visible to every tool call of that turn, and
nothing an operation writes leaks up into its turn or session.
"""

from __future__ import annotations

import _thread  # `threading`'s own lock and thread-local types, without importing it
from _collections_abc import Mapping  # collections.abc's, unimported

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from agenthooks.model.decision import Decision

_MISSING = object()


class State:
    """A key-value store that falls back to its parent's on reads; thread-safe."""

    __slots__ = ("_lock", "_parent", "_values")

    def __init__(self, parent: State | None = None) -> None:
        self._parent = parent
        self._values: dict[str, Any] = {}
        self._lock = _thread.allocate_lock()

    def get(self, key: str, default: Any = None) -> Any:
        scope: State | None = self
        while scope is not None:
            with scope._lock:
                value = scope._values.get(key, _MISSING)
            if value is not _MISSING:
                return value
            scope = scope._parent
        return default

    def set(self, key: str, value: Any) -> None:
        with self._lock:
            self._values[key] = value

    def __getitem__(self, key: str) -> Any:
        value = self.get(key, _MISSING)
        if value is _MISSING:
            raise KeyError(key)
        return value

    def __setitem__(self, key: str, value: Any) -> None:
        self.set(key, value)

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and self.get(key, _MISSING) is not _MISSING

    def own(self) -> dict[str, Any]:
        """A copy of what was written in this scope alone."""
        with self._lock:
            return dict(self._values)

    def __repr__(self) -> str:
        return f"State({self.own()!r})"


class Session:
    """One agent session: `session.turn()` starts a turn; `session.state` outlives them."""

    def __init__(self, session_id: str | None = None) -> None:
        if not session_id:
            import uuid

            session_id = uuid.uuid4().hex
        self.session_id = session_id
        self.state = State()

    def turn(self) -> Turn:
        return Turn(self)

    def __repr__(self) -> str:
        return f"Session({self.session_id!r})"


class Turn:
    """One prompt/response cycle of a session; each call run in it is one operation."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.state = State(session.state)

    def __repr__(self) -> str:
        return f"Turn(session={self.session.session_id!r})"


class Context:
    """What every in-process hook receives: the call, its scopes, and its own state.

    `tool_args` is what the hook may read (a read-only view for decide hooks); `decision` is
    set for inspect hooks only, to the final decision of the event. Without a turn given, the
    session and turn are made when a hook first asks for them: most hooks never do.
    """

    __slots__ = ("_source", "_state", "_turn", "decision", "event", "payload", "tool_args",
                 "tool_name")

    def __init__(
        self,
        event: str,
        payload: Mapping[str, Any],
        tool_name: str | None,
        tool_args: Mapping[str, Any],
        turn: Turn | None = None,
        source: Mapping[str, Any] | None = None,
    ) -> None:
        self.event = event
        self.payload = payload
        self.tool_name = tool_name
        self.tool_args = tool_args
        self._turn = turn
        self._source = source  # the payload, whose session id names a session made on demand
        self._state: State | None = None
        self.decision: Decision | None = None

    @property
    def turn(self) -> Turn:
        if self._turn is None:
            from agenthooks.model.payload import session_id_of

            session_id = None if self._source is None else session_id_of(self._source)
            self._turn = Session(session_id).turn()
        return self._turn

    @property
    def session(self) -> Session:
        return self.turn.session

    @property
    def state(self) -> State:
        """This call's own store, falling back to the turn's and the session's."""
        if self._state is None:
            self._state = State(self.turn.state)
        return self._state

    def __repr__(self) -> str:
        return f"Context(event={self.event!r}, tool_name={self.tool_name!r})"


def turn_for(context: Session | Turn | None, session_id: str | None = None) -> Turn:
    """The turn a call runs in: the one given, a new turn of a session, or a fresh pair."""
    if isinstance(context, Turn):
        return context
    if isinstance(context, Session):
        return context.turn()
    if context is None:
        return Session(session_id).turn()
    raise TypeError(f"context must be a Session or a Turn, not {type(context).__name__}")
