"""The schemas of each host's own hook files, from its `Dialect` table (`sources/dialects/*.py`).

Each schema rejects what `validate` reports as an error in that file, and nothing it only
warns about: an unknown event is rejected where `validate` calls it an error (Claude Code,
Gemini CLI, Cursor), let through where it warns (Codex, Copilot CLI); unknown keys are let
through everywhere (a warning), and so is every item of a Copilot CLI file, which Copilot
drops alone when it is malformed (`copilot-item-dropped`, a warning). What no schema can say
(regexes, blank text, script paths, another host's tool names) is left to `validate`.
"""

from __future__ import annotations

from typing import Any

from agenthooks.schemagen.parts import (
    HTTP_URL,
    NO_NUL,
    event_text,
    facts,
    header,
    list_of,
    ref,
    seconds_limit,
    text,
    typed,
    when_type,
)
from agenthooks.schemagen.words import field_text
from agenthooks.sources.dialects.claude import CLAUDE
from agenthooks.sources.dialects.codex import TOP_KEYS as CODEX_TOP_KEYS
from agenthooks.sources.dialects.copilot import COMMAND_FIELDS, PASCAL_EVENTS
from agenthooks.sources.dialects.copilot import VERSION as COPILOT_VERSION
from agenthooks.sources.dialects.cursor import LOOP_EVENTS
from agenthooks.sources.dialects.cursor import VERSION as CURSOR_VERSION
from agenthooks.sources.dialects.gemini import HOOKS_CONFIG, LEGACY_CONFIG_KEYS
from agenthooks.sources.dialects.rulesync import OTHER_TOOLS, TARGETS
from agenthooks.sources.dialects.rulesync import VERSION as RULESYNC_VERSION
from agenthooks.sources.dialects.spec import Dialect, HandlerType

_UNDER_VALIDATE = ("Rules a schema cannot express (regex matchers, blank commands, another "
                   "host's tool names, script paths) are checked by `agenthooks validate`.")


# --- pieces shared by the formats ---------------------------------------------------------------


def described(dialect: Dialect) -> dict[str, Any]:
    """The keys its schema starts with: its file name, title and description, as its
    `Dialect.schema` says them."""
    said = facts(dialect)
    return header(said["file"], said["title"], f"{said['description']} {_UNDER_VALIDATE}")


def timeout(dialect: Dialect) -> dict[str, Any]:
    """A handler's `timeout` as `validate` checks it for the dialect."""
    known = facts(dialect)
    if known.get("whole_seconds"):
        return {"description": f"Seconds before {dialect.host} stops the handler: a whole "
                               f"number (default {dialect.default_timeout:g}; 0 counts as 1).",
                "type": "integer", "minimum": 0, "default": int(dialect.default_timeout)}
    limit = seconds_limit(dialect)
    by_event = "".join(f"; {seconds:g} on {event}"
                       for event, seconds in dialect.timeout_by_event.items())
    default = round(dialect.default_timeout / dialect.timeout_unit)  # in the file's unit
    if dialect.timeout_unit < 1:
        said = (f"Milliseconds before {dialect.host} stops the handler, at most {limit} "
                f"(default {default}): 5 is five milliseconds.")
    else:
        said = (f"Seconds before {dialect.host} stops the handler, at most {limit} (default "
                f"{default}{by_event}).")
    schema: dict[str, Any] = {"description": said, "type": "number", "exclusiveMinimum": 0,
                              "maximum": limit}
    if not known.get("no_default_timeout"):
        schema["default"] = default
    return schema


def field(dialect: Dialect, kind: str, spec: HandlerType, key: str) -> dict[str, Any]:
    """One key of a handler of type `kind`, typed as `validate` checks it."""
    said = field_text(dialect.name, key)
    if key in spec.required or key == spec.field:
        schema = text(said)
        if kind == "command" and key == "command":
            schema["pattern"] = NO_NUL
        if kind == "http" and key == "url":
            schema["pattern"] = HTTP_URL
        return schema
    if key in dialect.option_types:
        return typed(dialect.option_types[key], said)
    return {"description": said}


