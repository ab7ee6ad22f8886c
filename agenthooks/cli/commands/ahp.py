"""`agenthooks ahp`: an Agent Hooks Protocol (AHP) v0.1 backend on stdio.

A harness that speaks AHP starts `agenthooks ahp` and writes JSON-RPC 2.0 messages to its
stdin, one per line; each `hooks/intercept` request gets one response line on stdout, in
the order received (§17). The request's `tool.before` event runs the workspace's hooks as
`agenthooks run PreToolUse` would (`hosts.ahp.protocol` reads it and writes the effects
back); `hooks/observe` notifications run the hooks of their event and are never answered.
The hook files are loaded for each message, so an edit counts from the next one.

stdout carries protocol lines only: fd 1 is pointed at stderr for as long as the backend
runs, so that nothing a hook or a library prints can reach the harness; every diagnostic
goes to stderr. A message that cannot be processed is a JSON-RPC error; agenthooks' own
failure on an intercept is `backend_internal_error`, or with `--fail-closed` a deny (as a
hook's failure is then). The backend ends at EOF, with exit status 0, so one process per
event works as well as a persistent one.
"""

from __future__ import annotations

import os
import sys

from agenthooks._lean.records import NamedTuple
from agenthooks.errors import AgentHooksError, describe
from agenthooks.hosts.ahp import protocol

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any, BinaryIO

    from agenthooks.engine.call import EventResult


class AhpOptions(NamedTuple):
    """`agenthooks ahp`'s options (the discovery options and switches `run` has too)."""

    configs: tuple[str, ...] = ()
    workspaces: tuple[str, ...] = ()
    no_user: bool = False
    fail_closed: bool = False
    require_trust: bool = False
    host: str | None = None  # whose words the harness's tool names are in; None: by name


def ahp(options: AhpOptions) -> int:
    """The command: serve stdin until EOF; a signal ends it with 128 + its number, every
    handler it started killed first."""
    from agenthooks.executor.records import under_signals

    return under_signals(lambda: serve(options))


def serve(options: AhpOptions, stdin: BinaryIO | None = None) -> int:
    """Answer every message of `stdin` (default: this process's) until EOF; exit status 0."""
    from agenthooks.plan.recursion import check_depth

    check_depth(os.environ)
    out = _protocol_stream()
    source = stdin if stdin is not None else sys.stdin.buffer
    for line in _lines(source):
        reply = answer(line, options)
        if reply is not None and not _send(out, reply):
            return 1  # the harness closed our stdout: nobody is left to answer
    return 0


