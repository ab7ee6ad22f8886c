"""`load_all`, as each command asks it: which files a workspace yields, in which order, each
with its diagnostics, and what discovery and trust leave out."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from agenthooks.sources.formats import HOOKS_JSON, MARKDOWN, SETTINGS, kind_of
from agenthooks.sources.load import Loaded, load_all

CLEAN_JSON = '{"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [{"command": "true"}]}]}}'
# An unknown key is a warning: only a thorough read finds it.
WARN_JSON = ('{"hooks": {"PreToolUse": [{"matcher": "*", "hooks": '
             '[{"name": "x", "command": "true"}]}]}}')
BROKEN_JSON = '{"hooks": '
CLAUDE = ('{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": '
          '[{"type": "command", "command": "true"}]}]}}')
MD = "---\nevent: tool.pre\nscript: |\n  def handle(event, payload):\n    return allow()\n---\n"
BAD_EVENT_MD = MD.replace("tool.pre", "no.such.event")
# Frontmatter that reads, a script that does not compile: only a thorough read compiles it.
BAD_SCRIPT_MD = MD.replace("def handle(event, payload):", "def handle(:")

HOOKS = ".agents/hooks.json"
SETTINGS_FILE = ".claude/settings.json"


def md(name: str) -> str:
    return f".harness/hooks/{name}.md"


RUN: dict[str, Any] = {"no_user": True}
CHECK: dict[str, Any] = {"no_user": True, "thorough": True}

# (files of the workspace, load_all's options, expected: (path, kind, findings) per file read)
CASES: list[tuple[str, dict[str, str], dict[str, Any], list[tuple[str, str, str]]]] = [
    ("run reads errors only", {HOOKS: WARN_JSON}, RUN, [(HOOKS, HOOKS_JSON, "none")]),
    ("validate finds warnings too", {HOOKS: WARN_JSON}, CHECK,
     [(HOOKS, HOOKS_JSON, "warnings")]),
    ("run reads a broken file, with its errors", {HOOKS: BROKEN_JSON}, RUN,
     [(HOOKS, HOOKS_JSON, "errors")]),
    ("validate reads a broken file, with its errors", {HOOKS: BROKEN_JSON}, CHECK,
     [(HOOKS, HOOKS_JSON, "errors")]),
    ("run's order: hooks.json, settings, Markdown",
     {HOOKS: CLEAN_JSON, SETTINGS_FILE: CLAUDE, md("a"): MD}, RUN,
     [(HOOKS, HOOKS_JSON, "none"), (SETTINGS_FILE, SETTINGS, "none"),
      (md("a"), MARKDOWN, "none")]),
    ("validate's order: hooks.json, Markdown, settings",
     {HOOKS: CLEAN_JSON, SETTINGS_FILE: CLAUDE, md("a"): MD}, CHECK,
     [(HOOKS, HOOKS_JSON, "none"), (md("a"), MARKDOWN, "none"),
      (SETTINGS_FILE, SETTINGS, "none")]),
    ("run does not compile Markdown scripts", {md("a"): BAD_SCRIPT_MD}, RUN,
     [(md("a"), MARKDOWN, "none")]),
    ("nor does a thorough read: their kind does", {md("a"): BAD_SCRIPT_MD}, CHECK,
     [(md("a"), MARKDOWN, "none")]),
    ("a Markdown hook's frontmatter errors, for every command", {md("a"): BAD_EVENT_MD}, RUN,
     [(md("a"), MARKDOWN, "errors")]),
    ("validate's PATHs alone, without discovery", {HOOKS: CLEAN_JSON, SETTINGS_FILE: CLAUDE},
     {**CHECK, "paths": [".claude"]}, [(SETTINGS_FILE, SETTINGS, "none")]),
    ("PATHs, then what --workspace adds, each once", {HOOKS: CLEAN_JSON, SETTINGS_FILE: CLAUDE},
     {**CHECK, "paths": [".claude"], "workspaces": ["."]},
     [(SETTINGS_FILE, SETTINGS, "none"), (HOOKS, HOOKS_JSON, "none")]),
    ("--config names the files: discovery is off", {HOOKS: CLEAN_JSON, md("a"): MD},
     {**RUN, "configs": [HOOKS]}, [(HOOKS, HOOKS_JSON, "none")]),
    ("--dialect claude limits discovery to it", {HOOKS: CLEAN_JSON, SETTINGS_FILE: CLAUDE},
     {**CHECK, "dialect": "claude"}, [(SETTINGS_FILE, SETTINGS, "none")]),
]


def write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def findings(loaded: Loaded) -> list[tuple[str, str, str]]:
    def said(diagnostics: tuple[Any, ...]) -> str:
        if any(d.severity == "error" for d in diagnostics):
            return "errors"
        return "warnings" if diagnostics else "none"

    return [(f.source.path, kind_of(f.source), said(f.diagnostics)) for f in loaded.files]


def test_validate_compiles_them_through_their_kind(isolated: Path) -> None:
    """`features.findings`: what validate, list and the language server read."""
    from agenthooks.features.findings import load_checked

    write(isolated, {HOOKS: WARN_JSON, md("a"): BAD_SCRIPT_MD, md("b"): MD})
    loaded = load_checked(no_user=True)
    assert findings(loaded) == [(HOOKS, HOOKS_JSON, "warnings"), (md("a"), MARKDOWN, "errors"),
                                (md("b"), MARKDOWN, "none")]
    (compiled,) = loaded.files[1].diagnostics
    assert compiled.line > 1 and compiled.rule.startswith("starlark")


@pytest.mark.parametrize(("files", "options", "expected"),
                         [case[1:] for case in CASES], ids=[case[0] for case in CASES])
def test_the_files_a_workspace_yields(isolated: Path, files: dict[str, str],
                                      options: dict[str, Any],
                                      expected: list[tuple[str, str, str]]) -> None:
    write(isolated, files)
    assert findings(load_all(**options)) == expected


def test_a_registry_keeps_the_markdown_hooks_that_do_not_load(isolated: Path) -> None:
    write(isolated, {HOOKS: CLEAN_JSON, md("bad"): BAD_EVENT_MD, md("good"): MD})
    loaded = load_all(no_user=True)
    assert [f.source.path for f in loaded.handler_files] == [HOOKS, md("bad")]
    assert [(m.name, m.ok) for m in loaded.markdown] == [("bad", False), ("good", True)]
    assert [f.source.path for f in loaded.broken] == [md("bad")]


def test_run_names_each_settings_handler_by_its_place_and_validate_does_not(
        isolated: Path) -> None:
    write(isolated, {SETTINGS_FILE: CLAUDE})
    (run,) = load_all(no_user=True).files
    (checked,) = load_all(no_user=True, thorough=True).files
    assert [h.hook for h in run.handlers] == [f"{SETTINGS_FILE}#/hooks/PreToolUse/0/hooks/0"]
    assert [h.hook for h in checked.handlers] == [""]


def test_a_named_directory_with_no_hook_file_is_reported_empty(isolated: Path) -> None:
    (isolated / "nothing").mkdir()
    loaded = load_all(paths=["nothing"], no_user=True, thorough=True)
    assert (loaded.files, loaded.empty) == ((), ("nothing",))


def test_what_was_asked_is_kept_for_the_registry(isolated: Path) -> None:
    write(isolated, {HOOKS: CLEAN_JSON})
    loaded = load_all(configs=[HOOKS], workspaces=["."], no_user=True)
    assert loaded.named
    assert loaded.workspaces == (os.path.join(str(isolated), "."),)


@pytest.mark.skipif(not hasattr(os, "geteuid"), reason="ownership is ACLs on Windows")
def test_a_file_others_can_write_is_an_error_and_not_read(isolated: Path) -> None:
    write(isolated, {HOOKS: CLEAN_JSON})
    (isolated / ".agents").chmod(0o775)
    below = isolated / "below"
    below.mkdir()
    os.chdir(below)
    for thorough in (False, True):
        loaded = load_all(no_user=True, thorough=thorough)
        (refused,) = loaded.files
        assert refused.handlers == ()
        assert [d.rule for d in refused.errors] == ["unsafe-workspace"]
        assert loaded.notes == () and loaded.discovered().sources == []


def test_an_untrusted_workspace_is_not_read_until_trusted(isolated: Path) -> None:
    from agenthooks.cli.commands.trust import trust_workspace

    write(isolated, {HOOKS: CLEAN_JSON, SETTINGS_FILE: CLAUDE, md("a"): MD})
    untrusted = load_all(no_user=True, require_trust=True)
    assert (untrusted.files, untrusted.markdown) == ((), ())
    assert len(untrusted.untrusted) == 1
    assert "is not trusted" in untrusted.untrusted[0]
    assert trust_workspace(workspaces=[str(isolated)]) == 0
    trusted = load_all(no_user=True, require_trust=True)
    assert [kind_of(f.source) for f in trusted.files] == [HOOKS_JSON, SETTINGS, MARKDOWN]
    assert trusted.untrusted == ()


def test_trust_sees_the_files_read_by_kind(isolated: Path) -> None:
    write(isolated, {HOOKS: CLEAN_JSON, SETTINGS_FILE: CLAUDE, md("a"): MD})
    found = load_all(no_user=True).discovered()
    assert [s.path for s in found.sources] == [HOOKS]
    assert [s.path for s in found.markdown] == [md("a")]
    assert [s.path for s in found.dialect_sources] == [SETTINGS_FILE]


def test_each_format_row_claims_its_files_and_the_first_claim_reads() -> None:
    from agenthooks.model.handlers import Source
    from agenthooks.sources.formats import FORMATS, format_of

    def source(file: str, dialect: str) -> Source:
        return Source(file=f"/w/{file}", path=file, workspace="/w", level="workspace",
                      cwd="/w", dialect=dialect)

    table = [(HOOKS, "antigravity", HOOKS_JSON), (md("a"), "antigravity", MARKDOWN),
             (SETTINGS_FILE, "claude", SETTINGS), (".codex/config.toml", "codex", SETTINGS),
             ("x.md", "claude", SETTINGS)]  # a host's file is its host's, whatever its name
    assert [format_of(source(f, d)).name for f, d, _ in table] == [k for _, _, k in table]
    assert [row.name for row in FORMATS][-1] == HOOKS_JSON  # what no other row claims


def test_validate_checks_each_format_together_and_answers_in_the_order_given(
        isolated: Path) -> None:
    write(isolated, {HOOKS: WARN_JSON, SETTINGS_FILE: CLAUDE, md("a"): MD,
                     md("b"): BAD_EVENT_MD})
    given = [md("b"), HOOKS, SETTINGS_FILE, md("a")]
    loaded = load_all(paths=given, no_user=True, thorough=True)
    assert [f.source.path for f in loaded.files] == given
    assert [m.source.path for m in loaded.markdown] == [md("b"), md("a")]
