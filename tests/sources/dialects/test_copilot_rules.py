"""Every rule of a GitHub Copilot CLI hooks file, each at its line and column, and the
handlers Copilot would register (github/docs@05da5bc
content/copilot/reference/hooks-reference.md)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from agenthooks.model.handlers import HookFile
from agenthooks.sources.dialects.load import check_dialect_file
from agenthooks.sources.discovery import detect, dialect_source
from tests.sources.dialects.conftest import check_file, found
from tests.support import program


def check(root: Path, text: str, name: str = "gates.json") -> HookFile:
    return check_file(root, f".github/hooks/{name}", "copilot", text)


V = '"version": 1, '
CASES: list[tuple[str, list[tuple[str, int, int]]]] = [
    ('{"hooks": {}}\n', [("version-missing", 1, 1)]),
    ('{"version": 2, "hooks": {}}\n', [("version-invalid", 1, 13)]),
    ('{' + V + '"hooks": {"preTooluse": []}}\n', [("copilot-unknown-event", 1, 26)]),
    ('{' + V + '"hooks": {"preToolUse": [{"bash": "agenthooks run preToolUse --host copilot"}]}}\n',
     [("copilot-fails-open", 1, 41)]),
    ('{' + V + '"hooks": {"preToolUse": [{"type": "http", "url": "https://x"}]}}\n',
     [("copilot-fails-open", 1, 41), ("handler-host-only", 1, 50)]),
    ('{' + V + '"hooks": {"preToolUse": [{"bash": "echo \'{\\"updatedInput\\": {}}\'"}]}}\n',
     [("copilot-claude-answer", 1, 41)]),
    ('{' + V + '"hooks": {"agentStop": {}}}\n', [("event-type", 1, 39)]),
    ('{' + V + '"hooks": {"agentStop": [{"type": "command"}]}}\n',
     [("copilot-item-dropped", 1, 40)]),
    ('{' + V + '"hooks": {"agentStop": [{"exec": "x", "bash": "y"}]}}\n',
     [("copilot-item-dropped", 1, 54)]),
    ('{' + V + '"hooks": {"preToolUse": [{"bash": "x", "matcher": "*"}]}}\n',
     [("copilot-matcher-skipped", 1, 66)]),
    ('{' + V + '"hooks": {"agentStop": [{"bash": "x", "matcher": "y"}]}}\n',
     [("flat-matcher", 1, 54)]),
    ('{' + V + '"hooks": {"agentStop": [{"bash": "x", "timeoutSec": 30000}]}}\n',
     [("timeout-seconds", 1, 68)]),
    ('{' + V + '"hooks": {"agentStop": [{"bash": "x", "timeoutSec": "5"}]}}\n',
     [("copilot-item-dropped", 1, 68)]),
    ('{' + V + '"hooks": {"agentStop": [{"powershell": "x"}]}}\n',
     [("option-ignored", 1, 41)]),
    ('{' + V + '"hooks": {"ErrorOccurred": []}}\n', [("option-ignored", 1, 26)]),
    ('{' + V + '"hooks": {"PreToolUse": [{"bash": "x", "matcher": "("}]}}\n',
     [("copilot-matcher-skipped", 1, 66)]),
    ('{' + V + '"hooks": {"agentStop": [{"type": "http", "url": "https://x"}]}}\n',
     [("handler-host-only", 1, 49)]),
    ('{' + V + '"disableAllHooks": true, "hooks": {}}\n', [("hooks-disabled", 1, 35)]),
]


@pytest.mark.parametrize(("text", "expected"), CASES,
                         ids=[f"{e[0][0]}-{i}" for i, (_, e) in enumerate(CASES)])
def test_rule_at_line_and_column(tmp_path: Path, text: str,
                                 expected: list[tuple[str, int, int]]) -> None:
    assert sorted(found(check(tmp_path, text))) == sorted(expected)


def test_a_bad_item_drops_that_item_a_bad_version_the_file(tmp_path: Path) -> None:
    item = check(tmp_path, '{"version": 1, "hooks": {"agentStop": [{"bash": "true"}, 3]}}')
    assert [h.command for h in item.handlers] == ["true"]
    assert item.ok  # so the rest of the file runs under agenthooks too
    whole = check(tmp_path, '{"version": 2, "hooks": {"agentStop": [{"bash": "true"}]}}')
    assert whole.handlers == ()


def test_the_handlers_copilot_registers(tmp_path: Path) -> None:
    hook_file = check(tmp_path, '{"version": 1, "hooks": {"preToolUse": [\n'
                                '  {"bash": "./gate.sh", "cwd": "tools", "timeoutSec": 5,\n'
                                '   "matcher": "bash"},\n'
                                '  {"exec": "python3", "args": ["g.py"], "timeout": 7}]}}\n')
    first, second = hook_file.handlers
    assert (first.command, first.timeout, first.matcher, first.sequential) == (
        "cd -- tools && ./gate.sh", 5.0, "bash", True)
    assert (second.command, second.args, second.timeout) == ("python3", ("g.py",), 7.0)


@pytest.mark.parametrize(("matcher", "claude"), [
    (None, None), ("*", None), ("**", None), ("", None),
    # A name or list matches the Copilot name or its Claude Code name.
    ("bash", "bash|Bash"), ("Bash", "Bash"), ("view|Edit", "view|Edit|Read"),
    # Anything else is a regex anchored on the Claude Code name.
    ("B.*", "^(?:B.*)$"), ("mcp__.*", "^(?:mcp__.*)$"),
])
def test_pascal_case_matchers_in_claude_codes_words(matcher: str | None,
                                                    claude: str | None) -> None:
    from agenthooks.sources.dialects.copilot_check import claude_matcher

    assert claude_matcher(matcher) == claude


def test_a_pascal_case_event_is_a_claude_code_handler(tmp_path: Path) -> None:
    """Copilot gives a PascalCase hook Claude Code's payload, names, matchers and answers
    (measured with 1.0.102), under its own timeoutSec."""
    hook_file = check(tmp_path, '{"version": 1, "hooks": {"PreToolUse": [\n'
                                '  {"bash": "./gate.sh", "matcher": "bash"}],\n'
                                ' "preToolUse": [{"bash": "./other.sh"}]}}\n')
    pascal, camel = hook_file.handlers
    assert (pascal.dialect, pascal.event, pascal.matcher, pascal.timeout) == (
        "claude", "PreToolUse", "bash|Bash", 30.0)
    assert (camel.dialect, camel.event) == ("copilot", "preToolUse")


def test_disable_all_hooks_in_a_file_drops_that_files_hooks(tmp_path: Path) -> None:
    off = check(tmp_path, '{"version": 1, "disableAllHooks": true, '
                          '"hooks": {"preToolUse": [{"bash": "x"}]}}', "off.json")
    on = check(tmp_path, '{"version": 1, "hooks": {"preToolUse": [{"bash": "x"}]}}', "on.json")
    assert (off.handlers, len(on.handlers)) == ((), 1)


def test_a_copilot_file_is_known_by_its_place(tmp_path: Path) -> None:
    path = tmp_path / ".github" / "hooks" / "anything.json"
    path.parent.mkdir(parents=True)
    path.write_text("{}")
    assert detect(str(path)) == "copilot"


def test_the_files_of_a_repository_and_of_the_user(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    from agenthooks.sources.load import load_all

    home = tmp_path / "home"
    monkeypatch.setenv("HOME", str(home))
    for folder, names in ((home / ".copilot" / "hooks", ("u.json",)),
                          (tmp_path / "repo" / ".github" / "hooks", ("b.json", "a.json"))):
        folder.mkdir(parents=True)
        for name in names:
            (folder / name).write_text('{"version": 1, "hooks": {}}')
    loaded = load_all(cwd=str(tmp_path / "repo"), dialect="copilot")
    assert [os.path.basename(f.source.file) for f in loaded.files] == [
        "u.json", "a.json", "b.json"]


# Rules whose case needs more than the one file (tests/sources/dialects/test_rules.py counts them).
TESTED_APART = frozenset(("copilot-reads-claude", "copilot-untrusted-folder",
                          "vscode-ignores-matcher"))
CLAUDE_GATE = ('{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": '
               '[{"type": "command", "command": "true"}]}]}}')


def test_a_repository_with_claude_hooks_too_is_told_copilot_runs_both(tmp_path: Path) -> None:
    (tmp_path / ".claude").mkdir()
    (tmp_path / ".claude" / "settings.local.json").write_text(CLAUDE_GATE)
    assert found(check(tmp_path, '{"version": 1, "hooks": {}}')) == [
        ("copilot-reads-claude", 1, 1)]


def test_a_folder_copilot_does_not_trust(tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    config = tmp_path / "copilot-home" / "config.json"
    config.parent.mkdir()
    monkeypatch.setenv("COPILOT_HOME", str(config.parent))
    repo = tmp_path / "repo"
    repo.mkdir()
    config.write_text('{"trustedFolders": ["/elsewhere"]}')
    assert found(check(repo, '{"version": 1, "hooks": {}}')) == [
        ("copilot-untrusted-folder", 1, 1)]
    config.write_text(json.dumps({"trustedFolders": [str(tmp_path)]}))
    assert found(check(repo, '{"version": 1, "hooks": {}}')) == []


def test_vscode_ignores_the_matchers_of_claude_settings(tmp_path: Path) -> None:

    settings = tmp_path / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(CLAUDE_GATE)

    def rules() -> list[tuple[str, int, int]]:
        source = dialect_source(str(settings), "claude", str(tmp_path), os.getcwd())
        return found(check_dialect_file(source).hook_file)

    assert rules() == []  # nothing shows VS Code or Copilot here
    (tmp_path / ".vscode").mkdir()
    assert rules() == [("vscode-ignores-matcher", 1, 39)]


def test_a_bad_key_or_matcher_drops_only_its_hooks(tmp_path: Path) -> None:
    """Copilot drops a mis-cased event and skips an entry whose matcher is no regex, and runs
    the rest of the file (measured with copilot 1.0.102): the file is not skipped."""
    hook_file = check(tmp_path, '{"version": 1, "hooks": {"pretooluse": [{"bash": "a"}],\n'
                                ' "preToolUse": [{"bash": "b", "matcher": "("}, {"bash": "c"}]}}\n')
    assert hook_file.ok
    assert [h.command for h in hook_file.handlers] == ["b", "c"]
    [unknown] = [d.message for d in hook_file.diagnostics if d.rule == "copilot-unknown-event"]
    assert "did you mean 'preToolUse'?" in unknown


def test_a_script_answering_in_claude_codes_words(tmp_path: Path) -> None:
    (tmp_path / "gate.py").write_text('print(\'{"hookSpecificOutput": {}}\')\n')
    camel = check(tmp_path, '{"version": 1, "hooks": {"preToolUse": [{"bash": "./gate.py"}]}}')
    pascal = check(tmp_path, '{"version": 1, "hooks": {"PreToolUse": [{"bash": "./gate.py"}]}}')
    assert [d.rule for d in camel.diagnostics] == ["copilot-claude-answer"]
    assert [d.rule for d in pascal.diagnostics] == []


@pytest.mark.program
def test_a_fifo_named_as_the_script_is_never_opened(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "gate")
    check(tmp_path, '{"version": 1, "hooks": {"preToolUse": [{"bash": "./gate"}]}}')
    done = program("validate", cwd=tmp_path)
    assert done.returncode == 0, done.stderr


@pytest.mark.program
def test_a_pascal_case_gate_runs(tmp_path: Path) -> None:
    """The Claude Code handler of a Copilot file's PascalCase event is selected and run: its
    matcher sees the Claude Code name of Copilot's `bash`, and its deny is read."""

    deny = "echo '" + json.dumps({"hookSpecificOutput": {
        "hookEventName": "PreToolUse", "permissionDecision": "deny",
        "permissionDecisionReason": "NO"}}) + "'"
    check(tmp_path, json.dumps({"version": 1, "hooks": {"PreToolUse": [
        {"bash": deny, "matcher": "Bash"}]}}))
    payload = {"sessionId": "s", "timestamp": 1, "cwd": str(tmp_path), "toolName": "bash",
               "toolArgs": {"command": "ls"}}
    done = program("run", "preToolUse", "--dialect", "copilot", stdin=json.dumps(payload),
                   cwd=tmp_path)
    assert (done.returncode, json.loads(done.stdout)) == (
        2, {"decision": "deny", "reason": "NO"}), done.stderr


