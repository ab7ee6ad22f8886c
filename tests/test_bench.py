"""`scripts/bench --quick` as CI's smoke test: every case runs and the JSON report is whole.

It asserts nothing about time: budgets are checked by the full benchmark, not by tests.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import json
import os
import pwd
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

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


def load_bench() -> ModuleType:
    """scripts/bench as a module (it has no .py suffix), for its pure functions."""
    path = REPO / "scripts" / "bench"
    loader = importlib.machinery.SourceFileLoader("agenthooks_bench", str(path))
    spec = importlib.util.spec_from_loader(loader.name, loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[loader.name] = module  # dataclasses look their module up while decorating
    loader.exec_module(module)
    return module


def test_a_reference_out_of_its_range_gives_no_verdict() -> None:
    bench = load_bench()
    result = bench.Result()
    slow_peer = bench.Stats([180.0, 181.0, 179.0])
    usual_peer = bench.Stats([2.2, 2.3, 2.1])
    result.budget("in-process true / gemini", 1.2 / 180.0, 0.6, against=("gemini", slow_peer))
    result.budget("in-process json / gemini", 1.2 / 2.2, 0.6, against=("gemini", usual_peer))
    result.row("in-process", "gemini: true", slow_peer, expected="gemini")
    report = {"machine": {"agenthooks": "0", "machine": "m", "python": "3", "node": "v",
                          "date": "d"}, "quick": False, "rows": result.rows,
              "budgets": result.budgets}
    text = bench.render(report)
    assert "| in-process true / gemini | 0.007 x | 0.6 x | UNRELIABLE: peer 180 ms, " \
           "expected 0.5\u201312 ms |" in text
    assert "| in-process json / gemini | 0.545 x | 0.6 x | ok |" in text
    assert result.budgets[0]["ok"] is None
    assert "gemini: true (peer 180 ms" in text


def test_every_range_is_a_peer_or_floor_with_low_below_high() -> None:
    for key, (role, low, high) in load_bench().EXPECTED_MS.items():
        assert role in {"peer", "floor"}, key
        assert 0 < low < high, key


def peer_directory() -> Path | None:
    """The Gemini runner scripts/bench installed, if any. Tests run under a temporary HOME, so
    look the real one up: only to read the installed package, never to write there."""
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(pwd.getpwuid(os.getuid()).pw_dir,
                                                             ".cache")
    directory = Path(cache) / "agenthooks" / "gemini-peer"
    marker = directory / "node_modules" / "@google" / "gemini-cli-core" / "package.json"
    return directory if marker.is_file() and shutil.which("node") else None


@pytest.mark.skipif(peer_directory() is None, reason="no Gemini runner installed by scripts/bench")
def test_peer_hooks_do_not_read_bashrc_when_started_outside_a_shell(home: Path,
                                                                    tmp_path: Path) -> None:
    # Node gives hooks socket stdio; bash on a socket stdin without SHLVL reads ~/.bashrc, which
    # once made each peer hook cost 180 ms instead of 2 ms.
    marker = tmp_path / "bashrc-was-read"
    (home / ".bashrc").write_text(f"touch {marker}\n")
    env = {k: v for k, v in os.environ.items() if k != "SHLVL"}
    env["GEMINI_PEER_DIR"] = str(peer_directory())
    request = json.dumps({"commands": ["true"], "n": 2}) + "\n"
    done = subprocess.run(["node", str(REPO / "scripts" / "peers" / "gemini_driver.mjs"), "serve"],
                          input=request, capture_output=True, text=True, env=env, timeout=60,
                          check=False)
    assert done.returncode == 0, done.stderr
    assert len(json.loads(done.stdout)["ms"]) == 2
    assert not marker.exists()
