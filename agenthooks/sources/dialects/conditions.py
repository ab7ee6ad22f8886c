"""Claude Code's `if` on a handler: one permission rule that narrows a matcher to the calls
whose arguments match, checked per call before the handler starts.

    "if": "Bash(git *)"            a Bash call one of whose commands matches `git *`
    "if": "Bash(npm run test:*)"   `:*` at the end is ` *`: `npm run test` and what follows
    "if": "Edit(/src/**)"          an edit under <project root>/src (gitignore syntax)
    "if": "Read(//etc/**)"         a read under /etc; `~/x` is under the home folder
    "if": "WebFetch(domain:x.io)"  a fetch of x.io (`*.x.io`: its subdomains)
    "if": "Agent(model:opus)"      a call whose top-level `model` argument is `opus`
    "if": "mcp__memory"            any tool of the `memory` MCP server

What Claude Code matches, from its documentation (hooks.md "Common fields" and "Bash `if`
matching"; permissions.md "Permission rule syntax", "Bash", "Compound commands",
"Wrappers", "Read and Edit", "WebFetch", "MCP"; code.claude.com/docs/en, mirror
ericbuess/claude-code-docs@ec68a5b):

- A Bash command is split into its subcommands at `&&`, `||`, `;`, `|`, `|&`, `&` and
  newlines; commands inside `$()` and backticks are checked too; leading `VAR=value`
  assignments are dropped; the wrappers `timeout`, `time`, `nice`, `nohup`, `stdbuf`,
  `command`, `builtin`, `noglob` and a bare `xargs` are stripped (not `command -v`). Quotes
  and backslashes are removed and blanks are one space, so `"rm" -rf`, `\\rm` and
  `rm<TAB>-rf` are `rm -rf` (`agenthooks.shellwords` reads the command as bash does).
- `*` matches any text, spaces included; a trailing ` *` (or `:*`) also matches nothing, so
  `Bash(ls *)` matches `ls` and `ls -la` but not `lsof`.
- A pattern that names more than a command (`git push *`) holds for any command that has
  `$()`, backticks or `$VAR` in it; a command Claude Code cannot parse runs the hook.
- Path rules use gitignore patterns: `//path` from the filesystem root, `~/path` from the
  home folder, `/path` from the settings file's anchor (the project root for project and
  local settings, `~/.claude` for user settings), `path` and `./path` from the current
  directory; a pattern without a `/` matches at any depth below its anchor; a rule matches
  only files under its anchor. Paths are normalised (`..` resolved) and a symlink is
  checked as itself and as what it resolves to. `Edit` rules cover every tool that edits
  files (Write, MultiEdit, NotebookEdit), `Read` rules Grep and Glob.
- On events other than the tool events a handler with `if` never runs (no tool name).

Where agenthooks cannot decide a call (a command it cannot parse, a word only known when
the command runs, a wrapper it does not model such as `sudo`, `env -S` or `bash -c`, a path
anchored at a plugin, a rule it does not read) the answer depends on what the handler can
answer (`restricts`): a handler that can deny, ask or block runs, whichever way the call
would have gone; one that can only approve applies only when every subcommand certainly
matches (an approval for `ls *` does not cover `ls && rm -rf x`). For a handler that can
deny, agenthooks also reads commands Claude Code leaves whole: `bash -c '…'`, `sh -c`,
`eval`, `env`, `exec`, `sudo`-like wrappers and `find -exec` are read for the command they
run, and `/bin/rm` is also `rm`.
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Mapping
from fnmatch import fnmatchcase

from agenthooks._lean.records import NamedTuple

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from agenthooks.model.handlers import Handler
    from agenthooks.shellwords import Word

NO, MAYBE, YES = 0, 1, 2

_RULE = re.compile(r"^\s*([A-Za-z_*][\w.*-]*)\s*(?:\((.*)\))?\s*$", re.S)
_PARAMETER = re.compile(r"^\s*([A-Za-z_]\w*)\s*:\s*(.*?)\s*$", re.S)
# Each tool's primary argument, which `Tool(param:value)` cannot name (permissions.md).
_PRIMARY = frozenset(("command", "file_path", "path", "notebook_path", "url"))
# Rule tool -> the tools its path rules cover (permissions.md "Read and Edit").
_PATH_TOOLS: dict[str, frozenset[str]] = {
    "Edit": frozenset(("Edit", "Write", "MultiEdit", "NotebookEdit")),
    "Read": frozenset(("Read", "Grep", "Glob")),
    "Write": frozenset(("Write",)),
    "MultiEdit": frozenset(("MultiEdit",)),
    "NotebookEdit": frozenset(("NotebookEdit",)),
    "Grep": frozenset(("Grep",)),
    "Glob": frozenset(("Glob",)),
}
_PATH_KEYS = ("file_path", "notebook_path", "path")
_AGENT_TOOLS = frozenset(("Agent", "Task"))
# Events whose handlers can only loosen the host's decision: PermissionDenied's answer is
# `retry: true` (hooks.md "PermissionDenied decision control").
LOOSEN_ONLY_EVENTS = frozenset(("PermissionDenied",))


class Unreadable(ValueError):
    """An `if` whose rule agenthooks cannot evaluate."""


class Places(NamedTuple):
    cwd: str  # the call's current directory
    settings_root: str | None  # where `/path` is anchored; None when not known


class Verdict(NamedTuple):
    """Whether a call matches a rule: for a handler that can deny (NO, MAYBE or YES) and for
    one that can only approve (True only when certain, every subcommand included)."""

    gate: int
    approve: bool


def restricts(handler: Handler) -> bool:
    """Whether a handler can deny, ask or block on its event: every handler type Claude Code
    has can (a command by exit 2 or its JSON, http and mcp_tool by their JSON, prompt and
    agent by `ok: false`), except on the events whose only answer loosens (PermissionDenied).
    A background (`async`) handler's answer is never read: it runs as Claude Code runs it,
    on a possible match."""
    return handler.event not in LOOSEN_ONLY_EVENTS


def applies(handler: Handler, tool: str | None, tool_input: Mapping[str, Any],
            cwd: object) -> bool:
    """Whether a handler runs for this call: no `if`, or its `if` holds for its role."""
    rule = handler.condition
    if rule is None:
        return True
    if handler.condition_test is not None:  # another host's condition (`commandRegex`)
        from agenthooks.model.hosts import imported

        return bool(imported(handler.condition_test)(rule, tool, tool_input))
    source = handler.source
    base = cwd if isinstance(cwd, str) and os.path.isabs(cwd) else source.workspace
    try:
        verdict = evaluate(rule, tool, tool_input, Places(base, settings_root(handler)))
    except Exception:  # Unreadable, a NUL in a path, a reader's own slip: never a crash
        verdict = Verdict(MAYBE, False)  # undecided: a gate runs, an approval does not
    return verdict.gate != NO if restricts(handler) else verdict.approve


def settings_root(handler: Handler) -> str | None:
    """Where a `/path` rule of this handler's settings file is anchored (permissions.md):
    `~/.claude` for user settings, the project root for project and local settings; a
    plugin's is not documented."""
    source = handler.source
    if source.plugin_root is not None:
        return None
    if source.level == "user":
        return os.path.dirname(os.path.abspath(source.file))
    return source.workspace


