"""Malformed JSON reaches the program as a host runs it: a fresh interpreter, nothing imported.

On CPython 3.10 and 3.11 the C scanner that `agenthooks._lean.jsontext` calls builds its error
through `json.decoder` in `sys.modules`; the program never imports `json` on its run path, so
a trailing comma once raised SystemError, ended the run without an answer, and lost every
other handler's deny. Each test here runs the real program or a fresh `python -I`.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.program

MALFORMED = ['{"decision": "allow",}', '{"a": 1 "b": 2}', "[1,]", '{"a": "x', "{'a': 1}", ""]


def fresh(code: str) -> str:
    done = subprocess.run([sys.executable, "-I", "-c", code], capture_output=True, text=True,
                          cwd=REPO, check=False, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize("text", MALFORMED)
def test_a_fresh_interpreter_gets_jsons_own_error(text: str) -> None:
    """The error class, message and position are json's, with no json imported before."""
    expected = ""
    try:
        json.loads(text)
    except json.JSONDecodeError as exc:
        expected = f"{type(exc).__name__}: {exc}"
    out = fresh(
        "import sys\n"
        "from agenthooks._lean import jsontext\n"
        "assert 'json' not in sys.modules and 'json.decoder' not in sys.modules\n"
        f"try:\n    jsontext.loads({text!r})\n"
        "except Exception as exc:\n    print(f'{type(exc).__name__}: {exc}')\n"
    )
    assert out.strip() == expected


def test_a_handlers_trailing_comma_does_not_lose_anothers_deny(tmp_path: Path) -> None:
    hooks = {
        "sloppy": {"PreToolUse": [{"matcher": "*", "hooks": [
            {"command": """echo '{"decision": "allow",}'"""}]}]},
        "gate": {"PreToolUse": [{"matcher": "*", "hooks": [
            {"command": "echo 'rm -rf needs a human' >&2; exit 2"}]}]},
    }
    (tmp_path / ".agents").mkdir()
    (tmp_path / ".agents" / "hooks.json").write_text(json.dumps(hooks))
    payload = {"tool_name": "Bash", "tool_input": {"command": "rm -rf /"}}
    done = subprocess.run(
        [sys.executable, "-I", str(REPO / "bin" / "agenthooks"), "run", "PreToolUse",
         "--host", "claude", "--workspace", str(tmp_path), "--no-user"],
        input=json.dumps(payload), capture_output=True, text=True, cwd=tmp_path, check=False,
        timeout=60, env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)},
    )
    assert "SystemError" not in done.stderr
    answer = json.loads(done.stdout)
    assert answer["hookSpecificOutput"]["permissionDecision"] == "deny", done
    assert "rm -rf needs a human" in answer["hookSpecificOutput"]["permissionDecisionReason"]


def test_a_hook_file_with_a_trailing_comma_is_a_one_line_error(tmp_path: Path) -> None:
    (tmp_path / ".agents").mkdir()
    (tmp_path / ".agents" / "hooks.json").write_text('{"gate": {"Stop": [],}}\n')
    done = subprocess.run(
        [sys.executable, "-I", str(REPO / "bin" / "agenthooks"), "validate"],
        capture_output=True, text=True, cwd=tmp_path, check=False, timeout=60,
        env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)},
    )
    assert done.returncode == 1, done
    assert "SystemError" not in done.stderr + done.stdout
    assert ".agents/hooks.json:1:" in done.stdout + done.stderr
