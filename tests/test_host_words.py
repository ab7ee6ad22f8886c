"""Below the command line, a module names a host (or a format) by its word only in that host's
own modules or in a table with a row per host: everything else asks the row
(`model.hosts.HostRow`, `sources.dialects.spec.Dialect`), so that a new host is one module and
one row and never a branch in the shared path.

What names a host elsewhere today is `DEBT`, grouped by the step of issue 25 that pays it; a
new word outside those places fails here, and a paid one must leave the list.
"""

from __future__ import annotations

import ast
from pathlib import Path

from agenthooks.model.hosts import HOST_TABLE

PACKAGE = Path(__file__).resolve().parent.parent / "agenthooks"
HOSTS = frozenset(row.id for row in HOST_TABLE)

# The tables with a row (or a column) per host: the host's words there are its row.
TABLES = frozenset({
    "agenthooks.model.hosts", "agenthooks.model.events", "agenthooks.model.tools",
    "agenthooks.model.capabilities", "agenthooks.sources.payloads",
})
# rulesync's file names the hosts it writes for: its own format's keys.
FORMAT_KEYS = {("agenthooks.sources.dialects.rulesync", host) for host in HOSTS}

# (module, host word) named outside its host's modules and the tables, today: none.
DEBT: set[tuple[str, str]] = set()


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def host_words(tree: ast.Module) -> set[str]:
    """The host words a module's code says as strings (its docstrings are prose)."""
    prose = {id(node.body[0].value) for node in ast.walk(tree)
             if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef
                           | ast.AsyncFunctionDef)
             and node.body and isinstance(node.body[0], ast.Expr)
             and isinstance(node.body[0].value, ast.Constant)}
    return {node.value for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and node.value in HOSTS and id(node) not in prose}


def own(module: str, host: str) -> bool:
    """Whether a module is one of the host's own: `hosts/<id>/`, `<id>.py`, `<id>_check.py`."""
    return any(part == host or part.startswith(f"{host}_") for part in module.split("."))


def named_outside() -> set[tuple[str, str]]:
    found = set()
    for path in PACKAGE.rglob("*.py"):
        module = module_name(path)
        if module.startswith("agenthooks.cli") or module in TABLES:
            continue
        found.update((module, host) for host in host_words(ast.parse(path.read_text()))
                     if not own(module, host))
    return found - FORMAT_KEYS


def test_a_host_is_named_only_by_its_modules_and_rows() -> None:
    found = named_outside()
    assert found - DEBT == set(), "ask the host's row instead of naming it"
    assert DEBT - found == set(), "paid: delete these from DEBT"


def test_the_words_found_include_a_plain_string() -> None:
    """The search finds a host's word in code and skips it in a docstring."""
    tree = ast.parse('"""gemini"""\nRULES = {"claude": 1}\ndef f():\n    """codex"""\n')
    assert host_words(tree) == {"claude"}