def type_branch(dialect: Dialect, kind: str, spec: HandlerType) -> dict[str, Any]:
    """What a handler of one type must hold."""
    checked = kind not in facts(dialect).get("unchecked", ())
    keys = [key for key in spec.keys if key not in ("type", "matcher")]
    properties: dict[str, Any] = {}
    for key in keys:
        if not checked:
            properties[key] = {"description": field_text(dialect.name, key)}
        elif key == "timeout":
            properties[key] = timeout(dialect)
        else:
            properties[key] = field(dialect, kind, spec, key)
    required = [key for key in spec.required if key in keys] if checked else []
    if checked and spec.field is not None and spec.field not in required:
        required.append(spec.field)
    then: dict[str, Any] = {"description": _type_text(dialect, kind, spec, required, checked),
                            "properties": properties}
    if required:
        then["required"] = required
    return when_type(kind, then, default=facts(dialect).get("default_type") == kind)


def _type_text(dialect: Dialect, kind: str, spec: HandlerType, required: list[str],
               checked: bool) -> str:
    if not checked:
        return f"A {kind} handler, which {dialect.host} parses and skips."
    needs = " and ".join(f"`{key}`" for key in required) or "nothing more"
    runs = "" if spec.runs_offline else f" Only {dialect.host} itself runs it."
    return f"A {kind} handler needs {needs}.{runs}"


def handler(dialect: Dialect) -> dict[str, Any]:
    """A handler of the dialect: a `type` from its table, and each type's keys."""
    kinds = list(dialect.types)
    default = facts(dialect).get("default_type")
    type_key: dict[str, Any] = {"description": field_text(dialect.name, "type"), "enum": kinds}
    schema: dict[str, Any] = {
        "title": "Handler",
        "description": f"What {dialect.host} runs: one of the types "
                       f"{', '.join(kinds)}. Unknown keys are ignored (agenthooks warns).",
        "type": "object",
        "properties": {"type": type_key},
    }
    if default is None:
        schema["required"] = ["type"]
    else:
        type_key["default"] = default
    schema["allOf"] = [type_branch(dialect, kind, spec) for kind, spec in dialect.types.items()]
    return schema


def group(dialect: Dialect) -> dict[str, Any]:
    """A matcher group `{"matcher", "hooks": [...]}` (`DialectChecker.dialect_group`)."""
    properties: dict[str, Any] = {
        "matcher": typed("string", field_text(dialect.name, "matcher")),
        "hooks": list_of(field_text(dialect.name, "hooks"), ref("handler")),
    }
    schema: dict[str, Any] = {
        "title": "Matcher group",
        "description": "Handlers that run when the matcher selects the call. Unknown keys are "
                       "ignored (agenthooks warns).",
        "type": "object",
        "properties": properties,
        "required": ["hooks"],
    }
    sequential = typed("boolean", field_text(dialect.name, "sequential"))
    if "sequential" in dialect.group_keys:
        properties["sequential"] = sequential
    else:
        # Every host's group is checked for a `sequential` that is not true or false; only
        # Gemini CLI reads it, so it is not offered where it is not read.
        schema["if"] = {"required": ["sequential"]}
        schema["then"] = {"properties": {"sequential": sequential}}
    return schema


def events(dialect: Dialect, items: dict[str, Any], *, known_only: bool) -> dict[str, Any]:
    """The `hooks` object: each event a list of `items`; other names rejected when
    `known_only` (`validate`'s unknown-event is an error there)."""
    properties = {event: list_of(event_text(dialect, event), items) for event in dialect.events}
    unknown = ("Other names are errors: the host skips them without a word." if known_only
               else "Other names are skipped by the host (agenthooks warns).")
    return {
        "title": "Hooks",
        "description": f"{dialect.host}'s hooks, by event. {unknown}",
        "type": "object",
        "properties": properties,
        "additionalProperties": not known_only,
    }


def grouped_events(dialect: Dialect, *, known_only: bool) -> dict[str, Any]:
    return events(dialect, ref("group"), known_only=known_only)


# --- the builders a `Dialect.schema` names (`build`) ---------------------------------------------


def settings(dialect: Dialect) -> dict[str, Any]:
    """A file whose `hooks` holds Claude Code's shape (event -> matcher groups -> handlers),
    with the host's own events, handler types and keys (its `Dialect`, as `model.hosts`
    derives it); the file's other keys are let through. The builder of a `Dialect.schema`
    that names none."""
    return _settings_hooks(dialect, {})


