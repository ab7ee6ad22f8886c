"""The rule table: every diagnostic agenthooks can report, as data.

Rule ids are stable: CI configurations and the README's table refer to them.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import NamedTuple

    from agenthooks.config.model import Severity
else:
    from agenthooks._records import NamedTuple


class Rule(NamedTuple):
    id: str
    severity: Severity
    summary: str


RULES: dict[str, Rule] = {
    rule.id: rule
    for rule in (
        Rule("unreadable", "error", "the file cannot be read"),
        Rule("not-a-file", "error", "a directory, FIFO, device or socket named as a hooks file"),
        Rule("too-large", "error", "the file is over the size limit (16 MiB by default)"),
        Rule("encoding", "error", "the file is not UTF-8"),
        Rule("bom", "error", "the file starts with a UTF-8 byte-order mark"),
        Rule("json-syntax", "error", "the file is not valid JSON"),
        Rule("json-constant", "error", "NaN or Infinity, which JSON does not allow"),
        Rule("nesting-too-deep", "error", "lists and objects nested more than 200 levels deep"),
        Rule("top-level-type", "error", "the top level is not an object of hook names"),
        Rule("definition-type", "error", "a hook definition is not an object"),
        Rule("enabled-type", "error", "`enabled` is not true or false"),
        Rule("unknown-event", "error", "a key in a definition is neither `enabled` nor an event"),
        Rule("event-type", "error", "an event's value is not a list"),
        Rule("handler-needs-group", "error", "a handler directly under PreToolUse/PostToolUse"),
        Rule("group-in-flat-event", "error", "a matcher group under a flat event"),
        Rule("group-type", "error", "an item of a tool event is not an object"),
        Rule("group-hooks", "error", "a matcher group without a `hooks` list"),
        Rule("matcher-type", "error", "a matcher that is not a string"),
        Rule("matcher-regex", "error", "a matcher that is not a valid Python regex"),
        Rule("handler-type", "error", "a handler that is not an object"),
        Rule("handler-kind", "error", "a handler `type` other than command or prompt"),
        Rule("command-missing", "error", "a command handler without a non-empty `command` string"),
        Rule("prompt-missing", "error", "a prompt handler without a non-empty `prompt` string"),
        Rule("timeout-invalid", "error", "a `timeout` that is not a positive whole number"),
        Rule("command-unrunnable", "error", "a command with a NUL or a lone surrogate"),
        Rule("schema", "error", "any other shape the JSON Schema forbids"),
        Rule("unknown-key", "warning", "an unknown key in a group or handler (ignored)"),
        Rule("duplicate-key", "warning", "a key given twice (JSON keeps the last one)"),
        Rule("flat-matcher", "warning", "a matcher on a flat event's handler (ignored)"),
        Rule(
            "script-missing", "warning", "a relative script path that is missing or not executable"
        ),
        Rule("prompt-handler", "warning", "a prompt handler, which agenthooks cannot run"),
        Rule("no-events", "warning", "a hook definition with no event"),
        Rule("matcher-backtracking", "warning", "a matcher with a repetition inside a repetition"),
        Rule("control-character", "warning", "control characters in a hook name or command"),
        Rule("duplicate-handler", "warning", "the same handler under two hook names runs once"),
        Rule("unsafe-workspace", "warning", "a discovered workspace others could have written"),
    )
}

# Markdown hook files (.harness/hooks/*.md), tested with Markdown files (tests/markdown).
MARKDOWN_RULES: dict[str, Rule] = {
    rule.id: rule
    for rule in (
        Rule("frontmatter-missing", "error", "a Markdown hook without `---` frontmatter"),
        Rule("frontmatter-unterminated", "error", "frontmatter without its closing `---`"),
        Rule("yaml-syntax", "error", "frontmatter that is not valid YAML"),
        Rule("frontmatter-type", "error", "frontmatter that is not a mapping of keys"),
        Rule("event-missing", "error", "a Markdown hook without `event`"),
        Rule("event-invalid", "error", "an `event` that is not a Markdown hook event"),
        Rule("priority-invalid", "error", "a `priority` that is not a whole number"),
        Rule("timeout-ms-invalid", "error", "a `timeout_ms` that is not a positive whole number"),
        Rule("on-error-invalid", "error", "an `on_error` other than block or allow"),
        Rule("starlark-script-missing", "error", "no `script`, or one that is not text"),
        Rule("starlark-syntax", "error", "a `script` that does not parse as Starlark"),
        Rule("starlark-name", "error", "a name Starlark does not know, in `script` or `when`"),
        Rule("starlark-load", "error", "top-level code of a `script` that fails or runs too long"),
        Rule("starlark-handle-missing", "error", "a `script` that does not define `handle`"),
        Rule("starlark-handle-params", "error", "a `handle` that cannot take (event, payload)"),
        Rule("starlark-when", "error", "a `when` that is not a Starlark expression"),
        Rule("frontmatter-unknown-key", "warning", "an unknown frontmatter key (ignored)"),
        Rule("frontmatter-duplicate-key", "warning", "a frontmatter key given twice"),
    )
}
RULES.update(MARKDOWN_RULES)
