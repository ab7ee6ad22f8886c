"""The schema of hooks.json (Antigravity's format), from the tables `sources.reading.check`
walks with.

`validate` itself checks a hooks.json against this schema (`sources.hooksjson.schema`), so the
schema says exactly what the rules in code leave to it; `tests/sources/hooksjson/test_schema.py`
keeps the two in agreement.
"""

from __future__ import annotations

from typing import Any

from agenthooks.model.eventnames import DEFAULT_TIMEOUT, INT32_MAX
from agenthooks.model.events import EVENT_TABLE, EVENTS, FLAT_EVENTS, TOOL_EVENTS
from agenthooks.model.hosts import host_ids
from agenthooks.schemagen.parts import NO_NUL, header, ref
from agenthooks.sources.discovery import CUSTOMIZATION_DIRS, HOOKS_FILE, USER_HOOKS_FILES
from agenthooks.sources.reading.check import GROUP_KEYS, HANDLER_KEYS, HANDLER_KINDS

NAME = "hooks.schema.json"

# What the schema cannot say, checked by `validate` alone (tests/sources/hooksjson/test_schema.py's
# SCHEMA_BLIND says why for each).
BLIND = ("whole-number timeouts written as 5.0, Python regex matchers, whitespace-only "
         "commands, duplicate keys, NaN, byte-order marks, script paths")

EXTRA_TEXTS: dict[str, str] = {
    "PreToolUse": "The handler may allow, deny or ask.",
    "Stop": "A handler may ask the agent to continue.",
    "SessionStart": "Newer Antigravity builds.",
}


def folders() -> str:
    """Where Antigravity reads a hooks.json, as the description says it."""
    workspace = ", ".join(CUSTOMIZATION_DIRS[:-1]) + " or " + CUSTOMIZATION_DIRS[-1]
    user = " or ".join("~/" + "/".join(parts[:-1]) + "/" for parts in USER_HOOKS_FILES)
    return f"Found in a workspace's {workspace} folder, or in {user}"


def event_property(event: str) -> dict[str, Any]:
    row = next(row for row in EVENT_TABLE if row.engine == event)
    meaning = row.meaning[:1].upper() + row.meaning[1:] + "."
    extra = EXTRA_TEXTS.get(event)
    if event in TOOL_EVENTS:
        shape = "A list of matcher groups; each group's matcher selects the tools by name."
        items = ref("group")
    else:
        shape = "A list of handlers, without matcher groups: this event has no tool to match."
        items = ref("flatHandler")
    text = " ".join(part for part in (meaning, extra, shape) if part)
    return {"description": text, "type": "array", "items": items}


def definition() -> dict[str, Any]:
    properties: dict[str, Any] = {
        "enabled": {
            "description": "Set to false to turn the hook off without deleting it.",
            "type": "boolean",
            "default": True,
        },
    }
    properties.update({event: event_property(event) for event in EVENTS})
    return {
        "title": "Hook definition",
        "description": "One named hook: whether it is enabled, and its handlers per event. "
                       f"Keys other than `enabled` and the {len(EVENTS)} events are errors "
                       "(Antigravity would ignore them silently).",
        "type": "object",
        "properties": properties,
        "additionalProperties": False,
    }


def group() -> dict[str, Any]:
    assert GROUP_KEYS == ("matcher", "hooks")
    return {
        "title": "Matcher group",
        "description": "Handlers that run when the matcher selects the tool. Unknown keys are "
                       "ignored (agenthooks warns about them).",
        "type": "object",
        "properties": {
            "matcher": {
                "description": "A Python regular expression that must match the WHOLE tool name "
                               "(re.fullmatch): \"run_command\" matches only run_command, "
                               "\"run_command|view_file\" either, \"browser_.*\" every tool "
                               "starting with browser_. \"\", \"*\" or no matcher match every "
                               "tool. Unlike Claude Code and Gemini CLI, the match is anchored.",
                "type": "string",
                "examples": ["run_command", "write_to_file|replace_file_content", "browser_.*",
                             ""],
            },
            "hooks": {
                "description": "The handlers to run, in order.",
                "type": "array",
                "items": ref("handler"),
            },
        },
        "required": ["hooks"],
        "additionalProperties": True,
    }


