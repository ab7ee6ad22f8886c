"""Mistral Vibe's hooks.toml, each rule at its line and column, the hooks it registers, and what
its matchers select (PyPI mistral-vibe 3.0.3: `vibe/core/hooks/models.py` `HookConfig`,
`vibe/core/hooks/config.py`, `mistralai_vibe_local_harness/vibe/_hook_matcher.py`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from agenthooks.sources.dialects.matching import selection, selects
from tests.sources.dialects.conftest import check_file, found

FILE = ".vibe/hooks.toml"


@pytest.fixture(autouse=True)
def trusted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Vibe's home, trusting the test's folder: each rule below is seen alone."""
    home = tmp_path / "vibe-home"
    home.mkdir()
    (home / "trusted_folders.toml").write_text(f'trusted = ["{tmp_path}"]\nuntrusted = []\n')
    monkeypatch.setenv("VIBE_HOME", str(home))
    return home


def entry(kind: str = "pre_tool", name: str = "gate", **keys: object) -> str:
    lines = ["[[hooks]]", f'name = "{name}"', f'type = "{kind}"', 'command = "true"']
    lines += [f"{key} = {value!r}".replace("'", '"').replace("True", "true")
              .replace("False", "false") for key, value in keys.items()]
    return "\n".join(lines) + "\n"


# (text, the findings: rule, line, column).
CASES: list[tuple[str, list[tuple[str, int, int]]]] = [
    (entry(match="bash", timeout=5, strict=True), []),
    (entry("post_agent", match="main"), []),
    (entry(match="re:(?x) b a s h"), []),
    # An entry its model refuses: Vibe skips it, and runs the rest.
    (entry("PreToolUse"), [("vibe-hook-skipped", 3, 8)]),
    (entry("pre_tool") + entry("post_tool"), [("vibe-hook-skipped", 6, 8)]),  # a name taken
    ('[[hooks]]\ntype = "pre_tool"\ncommand = "true"\n', [("vibe-hook-skipped", 1, 1)]),
    ('[[hooks]]\nname = "g"\ntype = "pre_tool"\ncommand = " "\n', [("vibe-hook-skipped", 4, 11)]),
    (entry(match=""), [("vibe-hook-skipped", 5, 9)]),
    (entry("post_agent", strict=True), [("vibe-hook-skipped", 5, 1)]),
    (entry(strict="yes"), [("vibe-hook-skipped", 5, 10)]),
    (entry(timeout="5"), [("vibe-hook-skipped", 5, 11)]),
    (entry(timeout=0), [("timeout-invalid", 5, 11)]),
    (entry() + "colour = 1\n", [("unknown-key", 5, 1)]),
    # What Vibe drops whole, or never matches.
    ('[hooks]\nname = "g"\n', [("vibe-hooks-ignored", 1, 1)]),
    ("[[hooks]\n", [("toml-syntax", 1, 8)]),
    (entry(match="re:(bash"), [("matcher-never-runs", 5, 9)]),
    # Another host's name for its shell tool; Claude Code's `Bash` is Vibe's `bash` in any case.
    (entry(match="run_shell_command"), [("matcher-wrong-host", 5, 9)]),
    (entry(match="Bash"), []),
    (entry(match="bassh"), [("matcher-misspelt", 5, 9)]),
]


@pytest.mark.parametrize(("text", "expected"), CASES,
                         ids=[f"{i}-{e[0][0] if e else 'fine'}" for i, (_, e) in enumerate(CASES)])
def test_rule_at_line_and_column(tmp_path: Path, text: str,
                                 expected: list[tuple[str, int, int]]) -> None:
    assert sorted(found(check_file(tmp_path, FILE, "vibe", text))) == sorted(expected)


def test_the_hooks_vibe_registers(tmp_path: Path) -> None:
    """Its defaults (60 s, `sh -c`), `strict` as the option its protocol reads, and a bad
    entry skipped alone."""
    text = entry(match="bash", timeout=5, strict=True) + entry("pre_tool", "x", match="") \
        + entry("post_agent", "retry")
    hook_file = check_file(tmp_path, FILE, "vibe", text)
    assert [(h.hook, h.event, h.matcher, h.timeout, h.shell, h.options, h.pointer)
            for h in hook_file.handlers] == [
        ("gate", "pre_tool", "bash", 5.0, "sh", (("strict", True),), "/hooks/0"),
        ("retry", "post_agent", None, 60.0, "sh", (), "/hooks/2")]


# match -> (the names it selects, those it does not), as `_hook_matcher.py` reads them: a tool
# by its qualified name or the name after its last dot. Marked `program`: `fnmatch.translate`,
# which a glob goes through, is checked on every supported Python from the wheel.
@pytest.mark.program
@pytest.mark.parametrize(("matcher", "chosen", "left"), [
    (None, ["file_system.bash", "vibe.todo"], []),
    ("*", ["file_system.bash", "vibe.todo"], []),
    ("bash", ["file_system.bash"], ["file_system.bash2", "bash.x"]),
    ("BASH", ["file_system.bash"], []),
    ("ba*", ["file_system.bash"], ["file_system.read_file"]),
    ("file_system.*", ["file_system.bash", "file_system.read_file"], ["vibe.todo"]),
    ("*_file", ["file_system.read_file", "file_system.write_file"], ["file_system.bash"]),
    ("read", ["skill.read"], ["file_system.read_file"]),
    ("[bt]ash", ["file_system.bash", "x.tash"], ["file_system.cash"]),
    ("re:BA.*", ["file_system.bash"], ["vibe.todo"]),
    ("re:bas", [], ["file_system.bash"]),  # matched whole
    ("re:(", [], ["file_system.bash"]),
])
def test_what_a_match_selects(matcher: str | None, chosen: list[str], left: list[str]) -> None:
    picked = selection("vibe", matcher, "pre_tool")
    assert [name for name in chosen if selects(picked, name)] == chosen
    assert [name for name in left if selects(picked, name)] == []


@pytest.mark.parametrize(("stored", "warned"), [
    (None, True),  # no trust file: Vibe asks, and `vibe -p` asks no one
    ('trusted = ["{root}"]\n', False),
    ('trusted = ["{parent}"]\n', False),  # a folder above it decides
    ('trusted = ["{parent}"]\nuntrusted = ["{root}"]\n', True),  # the closest decides
    ('trusted = ["{root}/x"]\n', True),
    ("not toml [", True),
])
def test_a_project_in_a_folder_vibe_does_not_trust(tmp_path: Path, trusted: Path,
                                                  stored: str | None, warned: bool) -> None:
    root = tmp_path / "project"
    root.mkdir()
    (trusted / "trusted_folders.toml").unlink()
    if stored is not None:
        (trusted / "trusted_folders.toml").write_text(
            stored.format(root=root, parent=tmp_path))
    rules = [rule for rule, _, _ in found(check_file(root, FILE, "vibe", entry()))]
    assert rules == (["vibe-untrusted-folder"] if warned else [])
