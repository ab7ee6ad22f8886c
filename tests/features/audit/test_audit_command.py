"""`agenthooks audit`: the summary of a log, from hand-made records and from real runs."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from agenthooks.cli.commands.audit import parse_since, percentile
from agenthooks.features.audit import rfc3339
from tests.conftest import Run

from .conftest import agenthooks_run


def hook(name: str, decision: str | None, ms: float, status: str = "ok",
         kind: str = "command") -> dict[str, object]:
    return {"name": name, "kind": kind, "status": status, "decision": decision, "ms": ms}


def record(hooks: list[dict[str, object]], age_s: float = 0.0) -> dict[str, object]:
    return {"time": rfc3339(time.time() - age_s), "event": "PreToolUse", "tool": "run_command",
            "decision": "allow", "reason": None, "blocked": False, "workspace": "/w",
            "payload_sha256": "0" * 64, "ms": 1.0, "hooks": hooks}


def write_log(path: Path, records: list[dict[str, object]], extra: str = "") -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records) + extra)
    return path


@pytest.fixture
def log(tmp_path: Path) -> Path:
    gate = [hook("gate", "deny", 10.0)] + [hook("gate", "allow", float(i)) for i in range(1, 20)]
    records = [record([g, hook("md", None, 0.5, kind="markdown")]) for g in gate]
    records.append(record([hook("gate", None, 30000.0, status="timeout"),
                           hook("md", None, 2.0, status="failed", kind="markdown")]))
    records.append(record([hook("gate", "allow", 99.0)], age_s=3 * 3600))  # three hours ago
    return write_log(tmp_path / "audit.jsonl", records)


def test_json_is_the_settled_shape(agenthooks: Run, log: Path) -> None:
    done = agenthooks("audit", str(log), "--format", "json")
    assert done.code == 0, done.err
    summary = json.loads(done.out)
    assert summary["events"] == 22
    gate, md = summary["hooks"]
    assert gate == {"name": "gate", "calls": 22,
                    "decisions": {"allow": 20, "deny": 1, "none": 1},
                    "deny_rate": round(1 / 22, 4), "p50_ms": 10.0, "p95_ms": 99.0,
                    "max_ms": 30000.0, "timeouts": 1, "failures": 0}
    assert md == {"name": "md", "calls": 21, "decisions": {"none": 21}, "deny_rate": 0.0,
                  "p50_ms": 0.5, "p95_ms": 0.5, "max_ms": 2.0, "timeouts": 0, "failures": 1}


def test_since_keeps_the_recent_events(agenthooks: Run, log: Path) -> None:
    recent = json.loads(agenthooks("audit", str(log), "--since", "2h", "--format", "json").out)
    assert recent["events"] == 21 and recent["hooks"][0]["max_ms"] == 30000.0
    everything = json.loads(agenthooks("audit", str(log), "--since", "7d",
                                       "--format", "json").out)
    assert everything["events"] == 22


@pytest.mark.parametrize(("text", "seconds"), [("30m", 1800), ("2h", 7200), ("7d", 604800),
                                               ("45s", 45)])
def test_durations(text: str, seconds: int) -> None:
    assert parse_since(text) == seconds


def test_a_bad_duration_is_a_usage_error(agenthooks: Run, log: Path) -> None:
    done = agenthooks("audit", str(log), "--since", "2 weeks")
    assert done.code == 2 and "invalid duration '2 weeks'" in done.err


def test_nearest_rank_percentiles() -> None:
    assert percentile([1.0, 2.0, 3.0, 4.0], 0.5) == 2.0
    assert percentile([float(i) for i in range(1, 101)], 0.95) == 95.0
    assert percentile([], 0.5) == 0.0


def test_the_table_off_a_terminal_is_plain_columns(agenthooks: Run, log: Path) -> None:
    done = agenthooks("audit", str(log))
    lines = done.out.splitlines()
    assert lines[0] == "22 events"
    assert lines[1].split() == ["HOOK", "KIND", "CALLS", "DECISIONS", "DENY", "P50", "MS",
                                "P95", "MS", "MAX", "MS", "TIMEOUTS", "FAILURES"]
    assert lines[2].split()[:3] == ["gate", "command", "22"]
    assert "allow 20, deny 1, none 1" in lines[2] and "5%" in lines[2]
    assert "\x1b" not in done.out


def test_lines_that_are_not_records_are_counted_not_fatal(agenthooks: Run,
                                                          tmp_path: Path) -> None:
    path = write_log(tmp_path / "a.jsonl", [record([hook("g", "allow", 1.0)])],
                     extra='{"torn": \n[]\n')
    done = agenthooks("audit", str(path), "--format", "json")
    assert done.code == 0 and json.loads(done.out)["events"] == 1
    assert "skipped 2 lines that are not audit records" in done.err


def test_no_log_anywhere_exits_1_naming_the_ways_to_give_one(agenthooks: Run,
                                                            tmp_path: Path) -> None:
    done = agenthooks("audit")
    assert done.code == 1
    assert "no audit log: give FILE, set AGENTHOOKS_AUDIT_LOG" in done.err
    done = agenthooks("audit", str(tmp_path / "missing.jsonl"))
    assert done.code == 1 and "cannot read the audit log" in done.err


@pytest.mark.program
def test_the_log_of_real_runs_is_summarized(agenthooks: Run, tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    workspace = tmp_path / "ws"
    (workspace / ".agents").mkdir(parents=True)
    (workspace / ".agents" / "hooks.json").write_text(json.dumps({"gate": {"PreToolUse": [
        {"matcher": "", "hooks": [{"command": "echo no >&2; exit 2"}]}]}}))
    log = tmp_path / "audit.jsonl"
    monkeypatch.setenv("AGENTHOOKS_AUDIT_LOG", str(log))
    for _ in range(3):
        assert agenthooks_run("PreToolUse", payload={"tool_name": "x"},
                              cwd=workspace).returncode == 2
    done = agenthooks("audit", "--format", "json")  # the log named by the environment
    (gate,) = json.loads(done.out)["hooks"]
    assert gate["calls"] == 3 and gate["decisions"] == {"deny": 3} and gate["deny_rate"] == 1.0
