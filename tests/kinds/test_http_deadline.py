"""An http handler's `timeout` bounds its whole request: a server that answers one byte at a
time, in the headers or in the body, is cut at the deadline (before, each byte restarted a
per-read timeout and the run never ended). Real `agenthooks run`, real servers."""

from __future__ import annotations

import json
import socket
from collections.abc import Callable
from pathlib import Path

import pytest

from .httpservers import RawServer, drip, run_hook, servers

pytestmark = pytest.mark.program

__all__ = ["servers"]

Start = Callable[[Callable[[socket.socket, RawServer], None]], RawServer]

HEADERS = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-Slow: "
BODY = b"HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n{\"systemMessage\": \""


@pytest.mark.parametrize("sent", [HEADERS, BODY], ids=["headers", "body"])
def test_a_dripping_server_is_cut_at_the_deadline(servers: Start, tmp_path: Path,
                                                  sent: bytes) -> None:
    server = servers(drip(sent, 0.05))
    # Before, this never ended: the subprocess timeout (30 s) ended the test instead.
    done = run_hook(tmp_path, server.url, "--fail-closed", timeout=2)
    assert done.returncode == 2, done.stderr
    reason = json.loads(done.stdout)["reason"]
    assert f"POST {server.url}: timed out after 2 s" in reason


def test_a_dripping_server_is_a_warning_when_not_failing_closed(servers: Start,
                                                               tmp_path: Path) -> None:
    server = servers(drip(BODY, 0.05))
    done = run_hook(tmp_path, server.url, timeout=1)
    assert done.returncode == 0
    assert f"POST {server.url}: timed out after 1 s" in done.stderr


def test_a_server_that_never_answers_is_cut_too(servers: Start, tmp_path: Path) -> None:
    def silent(connection: socket.socket, server: RawServer) -> None:
        server.read_request(connection)
        server.pause(60)

    server = servers(silent)
    done = run_hook(tmp_path, server.url, "--fail-closed", timeout=1)
    assert done.returncode == 2
    assert "timed out after 1 s" in json.loads(done.stdout)["reason"]
