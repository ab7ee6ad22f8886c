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
from typing import Any

import pytest

REPO = Path(__file__).resolve().parent.parent


@pytest.mark.skipif(
    Path(sys.prefix).resolve() != (REPO / ".venv").resolve(),
    reason="scripts/bench runs under the project's .venv (./scripts/test makes it)",
)
def test_quick_bench_runs_every_case(tmp_path: Path) -> None:
    out = tmp_path / "bench.json"
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    done = subprocess.run(
        [sys.executable, str(REPO / "scripts" / "bench"), "--quick", "--no-peer",
         "--out", str(out)],
        check=False, capture_output=True, text=True, timeout=600,
        env={**os.environ, "TMPDIR": str(scratch)},
    )
    assert done.returncode == 0, done.stderr
    assert list(scratch.iterdir()) == []  # nothing left behind in the temporary directory
    report = json.loads(out.read_text())
    cases = {row["case"] for row in report["rows"]}
    assert cases == {"cold CLI", "targets", "in-process", "fan-out", "decide", "policy",
                     "transform", "scale", "timeout", "memory", "trust"}
    assert report["quick"] is True
    assert {"date", "machine", "python", "agenthooks"} <= set(report["machine"])
    budgets = {b["budget"]: b for b in report["budgets"]}
    assert "cold run / python -c pass" in budgets
    assert "peak RSS of a cold run (MiB)" in budgets
    assert "| budget |" in done.stdout
    assert_engine_cases(report, budgets)
    assert_targets(report)


def assert_targets(report: dict[str, Any]) -> None:
    """The targets table: each a paired ratio with min and max, its budget, a verdict or why
    there is none."""
    targets = {t["target"]: t for t in report["targets"]}
    budgets = {
        "cold run, 1 handler / python3 -c pass": 2.5,
        "cold API import / python3 -c pass": 2.0,
        "Claude Code settings workspace / hooks.json workspace": 1.10,
        "Gemini CLI settings workspace / hooks.json workspace": 1.10,
        "7 Markdown hooks (warm cache) / without them": 1.25,
        "10,000 handlers, 1 matching / 10 handlers": 1.2,
        "each further true handler, cold (100 vs 1)": 0.6,
        "1,000 policies from --python / 10, cold": 1.3,
        "cold run, 1 handler / minimal program": None,
        "minimal program / python3 -c pass (control)": None,
    }
    for name, budget in budgets.items():
        target = targets[name]
        assert target["budget"] == budget, name
        assert target["min"] <= target["ratio"] <= target["max"], name
        assert target["rounds"] > 0, name
        assert target["ok"] in (True, False) or target["unreliable"] or budget is None, name


def test_a_busy_machine_or_a_floor_off_its_range_gives_no_verdict() -> None:
    bench = load_bench()
    result = bench.Result()
    pair = bench.Paired(bench.Stats([20.0]), bench.Stats([10.0]), [2.0])
    result.target("cold run", pair, 2.5, 2.0)
    result.target("floor off", pair, 2.5, 2.0, controls=("floor 400 ms, expected 3-100 ms",))
    assert [t["ok"] for t in result.targets] == [True, None]
    result.unreliable_run("load average 5.00 > 2 cores")
    assert [t["ok"] for t in result.targets] == [None, None]
    lines = bench.render_targets(result.targets)
    assert "| cold run | 2.0 x | 2.0 | 2.0 | 1 | 2.5 x | 2.0 x | UNRELIABLE: load average " \
           "5.00 > 2 cores |" in lines
    assert "UNRELIABLE: floor 400 ms, expected 3-100 ms; load average 5.00 > 2 cores" in \
           lines[-1]


def test_paired_ratios_are_per_round_and_alternate() -> None:
    bench = load_bench()
    calls: list[str] = []
    a_times, b_times = iter([10.0, 30.0, 20.0]), iter([5.0, 10.0, 20.0])

    def a() -> float:
        calls.append("a")
        return next(a_times)

    def b() -> float:
        calls.append("b")
        return next(b_times)

    pair = bench.paired(a, b, 3)
    assert calls == ["a", "b", "b", "a", "a", "b"]
    assert pair.ratios == [2.0, 3.0, 1.0]
    assert (pair.ratio, min(pair.ratios), max(pair.ratios)) == (2.0, 1.0, 3.0)


