"""deepagents-code's hooks (`model.hosts`: a host derived from Claude Code, whose settings shape,
events, tool names, payload and answers it copies): what differs is read here and in
`sources.dialects.deepagents_check`.

Each fact read in the code of PyPI `deepagents-code` 0.2.2 (paths under `deepagents_code/`):

    files       `.deepagents/hooks.json` in the project (the git root, else the folder it runs
                in) and `$DEEPAGENTS_HOME/hooks.json` (default `~/.deepagents/`), their groups
                concatenated per event, project first (`hooks/loading.py`); a project's file
                runs only once trusted, and `-n` (headless) trusts it only with
                `--trust-project-hooks` (`client/non_interactive.py`, `hooks/trust.py`)

                    {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
                        {"type": "command",
                         "command": "agenthooks run PreToolUse --host deepagents"}]}]}}

    events      twelve of Claude Code's (`hooks/models/domain.py`)
    handlers    `type: "command"` alone, with `command`, `timeout` (seconds, 600 by default,
                30 on UserPromptSubmit: `hooks/capabilities.py`) and `statusMessage`;
                `async: true` is refused ("async command hooks are not yet supported") and
                that handler skipped; unknown keys are ignored (`hooks/models/config.py`);
                `sh -c` in the project folder, no project variable, and no variable whose
                name holds KEY, TOKEN, SECRET, PASSWORD or APIKEY (`hooks/runner.py`,
                `hooks/env.py`)
    matchers    absent, "" or "*" select everything; text of word characters, spaces, `,`,
                `-` and `|` alone is a list of exact names split on `|` and `,`; anything
                else a Python regex searched in the value, and a group whose regex does not
                compile is dropped; on UserPromptSubmit and Stop, which have no value, a
                group with any other matcher is dropped (`hooks/snapshot.py`)
    answers     Claude Code's, but `updatedInput`, which it does not apply and which drops
                the hook's allow or ask (a deny stands), and `defer`, which it ignores
                (`hooks/reducer.py`; `kinds.protocols.deepagents`); a hook that times out,
                crashes or exits otherwise lets the call through: there is no fail-closed
                switch (`hooks/runner.py`)

Its tools are named as Claude Code's where it maps them (`hooks/tools.py`: `execute` is Bash,
`write_file` Write, `edit_file` Edit, `read_file` Read, `glob` Glob, `grep` Grep, `ls` LS), by
their own names otherwise (`task`, `write_todos`).
"""

from __future__ import annotations

from agenthooks.sources.dialects.matching import ALL, Selection, regex_error, simplify

# Events whose payload has no value for a matcher: a group with one is dropped.
NO_VALUE = frozenset(("UserPromptSubmit", "Stop"))
_EVERYTHING = ("", "*")


def is_name_list(matcher: str) -> bool:
    """`^[\\w\\s,\\-|]+$` (`hooks/snapshot.py`): Python's `\\w` and `\\s`, Unicode included."""
    return all(char.isalnum() or char == "_" or char.isspace() or char in ",-|"
               for char in matcher)


def selection(matcher: str | None, event: str) -> Selection:
    """What a deepagents-code matcher selects on an event (`hooks/snapshot.py`)."""
    if matcher is None or matcher in _EVERYTHING:
        return ALL
    if event in NO_VALUE:
        return Selection("never", pattern=matcher)
    if is_name_list(matcher):
        names = tuple(part.strip() for part in matcher.replace(",", "|").split("|"))
        return Selection("names", tuple(name for name in names if name))
    if regex_error(matcher, True) is not None:
        return Selection("never", pattern=matcher)
    return simplify(Selection("search", pattern=matcher, python=True))
