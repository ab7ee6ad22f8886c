"""What a recorded payload keeps of its secrets and file contents: nothing, by default.

`agenthooks run --record DIR` writes the payloads a host really sent into fixture files that
people read, share and commit. So before a payload is written:

- every string has the secrets it holds replaced by `REDACTED` (`SECRET_PATTERNS`, and the
  patterns given with `--redact`): environment-like `NAME=value` whose name says token,
  secret, password or key; AWS access key ids; bearer and basic credentials; GitHub, Slack
  and OpenAI-style tokens; private key blocks; passwords in URLs;
- a value whose key names a secret (`"api_key": "..."`) is replaced whole;
- a tool call that reads or writes an `.env`-like file (`SECRET_FILES`) keeps its path, but
  every other string of its arguments and of its response is replaced;
- file contents in the arguments (`CONTENT_KEYS`: Write's `content`, Edit's strings...)
  longer than `limit` characters are cut, with a marker saying how much was left out
  (arguments sent as a JSON text, as Copilot CLI's `toolArgs`, too).

Pure functions over JSON values: the table tests in tests/testing/test_redact.py read them.
"""

from __future__ import annotations

import json
import re

# `collections.abc` re-exports it: the same class, without importing `collections` (this
# module is imported by `agenthooks run --record`, after the answer, but still in its time).
from _collections_abc import Mapping

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any

REDACTED = "[REDACTED]"
# Characters of a file's contents kept in a recorded tool input.
CONTENT_LIMIT = 2000
TRUNCATED = "…[agenthooks: {} more characters cut]"
SECRET_FILE_CONTENTS = "[REDACTED: contents of {}]"

_NAME = r"[A-Za-z0-9_.-]*(?:TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE|API_?KEY|ACCESS_?KEY|" \
        r"PRIVATE_?KEY|_KEY|CREDENTIALS?|AUTH)[A-Za-z0-9_.-]*"

# (pattern, replacement): applied in order to every string of the payload. A replacement
# keeps what names the secret (the variable, the scheme) so that a reader sees what was there.
SECRET_PATTERNS: tuple[tuple[str, str], ...] = (
    (r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----.*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|\Z)",
     REDACTED),
    (r"(?i)\b(bearer|basic|token)(\s+)[A-Za-z0-9\-._~+/]{8,}=*", rf"\1\2{REDACTED}"),
    (r"\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}\b", REDACTED),
    (r"\bgithub_pat_[A-Za-z0-9_]{20,}\b", REDACTED),
    (r"\bglpat-[A-Za-z0-9_-]{20,}\b", REDACTED),
    (r"\bxox[abprs]-[A-Za-z0-9-]{10,}\b", REDACTED),
    (r"\bsk-(?:[A-Za-z0-9_-]*-)?[A-Za-z0-9_-]{20,}\b", REDACTED),
    (r"\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[0-9A-Z]{16}\b", REDACTED),
    (r"\b(?:AIza)[0-9A-Za-z_-]{35}\b", REDACTED),
    (r"(?i)(\b[a-z][a-z0-9+.-]*://[^\s:/@]+:)[^\s@/]+(@)", rf"\1{REDACTED}\2"),
    # NAME=value, NAME: value, "NAME": "value", --name=value: the name kept, the value not.
    # A scheme (`Authorization: Bearer x`) was handled above, its token gone already.
    (rf"(?i)(\b{_NAME}[\"']?\s*(?:=|:)\s*)(?!\[REDACTED|bearer\s|basic\s|token\s)"
     r"(\"[^\"]*\"|'[^']*'|[^\s\"',;&|)]+)",
     rf"\1{REDACTED}"),
)
# A key whose string value is a secret whatever it looks like.
SECRET_KEY = re.compile(rf"(?i)^{_NAME}$|^(?:authorization|cookie|set-cookie|password)$")

# Files whose contents are secrets: a tool call naming one keeps none of its strings but the
# path (an .env, a private key, a credentials file, a package manager's token file).
SECRET_FILES = re.compile(
    r"(?i)(?:^|[/\\])(?:\.env(?:\.[^/\\]*)?|[^/\\]*\.env|\.envrc|\.netrc|\.npmrc|\.pypirc|"
    r"\.pgpass|\.git-credentials|credentials(?:\.json)?|secrets?\.(?:json|ya?ml|toml)|"
    r"id_(?:rsa|dsa|ecdsa|ed25519)|[^/\\]*\.(?:pem|key|p12|pfx|keystore|jks))$")
# Argument names that hold a file's path, in every host's words (`model.tools`).
PATH_KEYS: frozenset[str] = frozenset({
    "file_path", "path", "filePath", "AbsolutePath", "TargetFile", "notebook_path",
    "absolute_path", "target_file", "filepath", "file", "uri",
})
# Argument names that hold a file's contents or a piece of it.
CONTENT_KEYS: frozenset[str] = frozenset({
    "content", "contents", "old_string", "new_string", "new_source", "old_str", "new_str",
    "file_text", "CodeContent", "ReplacementContent", "TargetContent", "code_edit", "patch",
})
# Where a payload holds the tool's arguments, and its response, in every host's shape.
ARGS_KEYS: tuple[str, ...] = ("tool_input", "toolArgs", "toolInput", "args")
RESPONSE_KEYS: tuple[str, ...] = ("tool_response", "toolResult", "tool_output", "result")


