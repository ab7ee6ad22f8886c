"""The plugin file that makes agenthooks OpenCode's hook (`plugin.js` beside this module,
package data): `agenthooks init --host opencode` writes it as `.opencode/plugin/agenthooks.js`,
which OpenCode 1.x loads at startup as it loads every `.js` and `.ts` of a config folder's
`plugin/` or `plugins/` (measured with opencode 1.18.33)."""

from __future__ import annotations

import os

PLUGIN = os.path.join(os.path.dirname(__file__), "plugin.js")


def plugin_text() -> str:
    """The plugin's text, as init writes it."""
    with open(PLUGIN, encoding="utf-8") as handle:
        return handle.read()
