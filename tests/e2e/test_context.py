"""Context a hook injects when the prompt is submitted (UserPromptSubmit / BeforeAgent) reaches
the model with that prompt."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.conftest import Hosts, hooks_json, wired_workspace, write_json, write_script

MESSAGE = "CONTEXT-5K: the staging database is read-only"
# Antigravity's way to add a message for the model when an invocation starts.
INJECT = f"""#!/usr/bin/env python3
import json, sys

sys.stdin.read()
print(json.dumps({{"injectSteps": [{{"ephemeralMessage": {MESSAGE!r}}}]}}))
"""


@pytest.mark.parametrize("host", ["claude", "gemini", "codex"])
def test_injected_context_reaches_the_model(hosts: Hosts, tmp_path: Path, host: str) -> None:
    workspace = wired_workspace(tmp_path, host)
    write_script(workspace / ".agents" / "scripts" / "inject.py", INJECT)
    write_json(workspace / ".agents" / "hooks.json", hooks_json(
        context={"PreInvocation": [{"type": "command", "command": "./scripts/inject.py"}]}))

    run = hosts.run(host, workspace, "Migrate the database.", [{"text": "Understood."}])

    assert len(run.main_requests) == 1, run.describe()
    sent = run.prompt_text(run.main_requests[0])
    assert MESSAGE in sent, sent[-3000:]
    assert "Migrate the database." in sent