def assert_engine_cases(report: dict[str, Any], budgets: dict[str, dict[str, Any]]) -> None:
    """The engine's cases: every subject measured, each budget with its limit and a verdict."""
    rows = {(row["case"], row["subject"]): row for row in report["rows"]}
    expected = [
        ("cold CLI", "import Hooks, Decision, EventResult, policy"),
        ("decide", "agenthooks: 0 decide hooks"),
        ("decide", "agenthooks: 1 decide hook"),
        ("decide", "agenthooks: 100 decide hooks"),
        ("decide", "plain calls: 1 function"),
        ("decide", "plain calls: 100 functions"),
        ("policy", "enforce, per decision, 10 policies"),
        ("policy", "enforce, per decision, 1000 policies"),
        ("policy", "enforce, new tool name, 1000 policies"),
        ("policy", "hooks.run with enforce, 1000 policies"),
        ("transform", "agenthooks: modify, then reads stdin"),
        ("transform", "agenthooks: reads stdin alone"),
    ]
    for key in expected:
        row = rows[key]
        assert row["n"] > 0 and row["median_ms"] > 0, key
    assert not any(subject.startswith("gemini") for _, subject in rows)  # --no-peer
    assert rows[("decide", "agenthooks: 100 decide hooks")]["vs_floor"] > 0
    assert rows[("policy", "enforce, per decision, 1000 policies")]["vs_10 policies"] > 0
    assert rows[("transform", "agenthooks: modify, then reads stdin")]["vs_alone"] > 0
    limits = {
        "cold run / python -c pass": (2.5, "x"),
        "cold API import / python -c pass": (2.0, "x"),
        "decide hook beyond the call itself, 1 hook - 0 (\u00b5s)": (5.0, "\u00b5s"),
        "100 decide hooks beyond the call itself (ms)": (0.5, "ms"),
        "enforce 1,000 policies / 10 policies, per decision": (2.0, "x"),
    }
    for name, (limit, unit) in limits.items():
        budget = budgets[name]
        assert (budget["limit"], budget["unit"]) == (limit, unit), name
        assert isinstance(budget["value"], float), name
        assert budget["ok"] in (True, False) or budget["unreliable"], name


def load_script(name: str, module_name: str) -> ModuleType:
    """scripts/NAME as a module (it has no .py suffix), for its functions and figures."""
    loader = importlib.machinery.SourceFileLoader(module_name, str(REPO / "scripts" / name))
    spec = importlib.util.spec_from_loader(loader.name, loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[loader.name] = module  # dataclasses look their module up while decorating
    loader.exec_module(module)
    return module


def load_bench() -> ModuleType:
    """scripts/bench as a module, for its pure functions."""
    return load_script("bench", "agenthooks_bench")


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


def test_the_policy_files_hit_every_level_and_decide_alike_at_both_sizes() -> None:
    from agenthooks import Context, Decision, Session, policy

    bench = load_bench()
    builders = {"allow": policy.allow, "deny": policy.deny}
    levels = {bench.gemini_priority(tool, "allow") for tool, _ in bench.policy_table(10)}
    assert levels == {1, 2, 3}  # "*", globs, exact names
    payload = {"toolCall": {"name": "x", "args": {}}}
    turn = Session("t").turn()
    for size in bench.POLICY_SIZES:
        table = bench.policy_table(size)
        assert len(table) == size
        hook = policy.enforce([builders[decision](tool) for tool, decision in table])
        decided = {}
        for tool in bench.POLICY_TOOLS:
            decision = hook(Context("PreToolUse", payload, tool, {}, turn))
            assert isinstance(decision, Decision)  # a synchronous hook: no predicate is async
            decided[tool] = decision.kind
        assert decided == bench.POLICY_TOOLS


def test_microsecond_rows_are_shown_in_microseconds() -> None:
    bench = load_bench()
    result = bench.Result()
    result.row("decide", "fast", bench.Stats([0.0123, 0.0124, 0.0125]))
    result.row("cold CLI", "slow", bench.Stats([45.0, 46.0, 47.0]))
    text = bench.render({"machine": {"agenthooks": "0", "machine": "m", "python": "3",
                                     "node": "v", "date": "d"}, "quick": False,
                         "rows": result.rows, "budgets": []})
    assert "|  12.400 \u00b5s |" in text
    assert "|  46.000 ms |" in text


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