def flat_handler() -> dict[str, Any]:
    flat = ", ".join(FLAT_EVENTS[:-1]) + " or " + FLAT_EVENTS[-1]
    return {
        "title": "Handler of a flat event",
        "description": f"A handler listed directly under {flat}. A `matcher` here is ignored "
                       "(agenthooks warns); an item with `hooks` but no `command` is a matcher "
                       "group, which these events do not take.",
        "allOf": [ref("handler")],
        "properties": {
            "matcher": {"description": "Ignored: flat events have no tool to match."},
        },
        "if": {
            "description": "An item with `hooks` looks like a matcher group...",
            "required": ["hooks"],
        },
        "then": {
            "description": "...so it must be a handler with a `command`: flat events take "
                           "handlers, not matcher groups (move the handlers of `hooks` up into "
                           "the event's list).",
            "required": ["command"],
        },
    }


def handler() -> dict[str, Any]:
    assert HANDLER_KINDS == ("command", "prompt")
    prompt_keys = {key for key in HANDLER_KEYS["prompt"] if key not in ("type", "timeout")}
    assert prompt_keys == {"prompt", "model"}
    return {
        "title": "Handler",
        "description": "What to run: a shell command (type \"command\", the default) or a "
                       "prompt for the agent's model (type \"prompt\", which agenthooks cannot "
                       "run). Unknown keys are ignored (agenthooks warns about them).",
        "type": "object",
        "properties": {
            "type": {
                "description": "The kind of handler; case-sensitive.",
                "enum": list(HANDLER_KINDS),
                "default": HANDLER_KINDS[0],
            },
            "timeout": {
                "description": "Seconds before the handler is stopped: a positive whole number "
                               "within int32 (write 10, not 10.0 or \"10\").",
                "type": "integer",
                "minimum": 1,
                "maximum": INT32_MAX,
                "default": DEFAULT_TIMEOUT,
            },
        },
        "if": {
            "description": "A prompt handler says so with type \"prompt\"; anything else is "
                           "checked as a command handler.",
            "properties": {
                "type": {
                    "description": "Only the value \"prompt\" selects the prompt handler's "
                                   "fields.",
                    "const": "prompt",
                },
            },
            "required": ["type"],
        },
        "then": {
            "description": "A prompt handler needs a non-empty `prompt`.",
            "properties": {
                "prompt": {"description": "The prompt sent to the model.", "type": "string",
                           "minLength": 1},
                "model": {"description": "The model that answers the prompt.",
                          "type": "string"},
            },
            "required": ["prompt"],
        },
        "else": {
            "description": "A command handler needs a non-empty `command`.",
            "properties": {
                "command": {
                    "description": "The shell command to run, in the folder that holds this "
                                   "hooks.json; it gets the event as JSON on stdin. Must not be "
                                   "empty or blank, and cannot hold a NUL character.",
                    "type": "string",
                    "minLength": 1,
                    "pattern": NO_NUL,
                    "examples": ["./scripts/lint.sh", "python3 hooks/check.py"],
                },
                "dialect": {
                    "description": "The host the command was written for (as `agenthooks "
                                   "convert` writes it): agenthooks gives it that host's "
                                   "payload, reads its answer with that host's rules and runs "
                                   "it in the project root. Antigravity itself ignores it.",
                    "enum": list(host_ids()),
                },
            },
            "required": ["command"],
        },
        "additionalProperties": True,
    }


def build() -> dict[str, Any]:
    schema = header(NAME, "Antigravity hooks.json",
                    "Hooks of an Antigravity agent: an object mapping hook names to hook "
                    f"definitions. {folders()}. Rules this schema cannot express ({BLIND}) are "
                    "checked by `agenthooks validate`.")
    schema["type"] = "object"
    schema["additionalProperties"] = ref("definition")
    schema["definitions"] = {
        "definition": definition(),
        "group": group(),
        "flatHandler": flat_handler(),
        "handler": handler(),
    }
    return schema


def file_match() -> tuple[str, ...]:
    """The globs of the files this schema is for."""
    workspace = tuple(f"**/{folder}/{HOOKS_FILE}" for folder in CUSTOMIZATION_DIRS)
    return workspace + tuple("**/" + "/".join(parts) for parts in USER_HOOKS_FILES)
