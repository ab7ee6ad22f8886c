"""The one place a failure becomes a deny (`--fail-closed`, PreToolUse only).

A gate must never let a call through by accident: a handler that timed out, crashed or
answered nonsense, a skipped file, an untrusted workspace, or agenthooks' own error all end
here, as a deny that names every failure.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any
    Output = dict[str, Any]

PREFIX = "fail-closed: "


def own_error_deny(error: str) -> Output:
    """The answer when agenthooks itself failed and could not run the event."""
    return {"decision": "deny", "reason": f"{PREFIX}agenthooks: {error}"}


def deny_for_failures(merged: Output, failures: Sequence[str]) -> Output:
    """`--fail-closed` on PreToolUse: the merged answer turned into a deny naming the failures.

    The reasons of handlers that denied on their own stay first; the other fields are kept.
    """
    reasons = [merged["reason"]] if merged.get("decision") == "deny" and "reason" in merged else []
    reasons += [f"{PREFIX}{failure}" for failure in failures]
    rest = {key: value for key, value in merged.items() if key not in ("decision", "reason")}
    return {"decision": "deny", "reason": "\n".join(reasons), **rest}
