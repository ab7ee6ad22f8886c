"""`sources.reach`: what a command reaches, as a table over real files."""

from __future__ import annotations

from pathlib import Path

import pytest

from agenthooks.sources.reach import reach, reach_exec

FILES = ("a.sh", "lib.sh", "sub/x.sh", "tools/t.py", "pkg/__init__.py", "pkg/__main__.py",
         "filter.jq")


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    for rel in FILES:
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("")
    return tmp_path


# command -> (what it reaches: path and role, what it does not follow)
TABLE: list[tuple[str, list[str], list[str]]] = [
    ("./a.sh", ["a.sh script"], []),
    ('"$CLAUDE_PROJECT_DIR"/a.sh --flag', ["a.sh script"], []),
    ("${AGENTHOOKS_WORKSPACE}/a.sh", ["a.sh script"], []),
    ("'$CLAUDE_PROJECT_DIR'/a.sh", [], []),  # single quotes: no expansion, no such file
    ("cd sub && ./x.sh", ["sub/x.sh script"], []),
    ("(cd sub; ./x.sh); ./a.sh", ["sub/x.sh script", "a.sh script"], []),
    ("sh -c 'cd sub && ./x.sh'", ["sub/x.sh script"], []),
    ("bash -euc \"./a.sh\"", ["a.sh script"], []),
    ("bash a.sh lib.sh", ["a.sh script", "lib.sh file"], []),
    ("env -i X=1 nice -n 5 timeout -s KILL 5 ./a.sh", ["a.sh script"], []),
    ("exec -a name ./a.sh", ["a.sh script"], []),
    (". ./lib.sh && source lib.sh", ["lib.sh script", "lib.sh script"], []),
    ("python3.12 -W ignore -u tools/t.py", ["tools/t.py script"], []),
    ("python3 -m pkg", ["pkg/__init__.py module", "pkg/__main__.py module"], []),
    ("node -r ./lib.sh tools/t.py", ["lib.sh script", "tools/t.py script"], []),
    ("deno run --config=x.json tools/t.py", ["tools/t.py script"], []),
    ("jq -f filter.jq --arg x=1", ["filter.jq file"], []),
    ("tool --rules=filter.jq", ["filter.jq file"], []),
    ("python3 < tools/t.py > out.log", ["tools/t.py script"], []),
    ('echo "$(./a.sh)"', ["a.sh script"], []),
    ("python3 -c 'import t' a.sh", ["a.sh file"], ["what `python3 -c` code imports or runs"]),
    ("PATH=./bin:$PATH gate", [], ["what is found through PATH, set in the command"]),
    ("export PYTHONPATH=tools; python3 -m t",
     [], ["what is found through PYTHONPATH, set in the command"]),
    ("$GEMINI_CWD/x.sh", [], ["`$GEMINI_CWD/x.sh`, a command known only at run time"]),
    ("sh $HOOK", [], ["`$HOOK`, a path known only at run time"]),
    ("eval ./a.sh", ["a.sh file"], ["`eval`'s command"]),
    ("cd \"$X\" && ./x.sh", [],
     ["what is named after `cd $X`, a folder known only at run time",
      "`./x.sh`, after `cd` to a folder known only at run time"]),
    ("sh <<EOF\n./a.sh\nEOF", ["a.sh script"], ["a here-document's commands"]),
    ("echo ./a.sh # ./lib.sh", ["a.sh file"], []),
    ("gate ./missing.sh", [], []),
]


@pytest.mark.parametrize(("command", "hits", "notes"), TABLE)
def test_what_a_command_reaches(ws: Path, command: str, hits: list[str],
                                notes: list[str]) -> None:
    variables = {"CLAUDE_PROJECT_DIR": str(ws), "AGENTHOOKS_WORKSPACE": str(ws)}
    found = reach(command, str(ws), variables)
    assert [f"{Path(h.path).relative_to(ws)} {h.role}" for h in found.hits] == hits
    assert list(found.unfollowed) == notes
    assert found.command == command  # without copies, nothing is rewritten


# command -> the command rewritten to run the copies (a copy's path is /copy/ + its name)
REWRITES = [
    ("./a.sh", "/copy/a.sh"),
    ('"$CLAUDE_PROJECT_DIR"/a.sh --flag', "/copy/a.sh --flag"),
    ("cd sub && ./x.sh arg", "cd sub && /copy/sub/x.sh arg"),
    ("sh -c 'cd sub && ./x.sh'", "sh -c 'cd sub && /copy/sub/x.sh'"),
    ("bash lib.sh a.sh", "bash /copy/lib.sh a.sh"),  # a.sh is an argument: read from its place
    ('python3 "tools/t.py" < a.sh', "python3 /copy/tools/t.py < /copy/a.sh"),
    ("sh -c \"$X; ./a.sh\"", "sh -c \"$X; ./a.sh\""),  # known only at run time: left as is
    ("cat <<EOF\n./a.sh\nEOF", "cat <<EOF\n./a.sh\nEOF"),
]


@pytest.mark.parametrize(("command", "rewritten"), REWRITES)
def test_scripts_are_rewritten_to_their_copies(ws: Path, command: str, rewritten: str) -> None:
    copies = {str(ws / rel): f"/copy/{rel}" for rel in FILES}
    found = reach(command, str(ws), {"CLAUDE_PROJECT_DIR": str(ws)}, copies)
    assert found.command == rewritten


def test_the_exec_form(ws: Path) -> None:
    copies = {str(ws / "tools/t.py"): "/copy/t.py"}
    found = reach_exec("python3", ["${CLAUDE_PROJECT_DIR}/tools/t.py", "a.sh", "$HOME"],
                       str(ws), {"CLAUDE_PROJECT_DIR": str(ws)}, copies)
    assert found.command == "python3" and found.args == ("/copy/t.py", "a.sh", "$HOME")
    assert [h.role for h in found.hits] == ["script", "file"]


def test_a_command_nested_without_end_is_named_not_followed(ws: Path) -> None:
    found = reach("echo " + "$(" * 3000 + "./a.sh" + ")" * 3000, str(ws), {})
    assert found.unfollowed[0] == "commands nested more than 16 deep"
    assert all(len(note) <= 160 for note in found.unfollowed)
