"""Every example of README.md and docs/ works as written: each page's blocks run in order, from
the folder where a user (or the host) runs them, and print what the page shows (see
tests/docs/examples.py for how a page says what each block is)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from itertools import pairwise
from pathlib import Path

import pytest

from tests.docs.examples import (
    NEVER_RUN,
    RUN,
    Block,
    blocks,
    console_steps,
    example_pages,
    starts_empty,
)
from tests.docs.pages import REPO, pages

pytestmark = pytest.mark.program

# The folder a page's examples run in is shown as this path, as a user's project would be.
SHOWN_FOLDER = "/home/me/project"
MARK = "\x00step "  # printed before each command of a console block (printf's \0 below)


def environment(tmp_path: Path) -> dict[str, str]:
    """A user's shell: agenthooks on PATH, an empty HOME, no agenthooks settings, wide lines."""
    home = tmp_path / "home"
    home.mkdir()
    env = {name: value for name, value in os.environ.items()
           if not name.startswith(("AGENTHOOKS_", "GEMINI_", "CLAUDE_"))}
    env.update({"HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config"),
                "XDG_CACHE_HOME": str(home / ".cache"), "XDG_STATE_HOME": str(home / ".state"),
                "COLUMNS": "200", "NO_COLOR": "1",
                "PATH": f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"})
    return env


def shown(output: str, folder: Path) -> str:
    """Output as a page shows it: the example folder as SHOWN_FOLDER."""
    return output.replace(str(folder.resolve()), SHOWN_FOLDER).replace(str(folder), SHOWN_FOLDER)


def agrees(expected: str, output: str, vary: str | None) -> bool:
    """Whether output is what the page shows. With `<!-- vary: REGEX -->`, what REGEX matches
    in the page's text (a duration) may be anything REGEX matches, and runs of two or more
    spaces (a table's padding, which follows the widths) any run of two or more."""
    if vary is None:
        return output == expected
    parts, start = [], 0
    for match in re.finditer(vary, expected):
        parts += [padded(expected[start:match.start()]), f"(?:{vary})"]
        start = match.end()
    parts.append(padded(expected[start:]))
    return re.fullmatch("".join(parts), output) is not None


def padded(text: str) -> str:
    return "  +".join(re.escape(piece) for piece in re.split(r"  +", text))


def run_console(block: Block, cwd: Path, folder: Path, env: dict[str, str]) -> None:
    steps = console_steps(block)
    # The marker is printed with the status of the command before it kept for `echo $?`.
    script = "exec 2>&1\nstatus=0\n" + "".join(
        f"printf '\\0step %s\\n' {index}\n(exit $status)\n{command}\nstatus=$?\n"
        for index, (command, _) in enumerate(steps))
    done = subprocess.run(["bash", "-c", script], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=120, check=False)
    printed = re.split(rf"{MARK}\d+\n", done.stdout)[1:]
    assert len(printed) == len(steps), f"{block.where}: the block stopped early:\n{done.stdout}"
    for (command, expected), raw in zip(steps, printed, strict=True):
        output = shown(raw, folder)
        assert agrees(expected, output, block.notes.get("vary")), (
            f"{block.where}: $ {command}\n--- the page shows:\n{expected}--- it printed:\n{output}")


def run_sh(block: Block, cwd: Path, env: dict[str, str]) -> None:
    done = subprocess.run(["bash", "-e", "-c", block.text], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, (f"{block.where}: exit {done.returncode}\n"
                                  f"{done.stdout}{done.stderr}")


def run_python(block: Block, output: Block | None, cwd: Path, folder: Path,
               env: dict[str, str], tmp_path: Path) -> None:
    script = tmp_path / f"example_{block.line}.py"
    script.write_text(block.text, encoding="utf-8")
    done = subprocess.run([sys.executable, str(script)], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=120, check=False)
    assert done.returncode == 0, f"{block.where}: exit {done.returncode}\n{done.stderr}"
    if output is not None:
        assert shown(done.stdout, folder) == output.text, f"{block.where}: what it prints"


def run_block(block: Block, after: Block | None, folder: Path, env: dict[str, str],
              tmp_path: Path) -> None:
    cwd = folder / block.notes.get("run in", ".")
    if "file" in block.notes:
        target = folder / block.notes["file"]
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(block.text, encoding="utf-8")
    elif "not run" in block.notes or "checked by" in block.notes:
        return
    elif block.language == "console":
        run_console(block, cwd, folder, env)
    elif block.language == "sh":
        run_sh(block, cwd, env)
    elif block.language == "python":
        output = after if after is not None and "output" in after.notes else None
        run_python(block, output, cwd, folder, env, tmp_path)


@pytest.mark.parametrize("page", example_pages(), ids=lambda page: page.name)
def test_the_examples_of_the_page_work_as_written(page: Path, tmp_path: Path) -> None:
    folder = tmp_path / "project"
    folder.mkdir()
    if not starts_empty(page):
        shutil.copytree(REPO / "sample_hooks", folder / "sample_hooks", symlinks=True)
    env = environment(tmp_path)
    found = blocks(page)
    for index, block in enumerate(found):
        after = found[index + 1] if index + 1 < len(found) else None
        run_block(block, after, folder, env, tmp_path)


def accounted_for(block: Block) -> bool:
    return (block.language in (*RUN, *NEVER_RUN)
            or any(note in block.notes for note in ("file", "not run", "checked by")))


def test_every_block_is_run_written_or_said_not_to_be() -> None:
    unsaid = [f"{block.where} ({block.language})" for page in pages() for block in blocks(page)
              if not accounted_for(block)]
    assert not unsaid, ("blocks that are neither run, written as a file, nor marked "
                        f"<!-- not run: why -->: {unsaid}")


def test_what_is_not_run_says_why() -> None:
    silent = [block.where for page in pages() for block in blocks(page)
              if "not run" in block.notes and not block.notes["not run"]]
    assert not silent


def test_a_checking_test_exists() -> None:
    for page in pages():
        for block in blocks(page):
            if "checked by" in block.notes:
                test = block.notes["checked by"].split("::")[0]
                assert (REPO / test).is_file(), f"{block.where}: no {test}"


def test_what_a_script_prints_is_marked_as_its_output() -> None:
    """A `text` block right after a `python` block shows what the script prints: unmarked, it
    would never be compared."""
    unmarked = [after.where for page in pages() for block, after in pairwise(blocks(page))
                if block.language == "python" and after.language == "text"
                and "output" not in after.notes]
    assert not unmarked, f"mark these <!-- output -->: {unmarked}"
