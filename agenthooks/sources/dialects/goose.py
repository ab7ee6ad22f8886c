"""Goose's hooks (`model.hosts`: a host derived from Claude Code, whose matcher groups it
reads): its files, events, matchers, handlers and answers are its own. Each fact measured with
goose 1.52.0 (npm @aaif/goose-binary-linux-x64) and read in block/goose@0825b57
(`crates/goose/src/hooks/mod.rs`, `documentation/docs/guides/context-engineering/hooks.md`)
and block/goose@21aecaf (`crates/goose/src/plugins/discovery.rs`):

    files       `<plugin>/hooks/hooks.json` of each Open Plugins plugin, a plugin being a folder
                of `.agents/plugins/` in the folder goose starts in (no walk up to a git root:
                started in a subfolder, it loads no project plugin, measured) or in
                `~/.agents/plugins/`; a project plugin hides a user plugin of the same name;
                no manifest needed, no trust prompt; read once, when the agent is built

                    {"hooks": {"PreToolUse": [{"matcher": "^shell$", "hooks": [
                        {"type": "command",
                         "command": "agenthooks run PreToolUse --host goose"}]}]}}

    events      twelve, case-sensitive: SessionStart, SessionEnd, Stop, UserPromptSubmit,
                PreToolUse, PreToolUseResult (observe only), PostToolUse, PostToolUseFailure,
                BeforeReadFile, AfterFileEdit, BeforeShellExecution, AfterShellExecution
                (`from_name`); another key (`preToolUse`, `Notification`) is skipped with a
                DEBUG log line alone, its content unread
    handlers    `type` "command" (missing or null is a command; another word drops that action
                alone), `command` (missing or null drops the action), `timeout` in whole
                seconds (30 by default), `on_failure` "allow" or "block", read on PreToolUse
                alone; a value of the wrong type there (a string timeout, a non-string
                `type`, `command` or `matcher`, an `on_failure` of another word on PreToolUse)
                and goose skips the whole file (`RawCommandAction`, `select_action`)
    matchers    a Rust `regex` searched in `matcher_context`, case-sensitive: the tool's name
                on tool events, the command on Before/AfterShellExecution, the file on
                BeforeReadFile/AfterFileEdit, the prompt on UserPromptSubmit, "" on
                SessionStart, SessionEnd and Stop; none or "" selects everything; one that
                does not compile (`*`) skips its group alone
    running     `sh -c` in goose's own working folder, `${PLUGIN_ROOT}` in `command` replaced by
                the plugin's folder, which `PLUGIN_ROOT` also names; matching actions one after
                another, the first deny ending the chain

`sources.dialects.goose_check` reads the file; this module is what a run needs of it.
"""

from __future__ import annotations

from agenthooks.sources.dialects.matching import ALL, Selection, regex_error, simplify

# Rust's `regex` has no lookaround and no backreference, which Python's `re` reads.
_NOT_RUST = r"\(\?<?[=!]|\\[1-9]"
# Its events whose `matcher_context` is null: a matcher is tested against "".
NO_VALUE = frozenset(("SessionStart", "SessionEnd", "Stop"))


def rust_error(pattern: str) -> str | None:
    """Why Rust's `Regex::new` refuses a pattern (as far as Python's `re` tells), else None."""
    error = regex_error(pattern, True)
    if error is not None:
        return error
    import re

    if re.search(_NOT_RUST, pattern):
        return "Rust's regex has no lookaround or backreference"
    return None


def selection(matcher: str | None, event: str) -> Selection:
    """What a Goose matcher selects on an event (`matching_actions`): every value for none
    or "", else what its regex finds anywhere in, case-sensitively; nothing for one that does
    not compile, and on the events with no value, nothing unless it matches ""."""
    if not matcher:
        return ALL
    if rust_error(matcher) is not None:
        return Selection("never", pattern=matcher)
    if event in NO_VALUE:
        import re

        return ALL if re.search(matcher, "") is not None else Selection("never",
                                                                         pattern=matcher)
    return simplify(Selection("search", pattern=matcher, python=True))
