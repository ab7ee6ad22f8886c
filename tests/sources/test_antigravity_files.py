"""The user's hooks.json files: Antigravity's hooks page and agy's log say
`~/.gemini/config/hooks.json`; Google's migration guide from Gemini CLI says
`~/.gemini/antigravity-cli/hooks.json`. Both are read, each once, as user files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agenthooks.sources import discovery
from agenthooks.sources.load import load_all
from tests.support import program

pytestmark = pytest.mark.program


def user_files(home: Path) -> tuple[Path, Path]:
    config = home / ".gemini" / "config" / "hooks.json"
    cli = home / ".gemini" / "antigravity-cli" / "hooks.json"
    for path, name in ((config, "from-config"), (cli, "from-cli")):
        path.parent.mkdir(parents=True)
        mark = home.parent / f"{name}.ran"
        path.write_text(json.dumps({name: {"Stop": [{"command": f"touch {mark}"}]}}),
                        encoding="utf-8")
    return config, cli


def test_both_user_files_are_read_in_order(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / "home"
    monkeypatch.setenv("HOME", str(home))
    config, cli = user_files(home)
    loaded = load_all(cwd=str(tmp_path))
    assert [(f.source.file, f.source.level) for f in loaded.files] == [
        (str(config), "user"), (str(cli), "user")]
    assert [h.hook for f in loaded.files for h in f.handlers] == ["from-config", "from-cli"]
    assert str(cli) in discovery.user_hooks_paths()
    # --no-user leaves both out.
    assert load_all(cwd=str(tmp_path), no_user=True).files == ()


def test_the_cli_file_alone_runs(tmp_path: Path) -> None:
    home = tmp_path / "home"
    _, cli = user_files(home)
    (home / ".gemini" / "config" / "hooks.json").unlink()
    done = program("run", "Stop", stdin="{}", cwd=tmp_path, home=home,
                   env={"XDG_CONFIG_HOME": str(tmp_path / "xdg")})
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "from-cli.ran").exists() and not (tmp_path / "from-config.ran").exists()
    assert cli.exists()