def claude(dialect: Dialect) -> dict[str, Any]:
    """Claude Code's settings, with the switch that turns every hook off."""
    return _settings_hooks(dialect, {
        "disableAllHooks": typed("boolean", "true: Claude Code runs no hook of any settings "
                                            "file.")})


def grok(dialect: Dialect) -> dict[str, Any]:
    """Grok Build's hook files: Claude Code's shape (`model.hosts` derives its row), with its
    fifteen events under each of the keys it reads them by, its two handler types and its
    keys (its `Dialect`)."""
    from agenthooks.sources.dialects.grok import EVENT_ALIASES

    schema = _settings_hooks(dialect, {})
    listed = schema["definitions"]["hooks"]["properties"]
    for key, event in EVENT_ALIASES.items():
        listed[key] = {**listed[event], "description": f"{event}, as Grok Build also reads it."}
    return schema


def factory(dialect: Dialect) -> dict[str, Any]:
    """Factory Droid's files: a settings file's `hooks` (Claude Code's shape, `model.hosts`
    derives its row) or a hooks.json that is that object alone, keyed by event name
    (`sources.dialects.factory_check`); one schema takes both, each event at the top level too."""
    schema = bare_or_settings(dialect)
    # Any value: one that is not a regex is skipped by Droid, and only warned about.
    schema["definitions"]["group"]["properties"]["commandRegex"] = {
        "description": "A regex the shell command must match for these handlers to run (a "
                       "call without a command is not filtered); one that is not a regex "
                       "filters nothing."}
    return schema


def bare_or_settings(dialect: Dialect) -> dict[str, Any]:
    """A host's settings file with `hooks`, or its bare file (`Dialect.bare_files`) with
    the same events at its top level: one schema for both (Devin CLI's hooks.v1.json and
    config.json)."""
    bare = {event: list_of(event_text(dialect, event), ref("group"))
            for event in dialect.events}
    return _settings_hooks(dialect, bare)


def _settings_hooks(dialect: Dialect, settings: dict[str, Any], *, known_only: bool = True,
                    closed: bool = False, flat: bool = False) -> dict[str, Any]:
    """A file whose `hooks` holds event -> groups (matcher, hooks) -> handlers (`flat`:
    event -> handlers, each with its own matcher), beside the `settings` keys; `closed`: no
    other top-level key."""
    schema = described(dialect)
    schema.update({"type": "object", "properties": {"hooks": ref("hooks"), **settings}})
    if closed:
        schema["additionalProperties"] = False
    if flat:
        schema["required"] = ["hooks"]
        schema["definitions"] = {
            "hooks": events(dialect, ref("handler"), known_only=known_only),
            "handler": handler(dialect),
        }
        return schema
    schema["definitions"] = {
        "hooks": grouped_events(dialect, known_only=known_only),
        "group": group(dialect),
        "handler": handler(dialect),
    }
    return schema


def gemini(dialect: Dialect) -> dict[str, Any]:
    """Gemini CLI's settings: its `hooks`, with the legacy keys it skips there, and
    `hooksConfig`."""
    schema = described(dialect)
    hooks = grouped_events(dialect, known_only=True)
    for key in LEGACY_CONFIG_KEYS:  # skipped by Gemini CLI's registry: not events
        hooks["properties"][key] = {"description": f"A setting, not an event: Gemini CLI "
                                                   f"skips it here; write hooksConfig.{key}."}
    config = {key: typed(kind, _HOOKS_CONFIG_TEXTS[key]) for key, kind in HOOKS_CONFIG.items()}
    schema.update({
        "type": "object",
        "properties": {
            "hooks": ref("hooks"),
            "hooksConfig": {"description": "Settings of every hook. Unknown keys are ignored "
                                           "(agenthooks warns).",
                            "type": "object", "properties": config},
        },
        "definitions": {
            "hooks": hooks,
            "group": group(dialect),
            "handler": handler(dialect),
        },
    })
    return schema


