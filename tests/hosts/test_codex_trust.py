"""Codex's hook trust: keys, hashes and statuses as Codex computes them, and `agenthooks trust
--host codex` editing config.toml (the real Codex accepts what it writes: tests/e2e/test_codex.py).
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

import pytest

from agenthooks.sources.dialects import codex_trust as trust
from tests.conftest import Run


def sha(identity: dict[str, Any]) -> str:
    text = json.dumps(identity, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(text.encode()).hexdigest()


@pytest.mark.parametrize(("event", "matcher", "handler", "identity"), [
    # The default timeout and async are part of the identity, the matcher when kept.
    ("PreToolUse", "Bash", {"type": "command", "command": "gate"},
     {"event_name": "pre_tool_use", "matcher": "Bash",
      "hooks": [{"type": "command", "command": "gate", "timeout": 600, "async": False}]}),
    # A zero timeout is raised to 1 s; statusMessage counts; commandWindows does not.
    ("SessionStart", None, {"type": "command", "command": "x", "timeout": 0, "async": True,
                            "statusMessage": "hi", "commandWindows": "y"},
     {"event_name": "session_start",
      "hooks": [{"type": "command", "command": "x", "timeout": 1, "async": True,
                 "statusMessage": "hi"}]}),
    ("Interrupt", None, {"type": "command", "command": "é"},
     {"event_name": "interrupt",
      "hooks": [{"type": "command", "command": "é", "timeout": 600, "async": False}]}),
])
def test_hash_is_codex_normalized_identity(event: str, matcher: str | None,
                                           handler: dict[str, Any],
                                           identity: dict[str, Any]) -> None:
    assert trust.hook_hash(event, matcher, handler) == sha(identity)


def test_keys_count_every_group_and_handler_and_drop_ignored_matchers() -> None:
    events = {
        "PreToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "prompt"}, {"type": "command", "command": "a"}]},
            {"matcher": "apply_patch", "hooks": [{"type": "command", "command": "  "},
                                                 {"type": "command", "command": "b"}]},
        ],
        "Stop": [{"matcher": "ignored", "hooks": [{"type": "command", "command": "c"}]}],
        "NotAnEvent": [{"hooks": [{"type": "command", "command": "d"}]}],
    }
    found = trust.hooks_of("/w/.codex/hooks.json", events)
    assert [(h.key, h.matcher, h.command) for h in found] == [
        ("/w/.codex/hooks.json:pre_tool_use:0:1", "Bash", "a"),
        ("/w/.codex/hooks.json:pre_tool_use:1:1", "apply_patch", "b"),
        ("/w/.codex/hooks.json:stop:0:0", None, "c"),
    ]
    assert found[2].hash == trust.hook_hash("Stop", None, {"command": "c"})


@pytest.mark.parametrize(("state", "status"), [
    ({}, trust.UNTRUSTED),
    ({"trusted_hash": "HASH"}, trust.TRUSTED),
    ({"trusted_hash": "sha256:old"}, trust.MODIFIED),
    ({"trusted_hash": "HASH", "enabled": False}, trust.DISABLED),
    ({"enabled": True}, trust.UNTRUSTED),
])
def test_status(state: dict[str, Any], status: str) -> None:
    hook = trust.CodexHook("f", "Stop", 0, 0, None, "c", "k", "HASH")
    assert trust.status_of(hook, {"k": state} if state else {}) == status


HOOK = trust.CodexHook("/h/hooks.json", "Stop", 0, 0, None, "c", '/h/"q".json:stop:0:0',
                       "sha256:new")


@pytest.mark.parametrize(("before", "after"), [
    ("", '[hooks.state."/h/\\"q\\".json:stop:0:0"]\ntrusted_hash = "sha256:new"\n'),
    ('model = "m"',
     'model = "m"\n\n[hooks.state."/h/\\"q\\".json:stop:0:0"]\ntrusted_hash = "sha256:new"\n'),
    # A modified hook's table keeps its other lines; its hash line is replaced.
    ('[hooks.state."/h/\\"q\\".json:stop:0:0"]\nenabled = true\ntrusted_hash = "sha256:old"\n'
     '\n[other]\nx = 1\n',
     '[hooks.state."/h/\\"q\\".json:stop:0:0"]\nenabled = true\ntrusted_hash = "sha256:new"\n'
     '\n[other]\nx = 1\n'),
    ('[hooks.state."/h/\\"q\\".json:stop:0:0"]\nenabled = true\n[x]\n',
     '[hooks.state."/h/\\"q\\".json:stop:0:0"]\ntrusted_hash = "sha256:new"\nenabled = true\n'
     '[x]\n'),
])
def test_with_trust_edits_only_the_entries(before: str, after: str) -> None:
    assert trust.with_trust(before, [HOOK]) == after


def test_with_trust_refuses_a_state_it_cannot_edit_as_text() -> None:
    # Kept as dotted keys under [hooks]: a new table header would redefine the key.
    before = '[hooks]\nstate."/h/\\"q\\".json:stop:0:0".enabled = true\n'
    with pytest.raises(trust.CodexTrustError, match="add these entries yourself"):
        trust.with_trust(before, [HOOK])


@pytest.fixture
def codex(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A workspace with one Codex hook, and CODEX_HOME under the test's home."""
    home = Path(os.environ["HOME"]) / ".codex"
    home.mkdir()
    (home / "config.toml").write_text('model = "m"\n', "utf-8")
    monkeypatch.setenv("CODEX_HOME", str(home))
    workspace = tmp_path / "ws"
    (workspace / ".codex").mkdir(parents=True)
    (workspace / ".codex" / "hooks.json").write_text(json.dumps({"hooks": {"PreToolUse": [
        {"matcher": "Bash", "hooks": [{"type": "command", "command": "agenthooks run x"}]}]}}))
    return workspace


