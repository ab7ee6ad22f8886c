"""The real-hook differential suite, offline part: every corpus hook (scripts published by
others, corpus.json) acts on one call and lets another through when its own host runs it, and
does the same through `agenthooks run --host H` under every other host the end-to-end suite
drives, wired two ways: in its own host's file (`--other-hosts`) and in `.agents/hooks.json`.

A disagreement is a finding: it is listed in FINDINGS as a strict xfail, so the suite stays
green and the finding stays visible until it is fixed (then the xfail fails: remove it).
The same hooks under the hosts' real CLIs: test_real_clis.py.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.realhooks.corpus import (
    DRIVEN,
    GUESTS,
    HOOKS,
    HOSTS_OF,
    MATCHERS,
    Effect,
    Hook,
    concrete,
    effect,
    missing_tools,
    wire,
)

# e2e: run once with the whole suite, not again from the wheel on each Python version
# (scripts/test-pythons): its hooks come from the registries into the checkout's .cache.
pytestmark = [pytest.mark.program, pytest.mark.e2e]

RUN_TIMEOUT = 60

CODEX_PATCH = (
    "a Codex apply_patch hook under another host never gets the patch text (`command`) Codex "
    "sends: a Write is not handed to it at all, an Edit arrives as apply_patch with Claude "
    "Code's file_path/old_string/new_string; a Codex patch gate stops acting")
UNSELECTED = ("issue 23 items 2, 3: a hooks.json handler matched with {host}'s tool names "
              "({matcher}) does not act under {caller}: it is not selected (and `validate "
              "--strict` says ok), or it is given {caller}'s tool names, not {host}'s")
STAR = ("a hooks.json handler matched with \"*\" names no host, so under {caller} it gets "
        "{caller}'s tool names: Belay's Claude Code policy does not know them and lets a force "
        "push to main through")
COPILOT_PROMPT = ("a UserPromptSubmit gate in hooks.json under Copilot CLI: Copilot CLI cannot "
                  "block userPromptSubmitted, so the prompt with a secret goes on; agenthooks "
                  "says so on stderr (tests/run/test_unheeded_block.py) and in explain")
GEMINI_STOP = ("a hooks.json Stop handler written for Claude Code under Gemini CLI gets the last "
               "answer as last_assistant_message, but Gemini CLI's event name (AfterAgent) in "
               "hook_event_name, and azet-guard dispatches on Claude Code's event names: its "
               "unverified-claim check lets the turn end (`\"dialect\": \"claude\"` on the "
               "handler is what says whose payload it reads)")
# (hook id, caller, mode) -> what goes wrong there, found by this suite (measured on main
# 42cd3ea: hooks.json handlers with "*" or no matcher get their host's fields since then).
# When a fix lands, its cases pass and their strict xfail fails: delete those lines.
FINDINGS: dict[tuple[str, str, str], str] = {
    ("azet-guard/codex-patch", "claude", "file"): CODEX_PATCH,
    ("azet-guard/codex-patch", "gemini", "file"): CODEX_PATCH,
    ("azet-guard/codex-patch", "copilot", "file"): CODEX_PATCH,
    ("agent-guard/codex-commentslop", "claude", "file"): CODEX_PATCH,
    ("agent-guard/codex-commentslop", "gemini", "file"): CODEX_PATCH,
    ("agent-guard/codex-commentslop", "copilot", "file"): CODEX_PATCH,
    ("belay/bash", "gemini", "hooks.json"): STAR.format(caller="gemini"),
    ("secret-sentinel/prompt", "copilot", "hooks.json"): COPILOT_PROMPT,
    ("sensitive-canary/user-prompt-submit", "copilot", "hooks.json"): COPILOT_PROMPT,
    ("azet-guard/stop", "gemini", "hooks.json"): GEMINI_STOP,
} | {
    (hook, caller, "hooks.json"): UNSELECTED.format(matcher=MATCHERS[hook], caller=caller,
                                                    host=HOSTS_OF[hook])
    for hook, caller in (
        ("azet-guard/codex-patch", "gemini"),
        ("agent-guard/codex-commentslop", "copilot"),
    )
}
# hook id -> why the hook does not do what its README says under its own host.
NATIVE_FINDINGS = {
    "cc-safety-net/copilot": (
        "cc-safety-net 2.4.5 --copilot-cli reads toolArgs only as a JSON string; Copilot CLI "
        "1.0.102 sends an object (tests/e2e/test_copilot.py), so the hook denies every call "
        "with 'Failed to parse toolArgs JSON'"),
    "agent-guard/gemini-outbound": (
        "agent-guard 0.7.0 wires hook-outbound for Gemini CLI's run_shell_command without its "
        "shim (agent-guard install --tool gemini), and the hook acts only on tool_name Bash: "
        "under Gemini CLI it lets a force push to main through"),
}
TOOL_EVENTS = {"PreToolUse", "BeforeTool", "preToolUse"}


def cases() -> list[Any]:
    """Each hook under every other driven host in its own host's file; in .agents/hooks.json
    under one of them, taken in turn (the finding there is the same under each, and a run
    costs time)."""
    found = []
    for number, spec in enumerate(HOOKS):
        others = [caller for caller in DRIVEN if caller != spec["host"]]
        runs = [(caller, "file") for caller in others]
        runs.append((others[number % len(others)], "hooks.json"))
        for caller, mode in runs:
            reason = FINDINGS.get((spec["id"], caller, mode))
            marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
            found.append(pytest.param(spec, caller, mode, marks=marks,
                                      id=f"{spec['id']}-under-{caller}-{mode}"))
    return found


def make_workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # Not tmp_path: its name holds the test's id, and hooks read paths (a path naming
    # "secret" is one that agentgov's secrets guard leaves alone).
    workspace = tmp_path_factory.mktemp("ws") / "workspace"
    (workspace / "tests").mkdir(parents=True)
    (workspace / "README.md").write_text("# demo\n", "utf-8")
    (workspace / "tests" / "test_x.py").write_text("def test_x():\n    assert 1 == 1\n", "utf-8")
    return workspace


def hook_for(spec: dict[str, Any], installed: dict[str, dict[str, str]],
             tmp_path_factory: pytest.TempPathFactory) -> Hook:
    lacking = missing_tools(spec)
    if lacking:
        pytest.skip(f"{spec['id']} needs {', '.join(lacking)}, which this machine lacks")
    return concrete(spec, installed, make_workspace(tmp_path_factory))


def native(hook: Hook, which: str) -> Effect:
    """The hook run as its own host runs it: its host's payload on stdin, in the project."""
    payload = json.dumps(hook.payload(which, hook.host))
    done = subprocess.run(hook.command, shell=True, input=payload, capture_output=True,
                          text=True, timeout=RUN_TIMEOUT, cwd=hook.workspace, check=False)
    return effect(hook.host, done.returncode, done.stdout, done.stderr)


