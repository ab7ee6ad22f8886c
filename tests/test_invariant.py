"""The invariant of a gate: every handler written runs for some call, or `validate` says why not.

Every hook file of the test corpora, the samples and the documentation is loaded as `validate`
loads it. For each handler of a file without errors, the test looks for a call that selects it:
its event, under every host (in that host's words), with every tool name of the tool table,
the words of its own matcher and an unknown tool. A handler that no call selects must carry a
finding of `validate` (a rule id) at its own place in the file; one that has neither is a gate
that is silently lost.
"""

from __future__ import annotations

import difflib
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agenthooks.api import Hooks
from agenthooks.model.events import find_row, row_of, word_of
from agenthooks.model.handlers import Diagnostic, Handler, HookFile
from agenthooks.model.hosts import HOST_TABLE
from agenthooks.model.tools import TOOLS, filled
from agenthooks.plan.select import fans_out
from agenthooks.sources.load import load_all
from tests.docs.examples import blocks
from tests.docs.pages import pages

filled()  # every derived host's names, which a run fills for the hosts it involves alone

REPO = Path(__file__).resolve().parent.parent
HOSTS = tuple(row.id for row in HOST_TABLE)
UNKNOWN_TOOL = "some_custom_tool"
# The payload fields a flat event's matcher is matched against, across hosts.
VALUE_FIELDS = ("source", "trigger", "reason", "notification_type", "agent_type", "type")


def corpus() -> Iterator[tuple[str, Path]]:
    """(name, folder) of every workspace and hook file the invariant covers."""
    yield "sample_hooks", REPO / "sample_hooks"
    for path in sorted((REPO / "tests" / "sources" / "hooksjson" / "good").glob("*.json")):
        yield f"tests/sources/hooksjson/good/{path.name}", path
    for path in sorted((REPO / "tests" / "invariant").iterdir()):
        if path.is_dir() or path.suffix == ".json":
            yield f"tests/invariant/{path.name}", path


def doc_files(tmp: Path) -> list[Path]:
    """The hook files the documentation writes (`<!-- file: PATH -->` blocks), each in a
    folder of its own page."""
    written: list[Path] = []
    for page in pages():
        for block in blocks(page):
            target = block.notes.get("file", "").strip()
            if not target or not target.endswith((".json", ".toml", ".md")):
                continue
            if "hooks" not in target and "settings" not in target:
                continue
            path = tmp / page.stem / target
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(block.text, encoding="utf-8")
            written.append(path)
    return written


def tool_names() -> set[tuple[str, str]]:
    """(caller, tool name) for every tool of every host, and an unknown tool everywhere."""
    found = {(host, UNKNOWN_TOOL) for host in HOSTS}
    for tool in TOOLS:
        for host, names in tool.names.items():
            found.update((host, name) for name in names)
    return found


KNOWN = {name for _, name in tool_names()} - {UNKNOWN_TOOL}


def custom_tool(word: str) -> bool:
    """Whether a matcher's word can name a tool of its own (a plugin's, an MCP server's): a
    host's known name arrives only from that host, and a near miss of one (`Run_Command`,
    `run_comand`) is a typo, not a tool."""
    if word in KNOWN:
        return False
    lowered = word.lower()
    if any(lowered == name.lower() for name in KNOWN):
        return False
    return not difflib.get_close_matches(word, KNOWN, n=1, cutoff=0.85)


def matcher_words(handler: Handler) -> set[str]:
    """The names a matcher says: its `|` words, and for a pattern, names it matches
    (generated from the pattern itself, so that `browser_.*` finds `browser_x`)."""
    words = {part.strip() for part in (handler.matcher or "").split("|") if part.strip()}
    if handler.matcher and not all(w.replace("_", "").isalnum() for w in words):
        words |= examples_of(handler.matcher)
    return words


def examples_of(pattern: str) -> set[str]:
    strategy = st.from_regex(pattern, fullmatch=True, alphabet=st.characters(
        codec="ascii", categories=["L", "N", "Pc"]))
    found: set[str] = set()

    @settings(max_examples=30, database=None, derandomize=True, deadline=None)
    @given(strategy)
    def collect(name: str) -> None:
        found.add(name)

    try:
        collect()
    except Exception:  # a pattern Python's re cannot read: validate's business
        return set()
    return found


def selected(hooks: Hooks, handler: Handler) -> bool:
    """Whether some call selects the handler, under some host."""
    row = row_of(handler.dialect, handler.event) or find_row(handler.event)
    if row is None:
        return False
    event = row.engine or row.id
    if row.tool:
        calls = tool_names() | {(host, word) for host in HOSTS
                                for word in matcher_words(handler) if custom_tool(word)}
        return any(handler in hooks.select(event, tool, {}, caller)
                   for caller, tool in calls if word_of(caller, row) is not None)
    docs: list[dict[str, object]] = [{}]
    docs += [dict.fromkeys(VALUE_FIELDS, word) for word in matcher_words(handler)]
    return any(handler in hooks.select(event, None, doc, host)
               for host in HOSTS if word_of(host, row) is not None for doc in docs)


def finding_at(findings: tuple[Diagnostic, ...], handler: Handler) -> Diagnostic | None:
    """A warning or error of `validate` about the handler, its group or its hook."""
    group = handler.pointer.rsplit("/hooks/", 1)[0]
    for finding in findings:
        pointer = finding.pointer or ""
        if pointer and (handler.pointer.startswith(pointer) or pointer.startswith(group)):
            return finding
    return None


def lost_gates(files: tuple[HookFile, ...]) -> list[str]:
    lost = []
    for hook_file in files:
        if not hook_file.ok:
            continue  # a file with errors: validate says so, and run fails closed on it
        registry = Hooks([hook_file])  # offline: every file runs, whoever calls
        for handler in hook_file.handlers:
            if not handler.enabled or fans_out(handler) or selected(registry, handler):
                continue
            if finding_at(hook_file.diagnostics, handler) is None:
                lost.append(f"{hook_file.source.file} {handler.pointer} ({handler.dialect} "
                            f"{handler.event}, matcher {handler.matcher!r})")
    return lost


@pytest.mark.parametrize(("name", "where"), list(corpus()), ids=[n for n, _ in corpus()])
def test_every_handler_runs_or_validate_says_why(name: str, where: Path, tmp_path: Path) -> None:
    target = tmp_path / "ws"
    if where.is_dir():
        shutil.copytree(where, target, symlinks=True)
        loaded = load_all(paths=[str(target)], recursive=True, thorough=True, no_user=True,
                          cwd=str(target))
    else:
        target.mkdir()
        loaded = load_all(paths=[str(where)], thorough=True, no_user=True, cwd=str(target))
    assert loaded.files, name
    assert lost_gates(loaded.files) == []


def test_the_documentations_hook_files(tmp_path: Path) -> None:
    files = doc_files(tmp_path)
    assert len(files) >= 5
    loaded = load_all(paths=[str(f) for f in files], thorough=True, no_user=True,
                      cwd=str(tmp_path))
    assert lost_gates(loaded.files) == []
