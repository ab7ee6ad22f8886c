"""Claude Code's `if` on a handler: permission-rule syntax that narrows a matcher to calls
whose arguments match, evaluated per call before the handler starts.

    "if": "Bash(git *)"            a Bash call one of whose commands matches `git *`
    "if": "Bash(npm run test:*)"   `:*` is a prefix: `npm run test` and what follows it
    "if": "Edit(src/**)"           an Edit of a file under src/ (relative to the project)
    "if": "WebFetch(domain:x.io)"  a fetch of x.io or one of its subdomains
    "if": "Read"                   any Read

Claude Code matches a compound command (`ls && git push`, `FOO=1 git push`) command by
command, so each part is tried, with leading variable assignments dropped. A handler whose
`if` does not hold does not start, exactly as under Claude Code; one whose `if` agenthooks
cannot read runs, with a warning (running a gate too often is the safe side of the error).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from fnmatch import fnmatchcase

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_RULE = re.compile(r"^\s*([A-Za-z_*][\w.*-]*)\s*(?:\((.*)\))?\s*$", re.S)
_SEPARATORS = re.compile(r"&&|\|\||;|\||\n")
_ASSIGNMENTS = re.compile(r"^(?:\s*[A-Za-z_]\w*=\S*\s+)+")
_PATH_KEYS = ("file_path", "notebook_path", "path")
_FILE_TOOLS = frozenset(("Read", "Edit", "Write", "MultiEdit", "NotebookEdit", "Glob", "Grep"))


class Unreadable(ValueError):
    """An `if` whose rule agenthooks cannot evaluate."""


def holds(rule: str, tool: str | None, tool_input: Mapping[str, Any], cwd: str = "") -> bool:
    """Whether a handler with `if: rule` runs for this call; `Unreadable` if it cannot say."""
    found = _RULE.match(rule)
    if found is None:
        raise Unreadable(f"{rule!r} is not ToolName or ToolName(pattern)")
    name, pattern = found.group(1), found.group(2)
    if tool is None or not fnmatchcase(tool, name):
        return False
    if pattern is None or pattern.strip() in ("", "*"):
        return True
    pattern = pattern.strip()
    if name == "Bash":
        return _command_matches(pattern, tool_input.get("command"))
    if name in _FILE_TOOLS:
        return _path_matches(pattern, _path(tool_input), cwd)
    if name == "WebFetch" and pattern.startswith("domain:"):
        return _domain_matches(pattern[len("domain:"):], tool_input.get("url"))
    raise Unreadable(f"agenthooks cannot evaluate {rule!r}")


def _command_matches(pattern: str, command: object) -> bool:
    if not isinstance(command, str):
        return False
    parts = [command, *(_ASSIGNMENTS.sub("", part).strip()
                        for part in _SEPARATORS.split(command))]
    if pattern.endswith(":*"):
        prefix = pattern[:-2]
        return any(part == prefix or part.startswith(prefix + " ") for part in parts)
    return any(fnmatchcase(part, pattern) for part in parts)


def _path(tool_input: Mapping[str, Any]) -> str | None:
    for key in _PATH_KEYS:
        value = tool_input.get(key)
        if isinstance(value, str) and value:
            return value
    return None


def _path_matches(pattern: str, path: str | None, cwd: str) -> bool:
    if path is None:
        return False
    import os

    candidates = {path}
    if cwd and os.path.isabs(path):
        candidates.add(os.path.relpath(path, cwd))
    pattern = pattern.removeprefix("./")
    if pattern.startswith("~/"):
        pattern = os.path.expanduser(pattern)
    # `**` and `*` both cross folders here: fnmatch's `*` matches `/` too.
    return any(fnmatchcase(candidate.removeprefix("./"), pattern) for candidate in candidates)


def _domain_matches(domain: str, url: object) -> bool:
    if not isinstance(url, str):
        return False
    from urllib.parse import urlsplit

    host = (urlsplit(url).hostname or "").lower()
    domain = domain.lower()
    return host == domain or host.endswith("." + domain)
