"""https handlers against a real TLS server on 127.0.0.1, its certificate made by openssl for
the test and trusted through SSL_CERT_FILE: the answer, a certificate not trusted, and a
deadline that holds during the TLS handshake."""

from __future__ import annotations

import json
import selectors
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

pytestmark = [pytest.mark.program,
              pytest.mark.skipif(shutil.which("openssl") is None, reason="needs openssl")]


@pytest.fixture
def certificate(tmp_path: Path) -> tuple[Path, Path]:
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                    "-subj", "/CN=localhost", "-addext",
                    "subjectAltName=DNS:localhost,DNS:hooks.example.invalid,IP:127.0.0.1",
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


def tunnel_to(port: int) -> Callable[[socket.socket, RawServer], None]:
    """A CONNECT proxy that takes every tunnel to 127.0.0.1:`port`, whatever host it names."""
    def serve(connection: socket.socket, server: RawServer) -> None:
        server.read_request(connection)
        with socket.create_connection(("127.0.0.1", port)) as upstream:
            connection.sendall(b"HTTP/1.1 200 Connection established\r\n\r\n")
            relay(connection, upstream, server)

    return serve


def relay(one: socket.socket, other: socket.socket, server: RawServer) -> None:
    with selectors.DefaultSelector() as selector:
        selector.register(one, selectors.EVENT_READ, other)
        selector.register(other, selectors.EVENT_READ, one)
        while not server.stopped.is_set():
            for key, _ in selector.select(0.1):
                data = key.fileobj.recv(65536)  # type: ignore[union-attr]
                if not data:
                    return
                key.data.sendall(data)


def test_https_to_another_host_goes_through_the_proxy_tunnel(
    servers: Start, tmp_path: Path, certificate: tuple[Path, Path]
) -> None:
    cert, key = certificate
    hook = servers(tls(cert, key, HELLO))
    proxy = servers(tunnel_to(hook.port))
    done = run_hook(tmp_path, "https://hooks.example.invalid:8443/hook", "--fail-closed",
                    env={"SSL_CERT_FILE": str(cert),
                         "HTTPS_PROXY": f"http://me:secret@127.0.0.1:{proxy.port}"})
    assert done.returncode == 0, done.stdout + done.stderr
    assert json.loads(done.stdout)["systemMessage"] == "over tls"
    ((head, _),) = proxy.requests
    lines = head.decode().split("\r\n")
    assert lines[0].startswith("CONNECT hooks.example.invalid:8443 HTTP/1.")
    assert "Proxy-Authorization: Basic bWU6c2VjcmV0" in lines
    assert len(hook.requests) == 1
