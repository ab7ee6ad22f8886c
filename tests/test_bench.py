"""`scripts/bench --quick` as CI's smoke test: every case runs and the JSON report is whole.

It asserts nothing about time: budgets are checked by the full benchmark, not by tests.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


@pytest.mark.skipif(
    Path(sys.prefix).resolve() != (REPO / ".venv").resolve(),
    reason="scripts/bench runs under the project's .venv (./scripts/test makes it)",
)
def test_quick_bench_runs_every_case(tmp_path: Path) -> None:
    out = tmp_path / "bench.json"
    done = subprocess.run(
        [sys.executable, str(REPO / "scripts" / "bench"), "--quick", "--no-peer",
         "--out", str(out)],
        check=False, capture_output=True, text=True, timeout=600, env={**os.environ},
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(out.read_text())
    cases = {row["case"] for row in report["rows"]}
    assert cases == {"cold CLI", "in-process", "fan-out", "scale", "timeout", "memory"}
    assert report["quick"] is True
    assert {"date", "machine", "python", "agenthooks"} <= set(report["machine"])
    budgets = {b["budget"] for b in report["budgets"]}
    assert "cold run / python -c pass" in budgets
    assert "peak RSS of a cold run (MiB)" in budgets
    assert "| budget |" in done.stdout