def holds(rule: str, tool: str | None, tool_input: Mapping[str, Any], cwd: str = "",
          *, settings_root: str | None = None, approving: bool = False) -> bool:
    """Whether a handler with `if: rule` runs for this call: for a handler that can deny
    (default) or one that can only approve; `Unreadable` if the rule cannot be read."""
    verdict = evaluate(rule, tool, tool_input, Places(cwd or os.getcwd(), settings_root))
    return verdict.approve if approving else verdict.gate != NO


def evaluate(rule: str, tool: str | None, tool_input: Mapping[str, Any],
             places: Places) -> Verdict:
    found = _RULE.match(rule)
    if found is None:
        raise Unreadable(f"{rule!r} is not ToolName or ToolName(pattern)")
    name, specifier = found.group(1), found.group(2)
    if tool is None:
        return Verdict(NO, False)
    exact = _tool_matches(name, tool)
    family = tool in _PATH_TOOLS.get(name, ()) and specifier not in (None, "", "*")
    if not exact and not family:
        return Verdict(NO, False)
    if specifier is None or specifier.strip() in ("", "*"):
        return Verdict(YES, exact) if exact else Verdict(YES, False)
    verdict = _specified(name, specifier.strip(), tool_input, places)
    return verdict if exact else Verdict(verdict.gate, False)


