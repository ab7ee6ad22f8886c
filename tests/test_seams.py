"""Proof of the seams: a toy source, a toy kind and a toy host, defined here and registered
through the tables only (no line of agenthooks changes), run one event end to end.

    the toy host "toy"       its payload shape, its words for the event and the shell tool,
                             its writer
    the toy source "toyfmt"  a format of its own: its dialect (events, matchers, handler
                             types), its payload shape and words, its answer protocol
    the toy kind "verdict"   a handler type that answers in-process, beside the processes

The toy host calls; the toy source's handlers must be selected by their own matcher in their
own words, receive the payload in their own shape, answer in their own protocol, and the
answer must reach the toy host in its words.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from agenthooks import Hooks
from agenthooks.executor import ProcessResult
from agenthooks.hosts import writers
from agenthooks.kinds import KINDS
from agenthooks.kinds import process as process_kind
from agenthooks.kinds.protocols.antigravity import answer
from agenthooks.model import events, tools
from agenthooks.model.handlers import Answer, Handler, HookFile, Source
from agenthooks.sources import payloads
from agenthooks.sources.dialects import check, matching
from agenthooks.sources.dialects.spec import Dialect, HandlerType
from agenthooks.sources.payloads import Shape

HERE = "tests.test_seams"


# --- the toy source's protocol, the toy kind, the toy host's writer ---------------------------


def read_toy(handler: Handler, result: ProcessResult, event: str) -> Answer:
    """The toy format's protocol: `{"verdict": "no", "why": ...}` on stdout denies."""
    said = json.loads(result.stdout or b"{}")
    if said.get("verdict") == "no":
        return Answer(handler, "ok", exit_code=0, output=said, decision="deny",
                      reason=said.get("why"))
    return answer(handler, result._replace(stdout=b"{}"), event)


class Verdicts:
    """The toy kind: each handler's `command` is its verdict, given without a process."""

    def __init__(self, jobs: Sequence[tuple[int, Handler, bytes]], event: str) -> None:
        self.found = {
            index: process_kind.protocol_of(handler.dialect)(handler, ProcessResult(
                "exited", 0, None, json.dumps({"verdict": handler.command,
                                               "why": f"{handler.hook} read {payload!r}"})
                .encode(), b"", False, False, 0.0), event)
            for index, handler, payload in jobs
        }

    def answers(self) -> dict[int, Answer]:
        return self.found


def write_toy(verdict: Any, event: str) -> writers.HostAnswer:
    """The toy host reads `{"go": bool, "because": text}`, always on exit 0."""
    return writers.HostAnswer({"event": event, "go": not verdict.blocked,
                               "because": verdict.decision.reason}, 0)


# --- registration, through the tables only ---------------------------------------------------


def with_words(rows: tuple[Any, ...], words: dict[str, dict[str, str]]) -> tuple[Any, ...]:
    """The table with the words of `words` (row id -> dialect -> word) added to its rows."""
    return tuple(row._replace(words={**row.words, **words.get(row.id, {})}) for row in rows)


def with_names(rows: tuple[Any, ...], tool_id: str, names: dict[str, tuple[str, ...]],
               args: dict[str, dict[str, str]]) -> tuple[Any, ...]:
    return tuple(row._replace(names={**row.names, **names}, args={**row.args, **args})
                 if row.id == tool_id else row for row in rows)


