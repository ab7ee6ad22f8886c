"""Claude Code's `http` handlers: POST the payload, read the response body as the answer.

The body is read as a command's stdout after exit 0 (`kinds.protocols.claude`). A non-2xx
status, a connection error or a timeout is a failed handler: a non-blocking error, as Claude
Code treats it (its hooks reference, "HTTP response handling": "non-2xx responses, connection
failures, and timeouts all produce non-blocking errors"), and a failure under fail-closed.
That reference says nothing of redirects: a 3xx is a non-2xx response here, never followed.
A body cut short of its Content-Length is a failure too, never the answer. Header values may
name environment variables (`$VAR`, `${VAR}`); only those listed in `allowedEnvVars` are
filled in, the others are empty, as Claude Code does.

Each request runs in its own thread, started before the command handlers and joined after
them, so both kinds run at the same time; `timeout` bounds the whole request (`Call`). Only
http and https URLs are POSTed to; loopback never goes through a proxy (`proxy_for`).
"""

from __future__ import annotations

import contextlib
import os
import re
import socket
import threading
import time
from collections.abc import Mapping, Sequence

from agenthooks._lean.records import NamedTuple
from agenthooks.executor import ProcessResult
from agenthooks.model.handlers import Answer, Handler

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_VARIABLE = re.compile(r"\$\{(\w+)\}|\$(\w+)")
BODY_LIMIT = 1024 * 1024  # as a command's stdout
SCHEMES = {"http": 80, "https": 443}  # the only URLs a handler POSTs to, and their ports
# How long past a request's deadline the waiter gives the cut request to end on its own.
CUT_GRACE = 0.05


def headers_of(handler: Handler, environ: Mapping[str, str]) -> dict[str, str]:
    """The handler's headers, with the variables it is allowed to read filled in."""
    options = dict(handler.options)
    allowed = {str(name) for name in _items(options.get("allowedEnvVars"))}
    given = [pair for pair in _items(options.get("headers"))
             if isinstance(pair, tuple) and len(pair) == 2]

    def fill(text: str) -> str:
        def value(match: re.Match[str]) -> str:
            name = match.group(1) or match.group(2)
            return environ.get(name, "") if name in allowed else ""

        return _VARIABLE.sub(value, text)

    return {str(key): fill(str(value)) for key, value in given}


def _items(value: object) -> tuple[Any, ...]:
    return value if isinstance(value, tuple) else ()


class Call:
    """One request in flight: its deadline, and its socket, so the waiter can cut it there.

    The socket's descriptor is known only while the request owns it (`attach` .. `detach`,
    under the lock), so a late `cut` never touches a descriptor reused for something else.
    """

    def __init__(self, timeout: float) -> None:
        self.deadline = time.monotonic() + timeout
        self.lock = threading.Lock()
        self.fd: int | None = None
        self.cut_off = False

    def left(self) -> float:
        """Seconds to the deadline; a little above 0 once past it, so a socket timeout of 0
        (non-blocking) never replaces it."""
        return max(self.deadline - time.monotonic(), 0.001)

    def attach(self, sock: socket.socket) -> socket.socket:
        with self.lock:
            self.fd = sock.fileno()
            if self.cut_off:
                self._shutdown()
        return sock

    def detach(self) -> None:
        with self.lock:
            self.fd = None

    def cut(self) -> None:
        """The deadline passed: wake the request wherever it waits (headers, body, TLS)."""
        with self.lock:
            self.cut_off = True
            self._shutdown()

    def _shutdown(self) -> None:
        if self.fd is None:
            return
        # A duplicate of the descriptor: shutdown acts on the connection, which every
        # descriptor of it shares, and closing the duplicate leaves the request's own alone.
        with contextlib.suppress(OSError), socket.socket(fileno=os.dup(self.fd)) as twin:
            twin.shutdown(socket.SHUT_RDWR)


def post(handler: Handler, data: bytes, environ: Mapping[str, str],
         call: Call | None = None) -> ProcessResult:
    """POST `data` to the handler's url: an exit-0-like result with the body as stdout, or a
    not-started/timeout/exit-1 result whose `error` says what went wrong.

    `timeout` bounds the whole request (connect, send, headers, body): each socket operation
    waits only for what is left, and the waiter (`Requests.answers`) cuts the socket at the
    deadline. A body shorter than its Content-Length is a failure, as is any status but 2xx:
    a redirect is not followed.
    """
    import http.client

    call = Call(handler.timeout) if call is None else call
    started = time.perf_counter()

    def took() -> float:
        return (time.perf_counter() - started) * 1000.0

    try:
        target = parse_url(handler.command)
    except ValueError as exc:
        return _failed("not-started", took(), f"cannot POST: {exc}")
    headers = {"Content-Type": "application/json", **headers_of(handler, environ)}
    try:
        status, reason, body = _exchange(target, data, headers, environ, call)
    except TimeoutError:
        return _failed("timeout", took(), "timed out")
    except (http.client.HTTPException, OSError, ValueError) as exc:
        if call.cut_off:
            return _failed("timeout", took(), "timed out")
        status, error = _failure(exc)
        return _failed(status, took(), error)
    if not 200 <= status < 300:
        hint = "; redirects are not followed" if 300 <= status < 400 else ""
        return _failed("exited", took(), f"HTTP {status} {reason}{hint}")
    cut = len(body) > BODY_LIMIT
    return ProcessResult("exited", 0, None, body[:BODY_LIMIT], b"", cut, False, took())


