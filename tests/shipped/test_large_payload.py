"""A Write of a large file, as a host sends it: one payload, its content one long string.

A handler of another host gets the payload in its own host's words; the content's JSON
literal goes into it as the caller wrote it (`payload.LONG_PAYLOAD`), not decoded and encoded
again. These run the program as a host does and read what the handler received.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from agenthooks.model.payload import LONG_PAYLOAD

REPO = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.program

# A file's content with what JSON escapes, what it may escape (`\/`) and what is not ASCII.
LINE = 'def f(x):\n\treturn "caf\u00e9" + x  # a/b \\ \u2603 \U0001f600\n'


def run_write(tmp_path: Path, content: str, *, ensure_ascii: bool, slash: bool = False,
              edit: str | None = None,
              ) -> tuple[bytes, dict[str, object], subprocess.CompletedProcess[str]]:
    """A Claude Code PreToolUse of Write with `content` (or of Edit, from `edit` to
    `content`), under a hooks.json handler (the other host's words) that keeps its stdin:
    (the payload sent, what it got, the run)."""
    kept = tmp_path / "stdin.json"
    (tmp_path / ".agents").mkdir(exist_ok=True)
    (tmp_path / ".agents" / "hooks.json").write_text(json.dumps({"keep": {"PreToolUse": [
        {"matcher": ".*", "hooks": [{"command": f"cat > {kept}"}]}]}}))
    tool_input = {"file_path": str(tmp_path / "big.py"), "content": content} if edit is None \
        else {"file_path": str(tmp_path / "big.py"), "old_string": edit, "new_string": content}
    payload = {"session_id": "s1", "transcript_path": "/t", "cwd": str(tmp_path),
               "hook_event_name": "PreToolUse", "tool_name": "Write" if edit is None else "Edit",
               "tool_input": tool_input}
    text = json.dumps(payload, ensure_ascii=ensure_ascii)
    if slash:  # JSON's optional escape, which json.dumps never writes
        text = text.replace("a/b", "a\\/b")
    done = subprocess.run(
        [sys.executable, "-I", str(REPO / "bin" / "agenthooks"), "run", "PreToolUse", "--host",
         "claude", "--workspace", str(tmp_path), "--no-user"],
        input=text, capture_output=True, text=True, cwd=tmp_path, check=False, timeout=120,
        env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)})
    assert done.returncode == 0, done.stderr
    got = kept.read_bytes()
    return text.encode(), json.loads(got), done


def args_of(received: dict[str, object]) -> dict[str, object]:
    call = received["toolCall"]
    assert isinstance(call, dict)
    args = call["args"]
    assert isinstance(args, dict)
    return args


@pytest.mark.parametrize("ensure_ascii", [True, False], ids=["ascii", "utf-8"])
def test_a_long_content_reaches_another_hosts_handler_whole(tmp_path: Path,
                                                            ensure_ascii: bool) -> None:
    content = LINE * (2 * LONG_PAYLOAD // len(LINE))
    _, received, _ = run_write(tmp_path, content, ensure_ascii=ensure_ascii)
    _, small, _ = run_write(tmp_path, "x", ensure_ascii=ensure_ascii)
    assert content in args_of(received).values()
    # Everything else is what a short payload gives.
    assert {k: v for k, v in args_of(received).items() if v != content} == {
        k: v for k, v in args_of(small).items() if v != "x"}
    # A hooks.json handler gets the caller's own fields too (docs/hosts.md), content and all.
    assert received["tool_input"]["content"] == content  # type: ignore[index]
    assert {k: v for k, v in received.items() if k not in ("toolCall", "tool_input")} == {
        k: v for k, v in small.items() if k not in ("toolCall", "tool_input")}


@pytest.mark.parametrize("ensure_ascii", [True, False], ids=["ascii", "utf-8"])
def test_two_long_strings_reach_another_hosts_handler_whole(tmp_path: Path,
                                                            ensure_ascii: bool) -> None:
    """An Edit of a large file: two long strings, each spliced in where it goes."""
    new = LINE * (LONG_PAYLOAD // len(LINE))
    old = new[::-1]
    _, received, _ = run_write(tmp_path, new, ensure_ascii=ensure_ascii, edit=old)
    assert sorted(v for v in args_of(received).values() if v in (old, new)) == sorted([old, new])


def test_the_content_is_passed_as_the_caller_wrote_it(tmp_path: Path) -> None:
    """Not decoded and encoded again: the caller's own escapes (`\\/`) are still there."""
    content = LINE * (2 * LONG_PAYLOAD // len(LINE))
    _, received, _ = run_write(tmp_path, content, ensure_ascii=True, slash=True)
    assert content in args_of(received).values()
    # Twice each line: in the caller's bytes and in Antigravity's `toolCall`, spliced in whole.
    lines = content.count("a/b")
    assert (tmp_path / "stdin.json").read_bytes().count(b"a\\/b") == 2 * lines


def test_a_short_payload_is_written_anew(tmp_path: Path) -> None:
    """Below LONG_PAYLOAD the translated fields are written as ever (`\\/` becomes `/`); the
    caller's own bytes, which a hooks.json handler also gets, keep theirs."""
    _, received, _ = run_write(tmp_path, LINE * 10, ensure_ascii=True, slash=True)
    assert LINE * 10 in args_of(received).values()
    assert (tmp_path / "stdin.json").read_bytes().count(b"a\\/b") == 10
