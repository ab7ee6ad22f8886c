"""Each command's synopsis on its page (a `text` block that starts with `agenthooks COMMAND`)
names the options `agenthooks COMMAND --help` defines, all of them and no other."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest

from tests.docs.examples import blocks
from tests.docs.pages import pages

pytestmark = pytest.mark.program

OPTION = re.compile(r"(?<![\w-])(--?[a-z][\w-]*)")
# An option's line in --help: indented, then its names ("-o, --output FILE").
DEFINED = re.compile(r"^ {2,}((?:--?[a-z][\w-]*(?: [A-Z:_|]+)?(?:, )?)+)", re.M)


def synopses() -> dict[str, set[str]]:
    """command -> the options its synopses name, across the pages."""
    found: dict[str, set[str]] = defaultdict(set)
    for page in pages():
        for block in blocks(page):
            if block.language == "text" and block.text.startswith("agenthooks "):
                for line in re.split(r"\n(?=agenthooks )", block.text):
                    found[line.split()[1]] |= set(OPTION.findall(line))
    return found


def defined(command: str) -> list[set[str]]:
    """Each option of the command's --help, as the set of its names."""
    env = {**os.environ, "COLUMNS": "200"}
    done = subprocess.run([str(Path(sys.executable).parent / "agenthooks"), command, "--help"],
                          capture_output=True, text=True, env=env, timeout=60, check=True)
    groups = [set(OPTION.findall(match)) for match in DEFINED.findall(done.stdout)]
    return [group for group in groups if not group & {"-h", "--help"}]


@pytest.mark.parametrize("command", sorted(synopses()))
def test_the_synopsis_names_every_option_and_no_other(command: str) -> None:
    shown = synopses()[command]
    options = defined(command)
    assert shown <= set().union(*options), f"not options of {command}: {shown}"
    missing = [sorted(group) for group in options if not group & shown]
    assert not missing, f"the synopsis of {command} leaves out {missing}"
