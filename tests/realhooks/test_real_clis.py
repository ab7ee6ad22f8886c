"""The real-hook differential suite under the hosts' real CLIs (driven headless against a fake
model, as tests/e2e does): a few corpus hooks per host, each natively under its own host's
CLI, and through agenthooks (`--other-hosts`) under other hosts' CLIs, with the same effect:
the call it must stop does not run and its reason is in the tool result the model reads; the
call it must let through runs.

A host run costs seconds, so each hook runs under its own host and one or two others.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import SETTINGS_FILE as AGENTHOOKS_FILE
from tests.e2e.conftest import Hosts, readme_wiring, shell_call, with_option, write_json
from tests.realhooks.corpus import HOOKS, Hook, concrete, wire

# e2e: run once with the whole suite, not again from the wheel on each Python version
# (scripts/test-pythons): its hooks come from the registries into the checkout's .cache.
pytestmark = [pytest.mark.program, pytest.mark.e2e]

# hook -> the other hosts whose CLIs run it through agenthooks. Shell calls are harmless in
# an empty folder; a file write is checked on disk.
CHOSEN = {
    "block-no-verify/claude": ("gemini", "copilot"),
    "azet-guard/claude-write": ("gemini", "copilot"),
    "cc-safety-net/gemini": ("codex",),
    "agent-guard/gemini-tamper": ("claude",),
    "cc-safety-net/codex": ("claude",),
    "agent-guard/codex-outbound": ("copilot",),
    "cc-safety-net/copilot": (),
}
SPECS = {spec["id"]: spec for spec in HOOKS}
SHELL_TOOLS = {"Bash", "run_shell_command", "bash"}
# (hook id, "native" or the caller) -> the finding.
FINDINGS = {
    ("cc-safety-net/copilot", "native"): (
        "cc-safety-net 2.4.5 --copilot-cli reads toolArgs only as a JSON string; Copilot CLI "
        "1.0.102 sends an object, so the hook denies every call"),
    ("azet-guard/claude-write", "copilot"): (
        "Copilot CLI 1.0.102 runs Claude Code's settings hooks itself (so agenthooks leaves "
        "them, issue 23 item 9) and hands a Write as tool_input {file_path, file_text}, not "
        "content: azet-guard's secret check sees no content and the token is written"),
    ("block-no-verify/claude", "copilot"): (
        "Copilot CLI 1.0.102 runs Claude Code's settings hooks itself (so agenthooks leaves "
        "them, issue 23 item 9): the call is blocked, but the model reads only 'hook exited "
        "with code 2', the hook's reason lost"),
}


def cases() -> list[Any]:
    found = []
    for hook_id, others in CHOSEN.items():
        for where in ("native", *others):
            reason = FINDINGS.get((hook_id, where))
            marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
            found.append(pytest.param(hook_id, where, marks=marks, id=f"{hook_id}-{where}"))
    return found


def model_call(hook: Hook, host: str, which: str) -> dict[str, Any]:
    """The tool call the fake model makes for the hook's act or pass call, in host's words."""
    call = hook.call(which)
    if call["tool"] in SHELL_TOOLS:
        return shell_call(host, call["input"]["command"])
    payload = hook.payload(which, host)
    if host == "copilot":
        return {"name": payload["toolName"], "input": payload["toolArgs"]}
    return {"name": payload["tool_name"], "input": payload["tool_input"]}


def written(hook: Hook, which: str) -> tuple[Path, str] | None:
    """The file a write call makes and its content; None for a shell call."""
    args = hook.call(which)["input"]
    if "content" not in args:
        return None
    return Path(args["file_path"]), str(args["content"])


@pytest.mark.parametrize(("hook_id", "where"), cases())
def test_under_a_real_cli(hook_id: str, where: str, hosts: Hosts,
                          installed: dict[str, dict[str, str]], tmp_path: Path) -> None:
    workspace = tmp_path / "workspace"
    (workspace / "tests").mkdir(parents=True)
    hook = concrete(SPECS[hook_id], installed, workspace)
    host = hook.host if where == "native" else where
    if host != hook.host:
        wiring = with_option(readme_wiring()[host], "--other-hosts")
        write_json(workspace / AGENTHOOKS_FILE[host], wiring)
    # Under a host that runs this hook's file itself (Copilot CLI, Claude Code's settings),
    # agenthooks leaves it to that host: the hook must still act.
    wire(hook)

    run = hosts.run(host, workspace, "Tidy the repository.", [
        {"tool_calls": [model_call(hook, host, "act")]},
        {"tool_calls": [model_call(hook, host, "pass")]}, {"text": "Tidied."}])

    assert len(run.main_requests) >= 3, run.describe()
    # A request carries every tool result so far: the newest is the last.
    stopped = run.tool_results(run.main_requests[1])[-1]
    assert hook.reason in stopped["text"], (stopped, run.describe())
    ran = run.tool_results(run.main_requests[2])[-1]
    assert hook.reason not in ran["text"] and "hook" not in ran["text"].lower(), (
        ran, run.describe())
    made, act_content = written(hook, "act") or (None, "")
    if made is not None:
        _, pass_content = written(hook, "pass") or (None, "")
        assert made.read_text("utf-8") == pass_content, (act_content, run.describe())
