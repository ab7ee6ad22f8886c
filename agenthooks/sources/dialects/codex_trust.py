"""Codex's hook trust: which hooks Codex skips as untrusted, and the config.toml entries that
trust them (`agenthooks trust --host codex`, and `validate`'s `codex-untrusted-hook`).

Codex runs a hook that is not managed (system, MDM or cloud requirements) only when the user's
config.toml records its current hash, or under `--dangerously-bypass-hook-trust`; any other
hook is skipped without a word, which switches a gate off in `codex exec`
(openai/codex `codex-rs/hooks/src/engine/discovery.rs`, `append_matcher_groups`):

    [hooks.state."<key>"]
    trusted_hash = "sha256:<hex>"
    # enabled = false turns one hook off, trusted or not

    key   "<source file>:<event label>:<group index>:<handler index>"  (`hook_key` in
          `codex-rs/hooks/src/lib.rs`); the source file is the hooks.json, or the config.toml
          whose inline `[hooks]` hold the hook; the label is the event in snake case
          (`hook_event_key_label`: pre_tool_use, session_start, ...); the indexes count every
          group and handler of the event from 0, skipped ones too
    hash  "sha256:" + SHA-256 of the compact JSON, keys sorted (`version_for_toml` in
          `codex-rs/config/src/fingerprint.rs`), of
          {"event_name": <label>, "matcher": <matcher, where the event honours one>,
           "hooks": [{"type": "command", "command": ..., "timeout": <seconds, default 600,
                      at least 1>, "async": <bool>, "statusMessage": <if set>}]}
          (`command_hook_hash`: the handler normalised, `commandWindows` dropped)

A hash changes whenever the command, its timeout, its matcher or its event does, so an edited
hook is "modified" and skipped again until trusted anew. CODEX_HOME, when set, is resolved
through symbolic links as Codex resolves it (`find_codex_home`); ~/.codex is taken as it is.
Where Codex resolves a project's `.codex/` folder through symbolic links is not confirmed:
agenthooks resolves it (`os.path.realpath`), which matched Codex 0.169.0 on plain paths.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NamedTuple

from agenthooks.errors import AgentHooksError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from agenthooks.userfiles import Written

# Codex's event words in its files, and the label of each in a trust key (`HookEventName`).
EVENT_LABELS: dict[str, str] = {
    "PreToolUse": "pre_tool_use", "PermissionRequest": "permission_request",
    "PostToolUse": "post_tool_use", "PreCompact": "pre_compact", "PostCompact": "post_compact",
    "SessionStart": "session_start", "SessionEnd": "session_end",
    "UserPromptSubmit": "user_prompt_submit", "SubagentStart": "subagent_start",
    "SubagentStop": "subagent_stop", "Stop": "stop", "Interrupt": "interrupt",
}
# The events whose matcher Codex ignores (`matcher_pattern_for_event` in
# `codex-rs/hooks/src/events/common.rs`): it drops the matcher, from the hash too.
MATCHERLESS_EVENTS = frozenset(("UserPromptSubmit", "Stop", "Interrupt"))
DEFAULT_TIMEOUT = 600  # seconds (`timeout_sec.unwrap_or(600).max(1)`)

TRUSTED, MODIFIED, UNTRUSTED, DISABLED = "trusted", "modified", "untrusted", "disabled"


class CodexTrustError(AgentHooksError):
    """A Codex file agenthooks cannot read, or a config.toml it cannot add entries to."""


class CodexHook(NamedTuple):
    """One command hook of a Codex file, with the key and hash Codex trusts it by."""

    source: str  # the file that holds it (hooks.json, or config.toml's inline [hooks])
    event: str
    group: int
    handler: int  # its place in the group
    matcher: str | None  # as Codex keeps it (None on events that ignore matchers)
    command: str
    key: str
    hash: str


def codex_home(environ: Mapping[str, str] | None = None) -> str:
    """$CODEX_HOME resolved as Codex resolves it, else ~/.codex."""
    env = os.environ if environ is None else environ
    given = env.get("CODEX_HOME")
    if given:
        return os.path.realpath(given)
    return os.path.join(os.path.expanduser("~"), ".codex")


def canonical_json(value: Any) -> bytes:
    """serde_json's compact bytes of a value whose objects have sorted keys."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"),
                      ensure_ascii=False).encode("utf-8")


def hook_hash(event: str, matcher: str | None, handler: Mapping[str, Any]) -> str:
    """The hash Codex records as `trusted_hash` for one command handler of `event`."""
    normalized: dict[str, Any] = {
        "type": "command",
        "command": handler.get("command", ""),
        "timeout": timeout_of(handler),
        "async": handler.get("async") is True,
    }
    if isinstance(handler.get("statusMessage"), str):
        normalized["statusMessage"] = handler["statusMessage"]
    identity: dict[str, Any] = {"event_name": EVENT_LABELS[event], "hooks": [normalized]}
    if matcher is not None:
        identity["matcher"] = matcher
    return "sha256:" + hashlib.sha256(canonical_json(identity)).hexdigest()