def _failure(exc: BaseException) -> tuple[Any, str]:
    """The status and words of a request that did not complete."""
    import http.client

    if isinstance(exc, http.client.IncompleteRead):
        if exc.expected is None:  # chunked: the server closed before the last chunk
            return "exited", ("the response ended before its last chunk; a cut answer is not "
                              "an answer")
        expected = len(exc.partial) + exc.expected
        return "exited", (f"the response ended after {len(exc.partial)} of {expected} bytes "
                          "(Content-Length); a cut answer is not an answer")
    if isinstance(exc, (http.client.HTTPException, ValueError)):
        return "exited", f"bad response: {exc or type(exc).__name__}"
    if isinstance(exc, ConnectionRefusedError) or getattr(exc, "errno", None) is not None:
        return "not-started", f"cannot connect: {exc}"
    return "not-started", f"cannot POST: {exc}"


class Target(NamedTuple):
    scheme: str
    host: str
    port: int
    path: str  # with the query


def parse_url(url: str) -> Target:
    """The parts of an http or https URL; ValueError for any other."""
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme not in SCHEMES:
        raise ValueError(f"only http and https URLs are POSTed to, not {scheme or 'no'}: "
                         f"{url!r}")
    if not parts.hostname:
        raise ValueError(f"{url!r} names no host")
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return Target(scheme, parts.hostname, parts.port or SCHEMES[scheme], path)


def _exchange(target: Target, data: bytes, headers: dict[str, str],
              environ: Mapping[str, str], call: Call) -> tuple[int, str, bytes]:
    """Status, reason and body (at most BODY_LIMIT + 1 bytes) of one POST."""
    import http.client

    proxy = proxy_for(target, environ)
    connection = _connection(target, proxy, call)
    try:
        # Through a proxy to an http URL the request line names the whole URL.
        where = (f"http://{_netloc(target)}{target.path}"
                 if proxy is not None and target.scheme == "http" else target.path)
        connection.request("POST", where, body=data, headers=headers)
        _wait_left(connection, call)
        response = connection.getresponse()
        body = bytearray()
        while len(body) <= BODY_LIMIT:
            _wait_left(connection, call)
            chunk = response.read1(BODY_LIMIT + 1 - len(body))
            if not chunk:
                break
            body += chunk
        if response.length:  # the server closed before Content-Length bytes
            raise http.client.IncompleteRead(bytes(body), response.length)
        return response.status, response.reason, bytes(body)
    finally:
        call.detach()
        connection.close()


def _wait_left(connection: Any, call: Call) -> None:
    """Each socket operation from now waits at most for what is left of the deadline."""
    if call.cut_off:
        raise TimeoutError("timed out")
    if connection.sock is not None:
        connection.sock.settimeout(call.left())


def _netloc(target: Target) -> str:
    host = f"[{target.host}]" if ":" in target.host else target.host
    return host if target.port == SCHEMES[target.scheme] else f"{host}:{target.port}"


def _connection(target: Target, proxy: Proxy | None, call: Call) -> Any:
    """An open connection to the target, or through the proxy (a CONNECT tunnel for https)."""
    import http.client

    host, port = (target.host, target.port) if proxy is None else (proxy.host, proxy.port)
    if target.scheme == "https":
        import ssl

        connection: Any = http.client.HTTPSConnection(
            host, port, timeout=call.left(), context=ssl.create_default_context())
        if proxy is not None:
            connection.set_tunnel(target.host, target.port, headers=proxy.headers)
    else:
        connection = http.client.HTTPConnection(host, port, timeout=call.left())
        if proxy is not None:
            # The plain request goes to the proxy: its credentials go with it.
            connection.request = _with_headers(connection.request, proxy.headers)

    def create_connection(*args: Any, **kwargs: Any) -> socket.socket:
        return call.attach(socket.create_connection(*args, **kwargs))

    connection._create_connection = create_connection  # the socket, known to `Call.cut`
    connection.connect()
    return connection


def _with_headers(request: Any, extra: dict[str, str]) -> Any:
    def send(method: str, url: str, body: bytes, headers: dict[str, str]) -> None:
        request(method, url, body=body, headers={**headers, **extra})

    return send


class Proxy(NamedTuple):
    host: str
    port: int
    headers: dict[str, str]  # Proxy-Authorization when the proxy URL has credentials


def proxy_for(target: Target, environ: Mapping[str, str]) -> Proxy | None:
    """The proxy `http_proxy`/`https_proxy` name for this URL, or None.

    Loopback is never proxied: a hook server on this machine is reached directly, whatever
    the environment says. `no_proxy` (`NO_PROXY`) is honoured (`bypassed`). Lowercase names
    win over uppercase ones, as curl and urllib read them.
    """
    if is_loopback(target.host):
        return None
    found = _proxy_variables(environ)
    url = found.get(target.scheme)
    if not url or bypassed(target, found.get("no", "")):
        return None
    return _proxy(url)


