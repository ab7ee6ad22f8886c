"""What the pages show that no command prints: the user config file of docs/config.md is one
agenthooks reads, with every key the page documents; every page is in the site's navigation."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from agenthooks.userconfig import UserConfig, parse_user_config
from tests.docs.examples import blocks
from tests.docs.pages import DOCS, REPO, page


def test_the_user_config_example_is_read_as_the_page_says(tmp_path: Path) -> None:
    (toml,) = [block for block in blocks(DOCS / "config.md") if block.language == "toml"]
    path = tmp_path / "config.toml"
    path.write_text(toml.text, encoding="utf-8")
    config = parse_user_config(str(path))
    assert config.require_trust is True
    assert config.fail_closed is True
    assert config.other_hosts is True
    assert config.default_host == "claude"
    assert config.audit_log is not None
    assert config.audit_log.endswith("/.local/state/agenthooks/audit.jsonl")
    # The page names every key the file may hold.
    for key in UserConfig._fields:
        if key != "path":
            assert f"{key} = " in toml.text, key


def nav_pages(nav: object) -> set[str]:
    if isinstance(nav, str):
        return {nav}
    if isinstance(nav, dict):
        return set().union(*(nav_pages(value) for value in nav.values()))
    if isinstance(nav, list):
        return set().union(*(nav_pages(item) for item in nav))
    return set()


def test_every_page_is_in_the_navigation() -> None:
    # mkdocs.yml has no tags that need MkDocs' own loader.
    config = yaml.safe_load((REPO / "mkdocs.yml").read_text(encoding="utf-8"))
    on_disk = {str(path.relative_to(DOCS)) for path in DOCS.rglob("*.md")}
    assert nav_pages(config["nav"]) == on_disk


def anchors_of(text: str) -> set[str]:
    """The anchors of a page's headings, as MkDocs and GitHub make them."""
    headings = re.findall(r"^#{1,6} (.+)$", text, re.M)
    return {re.sub(r"[^\w -]", "", title.lower()).replace(" ", "-") for title in headings}


def test_the_readme_links_only_to_pages_and_sections_that_exist() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    for target, anchor in re.findall(r"\]\((docs/[^)#]+)(?:#([^)]+))?\)", readme):
        assert (REPO / target).is_file(), target
        if anchor:
            assert anchor in anchors_of(page(target.removeprefix("docs/"))), (target, anchor)


def test_the_readme_wires_each_host_as_the_hosts_page_does() -> None:
    """The README's settings blocks are copies of docs/hosts.md's, which the host tests run
    under each host's payloads (tests/hosts/test_host_output.py, tests/e2e)."""
    hosts_page = {block.text for block in blocks(DOCS / "hosts.md")}
    wiring = [block for block in blocks(REPO / "README.md")
              if "agenthooks run" in block.text and block.language == "json"]
    assert len(wiring) >= 2
    for block in wiring:
        assert block.text in hosts_page, block.where


def test_the_readmes_contents_name_every_section() -> None:
    """The contents list at the top links to every section of the README, so a section added
    later (a host's quick start) is found from the first screen."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    contents = readme[:readme.index("\n## ")]
    linked = set(re.findall(r"\]\(#([a-z0-9-]+)\)", contents))
    headings = re.findall(r"^#{2,3} (.+)$", readme, re.M)
    anchors = {re.sub(r"[^a-z0-9 -]", "", title.lower()).replace(" ", "-") for title in headings}
    assert anchors - linked == set()
    assert linked - anchors == set()


def test_the_overview_names_every_host_and_its_files() -> None:
    """The overview's table of hosts is the host table: each host by its name and `--host`
    word (none for a tool that calls no hook), with every project and user file it reads."""
    from agenthooks.model.hosts import HOST_TABLE
    from tests.docs.pages import section

    rows = {cells[0]: cells for line in section("hosts-read").splitlines()[2:]
            if (cells := [cell.strip() for cell in line.strip("|").split("|")])}
    assert len(rows) == len(HOST_TABLE)
    for host in HOST_TABLE:
        (cells,) = [cells for name, cells in rows.items() if name.startswith(host.name)]
        assert cells[1] == ("-" if host.generator else f"`{host.id}`"), host.id
        if host.neutral and not host.generator:  # hooks.json: its discovery is its own page
            continue
        assert cells[2] == (", ".join(f"`{path}`" for path in host.project_files) or "-"), \
            host.id
        assert cells[3] == (", ".join(f"`~/{path}`" for path in host.user_files) or "-"), host.id
