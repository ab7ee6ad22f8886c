"""Where the documentation lives, for the tests that keep it equal to the code: README.md (the
way in) and the pages of the documentation site under docs/ (the reference)."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent.parent
README = REPO / "README.md"
DOCS = REPO / "docs"


def pages() -> list[Path]:
    """README.md, then every page of the site, in name order."""
    return [README, *sorted(DOCS.rglob("*.md"))]


def page(name: str) -> str:
    """The text of one page of the site, `docs/NAME`."""
    return (DOCS / name).read_text(encoding="utf-8")


def docs_text() -> str:
    """Everything a user can read: README.md and every page, one after the other."""
    return "\n".join(path.read_text(encoding="utf-8") for path in pages())


def section(name: str) -> str:
    """The text between `<!-- section: NAME -->` and `<!-- end: NAME -->`, on whichever page
    holds it."""
    match = re.search(rf"<!-- section: {name} -->\n(.*?)<!-- end: {name} -->", docs_text(), re.S)
    assert match, f"no page of README.md or docs/ has a {name} section"
    return match.group(1)


def heading_section(text: str, title: str) -> str:
    """From the heading line `title` up to the next heading of the same or a higher level."""
    start = text.index(f"\n{title}\n") + 1
    level = len(title) - len(title.lstrip("#"))
    following = re.compile(rf"^#{{1,{level}}} ", re.M)
    end = following.search(text, start + len(title))
    return text[start:end.start() if end else len(text)]