_HOOKS_CONFIG_TEXTS = {
    "enabled": "false: Gemini CLI runs no hook at all.",
    "disabled": "Handlers turned off, by `name` (else by command).",
    "notifications": "Whether Gemini CLI shows a notice when a hook runs.",
}


def codex(dialect: Dialect) -> dict[str, Any]:
    """Codex's hooks.json: `hooks` alone, its unknown events let through (a warning)."""
    assert CODEX_TOP_KEYS == ("hooks",)
    return _settings_hooks(dialect, {}, known_only=False, closed=True)


def cursor(dialect: Dialect) -> dict[str, Any]:
    """Cursor's hooks.json: a flat list of handlers per event, each with its own matcher."""
    schema = described(dialect)
    item = handler(dialect)
    item["properties"].update(_cursor_options(dialect))
    item["if"] = {"required": ["hooks"]}
    item["then"] = {"description": "An item with `hooks` is a Claude Code matcher group, which "
                                   "Cursor does not take: write handlers with their own "
                                   "`matcher`.",
                    "required": ["command"]}
    schema.update({
        "type": "object",
        "properties": {
            "version": {"description": f"The schema version; {CURSOR_VERSION} is the one Cursor "
                                       "documents (without it, Cursor's UI does not list the "
                                       "file).",
                        "const": CURSOR_VERSION},
            "hooks": ref("hooks"),
        },
        "definitions": {
            "hooks": events(dialect, ref("handler"), known_only=True),
            "handler": item,
        },
    })
    return schema


def _cursor_options(dialect: Dialect) -> dict[str, Any]:
    """The options a Cursor handler takes whatever its type (`CursorChecker`)."""
    loop = ", ".join(sorted(LOOP_EVENTS))
    return {
        "matcher": typed("string", field_text(dialect.name, "matcher")),
        "timeout": timeout(dialect),
        "failClosed": typed("boolean", field_text(dialect.name, "failClosed")),
        "loop_limit": {"description": field_text(dialect.name, "loop_limit")
                                      + f" Read on {loop} only.",
                       "type": ["integer", "null"], "minimum": 0},
    }


def copilot(dialect: Dialect) -> dict[str, Any]:
    """Copilot CLI's hooks files: its events and Claude Code's PascalCase ones, each handler
    described without being rejected."""
    schema = described(dialect)
    pascal = sorted(PASCAL_EVENTS)
    hooks = events(dialect, ref("handler"), known_only=False)
    hooks["description"] += (" The PascalCase names (" + ", ".join(pascal) + ") take Claude "
                             "Code's payloads, tool names and answers.")
    for event in pascal:
        if event in CLAUDE.events:
            hooks["properties"][event] = list_of(
                event_text(CLAUDE, event) + " Claude Code's name: Copilot gives these hooks "
                "Claude Code's payload and tool names, and reads its answers.", ref("handler"))
        else:  # read by no Claude Code handler: listed, never run, never checked
            hooks["properties"][event] = {"description": f"{event} has no Claude Code event: "
                                                         "agenthooks lists it but does not "
                                                         "run it."}
    schema.update({
        "type": "object",
        "properties": {
            "version": {"description": f"The schema version: {COPILOT_VERSION}; any other value "
                                       "makes Copilot reject the whole file.",
                        "const": COPILOT_VERSION},
            "hooks": ref("hooks"),
            "disableAllHooks": {"description": "true: Copilot runs none of this file's hooks."},
        },
        "definitions": {
            "hooks": hooks,
            "handler": copilot_handler(dialect),
        },
    })
    return schema


def copilot_handler(dialect: Dialect) -> dict[str, Any]:
    """A Copilot handler, described key by key: Copilot drops a malformed one alone, so
    nothing here rejects it."""
    keys: dict[str, None] = {}
    for spec in dialect.types.values():
        keys.update(dict.fromkeys(spec.keys))
    properties = {key: {"description": field_text(dialect.name, key)} for key in keys}
    properties["type"]["description"] += " One of " + ", ".join(dialect.types) + \
        " (default command)."
    fields = ", ".join(f"`{key}`" for key in COMMAND_FIELDS)
    return {
        "title": "Handler",
        "description": f"A command handler gives {fields}, or `exec` with `args`; an http one "
                       "`url`; a prompt one `prompt`. Copilot drops a malformed handler and "
                       "loads the rest of the file.",
        "properties": properties,
    }


