"""rulesync's `.rulesync/hooks.jsonc`: every rule at its line and column, JSON with comments
and trailing commas, and the handlers each block stands for (dyoshikawa/rulesync@cfebcd7
src/types/hooks.ts, docs/reference/file-formats.md)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from agenthooks.model.handlers import HookFile, host_why
from agenthooks.sources.dialects.rulesync_check import without_trailing_commas
from agenthooks.sources.discovery import detect, discover_all
from tests.sources.dialects.conftest import check_file, found


def check(root: Path, text: str, rel: str = ".rulesync/hooks.jsonc") -> HookFile:
    return check_file(root, rel, "rulesync", text)


V = '"version": 1, '
# (file text, the findings: rule, line, column).
CASES: list[tuple[str, list[tuple[str, int, int]]]] = [
    ('{"hooks": {}}\n', []),  # `version` is optional
    ('{"version": 2, "hooks": {}}\n', [("version-invalid", 1, 13)]),
    ("[]\n", [("settings-type", 1, 1)]),
    ('{"version": 1}\n', [("settings-type", 1, 1)]),  # rulesync requires `hooks`
    ('{' + V + '"hooks": []}\n', [("settings-type", 1, 25)]),
    ('{' + V + '"hook": {}, "hooks": {}}\n', [("unknown-key", 1, 16)]),
    # Claude Code's word in the shared block: rulesync rejects the file.
    ('{' + V + '"hooks": {\n  "PreToolUse": []\n}}\n', [("unknown-event", 2, 3)]),
    ('{' + V + '"hooks": {"stop": {}}}\n', [("event-type", 1, 34)]),
    ('{' + V + '"hooks": {"stop": [3]}}\n', [("handler-type", 1, 35)]),
    ('{' + V + '"hooks": {"preToolUse": [{"matcher": "Bash", "hooks": []}]}}\n',
     [("group-in-flat-event", 1, 41)]),
    ('{' + V + '"hooks": {"stop": [{"type": "shell", "command": "x"}]}}\n',
     [("handler-kind", 1, 44)]),
    ('{' + V + '"hooks": {"stop": [{"command": ""}]}}\n', [("command-missing", 1, 47)]),
    ('{' + V + '"hooks": {"stop": [{"type": "prompt", "prompt": "p"}]}}\n',
     [("handler-host-only", 1, 44)]),
    ('{' + V + '"hooks": {"stop": [{"command": "x", "timeout": 5000}]}}\n',
     [("timeout-seconds", 1, 63)]),
    ('{' + V + '"hooks": {"stop": [{"command": "x", "tiemout": 5}]}}\n',
     [("unknown-key", 1, 52)]),
    # Matchers are Claude Code's tool names, as rulesync's examples write them.
    ('{' + V + '"hooks": {"preToolUse": [{"command": "x", "matcher": "Bash|Write"}]}}\n', []),
    # Another host's name never matches: the call's tool is read in Claude Code's names.
    ('{' + V + '"hooks": {"preToolUse": [{"command": "x", "matcher": "run_shell_command"}]}}\n',
     [("matcher-wrong-host", 1, 69)]),
    ('{' + V + '"hooks": {"preToolUse": [{"command": "x", "matcher": "Bash("}]}}\n',
     [("matcher-regex", 1, 69)]),
    ('{' + V + '"hooks": {"stop": [{"command": "x", "matcher": "now"}]}}\n',
     [("flat-matcher", 1, 52)]),
    ('{' + V + '"hooks": {"stop": [{"command": "x", "failClosed": "yes"}]}}\n',
     [("option-type", 1, 66)]),
    # A tool's block: checked as the shared one, an unknown tool's listed only.
    ('{' + V + '"hooks": {}, "claudecode": {"hooks": {"PreToolUse": []}}}\n',
     [("unknown-event", 1, 54)]),
    ('{' + V + '"hooks": {}, "claudecode": []}\n', [("settings-type", 1, 43)]),
    ('{' + V + '"hooks": {}, "opencode": {"hooks": {"stop": [{"command": "x"}]}}}\n',
     [("rulesync-tool-unknown", 1, 29)]),
]
TESTED_APART = frozenset(("rulesync-shadowed",))


@pytest.mark.parametrize(("text", "expected"), CASES,
                         ids=[f"{e[0][0] if e else 'fine'}-{i}" for i, (_, e) in enumerate(CASES)])
def test_rule_at_line_and_column(tmp_path: Path, text: str,
                                 expected: list[tuple[str, int, int]]) -> None:
    assert sorted(found(check(tmp_path, text))) == sorted(expected)


JSONC = """{
  // every tool
  "version": 1,
  "hooks": {
    "preToolUse": [
      { "matcher": "Bash", "command": "./gate.sh", "timeout": 5, }, /* trailing */
    ],
    "stop": [{ "command": "echo shared" }],
    "sessionStart": [{ "command": "echo start" }],
  },
  "claudecode": { "hooks": { "stop": [{ "command": "echo claude" }] } },
  "copilot": { "hooks": { "sessionStart": [{ "command": "echo copilot" }] } },
  "copilotcli": { "hooks": { "stop": [{ "command": "echo copilot cli" }] } },
}
"""


def gate_script(root: Path) -> None:
    (root / "gate.sh").write_text("#!/bin/sh\n")
    (root / "gate.sh").chmod(0o755)


def test_comments_and_trailing_commas_keep_every_position(tmp_path: Path) -> None:
    gate_script(tmp_path)
    assert without_trailing_commas('{"a": [1, 2, ], "b": "x, ]",\n}') == \
        '{"a": [1, 2  ], "b": "x, ]" \n}'
    hook_file = check(tmp_path, JSONC.replace('"timeout": 5', '"timeout": "5"'))
    assert found(hook_file) == [("timeout-invalid", 6, 63)]


def test_each_block_runs_for_its_host_and_replaces_the_shared_event(tmp_path: Path) -> None:
    gate_script(tmp_path)
    hook_file = check(tmp_path, JSONC)
    assert found(hook_file) == []
    runs = {host: sorted(h.command for h in hook_file.handlers if host_why(h, host) is None)
            for host in (None, "claude", "copilot", "cursor")}
    assert runs == {
        None: ["./gate.sh", "echo shared", "echo start"],
        "claude": ["./gate.sh", "echo claude", "echo start"],
        # copilotcli wins over copilot, which wins over the shared hooks (rulesync's spread).
        "copilot": ["./gate.sh", "echo copilot", "echo copilot cli"],
        "cursor": ["./gate.sh", "echo shared", "echo start"],
    }
    claude = next(h for h in hook_file.handlers if h.command == "echo claude")
    assert (claude.speaks, claude.only_under, claude.pointer) == (
        "claude", "claude", "/claudecode/hooks/stop/0")
    shared = next(h for h in hook_file.handlers if h.command == "echo shared")
    assert shared.not_under == ("claude", "copilot") and shared.speaks is None
    gate = next(h for h in hook_file.handlers if h.command == "./gate.sh")
    assert (gate.timeout, gate.matcher, gate.dialect) == (5.0, "Bash", "rulesync")


def test_the_legacy_file_beside_the_jsonc_runs_nothing(tmp_path: Path) -> None:
    check(tmp_path, '{"hooks": {"stop": [{"command": "echo new"}]}}')
    legacy = check(tmp_path, '{"hooks": {"stop": [{"command": "echo old"}]}}',
                   ".rulesync/hooks.json")
    assert found(legacy) == [("rulesync-shadowed", 1, 1)] and legacy.handlers == ()
    (tmp_path / ".rulesync" / "hooks.jsonc").unlink()
    legacy = check(tmp_path, '{"hooks": {"stop": [{"command": "echo old"}]}}',
                   ".rulesync/hooks.json")
    assert found(legacy) == [] and [h.command for h in legacy.handlers] == ["echo old"]


def test_found_by_its_place(tmp_path: Path) -> None:
    path = tmp_path / ".rulesync" / "hooks.jsonc"
    check(tmp_path, JSONC)
    assert detect(str(path)) == "rulesync"
    sources = discover_all(cwd=str(tmp_path), dialects=True).dialect_sources
    assert [(s.dialect, os.path.relpath(s.file, tmp_path), s.cwd) for s in sources] == [
        ("rulesync", os.path.join(".rulesync", "hooks.jsonc"), str(tmp_path.resolve()))]
