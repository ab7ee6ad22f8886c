"""`agenthooks validate` on Claude Code and Gemini CLI files: formats, --dialect, exit codes."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import REPO
from tests.sources.dialects.conftest import settings

SAMPLES = REPO / "sample_hooks"
TYPO = '{\n  "hooks": {\n    "BeforeTol": []\n  }\n}\n'


def test_the_samples_are_clean_even_strict(agenthooks) -> None:
    outcome = agenthooks("validate", "--strict", str(SAMPLES / ".claude"), str(SAMPLES / ".gemini"))
    assert (outcome.code, outcome.out, outcome.err) == (0, "ok: 2 files, no problems\n", "")


def test_a_workspace_root_checks_every_kind(agenthooks, tmp_path: Path) -> None:
    settings(tmp_path, "gemini", TYPO)
    settings(tmp_path, "claude", '{"hooks": {}}')
    outcome = agenthooks("validate", "--format", "json", str(tmp_path))
    assert outcome.code == 1
    report = json.loads(outcome.out)
    assert [(d["rule"], d["line"], d["column"]) for d in report["diagnostics"]] == [
        ("unknown-event", 3, 5)]
    assert report["diagnostics"][0]["file"].endswith(".gemini/settings.json")


def test_github_annotations(agenthooks, tmp_path: Path) -> None:
    path = settings(tmp_path, "gemini", TYPO)
    outcome = agenthooks("validate", "--format", "github", str(path))
    assert outcome.code == 1
    assert outcome.out.startswith(f"::error file={path},line=3,col=5,title=unknown-event::")


def test_the_dialect_flag_reads_a_named_file_in_that_dialect(agenthooks, tmp_path: Path) -> None:
    path = tmp_path / "anywhere.json"
    path.write_text('{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}}')
    assert agenthooks("validate", str(path)).code == 0  # its shape says Claude Code
    as_gemini = agenthooks("validate", "--dialect", "gemini", str(path))
    assert as_gemini.code == 1 and "[unknown-event]" in as_gemini.out
    assert "Stop is Claude Code's name; Gemini CLI calls it 'AfterAgent'" in as_gemini.out
    as_hooks_json = agenthooks("validate", "--dialect", "antigravity", str(path))
    assert as_hooks_json.code == 1 and "[group-in-flat-event]" in as_hooks_json.out


def test_discovery_without_paths_finds_settings_files(agenthooks, tmp_path: Path,
                                                     monkeypatch) -> None:
    settings(tmp_path, "claude", '{"hooks": {"Stop": [{"matcher": "x", "hooks": []}]}}')
    (tmp_path / "sub").mkdir()
    monkeypatch.chdir(tmp_path / "sub")
    outcome = agenthooks("validate", "--no-user")
    assert outcome.code == 0
    assert "[flat-matcher]" in outcome.out and "1 warning in 1 file" in outcome.out