def windsurf(dialect: Dialect) -> dict[str, Any]:
    """Windsurf's hooks file: a flat list of commands per event, with no matcher."""
    schema = described(dialect)
    spec = dialect.types["command"]
    schema.update({
        "type": "object",
        "properties": {"hooks": ref("hooks")},
        "definitions": {
            "hooks": events(dialect, ref("handler"), known_only=True),
            "handler": {
                "title": "Handler",
                "description": "A shell command; Windsurf reads no matcher, type or timeout.",
                "type": "object",
                "required": list(spec.required),
                "properties": {key: field(dialect, "command", spec, key) for key in spec.keys},
            },
        },
    })
    return schema


def rulesync(dialect: Dialect) -> dict[str, Any]:
    """rulesync's hooks.jsonc: flat definitions by event, shared or under one tool's key."""
    tools = {tool: {"description": f"Hooks `rulesync generate` writes into {tool}'s files "
                                   "alone, beside (or instead of) the shared ones.",
                    "type": "object", "properties": {"hooks": ref("hooks")}}
             for tool in (*TARGETS, *sorted(OTHER_TOOLS))}
    return _settings_hooks(
        dialect,
        {"version": {"description": f"The schema version: {RULESYNC_VERSION}.",
                     "const": RULESYNC_VERSION}, **tools}, flat=True)


def kimi(dialect: Dialect) -> dict[str, Any]:
    """Kimi Code's config.toml, as a TOML editor reads it against a JSON Schema: its
    `[[hooks]]` entries, every one of which its strict schema checks (`sources.dialects.kimi`);
    the file's other settings are let through."""
    from agenthooks.sources.dialects.kimi_check import KEYS, TIMEOUT_LIMIT

    assert KEYS == ("event", "matcher", "command", "timeout")
    schema = described(dialect)
    entry = {
        "title": "Entry",
        "description": "One hook: a command run on an event, for the values its matcher "
                       "selects.",
        "type": "object",
        "required": ["event", "command"],
        "additionalProperties": False,
        "properties": {
            "event": {"description": "The event it runs on.",
                      "oneOf": [{"const": event, "description": event_text(dialect, event)}
                                for event in dialect.events]},
            "matcher": {"description": "A JavaScript regex searched in the event's value "
                                       "(the tool's name, the prompt...); none or \"\" selects "
                                       "every value.", "type": "string"},
            "command": {"description": "The shell command, run with `sh -c`.",
                        "type": "string", "minLength": 1},
            "timeout": {"description": f"Whole seconds, 1 to {TIMEOUT_LIMIT}; "
                                       f"{dialect.default_timeout:g} when absent.",
                        "type": "integer", "minimum": 1, "maximum": TIMEOUT_LIMIT},
        },
    }
    schema.update({"type": "object", "properties": {
        "hooks": list_of("The hooks, each a [[hooks]] table.", entry)}})
    return schema


def vibe(dialect: Dialect) -> dict[str, Any]:
    """Mistral Vibe's hooks.toml, as a TOML editor reads it against a JSON Schema: its
    `[[hooks]]` entries (`sources.dialects.vibe`); Vibe ignores another key of an entry."""
    assert dialect.types["command"].keys == (
        "name", "type", "command", "match", "timeout", "strict", "description")
    schema = described(dialect)
    text = {"type": "string", "pattern": r"\S"}
    entry = {
        "title": "Entry",
        "description": "One hook: a command run on an event, for the names its `match` "
                       "selects.",
        "type": "object",
        "required": ["name", "type", "command"],
        "properties": {
            "name": {"description": "Its name: the first entry of a name wins.",
                     "type": "string"},
            "type": {"description": "The event it runs on.",
                     "oneOf": [{"const": event, "description": event_text(dialect, event)}
                               for event in dialect.events]},
            "command": {"description": "The shell command, run with `/bin/sh -c`.", **text},
            "match": {"description": "A glob over the tool's qualified name or the name after "
                                     "its last dot (the agent's name on post_agent), any case; "
                                     "`re:` and a regex matched whole; none or \"*\" selects "
                                     "every name.", **text},
            "timeout": {"description": f"Seconds; {dialect.default_timeout:g} when absent.",
                        "type": "number", "exclusiveMinimum": 0},
            "strict": {"description": "Whether a failure of the hook denies the call "
                                      "(pre_tool) or clears its result (post_tool).",
                       "type": "boolean"},
            "description": {"description": "What the hook is for.", "type": "string"},
        },
        "if": {"properties": {"type": {"const": "post_agent"}}},
        "then": {"properties": {"strict": {
            "description": "Not on a post_agent hook: Vibe skips one that says it.",
            "const": False}}},
    }
    schema.update({"type": "object", "properties": {
        "hooks": list_of("The hooks, each a [[hooks]] table.", entry)}})
    return schema


