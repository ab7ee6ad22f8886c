"""XDG folders in the test's temporary folder (no user config leaks in), and a workspace whose
hooks.json handlers answer every event the README's `--host` snippets register."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import program
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


# Denies `rm -rf` in hooks.json's words, reading Antigravity's `toolCall.args`: what a host's
# payload becomes when a hooks.json gate runs under that host.
TRANSLATED_GATE = """\
import json, sys
args = json.load(sys.stdin)["toolCall"]["args"]
if "rm -rf" in args["CommandLine"]:
    print(json.dumps({"decision": "deny", "reason": "no recursive deletes"}))
else:
    print("{}")
"""


def translated_gates(root: Path, name: str = "hooks.json", *, only: tuple[str, ...] = (),
                     **more: dict[str, object]) -> Path:
    """A project at `root` whose `.agents/<name>` holds hooks.json gates that run under
    another host: the deny of `TRANSLATED_GATE` before a tool, context after it and at the
    start, a Stop that keeps the agent going, and `more` hooks (after the context one);
    `only`: those hooks alone."""
    (root / ".agents").mkdir(parents=True)
    (root / "gate.py").write_text(TRANSLATED_GATE, encoding="utf-8")
    hooks: dict[str, object] = {
        "gate": {"PreToolUse": [{"matcher": "run_command", "hooks": [
            {"command": f"{sys.executable} ../gate.py"}]}]},
        "lint": {"PostToolUse": [{"matcher": "", "hooks": [{"command": (
            """echo '{"hookSpecificOutput": {"additionalContext": "lint: 2 warnings"}}'""")}]}]},
        **more,
        "tests": {"Stop": [{"command": "echo 'the tests fail: keep going' >&2; exit 2"}]},
        "branch": {"SessionStart": [{"command": (
            """echo '{"hookSpecificOutput": {"additionalContext": "branch: main"}}'""")}]},
    }
    kept = {key: value for key, value in hooks.items() if not only or key in only}
    (root / ".agents" / name).write_text(json.dumps(kept), encoding="utf-8")
    return root


def environment_dump(field: str, *names: str) -> str:
    """A handler command answering `{field: "<JSON of the variables named>"}`: what its host
    (or agenthooks as that host) gave it, read back as context."""
    return ("python3 -c \"import json,os; print(json.dumps({'" + field + "': json.dumps("
            "{k: os.environ.get(k) for k in " + repr(names) + "})}))\"")


def answer(argv: list[str], payload: object, cwd: Path) -> subprocess.CompletedProcess[str]:
    """A real `python -m agenthooks run ...` process for the argv of a snippet's command."""
    assert argv[:2] == ["agenthooks", "run"], argv
    return program(*argv[1:], stdin=payload if isinstance(payload, str) else json.dumps(payload),
                   cwd=cwd, timeout=120)


def schema(name: str) -> dict[str, object]:
    loaded: dict[str, object] = json.loads((SCHEMAS / f"{name}.json").read_text("utf-8"))
    return loaded