COPILOT_DENY = "echo '" + json.dumps({"permissionDecision": "deny",
                                      "permissionDecisionReason": "NO"}) + "'"
CLAUDE_ALLOW = "echo '" + json.dumps({"hookSpecificOutput": {
    "hookEventName": "PreToolUse", "permissionDecision": "allow"}}) + "'"
ERRORED = "Denied by preToolUse hook (hook errored)"


# (event key, handler, the exit and first answer field of `agenthooks run preToolUse` without
# --fail-closed): what the real copilot 1.0.102 does with the same file (tests/e2e/
# test_copilot_rules.py compares the two).
COPILOT_DECIDES = [
    ("PreToolUse", {"bash": COPILOT_DENY}, (2, "NO")),
    ("PreToolUse", {"bash": "echo '" + json.dumps({
        "hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"},
        "permissionDecision": "deny", "permissionDecisionReason": "NO"}) + "'"}, (2, "NO")),
    ("PreToolUse", {"bash": "exit 1"}, (2, ERRORED)),
    ("PreToolUse", {"bash": "exit 3", "matcher": "Read"}, (0, None)),
    ("PreToolUse", {"bash": CLAUDE_ALLOW}, (0, None)),
    ("preToolUse", {"powershell": "Write-Output hi"}, (2, ERRORED)),
    ("PreToolUse", {"powershell": "Write-Output hi"}, (2, ERRORED)),
    ("preToolUse", {"powershell": "Write-Output hi", "matcher": "view"}, (0, None)),
]