def crush(dialect: Dialect) -> dict[str, Any]:
    """Charm Crush's crush.json: its `hooks` object of flat hooks (`sources.dialects.crush`),
    every other key of the file let through (providers, models, options are Crush's)."""
    keys = dialect.types["command"].keys
    assert keys == ("name", "matcher", "command", "timeout")
    schema = described(dialect)
    hook = {
        "title": "Hook",
        "description": "One hook: a command run before the tools its `matcher` selects.",
        "type": "object",
        "required": ["command"],
        "properties": {
            "name": {"description": "How Crush shows it (its command when absent).",
                     "type": "string"},
            "matcher": {"description": "A Go RE2 regex searched in the tool's name, "
                                       "case-sensitive (`^bash$`); none or \"\" selects every "
                                       "tool.", "type": "string"},
            "command": {"description": "The shell command, run by Crush's embedded POSIX "
                                       "shell in the working folder.",
                        "type": "string", "minLength": 1},
            "timeout": {"description": f"Whole seconds; {dialect.default_timeout:g} when absent "
                                       "or not above 0.", "type": "integer"},
        },
    }
    schema.update({"type": "object", "properties": {"hooks": {
        "description": "Hooks by event: Crush runs PreToolUse alone (any case, `_` ignored); "
                       "it keeps another key and never runs it.",
        "type": "object",
        "properties": {"PreToolUse": list_of(event_text(dialect, "PreToolUse"), hook)},
        "additionalProperties": list_of("An event Crush never fires.", hook)}}})
    return schema


def goose(dialect: Dialect) -> dict[str, Any]:
    """A Goose plugin's hooks/hooks.json: Claude Code's shape (`model.hosts` derives its row),
    with its twelve events, its one handler type and its keys (its `Dialect`): `on_failure`
    on PreToolUse "allow" or "block" alone, as Goose skips the whole file on another value."""
    schema = _settings_hooks(dialect, {})
    hooks = schema["definitions"]["hooks"]
    listed = hooks["properties"]
    empty = ("Goose tests a matcher here against \"\": none, \"\" or `.*` runs its handlers, "
             "another never.")
    for event in ("SessionStart", "SessionEnd", "Stop"):
        listed[event]["description"] = listed[event]["description"].split(" Matchers")[0] + \
            " " + empty
    for event in ("PostToolUse", "PostToolUseFailure", "UserPromptSubmit", "SessionStart",
                  "SessionEnd", "BeforeShellExecution", "AfterShellExecution",
                  "BeforeReadFile", "AfterFileEdit"):
        text = listed[event]["description"].replace("; may block it", "")
        listed[event]["description"] = text + " Goose reads no answer here."
    listed["PreToolUse"]["description"] = (
        "Before a tool runs; exit 2 or {\"decision\": \"block\"} denies it. Matchers are "
        "Rust regexes searched in the tool's name (`shell`, `write`, `edit`, "
        "`<extension>__<tool>`).")
    listed["PreToolUseResult"]["description"] = (
        "After the PreToolUse hooks decided, before the tool runs or its denial: observe only "
        "(its payload says `decision`, `blocked_by`, `reason`). Matchers select tools by name.")
    hooks["additionalProperties"] = {
        "description": "An event Goose does not know: it skips the key without a word."}
    hooks["description"] = ("Goose's hooks, by event (case-sensitive). Goose skips another "
                            "key without a word.")
    group = schema["definitions"]["group"]
    group["properties"]["matcher"]["description"] = (
        "A Rust regex searched, case-sensitively, in the event's `matcher_context` (see the "
        "event's description); none or \"\": every call. `*` is not a regex: Goose skips "
        "the group.")
    group["required"] = []
    group.pop("if", None)
    group.pop("then", None)
    handler = schema["definitions"]["handler"]
    handler["required"] = []
    handler["description"] = ("What Goose runs: a command (`type` \"command\", missing or "
                              "null); Goose skips an action of another type. Unknown keys "
                              "are ignored (agenthooks warns).")
    then = handler["allOf"][0]["then"]["properties"]
    handler["allOf"][0]["if"] = {"properties": {"type": {"const": "command"}}}
    then["timeout"] = {"description": f"Whole seconds before Goose stops the handler (default "
                                      f"{dialect.default_timeout:g}); another type and Goose "
                                      "skips the whole file.",
                       "type": "integer", "minimum": 0, "default": 30}
    then["on_failure"] = {"description": "On PreToolUse: \"block\" denies the call when the "
                                         "hook fails (another exit, stdout not a decision, a "
                                         "timeout); \"allow\" (the default) lets it through. "
                                         "Another value there and Goose skips the whole file; "
                                         "ignored on other events.",
                          "enum": ["allow", "block"]}
    return schema


