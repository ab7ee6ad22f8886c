"""Raw HTTP servers on 127.0.0.1 for the http handler tests: each does one thing a hook
server (or a proxy) may do wrong, byte by byte, in threads that end when the test does.

A Claude Code settings file with one `http` handler, and a real `agenthooks run` of it.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

PAYLOAD = json.dumps({"tool_name": "Bash", "tool_input": {"command": "ls"}})
PROXY_NAMES = ("http_proxy", "https_proxy", "no_proxy", "all_proxy")


class RawServer:
    """Accepts on 127.0.0.1; every connection goes to `serve(connection, server)` in a thread.
    `requests` keeps the head and body of each request read by `read_request`."""

    def __init__(self, serve: Callable[[socket.socket, RawServer], None]) -> None:
        self.serve = serve
        self.requests: list[tuple[bytes, bytes]] = []
        self.stopped = threading.Event()
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.listener.settimeout(0.1)
        self.port = self.listener.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}/hook"
        self.threads: list[threading.Thread] = []
        self.acceptor = threading.Thread(target=self._accept, daemon=True)
        self.acceptor.start()

    def _accept(self) -> None:
        while not self.stopped.is_set():
            try:
                connection, _ = self.listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            thread = threading.Thread(target=self._serve, args=(connection,), daemon=True)
            self.threads.append(thread)
            thread.start()

    def _serve(self, connection: socket.socket) -> None:
        # OSError: the client went away, which is the client's business.
        with connection, contextlib.suppress(OSError):
            self.serve(connection, self)

    def read_request(self, connection: socket.socket) -> tuple[bytes, bytes]:
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = connection.recv(65536)
            if not chunk:
                break
            data += chunk
        head, _, body = data.partition(b"\r\n\r\n")
        length = next((int(line.split(b":")[1]) for line in head.split(b"\r\n")
                       if line.lower().startswith(b"content-length:")), 0)
        while len(body) < length:
            chunk = connection.recv(65536)
            if not chunk:
                break
            body += chunk
        self.requests.append((head, body))
        return head, body

    def pause(self, seconds: float) -> bool:
        """Sleep unless the test is over; False when it is."""
        return not self.stopped.wait(seconds)

    def close(self) -> None:
        self.stopped.set()
        self.acceptor.join()
        self.listener.close()
        for thread in self.threads:
            thread.join()


@pytest.fixture
def servers() -> Iterator[Callable[[Callable[[socket.socket, RawServer], None]], RawServer]]:
    """Starts raw servers; every one is stopped and joined when the test ends."""
    started: list[RawServer] = []

    def start(serve: Callable[[socket.socket, RawServer], None]) -> RawServer:
        server = RawServer(serve)
        started.append(server)
        return server

    try:
        yield start
    finally:
        for server in started:
            server.close()


def respond(status: str, body: bytes, *headers: str) -> Callable[[socket.socket, RawServer],
                                                                  None]:
    """A server that reads the request and answers `status` with `body`."""
    def serve(connection: socket.socket, server: RawServer) -> None:
        server.read_request(connection)
        lines = [f"HTTP/1.1 {status}", f"Content-Length: {len(body)}", "Connection: close",
                 *headers]
        connection.sendall(("\r\n".join(lines) + "\r\n\r\n").encode() + body)

    return serve


def run_hook(project: Path, url: str, *args: str, timeout: float = 2,
             env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """`agenthooks run PreToolUse` of a Claude Code settings file with one http handler; no
    proxy variable from the test's environment, only those in `env`."""
    settings = project / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True, exist_ok=True)
    settings.write_text(json.dumps({"hooks": {"PreToolUse": [
        {"hooks": [{"type": "http", "url": url, "timeout": timeout}]}]}}))
    clean = {key: value for key, value in os.environ.items()
             if key.lower() not in PROXY_NAMES and not key.startswith("AGENTHOOKS_")}
    return subprocess.run([sys.executable, "-m", "agenthooks", "run", "PreToolUse",
                           "--workspace", str(project), *args],
                          input=PAYLOAD, capture_output=True, text=True, cwd=project,
                          env={**clean, **(env or {})}, timeout=30, check=False)


def drip(data: bytes, every: float) -> Callable[[socket.socket, RawServer], None]:
    """A server that sends `data` one byte at a time, then one more byte forever."""
    def serve(connection: socket.socket, server: RawServer) -> None:
        server.read_request(connection)
        for byte in data:
            connection.sendall(bytes([byte]))
            if not server.pause(every):
                return
        while server.pause(every):
            connection.sendall(b" ")

    return serve
