"""Claude Code `http` handlers against a local server started by each test."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest

from agenthooks.api import EventResult, load_hooks
from tests.sources.dialects.run.conftest import Server, cmd, group, write_settings

BASH = {"tool_name": "Bash", "tool_input": {"command": "ls"}}


def http(url: str, **extra: object) -> dict[str, object]:
    return {"type": "http", "url": url, **extra}


def run(project: Path, *handlers: dict[str, object], fail_closed: bool = False) -> EventResult:
    write_settings(project, "claude", {"PreToolUse": [group(*handlers)]})
    hooks = load_hooks(workspaces=[str(project)], no_user=True)
    return hooks.run("PreToolUse", BASH, fail_closed=fail_closed)


def test_ok_response_is_the_answer(project: Path, server: Server) -> None:
    server.body = json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse",
                                                     "permissionDecision": "deny",
                                                     "permissionDecisionReason": "web"}}).encode()
    result = run(project, http(server.url))
    assert result.blocked and result.output["reason"] == "web"
    headers, body = server.requests[0]
    assert json.loads(body) == BASH and headers["Content-Type"] == "application/json"


def test_headers_expand_only_allowed_variables(project: Path, server: Server,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TOKEN", "secret")
    monkeypatch.setenv("OTHER", "leak")
    run(project, http(server.url, headers={"Authorization": "Bearer $TOKEN",
                                           "X-Other": "${OTHER}"}, allowedEnvVars=["TOKEN"]))
    headers = server.requests[0][0]
    assert headers["Authorization"] == "Bearer secret" and headers["X-Other"] == ""


def test_non_2xx_is_a_failed_handler(project: Path, server: Server) -> None:
    server.status = 500
    result = run(project, http(server.url))
    assert not result.blocked
    assert any("HTTP 500" in w for w in result.warnings) and result.handlers[0].failed
    closed = run(project, http(server.url), fail_closed=True)
    assert closed.blocked and "HTTP 500" in closed.output["reason"]


def test_connection_refused_is_a_failed_handler(project: Path) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    result = run(project, http(f"http://127.0.0.1:{port}/hook"))
    assert not result.blocked
    assert any("cannot connect" in w for w in result.warnings)


def test_timeout_is_a_failed_handler(project: Path, server: Server) -> None:
    server.delay = 3.0
    result = run(project, http(server.url, timeout=1))
    assert result.handlers[0].status == "timeout"
    assert any("timed out after 1 s" in w for w in result.warnings)


def test_http_runs_beside_processes(project: Path, server: Server) -> None:
    import time

    server.delay = 2.0
    server.body = b'{"systemMessage": "from web"}'
    started = time.monotonic()
    result = run(project, http(server.url), cmd("sleep 2; echo '{\"systemMessage\": \"sh\"}'"))
    took = time.monotonic() - started
    assert result.output["systemMessage"] == "from web\nsh"  # config order, not finish order
    assert took < 3.8  # one after the other would take 4 s
