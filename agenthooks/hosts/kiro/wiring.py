"""The hooks file that makes agenthooks Kiro's hook: `agenthooks init --host kiro` writes it
whole as `.kiro/hooks/agenthooks.json`, one of the `*.json` files Kiro reads in
`.kiro/hooks/` (kiro.dev/docs/cli/v3/hooks, "The new format"), beside the project's own."""

from __future__ import annotations

import json

# The triggers agenthooks answers for Kiro, with the options of their `agenthooks run`: the
# gate fails closed (Kiro lets a call through on any exit but 2), the others do not.
EVENTS = (("PreToolUse", " --fail-closed"), ("PostToolUse", ""), ("UserPromptSubmit", ""),
          ("Stop", ""), ("SessionStart", ""))
TIMEOUT = 60  # seconds


def hooks_text() -> str:
    """The file's text, as init writes it: one hook per trigger, each on every tool."""
    hooks = [{"name": f"agenthooks {word}", "trigger": word,
              "action": {"type": "command",
                         "command": f"agenthooks run {word} --host kiro{flags}"},
              "timeout": TIMEOUT} for word, flags in EVENTS]
    return json.dumps({"version": "v1", "hooks": hooks}, indent=2) + "\n"
