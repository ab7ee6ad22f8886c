"""The layers of pyproject.toml's import-linter contracts hold for what import-linter cannot see.

Every module of agenthooks is in a layer (a module in none is checked by no contract), and every
"module:attr" string of a table (the lazy imports of `model.hosts`, `kinds.KINDS`, the dialects'
readers...) names something that exists and keeps the layers: the module holding the string is
not below the module it names, nor its independent sibling. What breaks that today is listed in
`DEBT`, as `ignore_imports` is, by the step of issue 25 that removes it.
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
import re
from pathlib import Path
from types import ModuleType

import pytest

import agenthooks
from tests.test_bench import load_script

REPO = Path(__file__).resolve().parent.parent
PACKAGE = REPO / "agenthooks"
# Package roots that a layer cannot take without taking their subpackages in other layers.
UNLAYERED = {"agenthooks", "agenthooks.engine", "agenthooks.hosts", "agenthooks.kinds",
             "agenthooks.sources"}
# Runs the command line when imported.
NOT_IMPORTED = {"agenthooks.__main__"}
TOP_NAMES = {info.name for info in pkgutil.iter_modules([str(PACKAGE)])}
REFERENCE = re.compile(r"^((?:[a-z_][a-z0-9_]*)(?:\.[a-z_][a-z0-9_]*)*):([A-Za-z_][\w.]*)$")

# (module holding the string, module it names) that break the layers today: none.
DEBT: set[tuple[str, str]] = set()


def import_debt() -> ModuleType:
    """scripts/import-debt as a module: its reading of the layers."""
    return load_script("import-debt", "agenthooks_import_debt")


@pytest.fixture(scope="module")
def layers() -> list[tuple[list[str], bool]]:
    pytest.importorskip("tomllib", reason="Python 3.11 reads pyproject.toml")
    debt = import_debt()
    _, contracts = debt.contracts()
    found = [contract for contract in contracts if contract["type"] == "layers"]
    assert len(found) == 1
    table: list[tuple[list[str], bool]] = debt.layer_table(found[0]["layers"])
    return table


def place(module: str, table: list[tuple[list[str], bool]]) -> tuple[int, str] | None:
    for index, (names, _) in enumerate(table):
        for name in names:
            if module == name or module.startswith(name + "."):
                return index, name
    return None


def every_module() -> list[str]:
    found = ["agenthooks"]
    found += [info.name for info in pkgutil.walk_packages([str(PACKAGE)], "agenthooks.")]
    return sorted(found)


def written(node: ast.AST, scope: dict[str, object]) -> str | None:
    """The text of a string written in a module: a constant, or an f-string over the module's
    own names (`f"{_MODULE}:answer"`)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr) and all(
            isinstance(part, ast.Constant) or isinstance(part.value, ast.Name)  # no calls
            for part in node.values if isinstance(part, (ast.Constant, ast.FormattedValue))):
        try:
            value = eval(compile(ast.Expression(node), "<f-string>", "eval"), dict(scope))
        except Exception:  # names of a function's own: not a table's string
            return None
        return value if isinstance(value, str) else None
    return None


def references(module: str) -> set[str]:
    """The "module:attr" strings written in a module's source (in a table, or a function)."""
    imported = importlib.import_module(module)
    source = getattr(imported, "__file__", None)
    if not source:
        return set()
    scope = vars(imported)
    found = {text for node in ast.walk(ast.parse(Path(source).read_text()))
             if (text := written(node, scope)) is not None}
    return {text for text in found
            if (matched := REFERENCE.match(text)) and matched.group(1).split(".")[0]
            in TOP_NAMES | {"agenthooks"}}


def target(text: str) -> tuple[str, str]:
    module, _, attribute = text.partition(":")
    if module.split(".")[0] != "agenthooks":
        module = f"agenthooks.{module}"
    return module, attribute


def table_references() -> list[tuple[str, str]]:
    return sorted((module, text) for module in every_module() if module not in NOT_IMPORTED
                  for text in references(module))


def test_every_module_is_in_a_layer(layers: list[tuple[list[str], bool]]) -> None:
    outside = [module for module in every_module()
               if module not in UNLAYERED and place(module, layers) is None]
    assert outside == [], "add these to a layer of [tool.importlinter] in pyproject.toml"


