"""Fake model servers for Claude Code, Gemini CLI, Codex, GitHub Copilot CLI, Qwen Code,
Mistral Vibe, Grok Build, OpenCode, Goose and Cline, and the runner that drives one host run.

Run as a script (`python fake_models.py SPEC.json`), usually as the first process of a fresh
network namespace: it brings the loopback interface up, serves the fake model API on 127.0.0.1,
starts the host CLI with the spec's argv and environment (the base URL pointing at the server),
waits for it under a time limit, then writes what happened to the spec's `result` file: every
request the server received (path and JSON body), the CONNECT targets a proxy-aware client
tried (the server is also the HTTP(S) proxy, so any attempt to leave the machine is recorded and
refused), the host's stdout, stderr and exit status.

The model's behaviour is a script: a list of turns, one per main-loop request (a request that
offers tools), each either {"text": "..."} or {"tool_calls": [{"name": ..., "input": ...}]}.
Once the script is used up, every further main-loop request gets the text in `fallback_text`.
Requests that offer no tools (a title or summary request) get a short text and do not consume
a turn, so the script counts only the agent's own turns; so do the side requests that offer
tools (`side_request`: Grok Build's).
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import signal
import socket
import struct
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlsplit

FALLBACK_TEXT = "Nothing more to do."
SIDE_TEXT = "ok"


class Recorder:
    """What the server saw, shared by its handler threads."""

    def __init__(self, script: list[dict[str, Any]], fallback_text: str) -> None:
        self.lock = threading.Lock()
        self.requests: list[dict[str, Any]] = []
        self.connects: list[str] = []
        self.script = script
        self.fallback_text = fallback_text
        self.main_turns = 0

    def record(self, method: str, path: str, body: Any) -> None:
        with self.lock:
            self.requests.append({"method": method, "path": path, "body": body,
                                  "time": time.time()})

    def next_turn(self) -> dict[str, Any]:
        with self.lock:
            index = self.main_turns
            self.main_turns += 1
        if index < len(self.script):
            return self.script[index]
        return {"text": self.fallback_text}


# -- Anthropic Messages API -------------------------------------------------------------------


def anthropic_blocks(turn: dict[str, Any], turn_number: int) -> tuple[list[dict[str, Any]], str]:
    blocks: list[dict[str, Any]] = []
    if turn.get("text"):
        blocks.append({"type": "text", "text": turn["text"]})
    for n, call in enumerate(turn.get("tool_calls", ())):
        blocks.append({"type": "tool_use", "id": f"toolu_fake_{turn_number}_{n}",
                       "name": call["name"], "input": call["input"]})
    stop = "tool_use" if turn.get("tool_calls") else "end_turn"
    return blocks, stop


def anthropic_sse(blocks: list[dict[str, Any]], stop: str, model: str, message_id: str) -> bytes:
    events: list[tuple[str, dict[str, Any]]] = [("message_start", {
        "type": "message_start",
        "message": {"id": message_id, "type": "message", "role": "assistant", "model": model,
                    "content": [], "stop_reason": None, "stop_sequence": None,
                    "usage": {"input_tokens": 20, "output_tokens": 1,
                              "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}},
    })]
    for index, block in enumerate(blocks):
        if block["type"] == "text":
            events.append(("content_block_start", {
                "type": "content_block_start", "index": index,
                "content_block": {"type": "text", "text": ""}}))
            events.append(("content_block_delta", {
                "type": "content_block_delta", "index": index,
                "delta": {"type": "text_delta", "text": block["text"]}}))
        else:
            events.append(("content_block_start", {
                "type": "content_block_start", "index": index,
                "content_block": {"type": "tool_use", "id": block["id"], "name": block["name"],
                                  "input": {}}}))
            events.append(("content_block_delta", {
                "type": "content_block_delta", "index": index,
                "delta": {"type": "input_json_delta",
                          "partial_json": json.dumps(block["input"])}}))
        events.append(("content_block_stop", {"type": "content_block_stop", "index": index}))
    events.append(("message_delta", {
        "type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None},
        "usage": {"output_tokens": 10}}))
    events.append(("message_stop", {"type": "message_stop"}))
    return b"".join(f"event: {name}\ndata: {json.dumps(data)}\n\n".encode()
                    for name, data in events)


def answer_anthropic(recorder: Recorder, path: str, body: Any) -> tuple[int, str, bytes]:
    route = urlsplit(path).path
    if route.endswith("/count_tokens"):
        return 200, "application/json", json.dumps({"input_tokens": 20}).encode()
    if route != "/v1/messages" or not isinstance(body, dict):
        return 404, "application/json", json.dumps(
            {"type": "error", "error": {"type": "not_found_error", "message": route}}).encode()
    main = bool(body.get("tools"))
    turn = recorder.next_turn() if main else {"text": SIDE_TEXT}
    number = len(recorder.requests)
    blocks, stop = anthropic_blocks(turn, number)
    model = str(body.get("model", "claude-fake"))
    message_id = f"msg_fake_{number}"
    if body.get("stream"):
        return 200, "text/event-stream", anthropic_sse(blocks, stop, model, message_id)
    message = {"id": message_id, "type": "message", "role": "assistant", "model": model,
               "content": blocks, "stop_reason": stop, "stop_sequence": None,
               "usage": {"input_tokens": 20, "output_tokens": 10}}
    return 200, "application/json", json.dumps(message).encode()


# -- Gemini API -------------------------------------------------------------------------------


def gemini_response(turn: dict[str, Any], model: str) -> dict[str, Any]:
    parts: list[dict[str, Any]] = []
    if turn.get("text"):
        parts.append({"text": turn["text"]})
    parts.extend({"functionCall": {"name": call["name"], "args": call["input"]}}
                 for call in turn.get("tool_calls", ()))
    return {"candidates": [{"content": {"role": "model", "parts": parts},
                            "finishReason": "STOP", "index": 0}],
            "usageMetadata": {"promptTokenCount": 20, "candidatesTokenCount": 10,
                              "totalTokenCount": 30},
            "modelVersion": model}


def answer_gemini(recorder: Recorder, path: str, body: Any) -> tuple[int, str, bytes]:
    route = urlsplit(path).path
    model, _, method = route.rpartition("/")[2].partition(":")
    if method == "countTokens":
        return 200, "application/json", json.dumps({"totalTokens": 20}).encode()
    if method not in ("streamGenerateContent", "generateContent") or not isinstance(body, dict):
        return 404, "application/json", json.dumps(
            {"error": {"code": 404, "message": route, "status": "NOT_FOUND"}}).encode()
    main = bool(body.get("tools"))
    turn = recorder.next_turn() if main else {"text": SIDE_TEXT}
    if not main and body.get("generationConfig", {}).get("responseMimeType") == "application/json":
        # A side request that wants JSON (a check whether the model should speak again):
        # answer that the user speaks next, so no extra turn is started.
        turn = {"text": json.dumps({"reasoning": "done", "next_speaker": "user"})}
    response = gemini_response(turn, model)
    if method == "streamGenerateContent":
        return 200, "text/event-stream", f"data: {json.dumps(response)}\n\n".encode()
    return 200, "application/json", json.dumps(response).encode()


# -- OpenAI Responses API (Codex) -------------------------------------------------------------

# Codex offers its shell under one of these names, depending on version and model family
# (codex-rs/core tools: `shell_command` {command, workdir}, `exec_command` {cmd, workdir},
# the older `shell` {command: [argv]}). A scripted call named "shell" is sent to whichever the
# request advertises, its "command" moved to that tool's argument.
CODEX_SHELL_TOOLS = ("shell_command", "exec_command", "shell")


def tool_names(body: dict[str, Any]) -> list[str]:
    names = []
    for tool in body.get("tools") or ():
        if isinstance(tool, dict):
            names.append(str(tool.get("name") or (tool.get("function") or {}).get("name", "")))
    return names


def side_request(body: dict[str, Any]) -> bool:
    """A request that offers tools but is not an agent's turn: Grok Build's session title (its
    `tool_choice` forces the `session_title` tool) and its turn summary (the last message asks
    for "an ultra-short dashboard line"; off with GROK_TURN_SUMMARY=0)."""
    if isinstance(body.get("tool_choice"), dict):
        return True
    messages = body.get("messages")
    last = messages[-1] if isinstance(messages, list) and messages else None
    content = last.get("content") if isinstance(last, dict) else None
    return isinstance(content, str) and "ultra-short dashboard line" in content


def codex_shell_call(call: dict[str, Any], offered: list[str]) -> tuple[str, dict[str, Any]]:
    if call["name"] != "shell":
        return call["name"], call["input"]
    command = call["input"]["command"]
    for name in CODEX_SHELL_TOOLS:
        if name in offered:
            if name == "exec_command":
                return name, {"cmd": command}
            if name == "shell":
                return name, {"command": ["bash", "-lc", command]}
            return name, {"command": command}
    return "shell_command", {"command": command}


def responses_events(turn: dict[str, Any], offered: list[str], number: int,
                     model: str) -> list[dict[str, Any]]:
    response_id = f"resp_fake_{number}"
    events: list[dict[str, Any]] = [{"type": "response.created",
                                     "response": {"id": response_id, "model": model}}]
    if turn.get("text"):
        events.append({"type": "response.output_item.done", "item": {
            "type": "message", "role": "assistant", "id": f"msg_fake_{number}",
            "content": [{"type": "output_text", "text": turn["text"]}]}})
    for n, call in enumerate(turn.get("tool_calls", ())):
        name, arguments = codex_shell_call(call, offered)
        events.append({"type": "response.output_item.done", "item": {
            "type": "function_call", "id": f"fc_fake_{number}_{n}",
            "call_id": f"call_fake_{number}_{n}", "name": name,
            "arguments": json.dumps(arguments)}})
    events.append({"type": "response.completed", "response": {
        "id": response_id,
        "usage": {"input_tokens": 20, "input_tokens_details": None, "output_tokens": 10,
                  "output_tokens_details": None, "total_tokens": 30}}})
    return events


def answer_openai(recorder: Recorder, path: str, body: Any) -> tuple[int, str, bytes]:
    route = urlsplit(path).path
    if route != "/v1/responses" or not isinstance(body, dict):
        return 404, "application/json", json.dumps(
            {"error": {"message": route, "type": "invalid_request_error"}}).encode()
    offered = tool_names(body)
    main = bool(offered)
    turn = recorder.next_turn() if main else {"text": SIDE_TEXT}
    events = responses_events(turn, offered, len(recorder.requests), str(body.get("model")))
    return 200, "text/event-stream", b"".join(
        f"event: {event['type']}\ndata: {json.dumps(event)}\n\n".encode() for event in events)


# -- OpenAI Chat Completions API (GitHub Copilot CLI with a BYOK provider) ---------------------


def chat_chunks(turn: dict[str, Any], number: int, model: str) -> list[dict[str, Any]]:
    """One streamed assistant turn as Chat Completions chunks: its text, then its tool calls
    (each call's arguments a JSON string), then the finish reason and the usage."""
    base = {"id": f"chatcmpl-fake-{number}", "object": "chat.completion.chunk",
            "created": 0, "model": model}
    chunks = [{**base, "choices": [{"index": 0, "delta": {"role": "assistant", "content": ""},
                                    "finish_reason": None}]}]
    if turn.get("text"):
        chunks.append({**base, "choices": [{"index": 0, "delta": {"content": turn["text"]},
                                            "finish_reason": None}]})
    calls = turn.get("tool_calls", ())
    for n, call in enumerate(calls):
        delta = {"tool_calls": [{"index": n, "id": f"call_fake_{number}_{n}", "type": "function",
                                 "function": {"name": call["name"],
                                              "arguments": json.dumps(call["input"])}}]}
        chunks.append({**base, "choices": [{"index": 0, "delta": delta, "finish_reason": None}]})
    chunks.append({**base, "choices": [{"index": 0, "delta": {},
                                        "finish_reason": "tool_calls" if calls else "stop"}]})
    chunks.append({**base, "choices": [], "usage": {"prompt_tokens": 20, "completion_tokens": 10,
                                                    "total_tokens": 30}})
    return chunks


def chat_message(turn: dict[str, Any], number: int, model: str) -> dict[str, Any]:
    """The same turn, unstreamed."""
    message: dict[str, Any] = {"role": "assistant", "content": turn.get("text") or None}
    calls = [{"id": f"call_fake_{number}_{n}", "type": "function",
              "function": {"name": call["name"], "arguments": json.dumps(call["input"])}}
             for n, call in enumerate(turn.get("tool_calls", ()))]
    if calls:
        message["tool_calls"] = calls
    return {"id": f"chatcmpl-fake-{number}", "object": "chat.completion", "created": 0,
            "model": model, "choices": [{"index": 0, "message": message,
                                         "finish_reason": "tool_calls" if calls else "stop"}],
            "usage": {"prompt_tokens": 20, "completion_tokens": 10, "total_tokens": 30}}


def answer_chat(recorder: Recorder, path: str, body: Any) -> tuple[int, str, bytes]:
    route = urlsplit(path).path
    if not route.endswith("/chat/completions") or not isinstance(body, dict):
        return 404, "application/json", json.dumps(
            {"error": {"message": route, "type": "invalid_request_error"}}).encode()
    main = bool(tool_names(body)) and not side_request(body)
    turn = recorder.next_turn() if main else {"text": SIDE_TEXT}
    number, model = len(recorder.requests), str(body.get("model"))
    if not body.get("stream"):
        return 200, "application/json", json.dumps(chat_message(turn, number, model)).encode()
    return 200, "text/event-stream", b"".join(
        f"data: {json.dumps(chunk)}\n\n".encode() for chunk in chat_chunks(turn, number, model)
    ) + b"data: [DONE]\n\n"


ANSWERS = {"anthropic": answer_anthropic, "gemini": answer_gemini, "openai": answer_openai,
           "chat": answer_chat}
# The API each host speaks.
HOST_API = {"claude": "anthropic", "gemini": "gemini", "codex": "openai", "copilot": "chat",
            "qwen": "chat", "vibe": "chat", "grok": "chat", "opencode": "chat",
            "goose": "chat", "cline": "chat"}


# -- The server -------------------------------------------------------------------------------


def make_handler(recorder: Recorder, api: str) -> type[BaseHTTPRequestHandler]:
    answer = ANSWERS[api]

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            pass  # the recorder keeps what matters

        def send(self, status: int, content_type: str, payload: bytes) -> None:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def do_CONNECT(self) -> None:
            # Used as HTTPS_PROXY: anything the host tries to reach outside gets a 403.
            with recorder.lock:
                recorder.connects.append(self.path)
            self.send(403, "text/plain", b"offline test: no outside connections\n")
            self.close_connection = True

        def do_GET(self) -> None:
            recorder.record("GET", self.path, None)
            if api in ("openai", "chat") and urlsplit(self.path).path == "/v1/models":
                # Codex asks for the provider's model list; an empty one keeps its defaults.
                self.send(200, "application/json", b'{"object": "list", "data": []}')
                return
            self.send(404, "application/json", b"{}")

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            try:
                body = json.loads(raw) if raw else None
            except ValueError:
                body = raw.decode("utf-8", "replace")
            recorder.record("POST", self.path, body)
            status, content_type, payload = answer(recorder, self.path, body)
            self.send(status, content_type, payload)

    return Handler


class FakeModelServer:
    """A fake model API on 127.0.0.1, on a free port, served from a daemon thread."""

    def __init__(self, api: str, script: list[dict[str, Any]],
                 fallback_text: str = FALLBACK_TEXT) -> None:
        self.recorder = Recorder(script, fallback_text)
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), make_handler(self.recorder, api))
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self) -> FakeModelServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


