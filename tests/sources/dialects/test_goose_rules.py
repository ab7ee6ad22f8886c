"""A Goose plugin's hooks/hooks.json, each rule at its line and column, the hooks it registers,
and what its matchers select (measured with goose 1.52.0; block/goose crates/goose/src/hooks/
mod.rs `RawCommandAction`, `select_action`, `from_name`: a Rust regex searched in
`matcher_context`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agenthooks.sources.dialects.matching import selection, selects
from tests.sources.dialects.conftest import check_file, found

FILE = ".agents/plugins/gate/hooks/hooks.json"


def hooks(*groups: object, event: str = "PreToolUse", **more: object) -> str:
    """A Goose hooks.json, one group a line so that each finding's line says which."""
    lines = ['{"hooks": {', f'  "{event}": [']
    lines += [f"    {json.dumps(group)}," for group in groups]
    lines[-1] = lines[-1].rstrip(",")
    lines.append("  ]" + "".join(f',\n  "{key}": {json.dumps(value)}'
                                 for key, value in more.items()))
    lines.append("}}")
    return "\n".join(lines) + "\n"


def group(matcher: str | None = "^shell$", **handler: object) -> dict[str, object]:
    entry = {"type": "command", "command": "true", **handler}
    return {"hooks": [entry]} if matcher is None else {"matcher": matcher, "hooks": [entry]}


# Rules whose case needs more than one file: tested below, each in its own test.
TESTED_APART: set[str] = set()

# (text, the findings: rule, line, column).
CASES: list[tuple[str, list[tuple[str, int, int]]]] = [
    (hooks(group()), []),
    (hooks(group(None)), []),
    (hooks(group("", on_failure="block")), []),
    (hooks(group(".*", on_failure="block", timeout=10)), []),
    (hooks({"matcher": "^shell$", "hooks": [{"command": "true"}]}), []),  # type defaults
    (hooks({"matcher": "^shell$"}), []),  # `hooks` defaults to []
    (hooks(group(None), event="Stop"), []),
    (hooks(group(".*"), event="Stop"), []),
    (hooks(group(None), event="PreToolUseResult"), []),
    (hooks(group("rm -rf"), event="BeforeShellExecution"), []),
    # `*` and what is no regex: that group alone is skipped.
    (hooks(group("*")), [("matcher-never-runs", 3, 17)]),
    (hooks(group("(?=x)shell")), [("matcher-never-runs", 3, 17)]),
    (hooks(group("x"), event="SessionEnd"), [("matcher-never-runs", 3, 6)]),
    # What Goose skips alone, loading the rest.
    (hooks(group(), preToolUse=[]), [("unknown-event", 5, 3)]),
    (hooks(group(), event="Notification"), [("unknown-event", 2, 3)]),
    (hooks({"hooks": [{"type": "prompt", "prompt": "p"}]}), [("handler-kind", 3, 25)]),
    (hooks({"hooks": [{"type": "command"}]}), [("command-missing", 3, 16)]),
    (hooks(group(timeout=0)), [("timeout-invalid", 3, 88)]),
    (hooks(group(on_failure="weird"), event="PostToolUse"), [("option-ignored", 3, 77)]),
    # What makes Goose skip the whole file.
    (hooks(group(on_failure="deny")), [("goose-file-skipped", 3, 91)]),
    (hooks(group(on_failure="Block")), [("goose-file-skipped", 3, 91)]),
    (hooks(group(on_failure=None)), [("goose-file-skipped", 3, 91)]),
    (hooks(group(timeout="5")), [("goose-file-skipped", 3, 88)]),
    (hooks(group(timeout=1.5)), [("goose-file-skipped", 3, 88)]),
    (hooks(group(timeout=-1)), [("goose-file-skipped", 3, 88)]),
    (hooks({"hooks": [{"type": 1, "command": "true"}]}), [("goose-file-skipped", 3, 25)]),
    (hooks({"hooks": [{"command": ["true"]}]}), [("goose-file-skipped", 3, 28)]),
    (hooks({"matcher": 1, "hooks": []}), [("goose-file-skipped", 3, 17)]),
    (hooks({"hooks": ["true"]}), [("goose-file-skipped", 3, 16)]),
    ('{"hooks": {"PreToolUse": {"hooks": []}}}\n', [("event-type", 1, 26)]),
    # Claude Code's tool names, which Goose's case-sensitive search never finds.
    (hooks(group("Bash")), [("matcher-wrong-host", 3, 17)]),
]


@pytest.mark.parametrize(("text", "expected"), CASES,
                         ids=[f"{i}-{e[0][0] if e else 'fine'}" for i, (_, e) in enumerate(CASES)])
def test_rule_at_line_and_column(tmp_path: Path, text: str,
                                 expected: list[tuple[str, int, int]]) -> None:
    assert sorted(found(check_file(tmp_path, FILE, "goose", text))) == sorted(expected)


