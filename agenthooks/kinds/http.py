"""Claude Code's `http` handlers: POST the payload, read the response body as the answer.

The body is read as a command's stdout after exit 0 (`hosts.claude.protocol`). A non-2xx
status, a connection error or a timeout is a failed handler: a non-blocking error, as Claude
Code treats it, and a failure under fail-closed. Header values may name environment variables
(`$VAR`, `${VAR}`); only those listed in `allowedEnvVars` are filled in, the others are
empty, as Claude Code does. Each request runs in its own thread, started before the command
handlers and joined after them, so both kinds run at the same time.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Mapping, Sequence

from agenthooks.executor import ProcessResult
from agenthooks.model.handlers import Answer, Handler

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_VARIABLE = re.compile(r"\$\{(\w+)\}|\$(\w+)")
BODY_LIMIT = 1024 * 1024  # as a command's stdout


def headers_of(handler: Handler, environ: Mapping[str, str]) -> dict[str, str]:
    """The handler's headers, with the variables it is allowed to read filled in."""
    options = dict(handler.options)
    allowed = {str(name) for name in _items(options.get("allowedEnvVars"))}
    given = [pair for pair in _items(options.get("headers"))
             if isinstance(pair, tuple) and len(pair) == 2]

    def fill(text: str) -> str:
        def value(match: re.Match[str]) -> str:
            name = match.group(1) or match.group(2)
            return environ.get(name, "") if name in allowed else ""

        return _VARIABLE.sub(value, text)

    return {str(key): fill(str(value)) for key, value in given}


def _items(value: object) -> tuple[Any, ...]:
    return value if isinstance(value, tuple) else ()


def post(handler: Handler, data: bytes, environ: Mapping[str, str]) -> ProcessResult:
    """POST `data` to the handler's url: an exit-0-like result with the body as stdout, or a
    not-started/timeout/exit-1 result whose `error` says what went wrong."""
    import urllib.error
    import urllib.request

    headers = {"Content-Type": "application/json", **headers_of(handler, environ)}
    request = urllib.request.Request(handler.command, data=data, headers=headers,
                                     method="POST")
    started = time.perf_counter()

    def took() -> float:
        return (time.perf_counter() - started) * 1000.0

    try:
        with urllib.request.urlopen(request, timeout=handler.timeout) as response:
            body = response.read(BODY_LIMIT + 1)
    except urllib.error.HTTPError as exc:
        return _failed("exited", took(), f"HTTP {exc.code} {exc.reason}")
    except TimeoutError:
        return _failed("timeout", took(), "timed out")
    except urllib.error.URLError as exc:
        if isinstance(exc.reason, TimeoutError):
            return _failed("timeout", took(), "timed out")
        return _failed("not-started", took(), f"cannot connect: {exc.reason}")
    except (OSError, ValueError) as exc:
        return _failed("not-started", took(), f"cannot POST: {exc}")
    cut = len(body) > BODY_LIMIT
    return ProcessResult("exited", 0, None, body[:BODY_LIMIT], b"", cut, False, took())


def _failed(status: Any, ms: float, error: str) -> ProcessResult:
    return ProcessResult(status, 1 if status == "exited" else None, None, b"", b"", False,
                         False, ms, error)


def answer_of(handler: Handler, result: ProcessResult, event: str) -> Answer:
    """The answer of one request: the Claude Code protocol on a 2xx body, else a failure."""
    if result.error is None:
        from agenthooks.hosts.claude.protocol import answer

        return answer(handler, result, event)
    name = handler.hook or handler.command
    timed_out = result.status == "timeout"
    what = f"timed out after {handler.timeout:g} s" if timed_out else result.error
    return Answer(handler, "timeout" if timed_out else "warning",
                  duration_ms=result.duration_ms, failed=True,
                  warning=f"hook {name!r} POST {handler.command}: {what}")


class Requests:
    """The http handlers of one event, running in threads until `answers` joins them."""

    def __init__(self, jobs: Sequence[tuple[int, Handler, bytes]], event: str) -> None:
        import os

        self.event = event
        self.results: dict[int, ProcessResult] = {}
        self.handlers = {index: handler for index, handler, _ in jobs}
        environ = dict(os.environ)
        self.threads = [
            threading.Thread(target=self._run, args=(index, handler, data, environ),
                             name="agenthooks-http", daemon=True)
            for index, handler, data in jobs
        ]
        for thread in self.threads:
            thread.start()

    def _run(self, index: int, handler: Handler, data: bytes,
             environ: Mapping[str, str]) -> None:
        try:
            self.results[index] = post(handler, data, environ)
        except Exception as exc:  # a thread's error must reach the answer, not vanish
            self.results[index] = _failed("not-started", 0.0, f"cannot POST: {exc}")

    def answers(self) -> dict[int, Answer]:
        """Wait for every request; one answer per handler position."""
        for thread in self.threads:
            thread.join()
        return {index: answer_of(self.handlers[index], result, self.event)
                for index, result in self.results.items()}
