"""`agenthooks schema` prints the JSON Schemas, writes them, and finds stale copies."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from click.testing import CliRunner

from agenthooks.cli.app import cli
from agenthooks.schemagen import SCHEMA_FILES


def test_prints_the_schema_file(agenthooks, repo: Path) -> None:
    outcome = agenthooks("schema")
    assert outcome.code == 0
    assert outcome.out == (repo / "schemas" / "hooks.schema.json").read_text(encoding="utf-8")
    assert json.loads(outcome.out)["$id"] == "https://agenthooks.dev/schemas/hooks.schema.json"


def test_through_click_runner() -> None:
    result = CliRunner().invoke(cli, ["schema"])
    assert result.exit_code == 0
    assert json.loads(result.stdout)["title"]


def test_installed_script_prints_a_usable_schema(installed_agenthooks: Path) -> None:
    done = subprocess.run([installed_agenthooks, "schema"], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0
    schema = json.loads(done.stdout)
    assert schema["$schema"] == "http://json-schema.org/draft-07/schema#"


def test_host_prints_that_hosts_schema(agenthooks, repo: Path) -> None:
    outcome = agenthooks("schema", "--host", "cursor")
    assert outcome.code == 0
    assert outcome.out == (repo / "schemas" / "cursor-hooks.schema.json").read_text(
        encoding="utf-8")


def test_write_makes_the_folder_and_writes_every_schema(agenthooks, repo: Path,
                                                        tmp_path: Path) -> None:
    folder = tmp_path / "out" / "schemas"
    outcome = agenthooks("schema", "--write", str(folder))
    assert outcome.code == 0
    written = sorted(path.name for path in folder.iterdir())
    assert written == sorted(path.name for path in (repo / "schemas").iterdir())
    assert outcome.out.splitlines() == [str(folder / row.name) for row in SCHEMA_FILES]
    for name in written:
        assert (folder / name).read_bytes() == (repo / "schemas" / name).read_bytes()


def test_write_with_host_writes_one(agenthooks, tmp_path: Path) -> None:
    assert agenthooks("schema", "--host", "codex", "--write", str(tmp_path)).code == 0
    assert [path.name for path in tmp_path.iterdir()] == ["codex-hooks.schema.json"]


def test_check_finds_a_stale_or_missing_file(agenthooks, repo: Path, tmp_path: Path) -> None:
    assert agenthooks("schema", "--check", str(repo / "schemas")).code == 0
    agenthooks("schema", "--write", str(tmp_path))
    stale = tmp_path / "gemini-settings.schema.json"
    stale.write_text(stale.read_text(encoding="utf-8").replace("Gemini", "Gemmini"),
                     encoding="utf-8")
    (tmp_path / "codex-hooks.schema.json").unlink()
    outcome = agenthooks("schema", "--check", str(tmp_path))
    assert outcome.code == 1
    assert sorted(line.split(":")[0] for line in outcome.err.splitlines()) == [
        str(tmp_path / "codex-hooks.schema.json"), str(stale)]


def test_write_and_check_do_not_go_together(agenthooks, tmp_path: Path) -> None:
    outcome = agenthooks("schema", "--write", str(tmp_path), "--check", str(tmp_path))
    assert outcome.code == 2
    assert "do not go together" in outcome.err
