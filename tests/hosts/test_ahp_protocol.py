"""The AHP v0.1 translation (`hosts.ahp.protocol`), as tables: messages read, events
checked, tool names given to the host that says them, verdicts written as effects."""

from __future__ import annotations

from typing import Any

import pytest

from agenthooks.combine.verdict import Verdict
from agenthooks.hosts.ahp import protocol
from agenthooks.model.decision import Decision
from agenthooks.model.events import counterpart
from agenthooks.model.hosts import host_ids, lineage
from agenthooks.model.tools import TOOLS, filled, tool_for
from agenthooks.sources.payloads import SHAPES, build, detect, tool_call

filled()  # every derived host's names, which a run fills for the hosts it involves alone

# (line, the error code it gets, or the method it is read as)
MESSAGES: list[tuple[bytes, int | str]] = [
    (b'{"jsonrpc":"2.0","id":"a","method":"hooks/intercept","params":{}}', "hooks/intercept"),
    (b'{"jsonrpc":"2.0","method":"hooks/observe","params":{}}', "hooks/observe"),
    (b'{"jsonrpc":"2.0","id":7,"method":"x"}', "x"),
    (b"{", protocol.PARSE_ERROR),
    (b"\xff\xfe{}", protocol.PARSE_ERROR),
    (b'{"jsonrpc":"2.0","id":"a","method":"m","params":NaN}', protocol.PARSE_ERROR),
    (b"[]", protocol.INVALID_REQUEST),
    (b'"text"', protocol.INVALID_REQUEST),
    (b'{"id":"a","method":"m"}', protocol.INVALID_REQUEST),
    (b'{"jsonrpc":"2.0","id":{},"method":"m"}', protocol.INVALID_REQUEST),
    (b'{"jsonrpc":"2.0","id":true,"method":"m"}', protocol.INVALID_REQUEST),
    (b'{"jsonrpc":"2.0","id":"a","method":3}', protocol.INVALID_REQUEST),
    (b'{"jsonrpc":"2.0","id":"a","result":{}}', protocol.INVALID_REQUEST),
]


@pytest.mark.parametrize(("line", "read"), MESSAGES)
def test_read_message(line: bytes, read: int | str) -> None:
    if isinstance(read, str):
        assert protocol.read_message(line).method == read
        return
    with pytest.raises(protocol.RpcError) as caught:
        protocol.read_message(line)
    assert caught.value.code == read


def test_a_notification_has_no_id() -> None:
    assert protocol.read_message(b'{"jsonrpc":"2.0","method":"m"}').notification
    assert not protocol.read_message(b'{"jsonrpc":"2.0","id":null,"method":"m"}').notification


def event(**changes: Any) -> dict[str, Any]:
    found: dict[str, Any] = {
        "id": "e", "source": "urn:x", "type": "tool.before", "time": "2026-08-24T08:51:14Z",
        "session": {"id": "s", "cwd": "/repo", "workspaceRoots": ["/repo"], "model": "m"},
        "tool": {"callId": "c", "name": "Bash", "kind": "shell", "input": {"command": "ls"}},
    }
    found.update(changes)
    return found


# (event, the phrase of its problem, or None)
EVENTS: list[tuple[dict[str, Any], str | None]] = [
    (event(), None),
    (event(native={"provider": "x"}, extensions={"com.example": 1}, other=True), None),
    (event(id=""), "event.id must be a non-empty string"),
    (event(source=3), "event.source must be a non-empty string"),
    (event(time=None), "event.time must be a non-empty string"),
    (event(session="s"), "event.session must be an object"),
    (event(session={}), "event.session.id must be a non-empty string"),
    (event(tool=None), "event.tool must be an object"),
    (event(tool={"name": "Bash", "kind": "shell", "input": {}}),
     "event.tool.callId must be a non-empty string"),
    (event(tool={"callId": "c", "name": "Bash", "kind": "shell", "input": "{}"}),
     "event.tool.input must be an object"),
    (event(tool={"callId": "c", "name": "Bash", "kind": "browser", "input": {}}),
     "event.tool.kind 'browser' is not one of v0.1's"),
]


@pytest.mark.parametrize(("given", "problem"), EVENTS)
def test_event_problem(given: dict[str, Any], problem: str | None) -> None:
    found = protocol.event_problem(given)
    assert found == problem if problem is None else (found or "").startswith(problem)


def message(params: Any, request_id: Any = "e", method: str = protocol.INTERCEPT
            ) -> protocol.Message:
    return protocol.Message(method, params, request_id)


def params(**changes: Any) -> dict[str, Any]:
    return {"protocolVersion": "0.1", "event": event(), "capabilities": {"effects": ["deny"]},
            **changes}


# (params, the request id, the error code the intercept gets)
INTERCEPTS: list[tuple[Any, Any, int]] = [
    ([], "e", protocol.INVALID_PARAMS),
    (params(protocolVersion="0.2"), "e", protocol.UNSUPPORTED_PROTOCOL_VERSION),
    (params(protocolVersion=None), "e", protocol.UNSUPPORTED_PROTOCOL_VERSION),
    (params(event="x"), "e", protocol.INVALID_PARAMS),
    (params(event=event(type="tool.after")), "e", protocol.UNSUPPORTED_EVENT),
    (params(event=event(type="file.changed")), "e", protocol.UNSUPPORTED_EVENT),
    (params(), "other", protocol.INVALID_PARAMS),
    (params(capabilities={}), "e", protocol.INVALID_PARAMS),
    (params(capabilities={"effects": [1]}), "e", protocol.INVALID_PARAMS),
]