def compile_patterns(extra: Iterable[str]) -> list[tuple[re.Pattern[str], str]]:
    """The built-in patterns and `extra` (`--redact` regexes: every match replaced);
    `re.error` for an extra that is not a regex."""
    patterns = [(re.compile(pattern, re.DOTALL), replacement)
                for pattern, replacement in SECRET_PATTERNS]
    patterns += [(re.compile(pattern), REDACTED) for pattern in extra]
    return patterns


def redact_text(text: str, patterns: Iterable[tuple[re.Pattern[str], str]]) -> str:
    """`text` with every match of every pattern replaced."""
    for pattern, replacement in patterns:
        text = pattern.sub(replacement, text)
    return text


def redact_payload(payload: Any, patterns: list[tuple[re.Pattern[str], str]],
                   limit: int = CONTENT_LIMIT) -> Any:
    """A copy of a payload fit to be written down: secrets replaced, secret files' contents
    dropped, long file contents cut (see the module's docstring)."""
    if not isinstance(payload, Mapping):
        return _redact(payload, patterns)
    # Arguments sent as a JSON text (Copilot CLI's `toolArgs`) are worked on as the object
    # they hold, then written back as a text, as the host sent them.
    texts = {key: found for key in ARGS_KEYS
             if isinstance(found := _object_in(payload.get(key)), dict)}
    out = {**payload, **texts}
    secret_file = _secret_file(out)
    if secret_file is not None:
        out = _without_contents(out, secret_file)
    out = {key: _cut_contents(value, limit) if key in ARGS_KEYS or key == "toolCall"
           else value for key, value in out.items()}
    out = _redact(out, patterns)
    for key in texts:
        out[key] = json.dumps(out[key], ensure_ascii=False)
    return out


def _object_in(value: Any) -> Any:
    """What a JSON text holds; None for anything else."""
    if not isinstance(value, str):
        return None
    try:
        return json.loads(value)
    except ValueError:
        return None


def _redact(value: Any, patterns: list[tuple[re.Pattern[str], str]]) -> Any:
    if isinstance(value, str):
        return redact_text(value, patterns)
    if isinstance(value, Mapping):
        return {key: REDACTED if isinstance(item, str) and item and SECRET_KEY.match(str(key))
                else _redact(item, patterns) for key, item in value.items()}
    if isinstance(value, list):
        return [_redact(item, patterns) for item in value]
    return value


def _arguments(payload: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The tool arguments of a payload, in any host's shape (Antigravity's under toolCall)."""
    found = [payload[key] for key in ARGS_KEYS if isinstance(payload.get(key), Mapping)]
    call = payload.get("toolCall")
    if isinstance(call, Mapping) and isinstance(call.get("args"), Mapping):
        found.append(call["args"])
    return found


def _secret_file(payload: Mapping[str, Any]) -> str | None:
    """The path of an `.env`-like file the tool call reads or writes, or None."""
    for args in _arguments(payload):
        for key in PATH_KEYS:
            path = args.get(key)
            if isinstance(path, str) and SECRET_FILES.search(path.rstrip("/\\")):
                return path
    return None


def _without_contents(payload: Mapping[str, Any], path: str) -> dict[str, Any]:
    """The payload with every string of the call's arguments but its paths, and of its
    response, replaced by a note naming the file."""
    note = SECRET_FILE_CONTENTS.format(path)

    def blank(value: Any, keep_paths: bool) -> Any:
        if isinstance(value, str):
            return note
        if isinstance(value, Mapping):
            return {key: item if keep_paths and key in PATH_KEYS else blank(item, keep_paths)
                    for key, item in value.items()}
        if isinstance(value, list):
            return [blank(item, keep_paths) for item in value]
        return value

    out = dict(payload)
    for key in ARGS_KEYS:
        if isinstance(out.get(key), Mapping):
            out[key] = blank(out[key], True)
    for key in RESPONSE_KEYS:
        if key in out:
            out[key] = blank(out[key], False)
    call = out.get("toolCall")
    if isinstance(call, Mapping):
        out["toolCall"] = {key: blank(item, key == "args") if key in ("args", *RESPONSE_KEYS)
                           else item for key, item in call.items()}
    return out


def _cut_contents(value: Any, limit: int) -> Any:
    """Arguments with each file content longer than `limit` cut, the cut marked."""
    if isinstance(value, Mapping):
        return {key: cut(item, limit) if key in CONTENT_KEYS and isinstance(item, str)
                else _cut_contents(item, limit) for key, item in value.items()}
    if isinstance(value, list):
        return [_cut_contents(item, limit) for item in value]
    return value


def cut(text: str, limit: int) -> str:
    """`text`, or its first `limit` characters and a marker of how many more there were."""
    if len(text) <= limit:
        return text
    return text[:limit] + TRUNCATED.format(len(text) - limit)
