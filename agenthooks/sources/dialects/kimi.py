"""Kimi Code's hooks (`model.hosts`: a host derived from Claude Code, whose tool names, payload
and answers it mostly shares): its file, its events and its matchers are its own.

Each fact read in the code of @moonshot-ai/kimi-code 2.1.0 (its dist/main.mjs, the regions of
packages/agent-core-v2/src/features/externalHooks: `configSection.ts`, `internal/types.ts`,
`internal/matchHooks.ts`, `internal/runHook.ts`, `agent/agentExternalHooksService.ts`;
app/config's `buildValidated`):

    file        the `[[hooks]]` entries of the user's config.toml alone: `$KIMI_CODE_HOME/`,
                else `~/.kimi-code/` (`resolveKimiHome`); a project has none

                    [[hooks]]
                    event = "PreToolUse"
                    matcher = "Bash"
                    command = "agenthooks run PreToolUse --host kimi --fail-closed"
                    timeout = 5

    entries     exactly `event`, `matcher`, `command` (a non-empty string) and `timeout`
                (whole seconds, 1 to 600, 30 by default), checked by a strict schema: an
                entry with another key, an unknown event or a timeout out of range makes
                Kimi Code drop the whole `hooks` section with a warning, so no hook of the
                file runs (`kimi-hooks-ignored`)
    matchers    a JavaScript regex tested anywhere in the event's value (`RegExp.test`): the
                tool's name, the prompt, the session's source...; none or "" selects every
                value, one that does not compile none; Stop, Interrupt and SessionHeartbeat
                have no value, so a matcher there is tested against "" (`matcher-never-runs`)
    running     `sh -c` in the session's folder, every selected entry at once and an entry
                of the same command once, its JSON payload on stdin (snake_case keys)

Which payload field each event's matcher is tested against is its row's (`model.hosts`,
`dialect_changes["events"]`; None: no value, so ""). `sources.dialects.kimi_check` reads the
file; this module is what a run needs of it.
"""

from __future__ import annotations

from agenthooks.sources.dialects import dialect_spec
from agenthooks.sources.dialects.matching import ALL, Selection, js_regex, regex_error, simplify


def selection(matcher: str | None, event: str) -> Selection:
    """What a Kimi Code matcher selects on an event (`matchHooks.ts` `matches`)."""
    if not matcher:
        return ALL
    if regex_error(matcher) is not None:
        return Selection("never", pattern=matcher)
    if dialect_spec("kimi").events.get(event) is None:  # no value: tested against ""
        return ALL if js_regex(matcher).search("") is not None else Selection("never",
                                                                              pattern=matcher)
    return simplify(Selection("search", pattern=matcher))
