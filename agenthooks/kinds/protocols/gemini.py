"""One Gemini CLI handler's answer: its documented protocol (seed 001), which is the one the
hooks.json protocol already reads (`kinds.protocols.antigravity`).

    exit 0      stdout is the answer (a JSON object; other text becomes a systemMessage)
    exit 2      a block whose reason is stderr (AfterAgent: do not stop yet)
    other       a non-blocking warning; the output is ignored

Gemini CLI's code differs from its docs: it reads JSON on any exit code and blocks on plain
text with any exit other than 0 and 1. agenthooks follows the docs (docs/hosts.md says so).
`decision` words are Gemini's (`allow`/`deny`, `block` on AfterAgent, `approve`), already in
the engine's tables; `hookSpecificOutput.tool_input` (BeforeTool) rewrites the tool's input
and `hookSpecificOutput.additionalContext` is context, both read by the one merge.
"""

from __future__ import annotations

from agenthooks.kinds.protocols.antigravity import answer

__all__ = ["answer", "rewritten_input"]

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from agenthooks.model.handlers import Answer

# Per event, the hookSpecificOutput key whose object the next sequential handler sees.
CHAINED: dict[str, str] = {"BeforeTool": "tool_input", "BeforeModel": "llm_request"}


def rewritten_input(event: str, done: Answer) -> tuple[str, dict[str, Any]] | None:
    """(payload key, new value) a sequential handler hands to the next one, if any."""
    key = CHAINED.get(event)
    specific = done.output.get("hookSpecificOutput") if done.output else None
    if key is None or not isinstance(specific, dict) or not isinstance(specific.get(key),
                                                                       dict):
        return None
    return key, specific[key]
