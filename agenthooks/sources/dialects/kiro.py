"""Kiro's hook files (`model.hosts`: a host derived from Claude Code, whose payload fields it
sends): its files, triggers, matchers and answers are its own. Each fact read on
kiro.dev/docs/cli/v3/hooks ("The new format", "Trigger reference") unless said:

    files       every `*.json` directly in a project's `.kiro/hooks/`, and in the user's
                `~/.kiro/hooks/` (measured with Kiro CLI 2.13.0 in its V3 mode:
                dev.classmethod.jp/articles/kiro-cli-213-v3-introspect-global-hooks); a file
                in a folder below them is not one Kiro reads

                    {"version": "v1", "hooks": [
                        {"name": "gate", "trigger": "PreToolUse", "matcher": "execute_bash",
                         "action": {"type": "command",
                                    "command": "agenthooks run PreToolUse --host kiro"},
                         "timeout": 60, "enabled": true}]}

    triggers    SessionStart, Stop, PreToolUse, PostToolUse, PreTaskExec, PostTaskExec,
                UserPromptSubmit, PostFileCreate, PostFileSave, PostFileDelete, Manual; the
                CLI 2.x names (`agentSpawn`, `preToolUse`, `fileEdited`...) belong to hooks
                embedded in agent configs ("Old trigger" -> "New trigger")
    actions     `{"type": "command", "command"}` runs a shell command, the hook context as JSON
                on stdin; `{"type": "agent", "prompt"}` appends a prompt to the model's
                context, no process at all (agenthooks lists it and skips it)
    matchers    a regex on the tool's name on PreToolUse and PostToolUse, on the file's path on
                the PostFile* triggers; the other triggers take none
    timeout     seconds (the page's example, `"timeout": 30`); [unverified: 60 when absent, as
                third-party summaries of the page say; Kiro CLI 2.x's `timeout_ms` was 30000]
    enabled     `false` turns the hook off

[unverified: whether a matcher is searched in the name or must match it whole (read here as
searched, as a Rust `Regex::is_match` does); whether it also matches a tool's alias (`shell`
for `execute_bash`), as CLI 2.x matchers did; what Kiro does with a file without
`"version": "v1"`, or with a regex that does not compile.]

`sources.dialects.kiro_check` reads the file; this module is what a run needs of it.
"""

from __future__ import annotations

from agenthooks.sources.dialects.matching import ALL, Selection, regex_error, simplify

VERSION = "v1"
# The matchers of every tool: none, "", and CLI 2.x's `*` (kiro.dev/docs/cli/hooks, "Tool
# matching"), read as every tool rather than as a regex that does not compile: a gate errs on
# the side of running.
_EVERYTHING = (None, "", "*", ".*")


def selection(matcher: str | None, event: str) -> Selection:
    """What a Kiro matcher selects: every tool for none, "" or `*`; else the names its regex
    finds anywhere in; none for a regex that does not compile."""
    if matcher in _EVERYTHING:
        return ALL
    assert matcher is not None
    if regex_error(matcher, True) is not None:
        return Selection("never", pattern=matcher)
    return simplify(Selection("search", pattern=matcher, python=True))
