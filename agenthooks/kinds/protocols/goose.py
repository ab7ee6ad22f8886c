"""One Goose handler's answer, read with Goose's own rules (measured with goose 1.52.0;
block/goose@0825b57 crates/goose/src/hooks/mod.rs `classify_output`, pinned there by
`classify_output_pins_every_boundary`, and the shipped `apply_verdict`).

Only PreToolUse and Stop decide anything (`emit_blocking`); on every other event the answer
is logged and dropped, an exit 2 or a block included (measured on UserPromptSubmit and
PostToolUse). On those two:

    exit 2                      a deny, its reason stderr trimmed ("denied by plugin hook"
                                when empty)
    stdout `{"decision":        a deny whatever the exit code (exit 1 measured), its `reason`
      "block", "reason"}`       (the same default)
    exit 0, stdout empty or     nothing: the call goes on, the agent stops
      `{"decision": "allow"}`
    anything else               a failure (a log line or `{}` on stdout, another word, allow
                                JSON with another exit, another exit, a signal, a timeout, no
                                start): the call goes on, but for a PreToolUse action with
                                `on_failure: "block"`, which denies it ("the hook command
                                failed to run" for a timeout or no start)

A Stop deny keeps the agent going, the reason its next (hidden) user message. Nothing else is
read: no context, no rewrite, no ask (a SessionStart `{"banner": ...}` is for Goose's clients
to show, and `goose run` showed none: not read here). The result is the same `Answer` every
dialect's protocol gives, so one merge reads them all.
"""

from __future__ import annotations

from agenthooks.kinds.protocols.antigravity import json_object
from agenthooks.model.events import block_decision
from agenthooks.model.handlers import Answer, Handler, failure, process_fields

TYPE_CHECKING = False
if TYPE_CHECKING:

    from agenthooks.executor import ProcessResult

GATE = "PreToolUse"
DECIDES = frozenset((GATE, "Stop"))
DENY_EXIT = 2
DEFAULT_REASON = "denied by plugin hook"
NOT_RUN = "the hook command failed to run"


def answer(handler: Handler, result: ProcessResult, event: str) -> Answer:
    """Interpret one finished Goose handler; `event` is the engine's event."""
    common = process_fields(result)
    name = handler.hook or handler.command
    own = handler.event
    if own not in DECIDES:
        if result.status != "exited":
            return failure(handler, result, name, common["stderr"])
        return Answer(handler, "ok", **common)
    said = json_object(common["stdout"]) if result.status in ("exited", "signaled") else None
    if result.status == "exited" and result.exit_code == DENY_EXIT:
        reason = common["stderr"].strip() or DEFAULT_REASON
        return Answer(handler, "blocked", decision=block_decision(event), reason=reason,
                      **common)
    if said is not None and said.get("decision") == "block":
        reason = said.get("reason")
        reason = reason if isinstance(reason, str) and reason else DEFAULT_REASON
        return Answer(handler, "ok", decision=block_decision(event), reason=reason, **common)
    if result.status == "exited" and result.exit_code == 0 and (
            not common["stdout"].strip()
            or (said is not None and said.get("decision") == "allow")):
        return Answer(handler, "ok", **common)
    blocks = own == GATE and dict(handler.options).get("on_failure") == "block"
    if result.status != "exited":
        found = failure(handler, result, name, common["stderr"])
        if not blocks:
            return found
        reason = NOT_RUN if result.status in ("timeout", "not-started") else found.warning
        return found._replace(decision=block_decision(event), reason=reason, failed=False)
    what = (f"exited {result.exit_code}" if result.exit_code != 0
            else "wrote stdout that is neither empty nor a decision")
    if blocks:
        return Answer(handler, "ok", decision=block_decision(event),
                      reason=f"hook {name!r} {what}", **common)
    return Answer(handler, "ok", warning=f"hook {name!r} {what}: Goose counts it a failure "
                                         "and goes on without it", failed=True, **common)