def _tool_matches(name: str, tool: str) -> bool:
    if name == tool or fnmatchcase(tool, name):
        return True
    # `mcp__server` names every tool of that server (permissions.md "MCP").
    return name.startswith("mcp__") and "__" not in name[5:] and "*" not in name and \
        tool.startswith(name + "__")


def _specified(name: str, specifier: str, tool_input: Mapping[str, Any],
               places: Places) -> Verdict:
    by_parameter = _parameter(specifier, tool_input)
    own = _own(name, specifier, tool_input, places)
    if own is None and by_parameter is None:
        raise Unreadable(f"agenthooks cannot evaluate {name}({specifier})")
    if own is None:
        assert by_parameter is not None
        return Verdict(by_parameter, False)  # allow rules do not match parameters
    if by_parameter is None:
        return own
    return Verdict(max(own.gate, by_parameter), own.approve)


def _parameter(specifier: str, tool_input: Mapping[str, Any]) -> int | None:
    """`Tool(param:value)`: a top-level argument's literal value, `*` any text; None when
    the specifier does not name an argument of this call (permissions.md)."""
    found = _PARAMETER.match(specifier)
    # An argument the call leaves out is never matched, but agenthooks does not know each
    # tool's arguments, so `WebFetch(https://x)` would read as one: left undecided.
    if found is None or found.group(1) in _PRIMARY or found.group(1) not in tool_input:
        return None
    value = tool_input[found.group(1)]
    if isinstance(value, bool):
        text = "true" if value else "false"
    elif isinstance(value, (int, float, str)):
        text = str(value)
    else:
        return NO  # nested objects and arrays are not matchable
    return YES if fnmatchcase(text, found.group(2)) else NO


def _own(name: str, specifier: str, tool_input: Mapping[str, Any],
         places: Places) -> Verdict | None:
    """The tool's own specifier syntax; None when agenthooks does not know it."""
    if name == "Bash":
        return bash_verdict(specifier, tool_input.get("command"))
    if name in _PATH_TOOLS:
        return path_verdict(specifier, _path(tool_input), places)
    if name == "WebFetch" and specifier.startswith("domain:"):
        return _domain_verdict(specifier[len("domain:"):].strip(), tool_input.get("url"))
    if name in _AGENT_TOOLS and _PARAMETER.match(specifier) is None:
        agent = tool_input.get("subagent_type")
        matched = isinstance(agent, str) and fnmatchcase(agent, specifier)
        return Verdict(YES, True) if matched else Verdict(NO, False)
    return None


# --- Bash ------------------------------------------------------------------------------------


