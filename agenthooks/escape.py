"""Text from configs and payloads made safe for a terminal.

A command or hook name may hold `\r`, ANSI escapes or other control characters that would let
it hide itself or rewrite the screen in `list`, `run -v` or `validate`'s source lines. Every
non-JSON output passes such text through `printable`.
"""

from __future__ import annotations

# C0 controls but tab (the one harmless whitespace control), DEL and C1 controls.
_C0_C1 = (*range(0x09), *range(0x0A, 0x20), 0x7F, *range(0x80, 0xA0))
_CONTROLS = {code: f"\\x{code:02x}" for code in _C0_C1}
_CONTROLS.update({0x0A: "\\n", 0x0D: "\\r", 0x1B: "\\x1b"})
# Unicode bidi overrides can reorder what a reader sees (trojan source); line separators too.
_CONTROLS.update({code: f"\\u{code:04x}" for code in (*range(0x202A, 0x202F),
                                                      *range(0x2066, 0x206A), 0x2028, 0x2029)})


def printable(text: str) -> str:
    """`text` with control characters escaped (`\\r`, `\\x1b`...) and lone surrogates shown."""
    escaped = text.translate(_CONTROLS)
    try:
        escaped.encode("utf-8")
    except UnicodeEncodeError:
        escaped = escaped.encode("utf-8", "backslashreplace").decode("utf-8")
    return escaped


def has_controls(text: str) -> bool:
    """Whether `printable` would change `text`'s control characters."""
    return text.translate(_CONTROLS) != text
