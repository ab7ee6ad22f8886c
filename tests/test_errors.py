"""`agenthooks._lean.suppress` is `contextlib.suppress`: the same table of outcomes."""

from __future__ import annotations

import contextlib

import pytest

from agenthooks._lean.suppress import suppress
from agenthooks.errors import AgentHooksError, UsageError

CASES: list[tuple[tuple[type[BaseException], ...], BaseException | None]] = [
    ((OSError,), None),
    ((OSError,), OSError("x")),
    ((OSError,), FileNotFoundError("x")),  # a subclass
    ((OSError,), ValueError("x")),
    ((ProcessLookupError, PermissionError), PermissionError("x")),
    ((ProcessLookupError, PermissionError), ChildProcessError("x")),
    ((Exception,), KeyboardInterrupt()),  # not an Exception
    ((BaseException,), KeyboardInterrupt()),
    ((AgentHooksError,), UsageError("x")),
    ((), OSError("x")),
]


def outcome(manager: type, exceptions: tuple[type[BaseException], ...],
            raised: BaseException | None) -> str:
    try:
        with manager(*exceptions):
            if raised is not None:
                raise raised
    except BaseException as exc:
        return f"raised {type(exc).__name__}"
    return "went on"


@pytest.mark.parametrize(("exceptions", "raised"), CASES)
def test_suppress_is_contextlib_suppress(exceptions: tuple[type[BaseException], ...],
                                         raised: BaseException | None) -> None:
    assert outcome(suppress, exceptions, raised) == \
        outcome(contextlib.suppress, exceptions, raised)