def _protocol_stream() -> int:
    """A descriptor of the real stdout for protocol lines, fd 1 and `sys.stdout` turned to
    stderr so that nothing else reaches it (§17.1: no banner, log or progress on stdout)."""
    if sys.stdout is not None:
        sys.stdout.flush()
    out = os.dup(1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return out


def _lines(source: BinaryIO) -> Iterable[bytes]:
    """Each message line; a line of blanks is no message and is skipped."""
    for line in source:
        if line.strip():
            yield line.rstrip(b"\r\n")


def _send(out: int, reply: dict[str, Any]) -> bool:
    from agenthooks.model.payload import dumps

    view = memoryview((dumps(reply) + "\n").encode("utf-8"))
    try:
        while view:
            view = view[os.write(out, view):]
    except OSError:
        return False
    return True


def answer(line: bytes, options: AhpOptions) -> dict[str, Any] | None:
    """The response to one message line; None for a notification, answered never (§8.4)."""
    try:
        message = protocol.read_message(line)
        if message.notification:
            notified(message, options)
            return None
        intercept = protocol.read_intercept(_intercept(message), options.host)
    except protocol.RpcError as exc:
        _refused(exc)
        return protocol.error_of(exc)
    return respond(intercept, options)


def _intercept(message: protocol.Message) -> protocol.Message:
    """A request, if it is a `hooks/intercept`; else the JSON-RPC error it gets."""
    if message.method == protocol.OBSERVE:
        raise protocol.RpcError(protocol.INVALID_REQUEST, "Invalid Request: hooks/observe is "
                                "a notification (no id)", message.request_id)
    if message.method != protocol.INTERCEPT:
        raise protocol.RpcError(protocol.METHOD_NOT_FOUND,
                                f"Method not found: {message.method}", message.request_id)
    return message


def notified(message: protocol.Message, options: AhpOptions) -> None:
    """A notification: `hooks/observe` runs its event's hooks; any other is noted only."""
    if message.method == protocol.OBSERVE:
        observe(message, options)
    else:
        _say(f"ignored a {message.method} notification (a request needs an id)")


def respond(intercept: protocol.Intercept, options: AhpOptions) -> dict[str, Any]:
    """Run the hooks of an intercept and answer with their effect: a deny the harness did
    not advertise is an error, so that its failure policy decides (§11)."""
    try:
        result = evaluate(intercept.event, intercept.call, options)
    except Exception as exc:  # a backend never dies of one request; its error is the answer
        if options.fail_closed:
            from agenthooks.engine.runner import failed_closed

            result = failed_closed(intercept.event, describe(exc))
        else:
            _say(f"error: {describe(exc)}")
            return protocol.error(intercept.request_id, protocol.BACKEND_INTERNAL_ERROR,
                                  "agenthooks could not evaluate the request",
                                  {"error": describe(exc)} if isinstance(exc, AgentHooksError)
                                  else None)
    for warning in result.warnings:
        _say(f"warning: {warning}")
    effects, dropped = protocol.effect_of(result.as_verdict())
    if dropped is not None:
        _say(f"note: left out of the answer: {dropped}")
    if effects and protocol.DENY not in intercept.effects:
        return protocol.error(intercept.request_id, protocol.BACKEND_INTERNAL_ERROR,
                              "the hooks deny this call, but the request does not "
                              "advertise the deny effect")
    return protocol.result(intercept.request_id, effects)


def evaluate(event: str, call: protocol.Translated, options: AhpOptions) -> EventResult:
    """The hooks' result for one event, loaded and run as `agenthooks run EVENT` does on
    the payload `call`'s host would send."""
    from agenthooks.api import Hooks
    from agenthooks.cli.commands.run import RunOptions, decide, nothing_to_run
    from agenthooks.model.payload import dumps
    from agenthooks.sources.load import load_all
    from agenthooks.sources.payloads import build

    payload = build(call.host, call.word, call.fields, call.tool, call.args)

    run_options = RunOptions(event=event, configs=options.configs,
                             workspaces=options.workspaces, no_user=options.no_user,
                             fail_closed=options.fail_closed,
                             require_trust=options.require_trust)
    loaded = load_all(configs=options.configs, workspaces=options.workspaces,
                      no_user=options.no_user, require_trust=options.require_trust,
                      event=event)
    hooks = Hooks.from_loaded(loaded)
    empty = nothing_to_run(run_options, hooks)
    return decide(run_options, hooks, dumps(payload).encode("utf-8"), loaded.untrusted, empty)


def observe(message: protocol.Message, options: AhpOptions) -> None:
    """Run the hooks of a `hooks/observe` notification's event; nothing is answered, and a
    failure is said on stderr only (observation never affects the harness: §13.2)."""
    try:
        event, route = protocol.read_event(message)
        problem = protocol.event_problem(event) if route.type.startswith("tool.") else None
        if problem is not None:
            raise protocol.RpcError(protocol.INVALID_PARAMS, problem)
        evaluate(route.engine, protocol.translate(event, route.engine, options.host), options)
    except Exception as exc:
        _say(f"warning: hooks/observe: {describe(exc)}")


def _refused(exc: protocol.RpcError) -> None:
    from agenthooks.model.payload import dumps

    which = "a message" if exc.request_id is None else dumps(exc.request_id)
    _say(f"refused {which}: {exc}")


def _say(text: str) -> None:
    """A diagnostic on stderr; a closed stderr changes nothing."""
    from agenthooks.cli.commands.run import say
    from agenthooks.escape import printable

    say(lambda stream: stream.write(f"agenthooks ahp: {printable(text)}\n"))
