"""JetBrains Junie's config.json, each rule at its line and column, and the hooks it registers
(junie.jetbrains.com/docs/junie-cli-hooks.html): a user's file runs, a project's does not."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.sources.dialects.conftest import check_file, found

FILE = ".junie/config.json"


def config(event: str = "PreToolUse", matcher: str | None = "Bash", **handler: object) -> str:
    """A Junie config.json of one group, its group on line 3."""
    group: dict[str, object] = {"hooks": [{"type": "command", "command": "true", **handler}]}
    if matcher is not None:
        group = {"matcher": matcher, **group}
    return f'{{"model": "m", "hooks": {{\n  "{event}": [\n    {json.dumps(group)}\n  ]\n}}}}\n'


def user_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str) -> list[
        tuple[str, int, int]]:
    home = tmp_path / "home"
    monkeypatch.setenv("HOME", str(home))
    hook_file = check_file(home, FILE, "junie", text)
    return found(hook_file)


# (text, the findings of a user's config.json: rule, line, column)
CASES: list[tuple[str, list[tuple[str, int, int]]]] = [
    (config(), []),
    (config(timeout=30, **{"async": True}), []),
    (config("Stop", None, blockOnError=True), []),
    (config("PostToolUse"), [("unknown-event", 2, 3)]),
    (config(type="http", url="https://x"), [("handler-kind", 3, 44)]),
    (config("PermissionRequest", None), [("junie-permission-approves", 3, 16)]),
    (config("PermissionRequest", None, **{"async": True}), []),
    (config(blockOnError=True), [("option-ignored", 3, 74)]),
    (config("SessionStart", "startup", **{"async": True}), [("option-ignored", 3, 77)]),
]


@pytest.mark.parametrize(("text", "expected"), CASES,
                         ids=[f"{i}-{e[0][0] if e else 'fine'}" for i, (_, e) in enumerate(CASES)])
def test_rule_at_line_and_column(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str,
                                 expected: list[tuple[str, int, int]]) -> None:
    assert sorted(user_file(tmp_path, monkeypatch, text)) == sorted(expected)


def test_a_projects_hooks_are_listed_as_never_run(tmp_path: Path) -> None:
    hook_file = check_file(tmp_path / "project", FILE, "junie", config() + "")
    assert found(hook_file) == [("junie-project-hooks-ignored", 1, 16)]
    assert hook_file.handlers == ()
    assert "its one handler never runs" in hook_file.diagnostics[0].message


def test_the_hooks_junie_registers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Its timeouts (10 s, 600 on Stop, 2 on SessionEnd), `sh -c`, its options kept."""
    home = tmp_path / "home"
    monkeypatch.setenv("HOME", str(home))
    text = json.dumps({"hooks": {
        "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "a"}]}],
        "Stop": [{"hooks": [{"type": "command", "command": "b", "blockOnError": True}]}],
        "SessionEnd": [{"hooks": [{"type": "command", "command": "c"}]}]}})
    hook_file = check_file(home, FILE, "junie", text)
    assert [(h.event, h.command, h.timeout, h.shell, h.options)
            for h in hook_file.handlers] == [
        ("PreToolUse", "a", 10.0, "sh", ()), ("Stop", "b", 600.0, "sh", (("blockOnError", True),)),
        ("SessionEnd", "c", 2.0, "sh", ())]
