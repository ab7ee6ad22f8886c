"""What an http handler's answer is: a body cut short of its Content-Length is a failure, a
redirect is not followed, only http and https URLs are POSTed to, loopback never goes through
a proxy and `no_proxy` is honoured. Real `agenthooks run`, real servers on 127.0.0.1."""

from __future__ import annotations

import json
import socket
from collections.abc import Callable
from pathlib import Path

import pytest

from agenthooks.kinds.http import Target, bypassed, is_loopback, parse_url, proxy_for

from .httpservers import RawServer, respond, run_hook, servers

pytestmark = pytest.mark.program

__all__ = ["servers"]

Start = Callable[[Callable[[socket.socket, RawServer], None]], RawServer]
DENY = json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse",
                                          "permissionDecision": "deny",
                                          "permissionDecisionReason": "from the proxy"}}).encode()
HELLO = b'{"systemMessage": "from the hook server"}'


def cut_short(connection: socket.socket, server: RawServer) -> None:
    server.read_request(connection)
    connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 200\r\n\r\n{}")


def test_a_body_cut_short_of_its_length_is_a_failure(servers: Start, tmp_path: Path) -> None:
    server = servers(cut_short)
    closed = run_hook(tmp_path, server.url, "--fail-closed")
    # Before, the two bytes `{}` were the whole answer: an allow.
    assert closed.returncode == 2, closed.stdout
    assert ("the response ended after 2 of 200 bytes (Content-Length); a cut answer is not "
            "an answer") in json.loads(closed.stdout)["reason"]
    opened = run_hook(tmp_path, server.url)
    assert opened.returncode == 0 and "the response ended after 2 of 200 bytes" in opened.stderr


@pytest.mark.parametrize("sent", [b"2\r\n{}\r\n", b"2\r\n{}\r\n10\r\n{\"decision\"",
                                  b"5\r\n{}"])
def test_a_chunked_body_cut_short_is_a_failure(servers: Start, tmp_path: Path,
                                               sent: bytes) -> None:
    def chunked(connection: socket.socket, server: RawServer) -> None:
        server.read_request(connection)
        connection.sendall(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + sent)

    server = servers(chunked)
    done = run_hook(tmp_path, server.url, "--fail-closed")
    assert done.returncode == 2, done.stdout
    assert ("the response ended before its last chunk; a cut answer is not an answer"
            in json.loads(done.stdout)["reason"])


def test_a_whole_chunked_body_is_the_answer(servers: Start, tmp_path: Path) -> None:
    def chunked(connection: socket.socket, server: RawServer) -> None:
        server.read_request(connection)
        connection.sendall(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                           + b"%x\r\n%s\r\n0\r\n\r\n" % (len(HELLO), HELLO))

    server = servers(chunked)
    done = run_hook(tmp_path, server.url, "--fail-closed")
    assert done.returncode == 0, done.stdout + done.stderr
    assert json.loads(done.stdout)["systemMessage"] == "from the hook server"


def test_a_whole_body_is_the_answer(servers: Start, tmp_path: Path) -> None:
    server = servers(respond("200 OK", HELLO))
    done = run_hook(tmp_path, server.url, "--fail-closed")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["systemMessage"] == "from the hook server"


@pytest.mark.parametrize("status", ["301 Moved Permanently", "302 Found", "303 See Other",
                                    "307 Temporary Redirect", "308 Permanent Redirect"])
def test_a_redirect_is_not_followed(servers: Start, tmp_path: Path, status: str) -> None:
    target = servers(respond("200 OK", b"{}"))
    server = servers(respond(status, b"", f"Location: {target.url}"))
    done = run_hook(tmp_path, server.url, "--fail-closed")
    assert done.returncode == 2
    assert f"HTTP {status}; redirects are not followed" in json.loads(done.stdout)["reason"]
    assert target.requests == []


@pytest.mark.parametrize("variable", ["http_proxy", "HTTP_PROXY"])
@pytest.mark.parametrize("host", ["127.0.0.1", "localhost"])
def test_loopback_never_goes_through_a_proxy(servers: Start, tmp_path: Path, variable: str,
                                             host: str) -> None:
    proxy = servers(respond("200 OK", DENY))
    hook = servers(respond("200 OK", HELLO))
    url = hook.url.replace("127.0.0.1", host)
    done = run_hook(tmp_path, url, "--fail-closed",
                    env={variable: f"http://127.0.0.1:{proxy.port}"})
    assert done.returncode == 0, done.stdout + done.stderr
    assert json.loads(done.stdout)["systemMessage"] == "from the hook server"
    assert proxy.requests == [] and len(hook.requests) == 1