_ENTRY_PORT = re.compile(r"(\[[^\]]*\]|[^:]+):(\d+)")


def bypassed(target: Target, no_proxy: str) -> bool:
    """Whether `no_proxy` names the target: `*`; a host or domain (`example.com` and
    `.example.com` cover its subdomains too), optionally with `:port`; an address or CIDR."""
    host = target.host.lower().rstrip(".")
    for entry in no_proxy.lower().replace(" ", "").split(","):
        if entry == "*":
            return True
        name, port = entry, None
        with_port = _ENTRY_PORT.fullmatch(entry)
        if with_port is not None:
            name, port = with_port.group(1), int(with_port.group(2))
        name = name.lstrip("*.").strip("[]").rstrip(".")
        if name and port in (None, target.port) and _names(name, host):
            return True
    return False


def _names(entry: str, host: str) -> bool:
    if host == entry or host.endswith("." + entry):
        return True
    if "/" not in entry:
        return False
    import ipaddress

    try:
        return ipaddress.ip_address(host) in ipaddress.ip_network(entry, strict=False)
    except ValueError:
        return False


def _proxy_variables(environ: Mapping[str, str]) -> dict[str, str]:
    """scheme -> proxy URL, and "no" -> the no_proxy list, from the environment."""
    found: dict[str, str] = {}
    for name in ("http", "https", "no"):
        value = environ.get(f"{name}_proxy") or environ.get(f"{name.upper()}_PROXY")
        if value:
            found[name] = value
    return found


def _proxy(url: str) -> Proxy:
    import base64
    from urllib.parse import unquote, urlsplit

    parts = urlsplit(url if "://" in url else f"http://{url}")
    if not parts.hostname:
        raise ValueError(f"the proxy {url!r} names no host")
    headers: dict[str, str] = {}
    if parts.username is not None:
        secret = f"{unquote(parts.username)}:{unquote(parts.password or '')}"
        headers["Proxy-Authorization"] = "Basic " + base64.b64encode(secret.encode()).decode()
    return Proxy(parts.hostname, parts.port or 80, headers)


def is_loopback(host: str) -> bool:
    """`localhost` (and names under it) or a loopback address, IPv4 or IPv6."""
    import ipaddress

    name = host.lower().rstrip(".")
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name.strip("[]")).is_loopback
    except ValueError:
        return False


def _failed(status: Any, ms: float, error: str) -> ProcessResult:
    return ProcessResult(status, 1 if status == "exited" else None, None, b"", b"", False,
                         False, ms, error)


def answer_of(handler: Handler, result: ProcessResult, event: str) -> Answer:
    """The answer of one request: the Claude Code protocol on a 2xx body, else a failure."""
    if result.error is None:
        from agenthooks.kinds.protocols.claude import answer

        return answer(handler, result, event)
    name = handler.hook or handler.command
    timed_out = result.status == "timeout"
    what = f"timed out after {handler.timeout:g} s" if timed_out else result.error
    return Answer(handler, "timeout" if timed_out else "warning",
                  duration_ms=result.duration_ms, failed=True,
                  warning=f"hook {name!r} POST {handler.command}: {what}")


class Requests:
    """The http handlers of one event, running in threads until `answers` joins them."""

    def __init__(self, jobs: Sequence[tuple[int, Handler, bytes]], event: str) -> None:
        self.event = event
        self.results: dict[int, ProcessResult] = {}
        self.handlers = {index: handler for index, handler, _ in jobs}
        self.calls = {index: Call(handler.timeout) for index, handler, _ in jobs}
        self.started = time.perf_counter()
        environ = dict(os.environ)
        self.threads = {
            index: threading.Thread(target=self._run, args=(index, handler, data, environ),
                                    name="agenthooks-http", daemon=True)
            for index, handler, data in jobs
        }
        for thread in self.threads.values():
            thread.start()

    def _run(self, index: int, handler: Handler, data: bytes,
             environ: Mapping[str, str]) -> None:
        try:
            self.results[index] = post(handler, data, environ, self.calls[index])
        except Exception as exc:  # a thread's error must reach the answer, not vanish
            self.results[index] = _failed("not-started", 0.0, f"cannot POST: {exc}")

    def answers(self) -> dict[int, Answer]:
        """Wait for every request, each until its deadline at most; one answer per handler
        position. A request still running at its deadline is cut and answers "timed out"."""
        found: dict[int, Answer] = {}
        for index, thread in self.threads.items():
            call = self.calls[index]
            thread.join(max(call.deadline - time.monotonic(), 0.0))
            if thread.is_alive():
                call.cut()  # wakes a read; a DNS lookup cannot be woken, only left behind
                thread.join(CUT_GRACE)
            result = self.results.get(index) if not thread.is_alive() else None
            if result is None or call.cut_off:
                took = (time.perf_counter() - self.started) * 1000.0
                result = _failed("timeout", took, "timed out")
            found[index] = answer_of(self.handlers[index], result, self.event)
        return found