def timeout_of(handler: Mapping[str, Any]) -> int:
    given = handler.get("timeout")
    if isinstance(given, bool) or not isinstance(given, int):
        return DEFAULT_TIMEOUT
    return max(given, 1)


def hook_key(source: str, event: str, group: int, index: int) -> str:
    return f"{source}:{EVENT_LABELS[event]}:{group}:{index}"


def hooks_of(source: str, events: Mapping[str, Any]) -> list[CodexHook]:
    """The command hooks of one file's `hooks` object (events to matcher groups), in order.

    Prompt and agent handlers, empty commands and unknown events are left out, as Codex
    leaves them out of trust; the indexes still count them."""
    found: list[CodexHook] = []
    for event, groups in events.items():
        if event not in EVENT_LABELS or not isinstance(groups, list):
            continue
        for group_index, group in enumerate(groups):
            if isinstance(group, dict):
                found.extend(_group_hooks(source, event, group_index, group))
    return found


def _group_hooks(source: str, event: str, group_index: int,
                 group: Mapping[str, Any]) -> list[CodexHook]:
    matcher = group.get("matcher") if isinstance(group.get("matcher"), str) else None
    if event in MATCHERLESS_EVENTS:
        matcher = None
    handlers = group.get("hooks")
    found = []
    for index, handler in enumerate(handlers if isinstance(handlers, list) else ()):
        if not isinstance(handler, dict) or handler.get("type") != "command":
            continue
        command = handler.get("command")
        if not isinstance(command, str) or not command.strip():
            continue
        found.append(CodexHook(source, event, group_index, index, matcher, command,
                               hook_key(source, event, group_index, index),
                               hook_hash(event, matcher, handler)))
    return found


# --- reading Codex's files ------------------------------------------------------------------


def read_toml(path: str) -> dict[str, Any] | None:
    """A TOML file's table; None when there is no such file."""
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise CodexTrustError(f"{path}: cannot read: {exc}") from None
    try:
        return _parse(text)
    except CodexTrustError as exc:
        raise CodexTrustError(f"{path}: {exc}") from None


def read_json(path: str) -> Any:
    try:
        with open(path, encoding="utf-8") as handle:
            return json.load(handle)
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise CodexTrustError(f"{path}: cannot read: {exc}") from None


def inline_hooks(config: Mapping[str, Any] | None) -> dict[str, Any]:
    """The events of config.toml's `[hooks]` table (its `state` is not an event)."""
    table = config.get("hooks") if config else None
    if not isinstance(table, dict):
        return {}
    return {key: value for key, value in table.items() if key != "state"}


def layer_folders(workspace: str, home: str) -> list[str]:
    """The folders whose hooks.json and config.toml Codex reads for a session started in
    `workspace`: the user's CODEX_HOME, then each `.codex/` folder from the workspace root
    down (Codex reads project layers from the project root to the working directory)."""
    return [home, os.path.join(os.path.realpath(workspace), ".codex")]


def file_hooks(folder: str) -> list[CodexHook]:
    """The command hooks of one layer folder: its hooks.json, then its config.toml's."""
    found: list[CodexHook] = []
    hooks_json = os.path.join(folder, "hooks.json")
    data = read_json(hooks_json)
    if isinstance(data, dict) and isinstance(data.get("hooks"), dict):
        found.extend(hooks_of(hooks_json, data["hooks"]))
    config = os.path.join(folder, "config.toml")
    found.extend(hooks_of(config, inline_hooks(read_toml(config))))
    return found


def all_hooks(workspace: str, home: str) -> list[CodexHook]:
    hooks: list[CodexHook] = []
    for folder in layer_folders(workspace, home):
        hooks.extend(file_hooks(folder))
    return hooks


def states(config: Mapping[str, Any] | None) -> dict[str, dict[str, Any]]:
    """`[hooks.state]` of the user's config.toml: key -> {enabled, trusted_hash}."""
    table = config.get("hooks") if config else None
    state = table.get("state") if isinstance(table, dict) else None
    if not isinstance(state, dict):
        return {}
    return {key: value for key, value in state.items() if isinstance(value, dict)}


def status_of(hook: CodexHook, recorded: Mapping[str, Mapping[str, Any]]) -> str:
    """trusted, modified (trusted once, changed since), untrusted, or disabled."""
    state = recorded.get(hook.key, {})
    if state.get("enabled") is False:
        return DISABLED
    trusted = state.get("trusted_hash")
    if trusted == hook.hash:
        return TRUSTED
    return MODIFIED if isinstance(trusted, str) else UNTRUSTED


def skipped(hooks: Iterable[CodexHook],
            recorded: Mapping[str, Mapping[str, Any]]) -> list[tuple[CodexHook, str]]:
    """The hooks Codex would skip without the bypass flag, each with its status."""
    found = []
    for hook in hooks:
        status = status_of(hook, recorded)
        if status in (MODIFIED, UNTRUSTED):
            found.append((hook, status))
    return found


# --- writing trust entries into config.toml --------------------------------------------------