def test_other_hosts_go_through_the_proxy(servers: Start, tmp_path: Path) -> None:
    proxy = servers(respond("200 OK", DENY))
    done = run_hook(tmp_path, "http://hooks.example.invalid:8080/gate?x=1",
                    env={"http_proxy": f"http://user:pw@127.0.0.1:{proxy.port}"})
    assert done.returncode == 2, done.stderr
    assert json.loads(done.stdout)["reason"] == "from the proxy"
    ((head, body),) = proxy.requests
    lines = head.decode().split("\r\n")
    assert lines[0] == "POST http://hooks.example.invalid:8080/gate?x=1 HTTP/1.1"
    assert "Proxy-Authorization: Basic dXNlcjpwdw==" in lines
    assert json.loads(body)["tool_name"] == "Bash"


@pytest.mark.parametrize("no_proxy", ["hooks.example.invalid", ".example.invalid", "*",
                                      "other.test, example.invalid:8080"])
@pytest.mark.parametrize("variable", ["no_proxy", "NO_PROXY"])
def test_no_proxy_is_honoured(servers: Start, tmp_path: Path, no_proxy: str,
                              variable: str) -> None:
    proxy = servers(respond("200 OK", DENY))
    done = run_hook(tmp_path, "http://hooks.example.invalid:8080/gate", "--fail-closed",
                    env={"http_proxy": f"127.0.0.1:{proxy.port}", variable: no_proxy})
    assert proxy.requests == []  # straight to a host that does not resolve
    assert done.returncode == 2
    assert "cannot connect" in json.loads(done.stdout)["reason"]


def target(url: str) -> Target:
    return parse_url(url)


@pytest.mark.parametrize(("url", "found"), [
    ("http://127.0.0.1:8080/hook", ("http", "127.0.0.1", 8080, "/hook")),
    ("HTTPS://Example.com/a?b=c", ("https", "example.com", 443, "/a?b=c")),
    ("http://[::1]/", ("http", "::1", 80, "/")),
    ("http://h", ("http", "h", 80, "/")),
])
def test_http_and_https_urls(url: str, found: tuple[str, str, int, str]) -> None:
    assert tuple(parse_url(url)) == found


@pytest.mark.parametrize("url", ["file:///etc/passwd", "data:,{}", "ftp://h/x", "/hook",
                                 "http:///nohost"])
def test_other_urls_are_refused(url: str) -> None:
    with pytest.raises(ValueError, match=r"only http and https|names no host"):
        parse_url(url)


@pytest.mark.parametrize(("host", "loopback"), [
    ("127.0.0.1", True), ("127.8.9.10", True), ("::1", True), ("localhost", True),
    ("LocalHost.", True), ("api.localhost", True), ("10.0.0.1", False),
    ("localhost.example.com", False), ("example.com", False), ("::ffff:8.8.8.8", False),
])
def test_loopback_hosts(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback


@pytest.mark.parametrize(("url", "no_proxy", "bypass"), [
    ("http://a.example.com/", "example.com", True),
    ("http://a.example.com/", ".example.com", True),
    ("http://a.example.com/", "*.example.com", True),
    ("http://example.com/", ".example.com", True),
    ("http://badexample.com/", "example.com", False),
    ("http://a.example.com:8080/", "example.com:8080", True),
    ("http://a.example.com:8081/", "example.com:8080", False),
    ("http://10.1.2.3/", "10.0.0.0/8", True),
    ("http://11.1.2.3/", "10.0.0.0/8", False),
    ("http://[fd00::1]:90/", "[fd00::1]:90", True),
    ("http://x.test/", "", False),
    ("http://x.test/", " a.test , x.test ", True),
    ("http://x.test/", "*", True),
])
def test_no_proxy_entries(url: str, no_proxy: str, bypass: bool) -> None:
    assert bypassed(target(url), no_proxy) is bypass


@pytest.mark.parametrize(("url", "environ", "proxy"), [
    ("http://x.test/", {"http_proxy": "http://p:3128"}, ("p", 3128)),
    ("http://x.test/", {"HTTP_PROXY": "p:3128"}, ("p", 3128)),
    ("http://x.test/", {"http_proxy": "http://low:1", "HTTP_PROXY": "http://up:2"}, ("low", 1)),
    ("https://x.test/", {"http_proxy": "http://p:3128"}, None),
    ("https://x.test/", {"https_proxy": "http://p:3128"}, ("p", 3128)),
    ("http://127.0.0.1/", {"http_proxy": "http://p:3128"}, None),
    ("http://localhost/", {"http_proxy": "http://p:3128"}, None),
    ("http://x.test/", {"http_proxy": "http://p:3128", "no_proxy": "x.test"}, None),
])
def test_the_proxy_of_a_url(url: str, environ: dict[str, str],
                            proxy: tuple[str, int] | None) -> None:
    found = proxy_for(target(url), environ)
    assert (found if found is None else (found.host, found.port)) == proxy
