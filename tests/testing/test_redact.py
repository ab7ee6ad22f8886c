"""What a recorded payload keeps of secrets and file contents
(`agenthooks.features.fixtures.redact`): tables over the pure functions."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from agenthooks.features.fixtures.redact import (
    CONTENT_LIMIT,
    REDACTED,
    compile_patterns,
    cut,
    redact_payload,
    redact_text,
)

PATTERNS = compile_patterns(())
KEY_BLOCK = ("-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAx7\nabc\n"
             "-----END RSA PRIVATE KEY-----")

# (text, what it must become)
TEXTS: list[tuple[str, str]] = [
    ("ls -la", "ls -la"),
    ("echo hello world", "echo hello world"),
    ("GITHUB_TOKEN=abc123 make", f"GITHUB_TOKEN={REDACTED} make"),
    ("export AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG",
     f"export AWS_SECRET_ACCESS_KEY={REDACTED}"),
    ("DB_PASSWORD='hunter 2' ./run", f"DB_PASSWORD={REDACTED} ./run"),
    ('API_KEY="s3cr3t value"; go', f"API_KEY={REDACTED}; go"),
    ("mysql --password=hunter2 db", f"mysql --password={REDACTED} db"),
    ("client_secret: abcdef", f"client_secret: {REDACTED}"),
    ('{"apiKey": "abcdef"}', f'{{"apiKey": {REDACTED}}}'),
    ("aws s3 ls AKIAIOSFODNN7EXAMPLE", f"aws s3 ls {REDACTED}"),
    ("curl -H 'Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.e30.x' https://api",
     f"curl -H 'Authorization: Bearer {REDACTED}' https://api"),
    ("git clone https://ghp_0123456789abcdefghijABCDEFGHIJ012345@github.com/o/r",
     f"git clone https://{REDACTED}@github.com/o/r"),
    ("gh auth login --with-token github_pat_11ABCDEFG0123456789_abcdefghijklmnop",
     f"gh auth login --with-token {REDACTED}"),
    ("OPENAI=sk-proj-abcdefghijklmnopqrstuvwxyz012345", f"OPENAI={REDACTED}"),
    ("slack xoxb-1234567890-abcdefghij", f"slack {REDACTED}"),
    ("psql postgres://admin:hunter2@db:5432/app", f"psql postgres://admin:{REDACTED}@db:5432/app"),
    (f"cat > key.pem <<EOF\n{KEY_BLOCK}\nEOF", f"cat > key.pem <<EOF\n{REDACTED}\nEOF"),
    ("-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA", REDACTED),
    ("MONKEY_BUSINESS=1 make", "MONKEY_BUSINESS=1 make"),
]


@pytest.mark.parametrize(("text", "expected"), TEXTS, ids=[t for t, _ in TEXTS])
def test_secrets_in_text_are_redacted(text: str, expected: str) -> None:
    assert redact_text(text, PATTERNS) == expected


# (--redact patterns, text, what it must become)
EXTRA: list[tuple[tuple[str, ...], str, str]] = [
    ((r"acme-\d+",), "deploy acme-1234 now", f"deploy {REDACTED} now"),
    ((r"internal\.example\.com", r"u\d{4}"), "ssh u1234@internal.example.com",
     f"ssh {REDACTED}@{REDACTED}"),
    ((), "deploy acme-1234 now", "deploy acme-1234 now"),
]


@pytest.mark.parametrize(("extra", "text", "expected"), EXTRA)
def test_redact_patterns_add_to_the_built_in_ones(extra: tuple[str, ...], text: str,
                                                   expected: str) -> None:
    assert redact_text(text, compile_patterns(extra)) == expected


def test_a_redact_pattern_that_is_no_regex_is_an_error() -> None:
    with pytest.raises(re.error):
        compile_patterns(["("])


LONG = "x" * (CONTENT_LIMIT + 500)
CUT = "x" * CONTENT_LIMIT + "…[agenthooks: 500 more characters cut]"
ENV_NOTE = "[REDACTED: contents of {}]"

# (payload, what it must become)
PAYLOADS: list[tuple[str, dict[str, Any], dict[str, Any]]] = [
    ("a command untouched",
     {"tool_name": "Bash", "tool_input": {"command": "rm -rf /"}},
     {"tool_name": "Bash", "tool_input": {"command": "rm -rf /"}}),
    ("a secret-named key replaced whole",
     {"tool_name": "WebFetch", "tool_input": {"url": "https://x", "api_key": "plain"}},
     {"tool_name": "WebFetch", "tool_input": {"url": "https://x", "api_key": REDACTED}}),
    ("a Write's long content cut",
     {"tool_name": "Write", "tool_input": {"file_path": "a.txt", "content": LONG}},
     {"tool_name": "Write", "tool_input": {"file_path": "a.txt", "content": CUT}}),
    ("a short content kept",
     {"tool_name": "Write", "tool_input": {"file_path": "a.txt", "content": "hi"}},
     {"tool_name": "Write", "tool_input": {"file_path": "a.txt", "content": "hi"}}),
    ("an Edit's long strings cut",
     {"tool_name": "Edit", "tool_input": {"file_path": "a.py", "old_string": LONG,
                                          "new_string": "y"}},
     {"tool_name": "Edit", "tool_input": {"file_path": "a.py", "old_string": CUT,
                                          "new_string": "y"}}),
    ("a MultiEdit's edits cut",
     {"tool_name": "MultiEdit", "tool_input": {"edits": [{"old_string": LONG}]}},
     {"tool_name": "MultiEdit", "tool_input": {"edits": [{"old_string": CUT}]}}),
    ("Antigravity's CodeContent cut",
     {"toolCall": {"name": "write_to_file", "args": {"TargetFile": "/a", "CodeContent": LONG}}},
     {"toolCall": {"name": "write_to_file", "args": {"TargetFile": "/a", "CodeContent": CUT}}}),
    ("a long prompt kept (not a file's contents)",
     {"hook_event_name": "UserPromptSubmit", "prompt": LONG},
     {"hook_event_name": "UserPromptSubmit", "prompt": LONG}),
    ("a Write to .env keeps its path only",
     {"tool_name": "Write", "tool_input": {"file_path": "/w/.env", "content": "A=1\nB=2"}},
     {"tool_name": "Write", "tool_input": {"file_path": "/w/.env",
                                           "content": ENV_NOTE.format("/w/.env")}}),
    ("a Read of .env.local drops the response",
     {"tool_name": "Read", "tool_input": {"file_path": ".env.local"},
      "tool_response": {"file": {"content": "DB=postgres"}}},
     {"tool_name": "Read", "tool_input": {"file_path": ".env.local"},
      "tool_response": {"file": {"content": ENV_NOTE.format(".env.local")}}}),
    ("Copilot's create of a .pem",
     {"toolName": "create", "toolArgs": {"path": "certs/server.pem", "file_text": "abc"}},
     {"toolName": "create", "toolArgs": {"path": "certs/server.pem",
                                         "file_text": ENV_NOTE.format("certs/server.pem")}}),
    ("Antigravity's view of id_rsa",
     {"toolCall": {"name": "view_file", "args": {"AbsolutePath": "/h/.ssh/id_rsa"}},
      "toolResult": "-----BEGIN"},
     {"toolCall": {"name": "view_file", "args": {"AbsolutePath": "/h/.ssh/id_rsa"}},
      "toolResult": ENV_NOTE.format("/h/.ssh/id_rsa")}),
    ("an .envrc.example is not a secret file",
     {"tool_name": "Read", "tool_input": {"file_path": "docs/environment.md"},
      "tool_response": "text"},
     {"tool_name": "Read", "tool_input": {"file_path": "docs/environment.md"},
      "tool_response": "text"}),
    ("secrets anywhere in the payload",
     {"hook_event_name": "Stop", "last_assistant_message": "use TOKEN=abc",
      "nested": [{"x": "Bearer abcdefghijkl"}]},
     {"hook_event_name": "Stop", "last_assistant_message": f"use TOKEN={REDACTED}",
      "nested": [{"x": f"Bearer {REDACTED}"}]}),
    ("Copilot's toolArgs text cut and redacted, still a text",
     {"toolName": "create", "toolArgs": json.dumps({"path": "a.txt", "file_text": LONG,
                                                    "token": "abc"})},
     {"toolName": "create", "toolArgs": json.dumps({"path": "a.txt", "file_text": CUT,
                                                    "token": REDACTED}, ensure_ascii=False)}),
    ("Copilot's toolArgs text naming an .env",
     {"toolName": "view", "toolArgs": json.dumps({"path": ".env"})},
     {"toolName": "view", "toolArgs": json.dumps({"path": ".env"})}),
    ("a toolArgs that is no JSON stays a text",
     {"toolName": "bash", "toolArgs": "not json TOKEN=abc"},
     {"toolName": "bash", "toolArgs": f"not json TOKEN={REDACTED}"}),
    ("numbers and booleans kept",
     {"stop_hook_active": True, "stepIdx": 3, "token_count": 12},
     {"stop_hook_active": True, "stepIdx": 3, "token_count": 12}),
]


@pytest.mark.parametrize(("payload", "expected"), [(p, e) for _, p, e in PAYLOADS],
                         ids=[name for name, _, _ in PAYLOADS])
def test_payloads_are_redacted(payload: dict[str, Any], expected: dict[str, Any]) -> None:
    assert redact_payload(payload, PATTERNS) == expected


def test_the_payload_given_is_not_changed() -> None:
    payload = {"tool_name": "Write", "tool_input": {"file_path": ".env", "content": "A=1"}}
    redact_payload(payload, PATTERNS)
    assert payload == {"tool_name": "Write", "tool_input": {"file_path": ".env", "content": "A=1"}}


@pytest.mark.parametrize(("text", "limit", "expected"), [
    ("abc", 3, "abc"),
    ("abcd", 3, "abc…[agenthooks: 1 more characters cut]"),
    ("", 0, ""),
])
def test_cut(text: str, limit: int, expected: str) -> None:
    assert cut(text, limit) == expected