@pytest.fixture
def toys(monkeypatch: pytest.MonkeyPatch) -> None:
    # The toy host and the toy source name PreToolUse and the shell tool in their own words.
    monkeypatch.setattr(events, "EVENT_TABLE", with_words(
        events.EVENT_TABLE, {"tool.pre": {"toy": "before_tool", "toyfmt": "pre"}}))
    monkeypatch.setattr(tools, "TOOLS", with_names(
        tools.TOOLS, "shell", {"toy": ("exec",), "toyfmt": ("sh",)},
        {"toy": {"command": "line"}, "toyfmt": {"command": "cmd"}}))
    # How each writes a payload.
    monkeypatch.setitem(payloads.SHAPES, "toy",
                        Shape("event", None, "tool", "input", (("session_id", "sid"),)))
    monkeypatch.setitem(payloads.SHAPES, "toyfmt",
                        Shape("evt", "call", "name", "params", (("session_id", "session"),)))
    # The toy source: its dialect (matchers are exact names), its protocol; a toy host run
    # includes it with other_hosts, as another host's file.
    monkeypatch.setitem(check.DIALECT_SPECS, "toyfmt", Dialect(
        name="toyfmt", host="Toy format", events={"pre": "tool_name"},
        exact_events=frozenset(), types={"command": HandlerType("command", ("command",),
                                                                ("command",), True)},
        group_keys=(), settings_keys=(), timeout_unit=1.0, default_timeout=10.0,
        timeout_by_event={}, project_var="TOY_PROJECT_DIR", option_types={}))
    monkeypatch.setitem(matching.SELECTIONS, "toyfmt",
                        lambda matcher, event: matching.Selection("names", (matcher or "",)))
    monkeypatch.setitem(process_kind.PROTOCOLS, "toyfmt", f"{HERE}:read_toy")
    # The toy kind and the toy host's writer.
    monkeypatch.setitem(KINDS, "verdict", f"{HERE}:Verdicts")
    monkeypatch.setitem(writers.WRITERS, "toy", f"{HERE}:write_toy")


def toy_file(root: Path, *handlers: tuple[str, str, str, str]) -> HookFile:
    """A file of the toy format: (name, matcher, kind, command) handlers on its `pre`."""
    source = Source("toy.hooks", str(root / "toy.hooks"), str(root), "workspace", str(root),
                    dialect="toyfmt")
    return HookFile(source, tuple(
        Handler(source, name, "pre", matcher, command, 10.0, kind, True, f"/{name}",
                dialect="toyfmt", name=name)
        for name, matcher, kind, command in handlers))


CALL = {"event": "before_tool", "tool": "exec", "input": {"line": "rm -rf /"}, "sid": "s1"}


def test_a_toy_source_kind_and_host_run_one_event_end_to_end(toys: None,
                                                             tmp_path: Path) -> None:
    seen = tmp_path / "seen.json"
    dump = f"{sys.executable} -c \"import sys; open(sys.argv[1], 'w').write(sys.stdin.read())\""
    hooks = Hooks([toy_file(tmp_path, ("spy", "sh", "command", f"{dump} {seen}"),
                            ("judge", "sh", "verdict", "no"),
                            ("elsewhere", "cat", "verdict", "no"))], host="toy",
                  other_hosts=True)
    result = hooks.run("before_tool", CALL)
    # The toy format's handler saw the call in its own shape and words.
    assert json.loads(seen.read_text()) == {
        "session": "s1", "evt": "pre", "call": {"name": "sh", "params": {"cmd": "rm -rf /"}}}
    # The toy kind answered in the toy format's protocol: a deny; the handler whose matcher
    # names another tool never ran.
    assert result.blocked
    assert [a.hook for a in result.handlers] == ["spy", "judge"]
    assert result.decision.reason is not None and result.decision.reason.startswith("judge read")
    # And the toy host hears it in its own words.
    event = writers.host_event("toy", result.event, "before_tool")
    told = writers.writer("toy")(result.as_verdict(), event)
    assert told == writers.HostAnswer(
        {"event": "before_tool", "go": False, "because": result.decision.reason}, 0)


def test_the_toy_hosts_own_files_are_left_to_it(toys: None, tmp_path: Path) -> None:
    """The same format under a host of its own: that host runs its files itself."""
    hooks = Hooks([toy_file(tmp_path, ("judge", "sh", "verdict", "no"))], host="toyfmt")
    assert [why for _, why in hooks.left_out] == ["toyfmt runs this file itself"]


# --- a host by rows alone, through every command, in real processes ---------------------------

TOY_RUN = ("import sys, tests.seam_toy; from agenthooks.cli import main; "
           "sys.exit(main(sys.argv[1:]))")


def toy_cli(cwd: Path, *args: str, payload: object = None) -> Any:
    """`agenthooks ARGS` in a process where the toy host's rows exist (`tests.seam_toy`)."""
    import os
    import subprocess

    repo = Path(__file__).resolve().parent.parent
    env = {**os.environ, "HOME": str(cwd / "home"), "XDG_CONFIG_HOME": str(cwd / "xdg"),
           "PYTHONPATH": str(repo)}
    return subprocess.run([sys.executable, "-c", TOY_RUN, *args], cwd=cwd, env=env,
                          input=json.dumps(payload or {}), capture_output=True, text=True,
                          timeout=60, check=False)