def test_trust_host_codex_shows_asks_and_writes(agenthooks: Run, codex: Path) -> None:
    config = Path(os.environ["CODEX_HOME"]) / "config.toml"
    key = f"{codex.resolve()}/.codex/hooks.json:pre_tool_use:0:0"

    shown = agenthooks("trust", "--host", "codex", "--show", "--workspace", str(codex))
    assert shown.code == 0, shown.err
    assert "untrusted PreToolUse 'Bash': agenthooks run x" in shown.out
    assert f'+[hooks.state."{key}"]' in shown.out
    assert config.read_text("utf-8") == 'model = "m"\n'

    # No terminal to ask on and no --yes: nothing is written.
    refused = agenthooks("trust", "--host", "codex", "--workspace", str(codex))
    assert refused.code == 1
    assert "nothing written" in refused.err
    assert config.read_text("utf-8") == 'model = "m"\n'

    written = agenthooks("trust", "--host", "codex", "--yes", "--workspace", str(codex))
    assert written.code == 0, written.err
    recorded = trust.states(trust.read_toml(str(config)))
    [hook] = trust.all_hooks(str(codex), trust.codex_home())
    assert recorded == {key: {"trusted_hash": hook.hash}}

    again = agenthooks("trust", "--host", "codex", "--yes", "--workspace", str(codex))
    assert again.code == 0
    assert "trusted      PreToolUse" not in again.out
    assert "trusted already" in again.out


def test_trust_host_codex_reads_inline_hooks_of_config_toml(agenthooks: Run, codex: Path) -> None:
    config = Path(os.environ["CODEX_HOME"]) / "config.toml"
    config.write_text('[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = "command"\n'
                      'command = "notify-me"\n', "utf-8")
    written = agenthooks("trust", "--host", "codex", "--yes", "--workspace", str(codex))
    assert written.code == 0, written.err
    recorded = trust.states(trust.read_toml(str(config)))
    assert f"{config.resolve()}:stop:0:0" in recorded
    assert len(recorded) == 2


def test_unreadable_config_is_one_line(agenthooks: Run, codex: Path) -> None:
    (Path(os.environ["CODEX_HOME"]) / "config.toml").write_text("model = \n", "utf-8")
    failed = agenthooks("trust", "--host", "codex", "--yes", "--workspace", str(codex))
    assert failed.code == 1
    assert "config.toml is not valid TOML" in failed.err
    assert len(failed.err.strip().splitlines()) == 1


def test_validate_names_the_hooks_codex_skips_until_trusted(agenthooks: Run, codex: Path) -> None:
    config = Path(os.environ["CODEX_HOME"]) / "config.toml"
    config.write_text(config.read_text("utf-8") + f'[projects."{codex.resolve()}"]\n'
                      'trust_level = "trusted"\n', "utf-8")
    before = agenthooks("validate", "--workspace", str(codex))
    assert "codex-untrusted-hook" in before.out + before.err
    assert agenthooks("trust", "--host", "codex", "--yes", "--workspace", str(codex)).code == 0
    after = agenthooks("validate", "--workspace", str(codex))
    assert "codex-untrusted-hook" not in after.out + after.err
    assert "codex-project-untrusted" not in after.out + after.err
