"""`agenthooks schema` prints the shipped JSON Schema."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from click.testing import CliRunner

from agenthooks.cli.app import cli


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
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
