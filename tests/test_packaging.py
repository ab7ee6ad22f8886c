"""The Pythons agenthooks says it supports are the ones it is tested on: pyproject.toml's
`requires-python` and classifiers, scripts/test-pythons' versions and README.md's "Supported
Pythons" name the same ones."""

from __future__ import annotations

import re
import sys
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # a dependency of agenthooks on 3.10
    import tomli as tomllib

REPO = Path(__file__).resolve().parent.parent


def versions_tested() -> list[str]:
    """The versions scripts/test-pythons runs the program's tests on, oldest first."""
    script = (REPO / "scripts" / "test-pythons").read_text(encoding="utf-8")
    found = re.search(r"^versions=\$\{AGENTHOOKS_TEST_PYTHONS-([0-9. ]+)\}$", script, re.M)
    assert found, "scripts/test-pythons names no default versions"
    return found.group(1).split()


def test_the_classifiers_and_requires_python_are_what_is_tested() -> None:
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    versions = versions_tested()
    assert versions == sorted(versions, key=lambda v: tuple(map(int, v.split("."))))
    prefix = "Programming Language :: Python :: "
    classified = [c[len(prefix):] for c in project["classifiers"]
                  if re.fullmatch(re.escape(prefix) + r"3\.\d+", c)]
    assert classified == versions
    assert project["requires-python"] == f">={versions[0]}"


def test_the_readme_names_them() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    section = readme.split("### Supported Pythons", 1)[1].split("\n#", 1)[0]
    versions = versions_tested()
    named = ", ".join(versions[:-1]) + f" and {versions[-1]}"
    assert f"CPython {named}" in " ".join(section.split())