@pytest.fixture
def toy_project(tmp_path: Path) -> Path:
    """A project with the toy host's own file and a hooks.json, both gating the shell."""
    dump = f"{sys.executable} -c \"import sys; open(sys.argv[1], 'w').write(sys.stdin.read())\""
    (tmp_path / ".toy").mkdir()
    (tmp_path / ".toy" / "hooks.json").write_text(json.dumps({"hooks": {"pre": [
        {"match": "sh", "command": f"{dump} {tmp_path / 'toy-saw.json'}"},
        {"match": "sh", "command": "echo '{\"verdict\": \"no\", \"why\": \"toy says no\"}'"},
    ]}}), encoding="utf-8")
    (tmp_path / ".agents").mkdir()
    (tmp_path / ".agents" / "hooks.json").write_text(json.dumps({"gate": {"PreToolUse": [
        {"matcher": "run_command", "hooks": [{"command": f"{dump} {tmp_path / 'agy-saw.json'}"},
                                             {"command": "echo 'no deletes' >&2; exit 2"}]},
    ]}}), encoding="utf-8")
    return tmp_path


def test_a_host_added_by_rows_is_validated_and_listed(toy_project: Path) -> None:
    (toy_project / "other").mkdir()
    (toy_project / "other" / ".toy").mkdir()
    (toy_project / "other" / ".toy" / "hooks.json").write_text(
        '{"hooks": {"pre": [], "post": []}}', encoding="utf-8")
    done = toy_cli(toy_project, "validate", "--format", "json", ".", "other")
    assert done.returncode == 1, done.stderr
    found = json.loads(done.stdout)
    text = json.dumps(found)
    assert "unknown event 'post'" in text and "other/.toy/hooks.json" in text, done.stdout
    listed = toy_cli(toy_project, "list", "--dialect", "toy", "--format", "json")
    assert listed.returncode == 0, listed.stderr
    rows = json.loads(listed.stdout)
    handlers = rows["handlers"] if isinstance(rows, dict) else rows
    assert {h["dialect"] for h in handlers} == {"toy"} and len(handlers) == 2


def test_a_host_added_by_rows_answers_as_that_host(toy_project: Path) -> None:
    call = {"event": "pre", "tool": "sh", "input": {"line": "rm -rf /"}, "sid": "s1"}
    done = toy_cli(toy_project, "run", "PreToolUse", "--host", "toy", payload=call)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"event": "pre", "go": False, "because": "no deletes"}
    # hooks.json's handler saw the call in Antigravity's words; the toy's own file was left
    # to the toy host, which runs it itself.
    saw = json.loads((toy_project / "agy-saw.json").read_text())
    assert saw["toolCall"] == {"name": "run_command", "args": {"CommandLine": "rm -rf /"}}
    assert not (toy_project / "toy-saw.json").exists()


def test_a_host_added_by_rows_has_its_files_run_in_its_own_words(toy_project: Path) -> None:
    call = {"tool_name": "Bash", "tool_input": {"command": "rm -rf /"}, "session_id": "s1",
            "hook_event_name": "PreToolUse"}
    done = toy_cli(toy_project, "run", "PreToolUse", "--dialect", "toy", "--host", "claude",
                   "--other-hosts", payload=call)
    assert done.returncode == 0, done.stderr
    answer_ = json.loads(done.stdout)["hookSpecificOutput"]
    assert (answer_["permissionDecision"], answer_["permissionDecisionReason"]) == (
        "deny", "toy says no")
    saw = json.loads((toy_project / "toy-saw.json").read_text())
    assert saw == {"sid": "s1", "event": "pre", "tool": "sh", "input": {"line": "rm -rf /"}}


# --- a host derived from Claude Code, by one row (`tests.seam_derived`) -----------------------

DERIVED_RUN = ("import sys, tests.seam_derived; from agenthooks.cli import main; "
               "sys.exit(main(sys.argv[1:]))")