def test_the_messages_say_what_goose_does(tmp_path: Path) -> None:
    text = hooks(group("*"), group(on_failure="nope"), preToolUse=[])
    messages = {d.rule: d.message for d in check_file(tmp_path, FILE, "goose", text).diagnostics}
    assert messages["matcher-never-runs"] == ("Goose skips this group: `*` is not a regex; "
                                              "write `.*` or leave the matcher out")
    assert "skips it without a word" in messages["unknown-event"]
    assert "loads the rest of the file" in messages["unknown-event"]
    assert messages["goose-file-skipped"] == (
        '`on_failure` must be "allow" or "block", not \'nope\': Goose skips this whole '
        "hooks.json, every hook of the plugin")


def test_the_hooks_goose_registers(tmp_path: Path) -> None:
    """Its defaults (30 s, `sh`, `type` command), `on_failure` among its options, PLUGIN_ROOT
    for its folder; none of an unknown event, an action of another type, or `*`'s group."""
    text = hooks(group(on_failure="block", timeout=5), {"hooks": [{"command": "echo"}]},
                 group("*"), {"hooks": [{"type": "http", "url": "x"}]},
                 Stop=[{"hooks": [{"command": "late", "on_failure": "x"}]}],
                 stop=[{"hooks": [{"command": "never"}]}])
    hook_file = check_file(tmp_path, FILE, "goose", text)
    assert [(h.event, h.matcher, h.command, h.timeout, h.shell, h.options, h.pointer)
            for h in hook_file.handlers] == [
        ("PreToolUse", "^shell$", "true", 5.0, "sh", (("on_failure", "block"),),
         "/hooks/PreToolUse/0/hooks/0"),
        ("PreToolUse", None, "echo", 30.0, "sh", (), "/hooks/PreToolUse/1/hooks/0"),
        ("PreToolUse", "*", "true", 30.0, "sh", (), "/hooks/PreToolUse/2/hooks/0"),
        ("Stop", None, "late", 30.0, "sh", (), "/hooks/Stop/0/hooks/0")]
    handler = hook_file.handlers[0]
    assert handler.plugin_vars == ("PLUGIN_ROOT", "")
    assert handler.source.plugin_root == str((tmp_path / ".agents/plugins/gate").resolve())


def test_a_file_goose_skips_runs_no_hook(tmp_path: Path) -> None:
    hook_file = check_file(tmp_path, FILE, "goose",
                           hooks(group(), group(on_failure="Block")))
    assert hook_file.handlers == ()


# (matcher, event) -> (the values it selects, those it does not): a Rust regex searched,
# case-sensitive; none or "" selects everything; one that does not compile, nothing; on the
# events with no value, tested against "".
@pytest.mark.parametrize(("matcher", "event", "chosen", "left"), [
    (None, "PreToolUse", ["shell", "todo__todo_write"], []),
    ("", "PreToolUse", ["shell", "write"], []),
    ("shell", "PreToolUse", ["shell", "myshell"], ["SHELL", "write"]),
    ("^shell$", "PreToolUse", ["shell"], ["myshell"]),
    ("(?i)SHELL", "PreToolUse", ["shell", "SHELL"], ["write"]),
    ("^todo__", "PreToolUse", ["todo__todo_write"], ["shell"]),
    ("Bash", "PreToolUse", [], ["shell"]),
    ("developer__shell", "PreToolUse", [], ["shell"]),
    ("*", "PreToolUse", [], ["shell", "*"]),
    ("rm -rf", "BeforeShellExecution", ["rm -rf /"], ["ls"]),
    (".*", "Stop", ["", "x"], []),
    ("^$", "SessionStart", ["", "x"], []),
    ("x", "SessionEnd", [], ["", "x"]),
])
def test_what_a_goose_matcher_selects(matcher: str | None, event: str, chosen: list[str],
                                      left: list[str]) -> None:
    picked = selection("goose", matcher, event)
    assert [name for name in chosen + left if selects(picked, name)] == chosen


def test_discovery_reads_every_plugin_and_a_project_plugin_hides_the_users(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A `*` folder in a host's place (`.agents/plugins/*/hooks/hooks.json`) is one folder's
    name; each plugin's folder is its PLUGIN_ROOT; a user plugin that a project plugin of the
    same name hides is left out, as Goose leaves it; `.agents/hooks.json` stays hooks.json."""
    from agenthooks.sources.discovery import discover_all, expand

    home, project = tmp_path / "home", tmp_path / "project"
    for root, name in ((project, "gate"), (project, "audit"), (home, "gate"), (home, "mine")):
        path = root / ".agents" / "plugins" / name / "hooks" / "hooks.json"
        path.parent.mkdir(parents=True)
        path.write_text(hooks(group()), encoding="utf-8")
    (project / ".agents" / "hooks.json").write_text("{}", encoding="utf-8")
    (project / ".agents" / "plugins" / "empty").mkdir()
    monkeypatch.setenv("HOME", str(home))
    assert [Path(p).parent.parent.name for p in expand(
        str(project / ".agents" / "plugins" / "*" / "hooks" / "hooks.json"))] == ["audit", "gate"]
    found = discover_all(cwd=str(project), dialects=True)
    shown = [(s.level, s.dialect, Path(s.plugin_root or "-").name)
             for s in found.dialect_sources]
    assert shown == [("user", "goose", "mine"), ("workspace", "goose", "audit"),
                     ("workspace", "goose", "gate")]
    assert [Path(s.file).relative_to(project).as_posix() for s in found.sources] == [
        ".agents/hooks.json"]