@pytest.mark.program
@pytest.mark.parametrize(("event", "handler", "expected"), COPILOT_DECIDES)
def test_a_copilot_file_gate_decides_as_copilot(tmp_path: Path, event: str,
                                                 handler: dict[str, object],
                                                 expected: tuple[int, str | None]) -> None:
    """A Copilot file's hooks read with Copilot's rules, whichever casing their event has:
    Copilot's own answer fields under a PascalCase event too, a hook that exits non-zero on
    preToolUse denies, and so does one that gives only `powershell` on Linux and macOS."""

    check(tmp_path, json.dumps({"version": 1, "hooks": {event: [handler]}}))
    payload = {"sessionId": "s", "timestamp": 1, "cwd": str(tmp_path), "toolName": "bash",
               "toolArgs": {"command": "ls"}}
    done = program("run", "preToolUse", "--dialect", "copilot", stdin=json.dumps(payload),
                   cwd=tmp_path)
    said = json.loads(done.stdout) if done.stdout.strip() else {}
    assert (done.returncode, said.get("reason")) == expected, done.stderr


def test_a_misspelt_event_names_the_event_meant(tmp_path: Path) -> None:
    hook_file = check(tmp_path, '{"version": 1, "hooks": {"preToolUze": []}}\n')
    (diagnostic,) = hook_file.diagnostics
    assert diagnostic.rule == "copilot-unknown-event"
    assert "did you mean 'preToolUse'?" in diagnostic.message


@pytest.mark.parametrize(("matcher", "rules"), [
    ("bash|view", []),
    ("Bash", []),  # Copilot's payloads name it so too
    ("run_shell_command", ["matcher-wrong-host"]),
    ("bassh", ["matcher-misspelt"]),
])
def test_tool_names_in_a_copilot_matcher(tmp_path: Path, matcher: str, rules: list[str]) -> None:
    text = ('{"version": 1, "hooks": {"preToolUse": [{"bash": "x", "matcher": "' + matcher
            + '"}]}}\n')
    hook_file = check(tmp_path, text)
    assert [d.rule for d in hook_file.diagnostics] == rules
    assert [h.command for h in hook_file.handlers] == ["x"]  # Copilot keeps the entry
