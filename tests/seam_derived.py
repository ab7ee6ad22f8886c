"""A host derived from Claude Code, added by one table row, for `tests/test_seams.py`.

Imported only in the subprocesses of that test, before any other table of agenthooks is
built. Everything it does not state is Claude Code's: its files' rules, its payload, its
answers, its matchers; it says `BeforePrompt` where Claude Code says `UserPromptSubmit`, has
no `PreCompact`, has an `Idle` of its own, calls the shell tool `Shell` and gives a
handler 120 s by default.
"""

from __future__ import annotations

from agenthooks.model import hosts

hosts.HOST_TABLE = (*hosts.HOST_TABLE, hosts.derive(
    hosts.HOST_TABLE[1], "toyc", "Toy Code", project_files=(".toyc/settings.json",),
    user_files=(".toyc/settings.json",), project_var="TOYC_PROJECT_DIR",
    event_words={"turn.start": "BeforePrompt", "compact.pre": None, "toyc.Idle": "Idle"},
    tool_names={"shell": ("Shell",)}, dialect_changes={"events": {"Idle": None},
                                                      "default_timeout": 120.0}))