def kiro(dialect: Dialect) -> dict[str, Any]:
    """A Kiro hooks file (`.kiro/hooks/*.json`): `{"version": "v1", "hooks": [...]}`, each hook
    a trigger and an action (`sources.dialects.kiro`)."""
    keys = dialect.types["command"].keys
    assert keys == ("name", "description", "trigger", "matcher", "action", "timeout",
                    "enabled", "confirm")
    schema = described(dialect)
    command = {"title": "Command action",
               "description": "Runs a shell command, the hook context as JSON on stdin: exit "
                              "2 blocks PreToolUse, UserPromptSubmit and PreTaskExec (stderr "
                              "is the reason for the model); stdout of an exit 0 is context "
                              "on SessionStart and UserPromptSubmit.",
               "type": "object", "required": ["type", "command"],
               "properties": {"type": {"description": "A command action.",
                                      "const": "command"},
                              "command": {"description": "The shell command.",
                                          "type": "string", "minLength": 1}},
               "additionalProperties": False}
    agent = {"title": "Agent action",
             "description": "Appends a prompt to the model's context, no process (agenthooks "
                            "lists it and never runs it).",
             "type": "object", "required": ["type", "prompt"],
             "properties": {"type": {"description": "An agent action.", "const": "agent"},
                            "prompt": {"description": "The prompt.", "type": "string",
                                       "minLength": 1}},
             "additionalProperties": False}
    hook = {
        "title": "Hook",
        "description": "One hook: a trigger and the action it runs.",
        "type": "object",
        "required": ["trigger", "action"],
        "properties": {
            "name": {"description": "How Kiro names the hook.", "type": "string"},
            "description": {"description": "What the hook is for.", "type": "string"},
            "trigger": {"description": "When it runs.",
                        "enum": list(dialect.events)},
            "matcher": {"description": "A regex on the tool's name (PreToolUse, PostToolUse) "
                                       "or the file's path (PostFileCreate, PostFileSave, "
                                       "PostFileDelete); the other triggers take none; none: "
                                       "every one.", "type": "string"},
            "action": {"description": "What the hook does: a command or an agent prompt.",
                       "oneOf": [command, agent]},
            "timeout": {"description": f"Seconds before Kiro stops the command (default "
                                       f"{dialect.default_timeout:g}).",
                        "type": "number", "exclusiveMinimum": 0},
            "enabled": {"description": "false: Kiro skips the hook.", "type": "boolean",
                        "default": True},
            "confirm": {"description": "Whether Kiro asks before it runs the hook.",
                        "type": "boolean"},
        },
        "additionalProperties": False,
    }
    schema.update({"type": "object", "required": ["version"], "properties": {
        "version": {"description": "The schema version Kiro reads.", "const": "v1"},
        "hooks": list_of("The hooks, each a trigger and an action.", hook)},
        "additionalProperties": False})
    return schema