def test_the_tables_name_modules_by_string() -> None:
    """The walk finds the strings the tables are known to hold (so an empty result means none,
    not a walk that saw nothing)."""
    found = set(table_references())
    assert ("agenthooks.sources.dialects.cline",
            "agenthooks.sources.dialects.cline_check:parse") in found
    assert ("agenthooks.kinds", "agenthooks.kinds.http:Requests") in found


@pytest.mark.parametrize(("module", "text"), table_references())
def test_a_table_string_names_what_exists(module: str, text: str) -> None:
    name, attribute = target(text)
    found: object = importlib.import_module(name)
    for part in attribute.split("."):
        assert hasattr(found, part), f"{module}: {text!r} names nothing"
        found = getattr(found, part)


def test_table_strings_keep_the_layers(layers: list[tuple[list[str], bool]]) -> None:
    broken = set()
    for module, text in table_references():
        name, _ = target(text)
        here, there = place(module, layers), place(name, layers)
        if here is None or there is None:
            # A package root names its own modules (kinds.KINDS): it is above them.
            assert here is not None or name.startswith(module + "."), (module, text)
            continue
        sibling = here[0] == there[0] and layers[here[0]][1] and here[1] != there[1]
        if there[0] < here[0] or sibling:
            broken.add((module, name))
    assert broken - DEBT == set(), "a table names a module above it (or its sibling)"
    assert DEBT - broken == set(), "paid: delete these from DEBT"


def test_the_package_root_names_what_exists() -> None:
    """agenthooks/__init__'s lazy exports, a table of module names."""
    exports: dict[str, str] = vars(agenthooks)["_EXPORTS"]
    for name, module in exports.items():
        assert hasattr(importlib.import_module(module), name), (name, module)


def test_hooks_json_is_named_by_its_constant() -> None:
    """The hooks.json dialect is `model.hosts.HOOKS_JSON_DIALECT`: its word appears as a
    table's key (a row's column) and nowhere else, so that what treats hooks.json apart can be
    found by one name."""
    import io
    import itertools
    import tokenize

    from agenthooks.model.hosts import HOOKS_JSON_DIALECT

    word = repr(HOOKS_JSON_DIALECT).replace("'", '"')
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tokens = [t for t in tokenize.generate_tokens(io.StringIO(path.read_text()).readline)
                  if t.type not in (tokenize.NL, tokenize.NEWLINE, tokenize.COMMENT)]
        for token, after in itertools.pairwise(tokens):
            if token.type == tokenize.STRING and token.string == word and after.string != ":":
                found.append(f"{path.relative_to(REPO)}:{token.start[0]}")
    assert [place.rpartition(":")[0] for place in found] == ["agenthooks/model/hosts.py"], found


@pytest.mark.parametrize(("table", "package"), [
    ("agenthooks.hosts.writers:WRITERS", "agenthooks.hosts."),
    ("agenthooks.kinds.process:PROTOCOLS", "agenthooks.kinds.protocols."),
])
def test_a_row_s_word_names_a_module_of_the_layer_that_reads_it(table: str,
                                                                 package: str) -> None:
    """A host row names its writer and protocol by a host's word (`HostRow.writer`,
    `protocol`): the layer that reads them finds a module of its own for each."""
    name, _, attribute = table.partition(":")
    found: dict[str, str] = getattr(importlib.import_module(name), attribute)
    assert found
    for host, text in found.items():
        module, function = target(text)
        assert module.startswith(package), (host, text)
        assert callable(getattr(importlib.import_module(module), function)), (host, text)


def test_a_row_s_words_name_modules_of_sources() -> None:
    """A host row's `selection` and `dialect`, and the functions of a derived host's
    `dialect_changes`, are words the sources layer finds among its own modules."""
    from agenthooks.model.hosts import HOST_TABLE
    from agenthooks.sources.dialects import every_dialect_spec, matching

    for row in HOST_TABLE:
        assert matching.selection(row.id, "x", "PreToolUse").form in (
            "all", "names", "search", "full"), row.id
    for host, dialect in every_dialect_spec().items():
        for field in ("reader", "parser", "event_key", "own_vars"):
            text = getattr(dialect, field)
            if text is not None:
                module, function = target(text)
                assert module.startswith("agenthooks.sources.dialects."), (host, text)
                assert callable(getattr(importlib.import_module(module), function)), (host, text)

