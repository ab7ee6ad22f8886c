"""An `agenthooks run` entry on an event nothing agenthooks reads has under its host gates
nothing: `validate` says so (`wiring-runs-nothing`)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest


def cursor_project(root: Path, events: dict[str, str]) -> Path:
    (root / ".cursor").mkdir(parents=True)
    (root / ".agents").mkdir()
    (root / ".agents" / "hooks.json").write_text('{"g": {"Stop": [{"command": "true"}]}}')
    hooks = {event: [{"command": command, "failClosed": True}]
             for event, command in events.items()}
    (root / ".cursor" / "hooks.json").write_text(json.dumps({"version": 1, "hooks": hooks}))
    return root


@pytest.mark.parametrize(("event", "command", "said"), [
    ("beforeShellExecution", "agenthooks run beforeShellExecution --host cursor --fail-closed",
     True),
    ("beforeReadFile", "agenthooks run beforeReadFile --host cursor", True),
    ("preToolUse", "agenthooks run preToolUse --host cursor --fail-closed", False),
    ("stop", "agenthooks run stop --host cursor", False),
    # Python hooks may have any event: not said.
    ("beforeShellExecution",
     "agenthooks run beforeShellExecution --host cursor --python gates:hooks", False),
])
def test_an_entry_that_runs_nothing(agenthooks, tmp_path: Path, event: str, command: str,
                                    said: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    root = cursor_project(tmp_path / "p", {event: command})
    monkeypatch.chdir(root)
    done = agenthooks("validate", "--format", "json")
    rules = [d["rule"] for d in json.loads(done.out)["diagnostics"]]
    assert ("wiring-runs-nothing" in rules) is said, done.out
    assert (done.code == 1) is said
    if said:
        (finding,) = [d for d in json.loads(done.out)["diagnostics"]
                      if d["rule"] == "wiring-runs-nothing"]
        assert finding["file"] == os.path.join(".cursor", "hooks.json")
        assert finding["line"] == 1 and finding["pointer"].endswith("/command")
        if event == "beforeShellExecution":
            assert "wire preToolUse" in finding["message"]


def test_another_hosts_event_with_other_hosts_may_run(agenthooks, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "p"
    (root / ".claude").mkdir(parents=True)
    entries = {event: [{"hooks": [{"type": "command", "command":
                                   f"agenthooks run {event} --host claude{extra}"}]}]
               for event, extra in (("SubagentStop", ""), ("PermissionRequest", " --other-hosts"))}
    (root / ".claude" / "settings.json").write_text(json.dumps({"hooks": entries}))
    monkeypatch.chdir(root)
    done = agenthooks("validate", "--format", "json")
    found = [d for d in json.loads(done.out)["diagnostics"] if d["rule"] == "wiring-runs-nothing"]
    (only,) = found
    assert "SubagentStop" in only["message"] and "without --other-hosts" in only["message"]
