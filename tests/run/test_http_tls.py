"""https handlers against a real TLS server on 127.0.0.1, its certificate made by openssl for
the test and trusted through SSL_CERT_FILE: the answer, a certificate not trusted, and a
deadline that holds during the TLS handshake."""

from __future__ import annotations

import json
import shutil
import socket
import ssl
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from .httpservers import RawServer, run_hook, servers

__all__ = ["servers"]

Start = Callable[[Callable[[socket.socket, RawServer], None]], RawServer]
HELLO = b'{"systemMessage": "over tls"}'

pytestmark = pytest.mark.skipif(shutil.which("openssl") is None, reason="needs openssl")


@pytest.fixture
def certificate(tmp_path: Path) -> tuple[Path, Path]:
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                    "-subj", "/CN=localhost", "-addext",
                    "subjectAltName=DNS:localhost,IP:127.0.0.1",
                    "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True, timeout=60)
    return cert, key


def tls(cert: Path, key: Path, body: bytes) -> Callable[[socket.socket, RawServer], None]:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)

    def serve(connection: socket.socket, server: RawServer) -> None:
        with context.wrap_socket(connection, server_side=True) as secure:
            server.read_request(secure)
            secure.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % len(body)
                           + body)

    return serve


def record(connection: socket.socket, server: RawServer) -> None:
    """A proxy that only notes what it was sent."""
    server.read_request(connection)


def test_an_https_answer(servers: Start, tmp_path: Path,
                         certificate: tuple[Path, Path]) -> None:
    cert, key = certificate
    server = servers(tls(cert, key, HELLO))
    proxy = servers(record)
    url = f"https://localhost:{server.port}/hook"
    done = run_hook(tmp_path, url, "--fail-closed",
                    env={"SSL_CERT_FILE": str(cert), "https_proxy": f"127.0.0.1:{proxy.port}"})
    assert done.returncode == 0, done.stdout + done.stderr
    assert json.loads(done.stdout)["systemMessage"] == "over tls"
    assert proxy.requests == []  # loopback: never through the proxy


def test_a_certificate_not_trusted_is_a_failure(servers: Start, tmp_path: Path,
                                                certificate: tuple[Path, Path]) -> None:
    cert, key = certificate
    server = servers(tls(cert, key, HELLO))
    done = run_hook(tmp_path, f"https://localhost:{server.port}/hook", "--fail-closed")
    assert done.returncode == 2
    assert "certificate verify failed" in json.loads(done.stdout)["reason"]


def test_a_handshake_that_never_ends_is_cut(servers: Start, tmp_path: Path) -> None:
    def stalls(connection: socket.socket, server: RawServer) -> None:
        connection.recv(65536)  # the ClientHello, never answered
        server.pause(60)

    server = servers(stalls)
    done = run_hook(tmp_path, f"https://127.0.0.1:{server.port}/hook", "--fail-closed",
                    timeout=1)
    assert done.returncode == 2
    assert "timed out after 1 s" in json.loads(done.stdout)["reason"]