def derived_cli(cwd: Path, *args: str, payload: object = None) -> Any:
    """`agenthooks ARGS` in a process where the derived toy host's row exists."""
    import os
    import subprocess

    repo = Path(__file__).resolve().parent.parent
    env = {**os.environ, "HOME": str(cwd / "home"), "XDG_CONFIG_HOME": str(cwd / "xdg"),
           "PYTHONPATH": str(repo)}
    return subprocess.run([sys.executable, "-c", DERIVED_RUN, *args], cwd=cwd, env=env,
                          input=json.dumps(payload or {}), capture_output=True, text=True,
                          timeout=60, check=False)


DENY_SHELL = ("cat > \"$TOYC_PROJECT_DIR/saw.json\"; echo '{\"hookSpecificOutput\": "
              "{\"hookEventName\": \"PreToolUse\", \"permissionDecision\": \"deny\", "
              "\"permissionDecisionReason\": \"no shell\"}}'")


@pytest.fixture
def derived_project(tmp_path: Path) -> Path:
    (tmp_path / ".toyc").mkdir()
    (tmp_path / ".toyc" / "settings.json").write_text(json.dumps({"hooks": {
        "PreToolUse": [{"matcher": "Shell", "hooks": [{"type": "command",
                                                       "command": DENY_SHELL}]}],
        "BeforePrompt": [{"hooks": [{"type": "command", "command": "true"}]}],
        "Idle": [{"hooks": [{"type": "command", "command": "true"}]}],
    }}), encoding="utf-8")
    return tmp_path


@pytest.mark.program
def test_a_derived_host_keeps_its_parents_rules_in_its_own_words(derived_project: Path) -> None:
    (derived_project / "bad" / ".toyc").mkdir(parents=True)
    (derived_project / "bad" / ".toyc" / "settings.json").write_text(json.dumps({"hooks": {
        "UserPromptSubmit": [{"hooks": [{"type": "command", "command": "true"}]}],
        "PreToolUse": [{"matcher": "mcp__memory", "hooks": [
            {"type": "command", "command": "true", "async": 3, "timeout": 5000}]}],
    }}), encoding="utf-8")
    done = derived_cli(derived_project, "validate", "--format", "json", "bad")
    assert done.returncode == 1, done.stderr
    rules = {d["rule"]: d["message"] for d in json.loads(done.stdout)["diagnostics"]}
    # Claude Code's checks, each in the derived host's words.
    assert "Toy Code calls it 'BeforePrompt'" in rules["unknown-event"]
    assert {"matcher-mcp-server", "option-type", "timeout-seconds"} <= set(rules)
    assert "5000 seconds in Toy Code" in rules["timeout-seconds"]
    listed = derived_cli(derived_project, "list", "--format", "json")
    assert {(h["event"], h["dialect"], h["timeout"]) for h in json.loads(listed.stdout)} == {
        ("PreToolUse", "toyc", 120), ("BeforePrompt", "toyc", 30), ("Idle", "toyc", 120)}, \
        listed.stdout


@pytest.mark.program
def test_a_derived_host_is_run_and_answered_in_its_words(derived_project: Path) -> None:
    claude_call = {"hook_event_name": "PreToolUse", "tool_name": "Bash",
                   "tool_input": {"command": "ls"}, "session_id": "s"}
    done = derived_cli(derived_project, "run", "PreToolUse", "--host", "claude",
                       "--other-hosts", payload=claude_call)
    assert json.loads(done.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny"
    # Its handler saw Claude Code's call in its own tool name.
    assert json.loads((derived_project / "saw.json").read_text())["tool_name"] == "Shell"
    # As the caller: its own file is its to run; a hooks.json gate hears `run_command`, and
    # the answer is in Claude Code's words.
    (derived_project / "saw.json").unlink()
    (derived_project / ".agents").mkdir()
    (derived_project / ".agents" / "hooks.json").write_text(json.dumps({"g": {"PreToolUse": [
        {"matcher": "run_command", "hooks": [{"command": "exit 2"}]}]}}), encoding="utf-8")
    done = derived_cli(derived_project, "run", "PreToolUse", "--host", "toyc",
                       payload={**claude_call, "tool_name": "Shell"})
    assert done.returncode == 0, done.stderr
    told = json.loads(done.stdout)["hookSpecificOutput"]
    assert told["permissionDecision"] == "deny" and "hook g blocked" in \
        told["permissionDecisionReason"]
    assert not (derived_project / "saw.json").exists()