class BashPattern:
    """One Bash rule's pattern: `*` any text; a trailing ` *` (or `:*`) is optional."""

    def __init__(self, pattern: str) -> None:
        if pattern.endswith(":*"):
            pattern = pattern[:-2] + " *"
        self.pattern = pattern
        body, optional = (pattern[:-2], True) if pattern.endswith(" *") else (pattern, False)
        self.parts = body.split("*")
        self.optional = optional
        self.prefix = pattern.split("*", 1)[0]  # the text before the first `*`
        self.prefix_only = "*" in pattern and pattern.index("*") == len(pattern) - 1
        # `rm`, `rm *`: the pattern names a command and nothing more.
        self.names_command = re.fullmatch(r"[^\s*]+(?: \*)?", pattern) is not None

    def matches(self, text: str) -> bool:
        """The whole text against the pattern: `*` any text, a trailing ` *` optional."""
        if self.optional:
            return _wildcard(self.parts, text) or _wildcard([*self.parts, ""], text, " ")
        return _wildcard(self.parts, text)

    def verdict(self, words: tuple[Word, ...] | None) -> int:
        """Whether a command's words match: YES, NO, or MAYBE when a word is only known when
        the command runs (or the reading is unknown: None)."""
        if words is None:
            return MAYBE
        if not words:
            return NO
        known: list[str] = []
        for word in words:
            if not word.literal:
                break
            known.append(word.text)
        else:
            return YES if self.matches(" ".join(known)) else NO
        if not known:
            return MAYBE
        text = " ".join(known)
        if self.prefix_only and (text + " ").startswith(self.prefix):
            return YES  # whatever follows, the trailing `*` takes it
        spaced = text + " "
        compatible = spaced.startswith(self.prefix) or self.prefix.startswith(spaced) or \
            self.prefix == text
        return MAYBE if compatible else NO


def _wildcard(parts: list[str], text: str, last_separator: str = "") -> bool:
    """Whether text is parts[0] * parts[1] * ... (the last joined by `last_separator` + `*`):
    each middle part at its leftmost place, in linear time (no regex backtracking on a
    long command)."""
    if len(parts) == 1:
        return text == parts[0]
    if last_separator:
        parts = [*parts[:-2], parts[-2] + last_separator, parts[-1]]
    first, last = parts[0], parts[-1]
    if not text.startswith(first) or len(text) < len(first) + len(last) or \
            not text.endswith(last):
        return False
    at, end = len(first), len(text) - len(last)
    for part in parts[1:-1]:
        found = text.find(part, at, end)
        if found < 0:
            return False
        at = found + len(part)
    return True


def bash_verdict(pattern: str, command: object) -> Verdict:
    """A Bash rule against a command: any subcommand for a gate, every one for an approval."""
    if not isinstance(command, str):
        return Verdict(MAYBE, False)
    from agenthooks.shellwords import Unparsable, simple_commands
    from agenthooks.sources.dialects.wrappers import readings

    try:
        parsed = simple_commands(command)
    except Unparsable:
        return Verdict(MAYBE, False)  # hooks.md: the filter runs the hook when it cannot parse
    matcher = BashPattern(pattern)
    gate, approve = NO, bool(parsed.commands)
    for words in parsed.commands:
        exact, others = readings(words, 0)
        found = matcher.verdict(exact)
        approve = approve and found == YES
        gate = max(gate, found, *(matcher.verdict(other) for other in others))
    if parsed.expands and not matcher.names_command:
        # hooks.md: a pattern that names more than the command runs the hook anyway on
        # `$()`, backticks or `$VAR`.
        return Verdict(max(gate, MAYBE), False)
    return Verdict(gate, approve)


# --- paths -----------------------------------------------------------------------------------


def _path(tool_input: Mapping[str, Any]) -> str | None:
    for key in _PATH_KEYS:
        value = tool_input.get(key)
        if isinstance(value, str) and value:
            return value
    return None


def path_verdict(pattern: str, path: str | None, places: Places) -> Verdict:
    """A gitignore-style path rule against a tool's path: for a gate the path or the file
    it resolves to matches; for an approval both do (permissions.md, symlinks)."""
    anchor, relative, anywhere = _anchor(pattern, places)
    if anchor is None or path is None:
        return Verdict(MAYBE, False)
    regex = _glob_regex(relative, anywhere)
    target = posixpath.normpath(os.path.join(places.cwd, os.path.expanduser(path)))
    candidates = {target, os.path.realpath(target)}
    found = [_under(regex, anchor, candidate) for candidate in candidates]
    return Verdict(YES if any(found) else NO, all(found))


