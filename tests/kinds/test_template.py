"""Shell placeholders: every value reaches the command as data, checked by running real shells.

adk-fluent substitutes in two passes, so an argument holding `{user_message}` or `$(...)` runs
code. Here the template is read once, each value quoted once, and where a placeholder stands
(plain word, double or single quotes) decides how the quoted value is spliced in.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from types import MappingProxyType
from typing import Any

import pytest

from agenthooks.kinds.inprocess.template import check_command, render_command

pytestmark = pytest.mark.slow  # each payload goes through a real shell

SHELLS = [shell for shell in ("/bin/sh", shutil.which("bash"), shutil.which("dash")) if shell]

PAYLOADS = [
    "x{event}y",
    "$(touch pwned)",
    "'; touch pwned; '",
    '"; touch pwned; "',
    "a\nb",
    "\ntouch pwned\n",
    "`touch pwned`",
    "{tool_input[x]}",
    "{user_message}",
    "${IFS}touch${IFS}pwned",
    "\\",
    "a\\",
    "' \"$(touch pwned)\" '",
    "*",
    "-n",
    "",
    " ",
    "}{",
    "é ü 日本",
    ";touch pwned #",
    "\nEOF\ntouch pwned\n",
]

# (template, what printf prints around the value). Each template prints the value exactly.
TEMPLATES: list[tuple[str, str, str]] = [
    ("printf '%s' {x}", "", ""),
    ("printf '%s' {tool_input[x]}", "", ""),
    ('printf \'%s\' "{x}"', "", ""),
    ('printf \'%s\' "pre {x} post"', "pre ", " post"),
    ("printf '%s' 'pre {tool_input[x]} post'", "pre ", " post"),
    ("printf '%s' pre{x}post", "pre", "post"),
    ("printf '%s' \"$(printf '%s' {x}; printf .)\"", "", "."),
    ("printf '%s' \"$(printf '%s' \"<{x}>\"; printf .)\"", "<", ">."),
    ("printf '%s' a#{x}", "a#", ""),
    ("printf '%s' {x} # {x} '", "", ""),
    ("printf 'a\\n' | awk '{print}'; printf '%s' {x}", "a\n", ""),
    ("cat <<EOF; printf '%s' {x}\nbody {x}\nEOF\n", "body {x}\n", ""),
    ("cat <<'EOF' | tr -d '\\n'; printf '%s' {x}\n{x}\nEOF", "{x}", ""),
]


def _run(shell: str, command: str, cwd: Path) -> str:
    done = subprocess.run([shell, "-c", command], cwd=cwd, capture_output=True, timeout=10,
                          check=False)
    assert done.returncode == 0, (command, done.stderr)
    return done.stdout.decode()


@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.parametrize("payload", PAYLOADS)
def test_payloads_reach_the_command_as_data(shell: str, payload: str, tmp_path: Path) -> None:
    # An argument named like an awk word must not capture the braces of the awk program.
    args = {"x": payload, "print": "BEGIN { system(\"touch pwned\") }"}
    for template, before, after in TEMPLATES:
        rendered = render_command(template, event="PreToolUse", tool_name="run_command",
                                  session_id="s1", tool_input=args)
        output = _run(shell, rendered, tmp_path)
        assert output == f"{before}{payload}{after}", (template, rendered)
        assert not (tmp_path / "pwned").exists(), (template, rendered)


@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.parametrize("payload", PAYLOADS)
def test_tool_name_and_session_id_are_data_too(shell: str, payload: str, tmp_path: Path) -> None:
    template = "printf '%s|' {tool_name} \"{session_id}\" '{event}'"
    rendered = render_command(template, event="PreToolUse", tool_name=payload,
                              session_id=payload, tool_input={})
    assert _run(shell, rendered, tmp_path) == f"{payload}|{payload}|PreToolUse|"
    assert not (tmp_path / "pwned").exists()


def test_a_value_is_never_scanned_again() -> None:
    rendered = render_command("echo {x} {y}", event="Stop", tool_name=None, session_id=None,
                              tool_input={"x": "{y}", "y": "{event}"})
    assert rendered == "echo '{y}' '{event}'"


def render(template: str, **args: Any) -> str:
    return render_command(template, event="PreToolUse", tool_name="run_command",
                          session_id="abc", tool_input=args)


RENDER_CASES: list[tuple[str, str, dict[str, Any], str]] = [
    ("no placeholder", "ls -la", {}, "ls -la"),
    ("built-ins", "echo {event} {tool_name} {session_id}", {},
     "echo PreToolUse run_command abc"),
    ("tool_input", "ruff check {tool_input[file_path]}", {"file_path": "a b.py"},
     "ruff check 'a b.py'"),
    ("top-level name", "ruff check {file_path}", {"file_path": "a.py"}, "ruff check a.py"),
    ("key that is no identifier", "cat {tool_input[file-path]}", {"file-path": "x y"},
     "cat 'x y'"),
    ("missing key gives ''", "cat {tool_input[nope]}", {}, "cat ''"),
    ("unknown name kept", "echo {nope} {tool_input[nope]}", {}, "echo {nope} ''"),
    ("built-in wins a clash", "echo {event} {tool_input[event]}", {"event": "mine"},
     "echo PreToolUse mine"),
    ("awk braces kept", "awk '{print $1}' {f}", {"f": "x", "print": "y", "print $1": "z"},
     "awk '{print $1}' x"),
    ("bare names never filled in single quotes", "jq '{name}' {f}", {"name": "n", "f": "x"},
     "jq '{name}' x"),
    ("explicit ones are", "echo '{tool_input[name]} at {event}'", {"name": "a b"},
     "echo '''a b'' at 'PreToolUse''"),
    ("double quotes closed around the value", 'echo "file {f}!"', {"f": "a b"},
     "echo \"file \"'a b'\"!\""),
    ("integer as JSON", "echo {n}", {"n": 3}, "echo 3"),
    ("float as JSON", "echo {n}", {"n": 1.5}, "echo 1.5"),
    ("bool as JSON", "echo {b}", {"b": True}, "echo true"),
    ("null as JSON", "echo {z}", {"z": None}, "echo null"),
    ("list as compact JSON", "echo {l}", {"l": [1, "a b"]}, "echo '[1,\"a b\"]'"),
    ("dict as compact JSON", "echo {d}", {"d": {"k": [None, "é"]}},
     "echo '{\"k\":[null,\"é\"]}'"),
    ("empty string", "echo {s}", {"s": ""}, "echo ''"),
    ("find's braces kept", "find . -exec rm {} \\;", {}, "find . -exec rm {} \\;"),
    ("brace expansion kept", "cp x{,.bak} {a,b}", {"a": 1}, "cp x{,.bak} {a,b}"),
    ("a group kept", "{ echo {x}; }", {"x": 1}, "{ echo 1; }"),
    ("shell parameters kept", 'echo ${x} "${x}" $x', {"x": "v"}, 'echo ${x} "${x}" $x'),
    ("backslash escapes a brace", "echo \\{x} \"\\{x}\"", {"x": "v"}, "echo \\{x} \"\\{x}\""),
    ("comment kept", "echo {x} # {x} {event}", {"x": "v"}, "echo v # {x} {event}"),
    ("# inside a word is no comment", "echo a#{x}", {"x": "v w"}, "echo a#'v w'"),
    ("escaped blank keeps the word", "echo a\\ #{x}", {"x": "v"}, "echo a\\ #v"),
    ("bare names in backquotes kept", "echo `echo {x}`", {"x": "v"}, "echo `echo {x}`"),
    ("command substitution filled", "echo $(basename {x})", {"x": "a b"},
     "echo $(basename 'a b')"),
    ("nested double quotes", 'echo "$(basename "{x}")"', {"x": "a b"},
     "echo \"$(basename \"\"'a b'\"\")\""),
    ("arithmetic kept", "echo $(( {n} + 1 ))", {"n": 2}, "echo $(( {n} + 1 ))"),
    ("here-string filled", "cat <<<{x}", {"x": "a b"}, "cat <<<'a b'"),
    ("here-document body kept", "cat <<-'E O'\n\t{x}\n\tE O\necho {x}", {"x": "v"},
     "cat <<-'E O'\n\t{x}\n\tE O\necho v"),
    ("after $'...' nothing is filled", "echo $'\\'' {x}", {"x": "v"}, "echo $'\\'' {x}"),
]


@pytest.mark.parametrize(("template", "args", "expected"),
                         [case[1:] for case in RENDER_CASES],
                         ids=[case[0] for case in RENDER_CASES])
def test_render(template: str, args: dict[str, Any], expected: str) -> None:
    assert render(template, **args) == expected


def test_none_for_tool_name_and_session_id_gives_empty() -> None:
    assert render_command("echo {tool_name} {session_id} {event}", event="Stop", tool_name=None,
                          session_id=None, tool_input={}) == "echo '' '' Stop"


def test_any_mapping_of_arguments() -> None:
    assert render_command("echo {x}", event="Stop", tool_name=None, session_id=None,
                          tool_input=MappingProxyType({"x": "a b"})) == "echo 'a b'"


def test_an_argument_that_is_not_json_is_a_value_error() -> None:
    loop: list[Any] = []
    loop.append(loop)
    with pytest.raises(ValueError, match="argument 'x' cannot be written as JSON"):
        render("echo {x}", x=loop)
    # Other objects are written as the JSON string of their str().
    assert render("echo {x}", x={1}) == "echo '\"{1}\"'"


@pytest.mark.parametrize(("template", "message"), [
    ("echo `{event}`", "{event} at offset 6 cannot be filled in backquotes"),
    ("cat <<EOF\n{tool_input[x]}\nEOF", "cannot be filled in a here-document body"),
    ("echo $(( {event} + 1 ))", r"cannot be filled in \$\(\(...\)\)"),
    ("(( {event} ))", r"cannot be filled in \(\(...\)\)"),
    ("echo ${x:-{event}}", r"cannot be filled after \$\{...\}"),
    ("echo $'a' {event}", r"cannot be filled after \$'...'"),
    ("echo $(case a in a) echo {event};; esac)", r"cannot be filled after case inside"),
    ("cat <<{event}\nx\n{event}", "cannot be filled in a here-document delimiter"),
    ("echo 'abc {event}", "unterminated '"),
    ('echo "abc', 'unterminated "'),
    ("echo $(ls", r"unterminated \)"),
    ("echo `ls", "unterminated `"),
])
def test_placeholders_that_cannot_be_filled_are_refused(template: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        check_command(template)
    with pytest.raises(ValueError, match=message):
        render(template)


@pytest.mark.parametrize("shell", SHELLS)
def test_the_scanner_reads_quotes_as_the_shell_does(shell: str, tmp_path: Path) -> None:
    """Templates whose quoting is easy to misread: the value must still arrive whole."""
    payload = "'\"$(touch pwned)`touch pwned`\n"
    cases = [
        ("printf '%s' \"it's {x}\"", "it's "),
        ("printf '%s' 'say \"{tool_input[x]}'", 'say "'),
        ("printf '%s' \"a\\\"{x}\"", 'a"'),
        ("printf '%s' \"a\\\\\"{x}", "a\\"),
        ("printf '%s' a\\'{x}", "a'"),
        ("printf '%s' \"$(printf '%s' ')')\"{x}", ")"),
        ("printf '%s' $(printf '%s' \\)){x}", ")"),
        ("printf '%s' \"$( (printf '%s' a) )\"{x}", "a"),
        ("printf '%s' \\\n{x}", ""),
    ]
    for template, before in cases:
        rendered = render_command(template, event="e", tool_name=None, session_id=None,
                                  tool_input={"x": payload})
        assert _run(shell, rendered, tmp_path) == before + payload, (template, rendered)
        assert not (tmp_path / "pwned").exists(), (template, rendered)
