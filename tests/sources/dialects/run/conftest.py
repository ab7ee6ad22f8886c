"""Helpers for running Claude Code and Gemini CLI handlers in a temporary project."""

from __future__ import annotations

import json
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from threading import Thread
from typing import Any

import pytest

from tests.support import workspace

FOLDERS = {"claude": ".claude", "gemini": ".gemini"}


def group(*handlers: dict[str, Any], matcher: str | None = None,
          **extra: Any) -> dict[str, Any]:
    found: dict[str, Any] = {"hooks": list(handlers), **extra}
    if matcher is not None:
        found["matcher"] = matcher
    return found


def cmd(command: str, **extra: Any) -> dict[str, Any]:
    return {"type": "command", "command": command, **extra}


def write_settings(root: Path, dialect: str, hooks: dict[str, list[dict[str, Any]]],
                   name: str = "settings.json", **top: Any) -> Path:
    path = root / FOLDERS[dialect] / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"hooks": hooks, **top}), encoding="utf-8")
    return path


def write_hooks_json(root: Path, hooks: dict[str, Any]) -> Path:
    return workspace(root, {".agents/hooks.json": hooks}) / ".agents" / "hooks.json"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return workspace(tmp_path / "project", {})


class Server:
    """A local HTTP server: answers each POST with the status and body set on it."""

    def __init__(self) -> None:
        self.status = 200
        self.body = b"{}"
        self.delay = 0.0
        self.requests: list[tuple[dict[str, str], bytes]] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                import time

                length = int(self.headers.get("Content-Length") or 0)
                server.requests.append((dict(self.headers), self.rfile.read(length)))
                time.sleep(server.delay)
                self.send_response(server.status)
                self.send_header("Content-Type", "application/json")
                self.end_headers()
                self.wfile.write(server.body)

            def log_message(self, *args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/hook"
        self.thread = Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join()


@pytest.fixture
def server() -> Iterator[Server]:
    found = Server()
    try:
        yield found
    finally:
        found.close()