def _anchor(pattern: str, places: Places) -> tuple[str | None, str, bool]:
    """(anchor folder, pattern relative to it, whether it matches at any depth)."""
    anchor: str | None
    if pattern.startswith("//"):
        anchor, rest = "/", pattern[2:]
    elif pattern == "~" or pattern.startswith("~/"):
        anchor, rest = os.path.expanduser("~"), pattern[2:]
    elif pattern.startswith("/"):
        anchor, rest = places.settings_root, pattern[1:]
    elif pattern.startswith("./"):
        anchor, rest = places.cwd, pattern[2:]
    else:
        anchor, rest = places.cwd, pattern
        if "/" not in rest.rstrip("/"):
            return anchor, rest.rstrip("/"), True
    rest = rest.rstrip("/")
    if anchor is not None and ".." in rest.split("/"):
        if any(c in rest for c in "*?["):
            raise Unreadable(f"{pattern!r}: `..` beside a wildcard")
        joined = posixpath.normpath(posixpath.join(anchor, rest))
        anchor, rest = "/", joined.lstrip("/")
    return anchor, rest, False


def _under(regex: re.Pattern[str], anchor: str, path: str) -> bool:
    """Whether the path, or a folder it is in, matches below the anchor (gitignore: a
    matched folder holds its files)."""
    relative = posixpath.relpath(path, anchor)
    if relative == ".." or relative.startswith("../"):
        return False
    parts = relative.split("/")
    return any(regex.fullmatch("/".join(parts[:end])) for end in range(len(parts), 0, -1))


def _glob_regex(pattern: str, anywhere: bool) -> re.Pattern[str]:
    out = ["(?:.*/)?"] if anywhere else []
    i, size = 0, len(pattern)
    while i < size:
        at_segment = i == 0 or pattern[i - 1] == "/"
        if at_segment and pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("/**", i) and i + 3 == size:
            out.append("(?:/.*)?")  # a folder's files, and the folder (Grep and Glob's path)
            i += 3
        elif at_segment and pattern.startswith("**", i) and i + 2 == size:
            out.append(".*")
            i += 2
        else:
            piece, i = _glob_piece(pattern, i)
            out.append(piece)
    return re.compile("".join(out), re.S)


def _glob_piece(pattern: str, i: int) -> tuple[str, int]:
    char = pattern[i]
    if char == "*":
        return "[^/]*", i + 1
    if char == "?":
        return "[^/]", i + 1
    if char == "\\" and i + 1 < len(pattern):
        return re.escape(pattern[i + 1]), i + 2
    if char == "[":
        end = pattern.find("]", i + 2)
        if end > 0:
            body = pattern[i + 1:end]
            negate = body[:1] in ("!", "^")
            body = (body[1:] if negate else body).replace("\\", "\\\\")
            return f"[{'^' if negate else ''}{body}]", end + 1
    return re.escape(char), i + 1


# --- WebFetch --------------------------------------------------------------------------------


def _domain_verdict(domain: str, url: object) -> Verdict:
    """permissions.md "WebFetch": case-insensitive, trailing dots dropped; `*.x` is any
    subdomain of x (not x); `*` elsewhere stays between two dots; a bare `*` is any host."""
    from urllib.parse import urlsplit

    try:
        host = (urlsplit(url).hostname or "") if isinstance(url, str) else None
    except ValueError:
        host = None
    if host is None:
        return Verdict(MAYBE, False)  # no URL agenthooks can read: the rule may hold
    host, domain = host.lower().rstrip("."), domain.lower().rstrip(".")
    if domain == "*":
        matched = True
    elif domain.startswith("*."):
        matched = host.endswith(domain[1:]) and host != domain[2:]
    else:
        regex = "[^.]*".join(re.escape(part) for part in domain.split("*"))
        matched = re.fullmatch(regex, host) is not None
    return Verdict(YES, True) if matched else Verdict(NO, False)
