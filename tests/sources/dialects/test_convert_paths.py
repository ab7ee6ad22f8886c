"""`agenthooks convert` moves commands between folders: a hooks.json handler runs in the
folder of its file, a Claude Code or Gemini CLI handler in the project root."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from agenthooks.features.convert import Place, place_of, rewrite_command, scan
from agenthooks.model.handlers import Handler, Source

ROOT = "/p"  # a project root that need not exist: the table below reads no files
FILES = {
    "antigravity": ".agents/hooks.json",
    "claude": ".claude/settings.json",
    "gemini": ".gemini/settings.json",
}


def handler(dialect: str, command: str) -> Handler:
    file = f"{ROOT}/{FILES[dialect]}"
    cwd = os.path.dirname(file) if dialect == "antigravity" else ROOT
    source = Source(path=file, file=file, workspace=ROOT, level="workspace", cwd=cwd,
                    dialect=dialect)
    return Handler(source=source, hook="h", event="Stop", matcher=None, command=command,
                   timeout=30, kind="command", enabled=True, pointer="/h/Stop/0",
                   dialect=dialect)


# (source, target, command, written): rewritten, nothing to report.
REWRITTEN = [
    # hooks.json -> the project root, on the host's project-dir variable.
    ("antigravity", "claude", "./scripts/gate.py", '"$CLAUDE_PROJECT_DIR"/.agents/scripts/gate.py'),
    ("antigravity", "gemini", "./scripts/gate.py", "$GEMINI_PROJECT_DIR/.agents/scripts/gate.py"),
    ("antigravity", "claude", "python3 ../.githooks/stop.py --fast",
     'python3 "$CLAUDE_PROJECT_DIR"/.githooks/stop.py --fast'),
    ("antigravity", "gemini", "node hook.js", "node $GEMINI_PROJECT_DIR/.agents/hook.js"),
    ("antigravity", "claude", "/usr/bin/env python3 x.py",
     '/usr/bin/env python3 "$CLAUDE_PROJECT_DIR"/.agents/x.py'),
    ("antigravity", "claude", "deno run -A x.ts", "deno run -A x.ts"),  # an option first
    ("antigravity", "gemini", "'./my scripts/gate.sh'",
     "$GEMINI_PROJECT_DIR/'.agents/my scripts/gate.sh'"),
    ("antigravity", "claude", "bash ../../shared/x.sh",
     'bash "$CLAUDE_PROJECT_DIR"/../shared/x.sh'),
    ("antigravity", "claude", '"$GEMINI_PROJECT_DIR"/tools/x.sh',
     '"$CLAUDE_PROJECT_DIR"/tools/x.sh'),
    # Between the two that run in the project root: the variable, written as each host
    # reads it; relative paths stay.
    ("claude", "gemini", "$CLAUDE_PROJECT_DIR/hooks/x.sh", "$GEMINI_PROJECT_DIR/hooks/x.sh"),
    ("claude", "gemini", '"$CLAUDE_PROJECT_DIR"/hooks/x.sh', "$GEMINI_PROJECT_DIR/hooks/x.sh"),
    ("claude", "gemini", '"${CLAUDE_PROJECT_DIR}"/x.sh', "$GEMINI_PROJECT_DIR/x.sh"),
    ("gemini", "claude", "python3 $GEMINI_PROJECT_DIR/x.py", 'python3 "$CLAUDE_PROJECT_DIR"/x.py'),
    ("gemini", "claude", 'x --root "$GEMINI_PROJECT_DIR" --log $GEMINI_PROJECT_DIR/log',
     'x --root "$CLAUDE_PROJECT_DIR" --log "$CLAUDE_PROJECT_DIR"/log'),
    ("claude", "gemini", 'x --root "$CLAUDE_PROJECT_DIR/a b"',
     'x --root "${GEMINI_PROJECT_DIR}/a b"'),
    ("claude", "gemini", "node .claude/hooks/x.js", "node .claude/hooks/x.js"),
    ("gemini", "claude", "cd sub && ./x.sh | tee log", "cd sub && ./x.sh | tee log"),
    # Found on PATH or absolute: the same from any folder.
    ("antigravity", "claude", "make lint", "make lint"),
    ("claude", "antigravity", "/opt/hooks/gate.sh --x", "/opt/hooks/gate.sh --x"),
    ("gemini", "antigravity", "~/bin/gate.sh", "~/bin/gate.sh"),
    ("claude", "antigravity", "python3 -m mypkg.hook", "python3 -m mypkg.hook"),
    ("antigravity", "gemini", "$HOME/bin/gate.sh", "$HOME/bin/gate.sh"),
]


# Into hooks.json a Claude Code or Gemini CLI handler keeps its host's payload and runs in
# the project root as before (`dialect`): every command is kept as written, unreported.
KEPT_IN_HOOKS_JSON = [
    ("gemini", "node .gemini/hooks/check.js"),
    ("claude", "./.claude/hooks/gate.sh"),
    ("claude", "python3 gate.py"),
    ("claude", '"$CLAUDE_PROJECT_DIR"/.agents/scripts/x.sh'),
    ("claude", "${CLAUDE_PROJECT_DIR}/.claude/hooks/x.sh"),
    ("gemini", "$GEMINI_PROJECT_DIR/.gemini/hooks/x.sh"),
    ("gemini", "sh $CLAUDE_PROJECT_DIR/x.sh"),
    ("claude", "cd tools && ./gate.sh"),
    ("gemini", "echo $(pwd)/x"),
    ("gemini", "./x.sh > out.log"),
    ("claude", "FOO=1 ./x.sh"),
    ("claude", "x --root $CLAUDE_PROJECT_DIR"),
]


@pytest.mark.parametrize(("source", "command"), KEPT_IN_HOOKS_JSON)
def test_a_command_moved_into_hooks_json_is_kept_as_written(source: str, command: str) -> None:
    rewritten = rewrite_command(handler(source, command), "antigravity",
                                place_of("antigravity", None, ROOT))
    assert rewritten == (command, (), False)


@pytest.mark.parametrize(("source", "target", "command", "written"), REWRITTEN)
def test_script_paths_run_from_the_new_folder(source: str, target: str, command: str,
                                              written: str) -> None:
    rewritten = rewrite_command(handler(source, command), target,
                                place_of(target, None, ROOT))
    assert (rewritten.command, rewritten.problems) == (written, ())


# (source, target, command, what the report says): kept as written, reported.
REPORTED = [
    ("antigravity", "claude", "cd tools && ./gate.sh", "uses shell syntax convert does not "
     "rewrite (&&): it is kept as written and will run in the project root instead of .agents/"),
    ("antigravity", "claude", "./a.sh | ./b.sh", "(|)"),
    ("antigravity", "gemini", "(cd x; ./y)", "(()"),
    ("antigravity", "gemini", "echo $(pwd)/x", "($()"),
    ("antigravity", "gemini", "./x.sh > out.log", "(>)"),
    ("antigravity", "claude", "FOO=1 ./x.sh", "(a variable assignment)"),
    ("antigravity", "claude", "$SCRIPTS/gate.sh", "the script path '$SCRIPTS/gate.sh' holds a "
     "variable or a pattern, so convert cannot tell where it points"),
    ("antigravity", "claude", "python3 hooks/*.py", "'hooks/*.py' holds a variable"),
    ("claude", "antigravity", "${CLAUDE_PLUGIN_ROOT}/x.sh", "$CLAUDE_PLUGIN_ROOT has no "
     "counterpart in hooks.json"),
    ("antigravity", "claude", "python3 gate.py ../data/x.json", "argument '../data/x.json' "
     "looks like a path relative to .agents/: it is kept as written and will be read from the "
     "project root"),
]


@pytest.mark.parametrize(("source", "target", "command", "said"), REPORTED)
def test_what_cannot_be_rewritten_is_kept_and_reported(source: str, target: str, command: str,
                                                       said: str) -> None:
    rewritten = rewrite_command(handler(source, command), target,
                                place_of(target, None, ROOT))
    assert any(said in problem for problem in rewritten.problems), rewritten.problems
    assert rewritten.command.split(maxsplit=1)[0] == command.split(maxsplit=1)[0]


def test_shell_syntax_between_root_folders_is_not_reported() -> None:
    rewritten = rewrite_command(handler("claude", "cd x && ./y.sh"), "gemini",
                                place_of("gemini", None, ROOT))
    assert rewritten == ("cd x && ./y.sh", (), False)


def test_a_hooks_json_elsewhere_gets_paths_for_its_own_folder(tmp_path: Path) -> None:
    place = place_of("antigravity", str(tmp_path / ".agent" / "hooks.json"), str(tmp_path))
    assert place == Place(str(tmp_path / ".agent" / "hooks.json"), ".agent", False)
    # A Gemini CLI handler keeps running in the project root there (`dialect`).
    rewritten = rewrite_command(handler("gemini", "node .gemini/hooks/check.js"),
                                "antigravity", place)
    assert rewritten.command == "node .gemini/hooks/check.js" and not rewritten.placed
    loose = place_of("antigravity", str(tmp_path / "hooks" / "all.json"), str(tmp_path))
    assert loose.folder == "hooks"
    assert place_of("claude", None, "/p") == Place("/p/.claude/settings.json", ".", True)


# (command, words, syntax)
SCANNED = [
    ("python3 ./x.py --a", ["python3", "./x.py", "--a"], None),
    ("'a b'/c \"d $E\" f\\ g", ["a b/c", "d $E", "f g"], None),
    ("a && b", ["a", "b"], "&&"),
    ("a 'x|y' \"#z\"", ["a", "x|y", "#z"], None),
    ("a # note", ["a"], "#"),
    ("a `b`", ["a", "`b`"], "`"),
    ("a 'b", ["a", "b"], "an unclosed quote"),
]


@pytest.mark.parametrize(("command", "words", "syntax"), SCANNED)
def test_scan(command: str, words: list[str], syntax: str | None) -> None:
    shell = scan(command)
    assert ([word.text for word in shell.words], shell.syntax) == (words, syntax)


def test_variables_in_single_quotes_are_not_variables() -> None:
    shell = scan("""x '$CLAUDE_PROJECT_DIR' "$CLAUDE_PROJECT_DIR" ${GEMINI_PROJECT_DIR}""")
    assert [(v.name, v.braced, v.quoted) for v in shell.variables] == [
        ("CLAUDE_PROJECT_DIR", False, True), ("GEMINI_PROJECT_DIR", True, False)]


# --- the real command -----------------------------------------------------------------------

MARKER = """#!/bin/sh
cat > /dev/null
pwd > "{out}"
echo '{{}}'
"""


def cli(script: Path, *args: str, payload: str | None = None,
        cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("GEMINI_", "CLAUDE_", "AGENTHOOKS_"))}
    return subprocess.run([str(script), *args], input=payload, capture_output=True, text=True,
                          cwd=cwd, env=env, check=False, timeout=60)


def test_a_gemini_hook_converted_into_hooks_json_finds_its_script(
        installed_agenthooks: Path, tmp_path: Path) -> None:
    hooks = tmp_path / ".gemini" / "hooks"
    hooks.mkdir(parents=True)
    ran = tmp_path / "ran.txt"
    (hooks / "check.sh").write_text(MARKER.format(out=ran))
    settings = tmp_path / ".gemini" / "settings.json"
    settings.write_text(json.dumps({"hooks": {"BeforeTool": [{
        "matcher": "run_shell_command",
        "hooks": [{"type": "command", "command": "sh .gemini/hooks/check.sh"}]}]}}))
    out = tmp_path / ".agents" / "agenthooks.json"
    out.parent.mkdir()
    done = cli(installed_agenthooks, "convert", str(settings), "--to", "antigravity",
               "-o", str(out))
    assert (done.returncode, done.stderr) == (0, "")
    (definition,) = json.loads(out.read_text()).values()
    assert definition["PreToolUse"][0]["hooks"][0] == {
        "command": "sh .gemini/hooks/check.sh", "dialect": "gemini", "timeout": 60}
    payload = json.dumps({"toolCall": {"name": "run_command", "args": {"CommandLine": "ls"}}})
    done = cli(installed_agenthooks, "run", "PreToolUse", "--config", str(out),
               payload=payload, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    # It runs where Gemini CLI ran it, the project root, not in .agents/.
    assert ran.read_text().strip() == str(tmp_path.resolve())


def test_a_hooks_json_handler_converted_for_claude_finds_its_script(
        installed_agenthooks: Path, tmp_path: Path) -> None:
    scripts = tmp_path / ".agents" / "scripts"
    scripts.mkdir(parents=True)
    ran = tmp_path / "ran.txt"
    (scripts / "gate.sh").write_text(MARKER.format(out=ran))
    (scripts / "gate.sh").chmod(0o755)
    hooks_json = tmp_path / ".agents" / "hooks.json"
    hooks_json.write_text(json.dumps({"gate": {"PreToolUse": [{
        "matcher": "run_command", "hooks": [{"type": "command", "command": "./scripts/gate.sh"}]
    }]}}))
    out = tmp_path / ".claude" / "settings.json"
    out.parent.mkdir()
    done = cli(installed_agenthooks, "convert", str(hooks_json), "--to", "claude", "-o", str(out))
    assert (done.returncode, done.stderr) == (0, "")
    written = json.loads(out.read_text())["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
    assert written == '"$CLAUDE_PROJECT_DIR"/.agents/scripts/gate.sh'
    hooks_json.unlink()  # only the converted file is left to run
    payload = json.dumps({"tool_name": "Bash", "tool_input": {"command": "ls"}})
    done = cli(installed_agenthooks, "run", "PreToolUse", "--workspace", str(tmp_path),
               "--no-user", payload=payload, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert ran.read_text().strip() == str(tmp_path.resolve())


LOSSY = {"h": {"Stop": [
    {"command": "cd tools && ./gate.sh"},
    {"command": "$SCRIPTS/gate.sh"},
    {"command": "python3 gate.py ../data/x.json"},
]}}


def test_lossy_commands_are_reported_at_their_place(installed_agenthooks: Path,
                                                    tmp_path: Path) -> None:
    hooks_json = tmp_path / ".agents" / "hooks.json"
    hooks_json.parent.mkdir()
    hooks_json.write_text(json.dumps(LOSSY, indent=1))
    done = cli(installed_agenthooks, "convert", str(hooks_json), "--to", "claude",
               cwd=tmp_path)
    assert (done.returncode, done.stdout) == (1, "")
    lines = done.stderr.splitlines()
    assert [line.split(": lossy: ")[0] for line in lines[:3]] == [
        f"{hooks_json}:5:16", f"{hooks_json}:8:16", f"{hooks_json}:11:16"]
    assert "(&&)" in lines[0] and "'$SCRIPTS/gate.sh'" in lines[1]
    assert "argument '../data/x.json'" in lines[2]
    assert lines[3].startswith("agenthooks: nothing written")
    done = cli(installed_agenthooks, "convert", str(hooks_json), "--to", "claude",
               "--lossy", cwd=tmp_path)
    assert done.returncode == 0
    document = json.loads(done.stdout)
    commands = [item["command"] for group in document["hooks"]["Stop"]
                for item in group["hooks"]]
    assert commands == ["cd tools && ./gate.sh", "$SCRIPTS/gate.sh",
                        "python3 \"$CLAUDE_PROJECT_DIR\"/.agents/gate.py ../data/x.json"]


def test_no_note_when_no_path_depends_on_the_place(installed_agenthooks: Path,
                                                   tmp_path: Path) -> None:
    settings = tmp_path / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(json.dumps({"hooks": {"Stop": [{"hooks": [
        {"type": "command", "command": "make lint"}]}]}}))
    done = cli(installed_agenthooks, "convert", str(settings), "--to", "antigravity")
    assert (done.returncode, done.stderr) == (0, "")
