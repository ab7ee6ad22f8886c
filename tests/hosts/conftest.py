"""XDG folders in the test's temporary folder (no user config leaks in), and a workspace whose
hooks.json handlers answer every event the README's `--host` snippets register."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.usersettings import user_config, xdg

__all__ = ["answer", "user_config", "xdg"]

REPO = Path(__file__).resolve().parents[2]
SCHEMAS = Path(__file__).resolve().parent / "schemas"

# Denies `rm -rf`, rewrites a bare `ls`, says nothing otherwise; reads the command from
# Claude Code's and Gemini CLI's `tool_input` and from Antigravity's `toolCall.args`.
GATE = """\
import json, sys
payload = json.load(sys.stdin)
args = payload.get("tool_input") or payload.get("toolCall", {}).get("args", {})
key = "command" if "command" in args else "CommandLine"
command = args.get(key) or ""
if "rm -rf" in command:
    print(json.dumps({"decision": "deny", "reason": "no recursive deletes: " + command}))
elif command == "ls":
    print(json.dumps({"hookSpecificOutput": {"updatedInput": {**args, key: "ls -la"}}}))
else:
    print("{}")
"""


def handlers(gate: Path) -> dict[str, object]:
    """A hooks.json with one handler per event of the snippets."""
    def flat(command: str) -> list[dict[str, str]]:
        return [{"command": command}]

    return {
        "gate": {"PreToolUse": [{"matcher": "", "hooks": flat(f"{sys.executable} {gate}")}]},
        "lint": {"PostToolUse": [{"matcher": "", "hooks": flat(
            """echo '{"hookSpecificOutput": {"additionalContext": "lint: 2 warnings"}}'""")}]},
        "remind": {"PreInvocation": flat(
            """echo '{"injectSteps": [{"ephemeralMessage": "run the tests first"}]}'""")},
        "tests": {"Stop": flat("echo 'the tests fail: keep going' >&2; exit 2")},
        "branch": {"SessionStart": flat(
            """echo '{"hookSpecificOutput": {"additionalContext": "branch: main"}}'""")},
    }


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A project whose `.agents/hooks.json` (and `.agents/agenthooks.json`) hold `handlers`."""
    root = tmp_path / "project"
    (root / ".agents").mkdir(parents=True)
    gate = root / "gate.py"
    gate.write_text(GATE, encoding="utf-8")
    text = json.dumps(handlers(gate), indent=2)
    for name in ("hooks.json", "agenthooks.json"):
        (root / ".agents" / name).write_text(text, encoding="utf-8")
    return root


def answer(argv: list[str], payload: object, cwd: Path) -> subprocess.CompletedProcess[str]:
    """A real `python -m agenthooks run ...` process for the argv of a snippet's command."""
    assert argv[:2] == ["agenthooks", "run"], argv
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))}
    env.pop("AGENTHOOKS_FAIL_CLOSED", None)
    return subprocess.run([sys.executable, "-m", "agenthooks", *argv[1:]],
                          input=payload if isinstance(payload, str) else json.dumps(payload),
                          capture_output=True, text=True, cwd=cwd,
                          env=env, timeout=120, check=False)


def schema(name: str) -> dict[str, object]:
    loaded: dict[str, object] = json.loads((SCHEMAS / f"{name}.json").read_text("utf-8"))
    return loaded
