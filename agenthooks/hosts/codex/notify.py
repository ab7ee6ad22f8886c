"""Codex's legacy `notify` program: agenthooks' Stop handlers on every finished turn.

Codex runs the `notify` command of the user's config.toml after each turn, with one JSON
object as its last argument and stdin, stdout and stderr closed to it (openai/codex
`codex-rs/hooks/src/legacy_notify.rs`; a project's config.toml cannot set `notify`):

    {"type": "agent-turn-complete", "thread-id": ..., "turn-id": ..., "cwd": ...,
     "client": ..., "input-messages": [...], "last-assistant-message": ...}

Wired as

    notify = ["python3", "-m", "agenthooks.hosts.codex.notify"]

(the Python that has agenthooks installed; extra `agenthooks run` options may follow), this
module reads that object as the Stop payload Codex's hooks get (session_id from thread-id,
turn_id, cwd, last_assistant_message) and runs `agenthooks run Stop --host codex` on it.
Nothing it answers reaches Codex, which reads no output of `notify`: handlers can record,
notify or start work, never keep the agent going. Another `type` (none is documented) runs
nothing.
"""

from __future__ import annotations

import json
import sys
from typing import Any

TURN_COMPLETE = "agent-turn-complete"


def stop_payload(notification: dict[str, Any]) -> dict[str, Any] | None:
    """The Stop payload for a notify object; None when it is no finished turn."""
    if notification.get("type") != TURN_COMPLETE:
        return None
    payload: dict[str, Any] = {"hook_event_name": "Stop", "stop_hook_active": False}
    for field, key in (("session_id", "thread-id"), ("turn_id", "turn-id"), ("cwd", "cwd"),
                       ("last_assistant_message", "last-assistant-message")):
        if key in notification:
            payload[field] = notification[key]
    messages = notification.get("input-messages")
    if isinstance(messages, list) and messages and isinstance(messages[-1], str):
        payload["prompt"] = messages[-1]
    return payload


def main(argv: list[str]) -> int:
    """`python -m agenthooks.hosts.codex.notify [RUN OPTIONS...] JSON`."""
    if not argv:
        sys.stderr.write("agenthooks: Codex's notify gives the turn as the last argument; "
                         "none was given\n")
        return 2
    try:
        notification = json.loads(argv[-1])
    except ValueError as exc:
        sys.stderr.write(f"agenthooks: Codex's notify argument is not JSON: {exc}\n")
        return 2
    payload = stop_payload(notification) if isinstance(notification, dict) else None
    if payload is None:
        return 0
    import subprocess

    command = [sys.executable, "-m", "agenthooks", "run", "Stop", "--host", "codex",
               *argv[:-1]]
    done = subprocess.run(command, input=json.dumps(payload).encode(), check=False)
    return done.returncode

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
