"""The Layout section of the documentation (docs/layout.md) names every module and package of
agenthooks, and nothing the tree does not have: the map of the code cannot drift from the
code."""

from __future__ import annotations

import re
from pathlib import Path

from tests.test_readme_rules import section

PACKAGE = Path(__file__).resolve().parent.parent / "agenthooks"
# Plumbing (package files, the version), which says nothing about the architecture.
PLUMBING = {"__init__.py", "__main__.py", "_version.py", "py.typed"}


def tree() -> set[str]:
    """`name/` for each package and `name.py` for each module, at the top and one level in."""
    found = set()
    for path in PACKAGE.iterdir():
        if path.name in PLUMBING or path.name.startswith((".", "__pycache__")):
            continue
        if path.is_dir() and (path / "__init__.py").exists():
            found.add(f"{path.name}/")
            found.update(f"{path.name}/{child.name}" for child in path.iterdir()
                         if child.suffix == ".py" and child.name not in PLUMBING)
            found.update(f"{path.name}/{child.name}/" for child in path.iterdir()
                         if (child / "__init__.py").exists())
        elif path.suffix == ".py":
            found.add(path.name)
    return found


def named() -> set[str]:
    """Every `name/`, `name.py`, `pkg/name.py` the Layout section names in backquotes; a
    group such as `combine/{fold,merge}.py` names each member."""
    text = section("layout")
    names = set()
    for item in re.findall(r"`([a-z_]+/?(?:[a-z_{},]+(?:\.py|/))?)`", text):
        group = re.fullmatch(r"([a-z_]+/)\{([a-z_,]+)\}(\.py|/)", item)
        if group:
            names.update(f"{group[1]}{member}{group[3]}" for member in group[2].split(","))
        elif item.endswith((".py", "/")):
            names.add(item)
    return names


def test_the_layout_names_every_package_and_module() -> None:
    missing = sorted(tree() - named())
    assert not missing, f"docs/layout.md does not name: {missing}"


def test_the_layout_names_nothing_the_tree_lacks() -> None:
    extra = sorted(named() - tree())
    assert not extra, f"docs/layout.md names what the tree does not have: {extra}"