@pytest.mark.parametrize(("given", "request_id", "code"), INTERCEPTS)
def test_read_intercept_errors(given: Any, request_id: Any, code: int) -> None:
    with pytest.raises(protocol.RpcError) as caught:
        protocol.read_intercept(message(given, request_id))
    assert caught.value.code == code
    assert caught.value.request_id == request_id


def test_read_intercept() -> None:
    read = protocol.read_intercept(message(params()))
    assert (read.request_id, read.event, read.effects) == ("e", "PreToolUse", ("deny",))
    assert read.call == protocol.Translated(
        "claude", "PreToolUse",
        {"session_id": "s", "cwd": "/repo", "workspaces": ["/repo"], "model": "m",
         "tool_use_id": "c"},
        "Bash", {"command": "ls"})


def every_tool_name() -> list[tuple[str, str]]:
    return sorted({(host, name) for tool in TOOLS for host, names in tool.names.items()
                   for name in names})


def read_back(name: str) -> tuple[str, tuple[str | None, dict[str, Any]]]:
    """The host the engine reads a translated call's payload as, and the call it finds."""
    call = protocol.translate(event(tool={"callId": "c", "name": name, "kind": "other",
                                          "input": {"x": 1}}), "PreToolUse")
    doc = build(call.host, call.word, call.fields, call.tool, call.args)
    caller = detect(doc, call.word)
    return caller, tool_call(doc, caller)


@pytest.mark.parametrize(("host", "name"), every_tool_name())
def test_a_hosts_tool_name_reads_back_as_given(host: str, name: str) -> None:
    """Each tool name any host says becomes a payload whose tool call is the one given."""
    assert read_back(name)[1] == (name, {"x": 1})


def test_a_hosts_tool_name_reads_back_in_a_host_that_says_it() -> None:
    """The payload's host (`detect`, as the engine finds the caller) knows the name, but
    for the tools Codex or Qwen Code name first: their payloads say PreToolUse as Claude
    Code's do (Codex's are told apart by `turn_id`, which AHP has no counterpart of; Qwen
    Code's are Claude Code's, its row derived from it), so they are read as Claude Code's,
    the name kept as given (docs/ahp.md). (Charm Crush, derived from Claude Code, names the
    event in a field of its own, `event`, by which its payloads are told apart.)"""
    read_as_claude = ("codex", *(h for h in host_ids() if lineage(h)[1:] == ("claude",)
                                 and counterpart("PreToolUse", "claude", h) == "PreToolUse"
                                 and SHAPES[h].event_key == "hook_event_name"))
    unknown = {name for _, name in every_tool_name()
               if tool_for(read_back(name)[0], name) is None}
    # the names whose first host (`protocol.host_naming`) is read as Claude Code's
    theirs_alone = {name for _, name in every_tool_name()
                    if protocol.host_naming(name) in read_as_claude}
    assert unknown == theirs_alone


def test_a_name_no_host_says_is_read_in_claude_codes_shape() -> None:
    call = protocol.translate(event(tool={"callId": "c", "name": "sh_exec", "kind": "shell",
                                          "input": {"cmd": "ls"}}), "PreToolUse")
    assert (call.host, call.tool, call.args) == ("claude", "sh_exec", {"cmd": "ls"})
    doc = build(call.host, call.word, call.fields, call.tool, call.args)
    assert tool_call(doc, detect(doc, call.word)) == ("sh_exec", {"cmd": "ls"})


def test_a_given_host_names_the_words() -> None:
    call = protocol.translate(event(), "PreToolUse", "gemini")
    assert (call.host, call.word) == ("gemini", "BeforeTool")


DENY = {"type": "deny"}
# (verdict, effects (reason aside), the reason, what is left out)
VERDICTS: list[tuple[Verdict, list[dict[str, str]], str | None, bool]] = [
    (Verdict("PreToolUse"), [], None, False),
    (Verdict("PreToolUse", Decision.approve("fine")), [], None, True),
    (Verdict("PreToolUse", Decision.inject("note")), [], None, True),
    (Verdict("PreToolUse", Decision.deny("no"), "deny", "no", True), [DENY], "no", False),
    (Verdict("PreToolUse", Decision.deny(""), "deny", None, True), [DENY],
     "denied by the workspace's hooks", False),
    (Verdict("PreToolUse", Decision.ask("a person?"), "ask", "a person?"), [DENY],
     "a hook asks for a person's approval, which AHP v0.1 cannot ask for: a person?", False),
    (Verdict("PreToolUse", Decision.modify({"command": "ls -la"}),
             updated_args={"command": "ls -la"}), [DENY],
     "a hook rewrote the tool input, which AHP v0.1 cannot carry", False),
    (Verdict("PreToolUse", Decision.allow(), blocked=True, stopped=True, stop_reason="halt"),
     [DENY], "denied by the workspace's hooks", False),
]


@pytest.mark.parametrize(("verdict", "wanted", "reason", "dropped"), VERDICTS)
def test_effect_of(verdict: Verdict, wanted: list[dict[str, str]], reason: str | None,
                   dropped: bool) -> None:
    effects, left_out = protocol.effect_of(verdict)
    assert [{"type": e["type"]} for e in effects] == wanted
    if reason is not None:
        assert effects[0]["reason"] == reason
    assert (left_out is not None) == dropped


def test_every_decision_kind_has_an_effect() -> None:
    assert set(protocol.EFFECTS) == {"allow", "approve", "deny", "ask", "modify", "replace",
                                     "inject"}
    assert all(e.reason for e in protocol.EFFECTS.values() if e.deny)


def test_responses() -> None:
    assert protocol.result("e", []) == {
        "jsonrpc": "2.0", "id": "e", "result": {"protocolVersion": "0.1", "effects": []}}
    assert protocol.error(None, -32700, "Parse error") == {
        "jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "Parse error"}}
