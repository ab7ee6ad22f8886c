"""The real-hook differential suite under the hosts' real CLIs (driven headless against a fake
model, as tests/e2e does): a few corpus hooks per host, each natively under its own host's
CLI, and through agenthooks (`--other-hosts`) under another host's CLI, with the same effect:
the call it must stop is stopped with its reason in the tool result the model reads, and the
call it must let through runs.

A host run costs seconds: each hook runs under its own host and one other, taken in turn.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import SETTINGS_FILE as AGENTHOOKS_FILE
from tests.e2e.conftest import Hosts, readme_wiring, tool_turn, with_option, write_json
from tests.realhooks.corpus import HOOKS, Hook, concrete, install, wire

pytestmark = pytest.mark.program

# One shell hook per host, its act and pass calls harmless in an empty folder: (hook, the
# other host whose CLI runs it through agenthooks).
CHOSEN = [("block-no-verify/claude", "gemini"), ("cc-safety-net/gemini", "codex"),
          ("cc-safety-net/codex", "claude"), ("cc-safety-net/copilot", "gemini")]
SPECS = {spec["id"]: spec for spec in HOOKS}
# (hook id, "native" or the caller) -> the finding.
FINDINGS = {
    ("cc-safety-net/copilot", "native"): (
        "cc-safety-net 2.4.5 --copilot-cli reads toolArgs only as a JSON string; Copilot CLI "
        "1.0.102 sends an object, so the hook denies every call"),
    ("cc-safety-net/copilot", "gemini"): (
        "as natively: agenthooks gives the Copilot hook toolArgs as an object, as Copilot CLI "
        "1.0.102 does, and cc-safety-net 2.4.5 denies every call ('Failed to parse toolArgs "
        "JSON')"),
}


def cases() -> list[Any]:
    found = []
    for hook_id, other in CHOSEN:
        for where in ("native", other):
            reason = FINDINGS.get((hook_id, where))
            marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
            found.append(pytest.param(hook_id, where, marks=marks, id=f"{hook_id}-{where}"))
    return found


@pytest.fixture(scope="session")
def installed() -> dict[str, dict[str, str]]:
    return install()


def shell_command(hook: Hook, which: str) -> str:
    command: str = hook.call(which)["input"]["command"]
    return command


@pytest.mark.parametrize(("hook_id", "where"), cases())
def test_under_a_real_cli(hook_id: str, where: str, hosts: Hosts,
                          installed: dict[str, dict[str, str]], tmp_path: Path) -> None:
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    hook = concrete(SPECS[hook_id], installed, workspace)
    host = hook.host if where == "native" else where
    if host != hook.host:
        wiring = with_option(readme_wiring()[host], "--other-hosts")
        write_json(workspace / AGENTHOOKS_FILE[host], wiring)
    wire(hook)
    act, allowed = shell_command(hook, "act"), shell_command(hook, "pass")

    run = hosts.run(host, workspace, "Tidy the repository.",
                    [tool_turn(host, act), tool_turn(host, allowed), {"text": "Tidied."}])

    assert len(run.main_requests) >= 3, run.describe()
    stopped = run.tool_results(run.main_requests[1])[-1]
    assert hook.reason in stopped["text"], (stopped, run.describe())
    # A request carries every tool result so far: the newest is the last.
    ran = run.tool_results(run.main_requests[2])[-1]
    assert hook.reason not in ran["text"] and "hook" not in ran["text"].lower(), (
        ran, run.describe())
