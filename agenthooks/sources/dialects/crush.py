"""Charm Crush's hooks (`model.hosts`: a host derived from Claude Code, whose
`hookSpecificOutput` answers it reads): its files, its one event, its matchers and its answer
envelope are its own. Each fact read in charmbracelet/crush at 37f36e9
(`internal/config/load.go`, `internal/config/config.go`, `internal/hooks/*.go`):

    files       /etc/crush/crush.json, `$CRUSH_GLOBAL_CONFIG/crush.json` (else
                `${XDG_CONFIG_HOME:-~/.config}/crush/crush.json`), the data folder's
                crush.json, then the project's `crush.json`, `.crush.json` and the workspace's
                `.crush/crush.json`, later winning (`lookupConfigs`); strict JSON (`json.Valid`:
                a comment or a trailing comma and Crush does not start); objects merged, lists
                concatenated (qjebbs/go-jsons), so every file's PreToolUse hooks run, global
                ones first

                    {"hooks": {"PreToolUse": [
                        {"name": "gate", "matcher": "^bash$",
                         "command": "agenthooks run PreToolUse --host crush", "timeout": 10}]}}

    events      PreToolUse alone (`internal/hooks/hooks.go` `EventPreToolUse`); a key is read as
                it once lowercased with its `_` removed (`pre_tool_use`, `PRETOOLUSE`:
                `normalizeHookEvent`); any other key (PostToolUse, PreCompact, `pre-tool-use`)
                is kept and never fires, without a word
    hooks       a flat list of `{name, matcher, command, timeout}`: `command` required (a
                Claude Code matcher group has none, and Crush does not start), `timeout` whole
                seconds (30 when absent or not above 0; another type and Crush does not start);
                other keys ignored (`HookConfig`, `ValidateHooks`)
    matchers    a Go RE2 regex searched in the tool's name (`regexp.MatchString`): unanchored
                and case-sensitive (`edit` selects `multiedit`, `Bash` selects nothing); none or
                "" selects every tool; one that does not compile (`*`) and Crush does not start
    running     its embedded POSIX shell (mvdan.cc/sh) in the working folder, every matching
                hook at once, a command given twice once (`internal/hooks/runner.go`)

`sources.dialects.crush_check` reads the file; this module is what a run needs of it.
Not read here: `crushrc` and `.crushrc`, the Bash DSL whose `hook add` lines also define hooks
(`internal/shellconfig/hook.go`).
"""

from __future__ import annotations

from agenthooks.sources.dialects.matching import ALL, Selection, regex_error, simplify

TYPE_CHECKING = False
if TYPE_CHECKING:
    from agenthooks.model.handlers import Handler

EVENT = "PreToolUse"
# Go's RE2 has no lookaround and no backreference, which Python's `re` reads.
_NOT_RE2 = r"\(\?<?[=!]|\\[1-9]"


def event_key(key: str) -> str:
    """The event Crush reads a `hooks` key as (`normalizeHookEvent`, `Dialect.event_key`):
    PreToolUse, else the key itself, which it keeps and never fires."""
    return EVENT if key.replace("_", "").lower() == EVENT.lower() else key


def re2_error(pattern: str) -> str | None:
    """Why Go's `regexp.Compile` refuses a pattern (as far as Python's `re` tells), else None."""
    error = regex_error(pattern, True)
    if error is not None:
        return error
    import re

    if re.search(_NOT_RE2, pattern):
        return "Go's RE2 has no lookaround or backreference"
    return None


def selection(matcher: str | None, event: str) -> Selection:
    """What a Crush matcher selects: every tool for none or "", else the names its RE2 regex
    finds anywhere in, case-sensitively."""
    if not matcher:
        return ALL
    if re2_error(matcher) is not None:
        return Selection("never", pattern=matcher)
    return simplify(Selection("search", pattern=matcher, python=True))


def handler_variables(handler: Handler) -> dict[str, str]:
    """What Crush sets for every hook besides the call's variables (`model.hosts`,
    `call_vars`): its markers (internal/shell/shell.go@37f36e9 `CrushEnvMarkers`)."""
    return {"CRUSH": "1", "AGENT": "crush", "AI_AGENT": "crush"}
