"""Gates that used to be lost without a word (issue 23), each through the real program: a
gate that is written runs, or agenthooks says why before the call (a `validate` error, an
`explain` reason, a deny under `--fail-closed`)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tests.run.conftest import CliFn, on, write_hooks
from tests.support import program

pytestmark = pytest.mark.program

RM = '{"toolCall": {"name": "run_command", "args": {"CommandLine": "rm -rf /"}}}'


# --- a gate that mentions agenthooks is a gate --------------------------------------------------

MENTIONS = "echo no >&2; exit 2; agenthooks run PreToolUse --config other.json"


def test_a_gate_that_mentions_agenthooks_runs(cli: CliFn, workspace: Path) -> None:
    write_hooks(workspace, {"gate": on("PreToolUse", MENTIONS)})
    done = cli("PreToolUse", "--fail-closed", "--no-user", stdin=RM, cwd=workspace)
    assert done.code == 2, done
    assert done.json["decision"] == "deny" and done.json["reason"] == "no"
    explained = program("explain", "PreToolUse", "--no-user", "--format", "json",
                        cwd=workspace, stdin=RM)
    assert explained.returncode == 0, explained.stderr
    assert "agenthooks itself" not in explained.stdout


def test_agenthooks_in_a_longer_command_runs_nested_and_stops(cli: CliFn,
                                                              workspace: Path) -> None:
    """`agenthooks run ... || true` is a handler: the run it starts reads the same file and
    starts it again, and the depth marker ends that loop at the second level."""
    write_hooks(workspace, {"loop": on("PreToolUse",
                                       f"{sys.executable} -m agenthooks run PreToolUse "
                                       "--fail-closed || exit 3")})
    done = cli("PreToolUse", "--fail-closed", "--no-user", stdin=RM, cwd=workspace)
    assert done.code == 2 and done.json["decision"] == "deny", done
    checked = program("validate", "--no-user", "--format", "json", cwd=workspace)
    rules = [d["rule"] for d in json.loads(checked.stdout)["diagnostics"]]
    assert "runs-itself" in rules, checked.stdout


# --- one odd file is skipped alone --------------------------------------------------------------

GATE = "if grep -q 'rm -rf'; then echo 'rm -rf needs a human' >&2; exit 2; fi"


def _odd_markdown(workspace: Path) -> Path:
    """A Markdown hook committed as a link to /dev/null, which is writable by everyone."""
    folder = workspace / ".harness" / "hooks"
    folder.mkdir(parents=True)
    (folder / "placeholder.md").symlink_to("/dev/null")
    return folder / "placeholder.md"


def test_one_odd_file_leaves_the_other_gates_running(cli: CliFn, workspace: Path) -> None:
    write_hooks(workspace, {"no-rm-rf": on("PreToolUse", GATE)})
    _odd_markdown(workspace)
    below = workspace / "src"
    below.mkdir()
    done = cli("PreToolUse", "--no-user", stdin=RM, cwd=below)
    assert done.code == 2, done
    assert done.json["reason"] == "rm -rf needs a human"
    assert "placeholder.md" in done.json["systemMessage"]
    assert "[unsafe-workspace]" in done.err


def test_a_skipped_gate_file_denies_under_fail_closed(cli: CliFn, workspace: Path) -> None:
    write_hooks(workspace, {"allow-all": on("PreToolUse", "true")})
    odd = _odd_markdown(workspace)
    done = cli("PreToolUse", "--fail-closed", "--no-user", stdin=RM, cwd=workspace)
    assert done.code == 2, done
    assert done.json["decision"] == "deny"
    assert "fail-closed: skipped .harness/hooks/placeholder.md" in done.json["reason"]
    checked = program("validate", "--no-user", cwd=workspace)
    assert checked.returncode == 1
    assert ".harness/hooks/placeholder.md:1:1: error [unsafe-workspace] skipped: " \
           f"{odd.relative_to(workspace)} (a link to /dev/null) is writable by everyone" \
        in checked.stdout
    explained = program("explain", "PreToolUse", "--no-user", cwd=workspace, stdin=RM)
    assert "[unsafe-workspace]" in explained.stdout + explained.stderr


# --- the gate file a wiring names is checked ----------------------------------------------------

WIRING = ("agenthooks run PreToolUse --host antigravity --config .agents/agenthooks.json "
          "--fail-closed --default-decision ask")
BAD_GATE = {"no-rm-rf": {"PreToolUse": [{"matcher": "run_command", "hooks": [
    {"command": GATE, "timeout": "30"}]}]}}


def _wired(workspace: Path, gate: dict[str, object] | None) -> None:
    write_hooks(workspace, {"agenthooks": on("PreToolUse", WIRING)})
    if gate is not None:
        (workspace / ".agents" / "agenthooks.json").write_text(json.dumps(gate, indent=2))


@pytest.mark.parametrize("args", [
    (), ("--recursive",), (".agents/hooks.json",), (".",),
])
def test_validate_checks_the_gate_file_a_wiring_names(workspace: Path,
                                                      args: tuple[str, ...]) -> None:
    _wired(workspace, BAD_GATE)
    done = program("validate", "--no-user", *args, cwd=workspace)
    assert done.returncode == 1, done.stdout + done.stderr
    assert ".agents/agenthooks.json:9:24: error [timeout-invalid]" in done.stdout


def test_a_wiring_whose_gate_file_is_missing_is_an_error(cli: CliFn, workspace: Path) -> None:
    cursor = workspace / ".cursor" / "hooks.json"
    cursor.parent.mkdir()
    cursor.write_text(json.dumps({"version": 1, "hooks": {"preToolUse": [
        {"command": "agenthooks run preToolUse --host cursor --config .agents/agenthooks.json "
                    "--fail-closed"}]}}, indent=2))
    (workspace / ".agents").mkdir()
    done = program("validate", "--no-user", cwd=workspace)
    assert done.returncode == 1, done.stdout + done.stderr
    assert ".cursor/hooks.json:6:20: error [config-missing]" in done.stdout
    assert "--config .agents/agenthooks.json, which names no file" in done.stdout
    cursor_call = ('{"hook_event_name": "preToolUse", "tool_name": "Shell", '
                   '"tool_input": {"command": "rm -rf /"}}')
    denied = cli("preToolUse", "--host", "cursor", "--config", ".agents/agenthooks.json",
                 "--fail-closed", stdin=cursor_call, cwd=workspace)
    assert denied.code == 2 and denied.json["permission"] == "deny", denied


def test_a_missing_config_names_the_validate_that_sees_it(cli: CliFn, workspace: Path) -> None:
    done = cli("PreToolUse", "--no-user", "--config", "gates dir/agenthooks.json", stdin=RM,
               cwd=workspace)
    assert done.code == 0, done  # no gate ran: a warning the host shows, not a deny
    notice = done.json["systemMessage"]
    assert notice.endswith("run `agenthooks validate 'gates dir/agenthooks.json'`"), notice
    checked = program("validate", "gates dir/agenthooks.json", cwd=workspace)
    assert checked.returncode == 1 and "error [unreadable]" in checked.stdout
