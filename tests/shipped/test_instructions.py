"""The cold path's guards that do not depend on the machine's load: instruction counts.

Each is a ratio of two warm runs' instructions, counted by valgrind's callgrind with
`PYTHONHASHSEED=0` (scripts/bench's INSTRUCTION_LIMITS and its workspaces, so the bench and
this test check the same figures): a hooks.json run against `python3 -c pass`, a Claude Code
or Gemini CLI settings workspace and Markdown hooks against the hooks.json one, 10,000
handlers with one matching against 10. And what a large payload costs per MB against
`json.load` of it (docs/performance.md, "Large payloads").
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import time
from pathlib import Path

import pytest

from agenthooks.sources.reading.entries import RACY_NS
from tests.test_bench import load_bench

REPO = Path(__file__).resolve().parents[2]
PROGRAM = [sys.executable, str(REPO / "bin" / "agenthooks")]
pytestmark = [
    pytest.mark.program, pytest.mark.instructions,
    pytest.mark.skipif(shutil.which("valgrind") is None,
                       reason="no valgrind on PATH: instruction counts need callgrind"),
]


def test_the_cold_path_stays_within_its_instruction_limits(tmp_path: Path) -> None:
    bench = load_bench()
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path)}
    (tmp_path / "ws").mkdir()
    found = bench.instruction_ratios(PROGRAM, env, tmp_path / "ws")
    assert [f["target"] for f in found] == [t[0] for t in bench.INSTRUCTION_LIMITS]
    missed = tuple(f["target"] for f in found if not f["ok"])
    if missed:
        # A count is the same from run to run once the workspace's cache is warm; a run that
        # missed it (its files' times too close to the warm-up's, on a loaded machine) costs
        # half as much again. Measured once more, in new workspaces, a real excess stays.
        (tmp_path / "again").mkdir()
        found = bench.instruction_ratios(PROGRAM, env, tmp_path / "again", missed)
    over = [f"{f['target']}: {f['ratio']} x, limit {f['limit']} x "
            f"({f['instructions']:,} / {f['reference']:,} instructions)"
            for f in found if not f["ok"]]
    assert not over, "\n".join(over)


# A file's content as a Write carries it: quotes, backslashes and newlines to escape.
LINE = 'print("a/b", x[1], {"k": "\\t"})  # a line of a large file\n'
PER_MB_LIMIT = 1.3


def test_a_large_payload_costs_what_reading_it_does(tmp_path: Path) -> None:
    """Per MB, a Write under a hooks.json handler (the payload in its own words, read by the
    handler) costs agenthooks within 1.3 x of `json.load` of it."""
    bench = load_bench()
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path)}
    (tmp_path / ".agents").mkdir()
    (tmp_path / ".agents" / "hooks.json").write_text(json.dumps({"keep": {"PreToolUse": [
        {"matcher": "write_to_file", "hooks": [{"command": "cat > /dev/null"}]}]}}))
    run = [*PROGRAM, "run", "PreToolUse", "--host", "claude", "--workspace", str(tmp_path),
           "--no-user"]
    floor = [sys.executable, "-c", "import json, sys; json.load(sys.stdin)"]

    def payload(content: str) -> bytes:
        return json.dumps({"session_id": "s", "cwd": str(tmp_path),
                           "hook_event_name": "PreToolUse", "tool_name": "Write",
                           "tool_input": {"file_path": "/w/big.py", "content": content}}).encode()

    small, large = payload("x"), payload(LINE * (2_000_000 // len(LINE)))
    time.sleep(RACY_NS / 1e9 + 0.5)  # the file settled: its cache entry is for good
    bench.instructions(run, small, env, tmp_path)  # the cache warm
    ours = bench.instructions(run, large, env, tmp_path) - bench.instructions(
        run, small, env, tmp_path)
    reading = bench.instructions(floor, large, env, tmp_path) - bench.instructions(
        floor, small, env, tmp_path)
    assert ours / reading <= PER_MB_LIMIT, (
        f"{ours / reading:.2f} x json.load's instructions per MB ({ours:,} / {reading:,})")