# -- The runner -------------------------------------------------------------------------------

SIOCGIFFLAGS = 0x8913
SIOCSIFFLAGS = 0x8914
IFF_UP = 0x1


def loopback_up() -> None:
    """`ip link set lo up` without the ip tool: a new network namespace starts with lo down."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        request = struct.pack("16sh", b"lo", 0)
        flags = struct.unpack("16sh", fcntl.ioctl(s, SIOCGIFFLAGS, request))[1]
        if not flags & IFF_UP:
            fcntl.ioctl(s, SIOCSIFFLAGS, struct.pack("16sh", b"lo", flags | IFF_UP))


def run(spec: dict[str, Any]) -> dict[str, Any]:
    if spec.get("netns"):
        loopback_up()
    api = HOST_API[spec["host"]]
    with FakeModelServer(api, spec["script"], spec.get("fallback_text", FALLBACK_TEXT)) as server:
        env = {key: value.replace("{URL}", server.url) for key, value in spec["env"].items()}
        # A host configured by command-line options (Codex: -c model_providers...) gets the
        # address there too.
        argv = [arg.replace("{URL}", server.url) for arg in spec["argv"]]
        # ... and one configured by a file (Mistral Vibe's config.toml) in that file.
        for path in spec.get("url_files", ()):
            with open(path, encoding="utf-8") as f:
                text = f.read()
            with open(path, "w", encoding="utf-8") as f:
                f.write(text.replace("{URL}", server.url))
        started = time.monotonic()
        process = subprocess.Popen(argv, cwd=spec["cwd"], env=env,
                                   stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, start_new_session=True)
        timed_out = False
        try:
            stdout, stderr = process.communicate(timeout=spec["timeout"])
        except subprocess.TimeoutExpired:
            timed_out = True
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            stdout, stderr = process.communicate()
        finally:
            # Whatever the host left behind in its group (a hook still running) goes too.
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
        with server.recorder.lock:
            return {
                "returncode": process.returncode,
                "timed_out": timed_out,
                "seconds": round(time.monotonic() - started, 2),
                "stdout": stdout.decode("utf-8", "replace"),
                "stderr": stderr.decode("utf-8", "replace"),
                "requests": list(server.recorder.requests),
                "connects": list(server.recorder.connects),
                "url": server.url,
            }


def main(argv: list[str]) -> int:
    with open(argv[0], encoding="utf-8") as f:
        spec = json.load(f)
    result = run(spec)
    with open(spec["result"], "w", encoding="utf-8") as f:
        json.dump(result, f)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
