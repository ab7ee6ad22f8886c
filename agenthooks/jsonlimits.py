"""One nesting limit for every JSON document agenthooks reads: configs, payloads, handler output.

200 levels is far above any real hook and far below Python's recursion limit, so nothing that
walks a document (json itself, the position reader, the rules) can raise `RecursionError`.
"""

from __future__ import annotations

MAX_DEPTH = 200

def could_be_too_deep(text: str | bytes) -> bool:
    """Cheap pre-check: fewer brackets than the limit cannot nest beyond it (C-speed counts)."""
    if isinstance(text, bytes):
        return text.count(b"[") + text.count(b"{") > MAX_DEPTH
    return text.count("[") + text.count("{") > MAX_DEPTH


def depth_exceeds(value: object, limit: int = MAX_DEPTH) -> bool:
    """Whether a parsed value nests containers deeper than `limit`; iterative, never recursive."""
    if not isinstance(value, (dict, list)):
        return False
    stack: list[tuple[dict[str, object] | list[object], int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children = item.values() if isinstance(item, dict) else item
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children if isinstance(child, (dict, list)))
    return False