_native_effects: dict[tuple[str, str], Effect] = {}


def native_once(hook: Hook, which: str) -> Effect:
    """native(), run once per hook and call in a session: the workspace only changes paths."""
    key = (hook.id, which)
    if key not in _native_effects:
        _native_effects[key] = native(hook, which)
    return _native_effects[key]


def through_agenthooks(hook: Hook, caller: str, which: str) -> Effect:
    """The call as `caller` sends it to `agenthooks run --host caller --other-hosts`."""
    done = subprocess.run(
        [sys.executable, "-m", "agenthooks", "run", hook.word_for(caller), "--host", caller,
         "--other-hosts", "--workspace", str(hook.workspace), "--no-user"],
        input=json.dumps(hook.payload(which, caller)), capture_output=True, text=True,
        timeout=RUN_TIMEOUT, cwd=hook.workspace, check=False)
    return effect(caller, done.returncode, done.stdout, done.stderr)


def wire_hooks_json(hook: Hook) -> None:
    """The hook in `.agents/hooks.json`, matched with its own host's tool names."""
    word = hook.word_for("antigravity")
    handler = {"type": "command", "command": hook.command, "timeout": 30}
    # A tool event takes matcher groups, another event its handlers directly.
    entries: list[dict[str, Any]] = [handler]
    if hook.event in TOOL_EVENTS:
        group: dict[str, Any] = {"hooks": [handler]}
        if hook.spec.get("matcher"):
            group["matcher"] = hook.spec["matcher"]
        entries = [group]
    path = hook.workspace / ".agents" / "hooks.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({hook.id.replace("/", "-"): {"enabled": True, word: entries}},
                               indent=2), "utf-8")


def assert_acts(got: Effect, hook: Hook, where: str) -> None:
    assert got.decision == "deny", f"{hook.id} {where}: the call it must stop got {got}"
    assert hook.reason in got.reason, (
        f"{hook.id} {where}: the reason {hook.reason!r} did not reach the answer: {got}")


def assert_same(got: Effect, expected: Effect, hook: Hook, which: str, where: str) -> None:
    """The same decision as natively, and a native reason reaches the answer too."""
    assert got.decision == expected.decision, (
        f"{hook.id} {where}, the {which} call: {got}, natively {expected}")
    if expected.decision != "allow":
        words = hook.reason if hook.reason in expected.reason else first_line(expected.reason)
        assert words in got.reason, (
            f"{hook.id} {where}, the {which} call: the reason {words!r} did not reach the "
            f"answer: {got}")


def first_line(text: str) -> str:
    return next((line.strip() for line in text.splitlines() if line.strip()), "")


@pytest.mark.parametrize("spec", [
    pytest.param(spec, id=spec["id"], marks=[pytest.mark.xfail(
        strict=True, reason=NATIVE_FINDINGS[spec["id"]])] if spec["id"] in NATIVE_FINDINGS else [])
    for spec in HOOKS])
def test_native(spec: dict[str, Any], installed: dict[str, dict[str, str]],
                tmp_path_factory: pytest.TempPathFactory) -> None:
    """The corpus is right about each hook: under its own host's payload and protocol it
    stops the one call and lets the other through."""
    hook = hook_for(spec, installed, tmp_path_factory)
    assert_acts(native_once(hook, "act"), hook, f"natively ({hook.host})")
    allowed = native_once(hook, "pass")
    assert allowed == Effect("allow"), f"{hook.id} stops the call it must let through: {allowed}"


@pytest.mark.parametrize(("spec", "caller", "mode"), cases())
def test_through_agenthooks(spec: dict[str, Any], caller: str, mode: str,
                            installed: dict[str, dict[str, str]],
                            tmp_path_factory: pytest.TempPathFactory) -> None:
    """Under another host, through agenthooks, the hook has the effect it has natively."""
    hook = hook_for(spec, installed, tmp_path_factory)
    if mode == "file":
        if (caller, hook.host) in GUESTS:
            pytest.skip(f"{caller} runs {hook.host}'s file itself: test_real_clis.py")
        wire(hook)
    else:
        wire_hooks_json(hook)
    where = f"under {caller} ({mode})"
    for which in ("act", "pass"):
        assert_same(through_agenthooks(hook, caller, which), native_once(hook, which), hook,
                    which, where)
