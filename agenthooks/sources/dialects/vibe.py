"""Mistral Vibe's hooks (`model.hosts`: a host derived from Claude Code, whose payload field
names it keeps for hook authors): its file, its events and its matchers are its own.

Each fact read in the code of PyPI `mistral-vibe` 3.0.3 (`vibe/core/hooks/models.py`,
`vibe/core/hooks/config.py`, `vibe/core/config/harness_files/_harness_manager.py`; the
harness it runs hooks with, `mistralai_vibe_local_harness/vibe/_hook_matcher.py` and
`_foreign_hooks.py`; its `docs/hooks.md` describes an older format):

    files       `.vibe/hooks.toml` in the folder it runs in, read only when Vibe trusts that
                folder (`$VIBE_HOME/trusted_folders.toml`, or `--trust`), then
                `$VIBE_HOME/hooks.toml` (default `~/.vibe/`), their entries in that order

                    [[hooks]]
                    name = "gate"
                    type = "pre_tool"
                    match = "bash"
                    command = "agenthooks run pre_tool --host vibe --fail-closed"
                    strict = true

    entries     `name` (the first of a name wins, across files), `type` (`pre_tool`,
                `post_tool`, `post_agent`), `command` (not blank), `match`, `timeout`
                (seconds, 60 by default), `strict` (a failure denies; not on post_agent),
                `description`; another key is ignored; an entry that fails its model is
                skipped alone, a file that is not TOML or whose `hooks` is no list of tables
                is dropped (`sources.dialects.vibe_check`)
    matchers    absent or "*" select everything; a glob (`fnmatch`), case-insensitive and
                over the whole name; `re:` and a Python regex, case-insensitive, over the
                whole name (`fullmatch`), one that does not compile selecting nothing; a tool
                is matched by its qualified name (`file_system.bash`) or the name after its
                last dot (`bash`); a post_agent hook by the agent's name
    running     `/bin/sh -c` in the session's folder, its own session, the group killed on a
                timeout; the hooks of an event one after another, in file order
                (`_local_actions.py`)

Not followed here: Vibe also matches a tool by its name with the dots made underscores
(`file_system_bash`) and a post_agent hook of the root session by `main`.
"""

from __future__ import annotations

from agenthooks.sources.dialects.matching import ALL, Selection, regex_error

REGEX_PREFIX = "re:"
_EVERYTHING = (None, "*")
# What may stand before the name a matcher means: the qualified name's group (`file_system.`).
_GROUP = r"(?:.*\.)?"


def selection(matcher: str | None, event: str) -> Selection:
    """What a Vibe `match` selects (`_hook_matcher.py` `match_predicate`, `candidate_names`)."""
    if matcher in _EVERYTHING:
        return ALL
    assert matcher is not None
    if matcher.startswith(REGEX_PREFIX):
        pattern = whole_name(matcher[len(REGEX_PREFIX):])
    else:
        pattern = whole_name(glob_regex(matcher))
    if pattern is None or regex_error(pattern, True) is not None:
        return Selection("never", pattern=matcher)
    return Selection("full", pattern=pattern, python=True)


def whole_name(pattern: str) -> str | None:
    """`pattern`, case-insensitive, over a qualified name or the name after its last dot; a
    leading global flag group (`(?x)`) folded in; None for one Python cannot compile alone."""
    if regex_error(pattern, True) is not None:
        return None
    import re

    leading = re.match(r"\(\?([aiLmsux]+)\)", pattern)
    flags = ""
    if leading is not None:
        flags, pattern = leading.group(1), pattern[leading.end():]
    return f"(?i{''.join(sorted(set(flags) - {'i'}))}:{_GROUP}(?:{pattern}))"


def glob_regex(glob: str) -> str:
    """A glob as `fnmatch` reads it, as a regex without its end anchor (`fullmatch` anchors)."""
    import fnmatch

    translated = fnmatch.translate(glob)
    for end in ("\\Z", "\\z"):
        if translated.endswith(end):
            return translated[:-len(end)]
    return translated