def toml_string(text: str) -> str:
    """A TOML basic string."""
    escaped = []
    for char in text:
        if char in ('"', "\\"):
            escaped.append("\\" + char)
        elif char == "\n":
            escaped.append("\\n")
        elif char == "\t":
            escaped.append("\\t")
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            escaped.append(f"\\u{ord(char):04x}")
        else:
            escaped.append(char)
    return '"' + "".join(escaped) + '"'


def with_trust(text: str, hooks: Sequence[CodexHook]) -> str:
    """config.toml's text with `trusted_hash` recorded for each hook: an existing
    `[hooks.state."<key>"]` table has its line replaced or added, others are appended. Every
    other byte stays; the result is checked by parsing it, and refused when it does not say
    exactly what was meant (a config that keeps its hook state some other way)."""
    lines = text.splitlines(keepends=True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    for hook in hooks:
        lines = _record(lines, hook)
    after = "".join(lines)
    _check(text, after, hooks)
    return after


def _record(lines: list[str], hook: CodexHook) -> list[str]:
    header = f"[hooks.state.{toml_string(hook.key)}]"
    entry = f"trusted_hash = {toml_string(hook.hash)}\n"
    start = next((n for n, line in enumerate(lines) if line.strip() == header), None)
    if start is None:
        gap = ["\n"] if lines and lines[-1].strip() else []
        return [*lines, *gap, header + "\n", entry]
    end = next((n for n in range(start + 1, len(lines)) if lines[n].lstrip().startswith("[")),
               len(lines))
    for n in range(start + 1, end):
        if lines[n].split("=", 1)[0].strip() == "trusted_hash":
            return [*lines[:n], entry, *lines[n + 1:]]
    return [*lines[:start + 1], entry, *lines[start + 1:]]


def _parse(text: str) -> dict[str, Any]:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # the backport, a dependency on Python 3.10
        import tomli as tomllib  # type: ignore[import-not-found,unused-ignore]
    try:
        parsed: dict[str, Any] = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise CodexTrustError(f"config.toml is not valid TOML: {exc}") from None
    return parsed


def _without_state(config: dict[str, Any]) -> dict[str, Any]:
    copy = dict(config)
    hooks = copy.get("hooks")
    if isinstance(hooks, dict):
        copy["hooks"] = {k: v for k, v in hooks.items() if k != "state"}
        if not copy["hooks"]:
            del copy["hooks"]
    return copy


def _check(before: str, after: str, hooks: Sequence[CodexHook]) -> None:
    old = _parse(before)
    try:
        new = _parse(after)
    except CodexTrustError:
        new = None
    recorded = states(new) if new is not None else {}
    kept = new is not None and _without_state(old) == _without_state(new)
    if kept and all(recorded.get(h.key, {}).get("trusted_hash") == h.hash for h in hooks):
        return
    wanted = "".join(f"[hooks.state.{toml_string(h.key)}]\ntrusted_hash = "
                     f"{toml_string(h.hash)}\n" for h in hooks)
    raise CodexTrustError("config.toml keeps its hook state in a form agenthooks does not "
                          f"edit as text; add these entries yourself:\n{wanted}")


# --- agenthooks trust --host codex -----------------------------------------------------------


class Review(NamedTuple):
    """What `trust --host codex` found: the config it edits, its text before and after, and
    every hook with its status."""

    config: str
    before: str
    after: str
    hooks: list[tuple[CodexHook, str]]


def review(workspace: str, environ: Mapping[str, str] | None = None) -> Review:
    """Every Codex hook a session in `workspace` loads, its status, and config.toml with the
    untrusted and modified ones trusted."""
    home = codex_home(environ)
    config = os.path.join(home, "config.toml")
    try:
        with open(config, encoding="utf-8") as handle:
            before = handle.read()
    except FileNotFoundError:
        before = ""
    except (OSError, UnicodeDecodeError) as exc:
        raise CodexTrustError(f"{config}: cannot read: {exc}") from None
    recorded = states(_parse(before))
    hooks = [(hook, status_of(hook, recorded)) for hook in all_hooks(workspace, home)]
    pending = [hook for hook, status in hooks if status in (MODIFIED, UNTRUSTED)]
    after = with_trust(before, pending) if pending else before
    return Review(config, before, after, hooks)


def diff(found: Review) -> str:
    import difflib

    lines = difflib.unified_diff(found.before.splitlines(keepends=True),
                                 found.after.splitlines(keepends=True),
                                 f"a/{found.config}" if found.before else "/dev/null",
                                 f"b/{found.config}")
    return "".join(line if line.endswith("\n") else line + "\n" for line in lines)


def describe(hook: CodexHook, status: str) -> str:
    from agenthooks.escape import printable

    on = f" {hook.matcher!r}" if hook.matcher is not None else ""
    return (f"  {status:9} {hook.event}{on}: {printable(hook.command)}\n"
            f"            in {printable(hook.source)} (group {hook.group}, hook {hook.handler})\n")


def write_config(found: Review) -> Written:
    """config.toml written whole or not at all, its mode, owner and a `.bak` of it kept
    (`agenthooks.userfiles`); a new one readable by its owner only."""
    from agenthooks.userfiles import write

    return write(found.config, found.after, make_folders=True, new_mode=0o600)
