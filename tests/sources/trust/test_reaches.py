"""Trust covers what every source's handlers run: a script edited after `agenthooks trust` does
not run under `--require-trust`, whichever file names it and however its command reaches it;
and what runs is the bytes that were hashed, even when the file changes during the run."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from tests.support import program

from .conftest import agenthooks_run

pytestmark = pytest.mark.program

# A script that leaves a mark named after itself in the workspace; the edit leaves another.
SCRIPT = 'touch "$AGENTHOOKS_WORKSPACE/ran-{name}"\n'
EDITED = 'touch "$AGENTHOOKS_WORKSPACE/ran-edited"\n'
PYTHON = ("import os, pathlib\n"
          "pathlib.Path(os.environ['AGENTHOOKS_WORKSPACE'], 'ran-{name}').touch()\n")
PYTHON_EDITED = ("import os, pathlib\n"
                 "pathlib.Path(os.environ['AGENTHOOKS_WORKSPACE'], 'ran-edited').touch()\n")
PAYLOAD = {"tool_name": "run_command", "tool_input": {"command": "ls"}}


def trust(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return program("trust", *args, cwd=root)


def hooks_json(command: str) -> str:
    return json.dumps({"h": {"Stop": [{"type": "command", "command": command}]}})


def settings(*handlers: dict[str, object], event: str = "Stop",
             **group: object) -> str:
    return json.dumps({"hooks": {event: [{"hooks": list(handlers), **group}]}})


def command(text: str, **extra: object) -> dict[str, object]:
    return {"type": "command", "command": text, **extra}


# (files of the workspace, the script the command reaches, --config given to run and trust)
CASES: dict[str, tuple[dict[str, str], str, tuple[str, ...]]] = {
    "claude settings": ({".claude/settings.json": settings(command(
        '"$CLAUDE_PROJECT_DIR"/.claude/hooks/gate.sh'))}, ".claude/hooks/gate.sh", ()),
    "claude local settings": ({".claude/settings.local.json": settings(command(
        "bash .claude/hooks/gate.sh"))}, ".claude/hooks/gate.sh", ()),
    "gemini settings": ({".gemini/settings.json": settings(command(
        "$GEMINI_PROJECT_DIR/.gemini/hooks/gate.sh"), event="AfterAgent")},
        ".gemini/hooks/gate.sh", ()),
    "exec-form args": ({".claude/settings.json": settings(command(
        "python3", args=["${CLAUDE_PROJECT_DIR}/tools/gate.py"]))}, "tools/gate.py", ()),
    "claude shell by path": ({".claude/settings.json": settings(command(
        "true && true", shell="./tools/myshell"))}, "tools/myshell", ()),
    "cd then ./x": ({".agents/hooks.json": hooks_json("cd ../tools && ./gate.sh")},
                    "tools/gate.sh", ()),
    "sh -c": ({".agents/hooks.json": hooks_json("sh -c 'cd .. && tools/gate.sh'")},
              "tools/gate.sh", ()),
    "wrappers": ({".agents/hooks.json": hooks_json("env X=1 timeout 5 nohup ../tools/gate.sh")},
                 "tools/gate.sh", ()),
    "python3 script": ({".agents/hooks.json": hooks_json("python3 -u ../tools/gate.py")},
                       "tools/gate.py", ()),
    "python -m package": ({".agents/hooks.json": hooks_json("cd .. && python3 -m pkg")},
                          "pkg/__main__.py", ()),
    # A hooks.json handler written for Claude Code runs in the project root (`dialect`).
    "hooks.json dialect": ({".agents/hooks.json": json.dumps({"h": {"Stop": [
        {"command": "bash .claude/hooks/gate.sh", "dialect": "claude"}]}})},
        ".claude/hooks/gate.sh", ()),
    "plugin hooks": ({"plugins/p/.claude-plugin/plugin.json": '{"name": "p"}',
                      "plugins/p/hooks/hooks.json": settings(command(
                          "${CLAUDE_PLUGIN_ROOT}/scripts/gate.sh"))},
                     "plugins/p/scripts/gate.sh", ("plugins/p/hooks/hooks.json",)),
}


def build(root: Path, files: dict[str, str], script: str) -> None:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    path = root / script
    path.parent.mkdir(parents=True, exist_ok=True)
    # A shell named by path (`myshell -c COMMAND`) is a script like any other.
    path.write_text(PYTHON.format(name="gate") if script.endswith(".py")
                    else "#!/bin/sh\n" + SCRIPT.format(name="gate"))
    path.chmod(0o755)
    (root / ".agents").mkdir(exist_ok=True)  # the workspace marker for discovery


@pytest.mark.parametrize("case", list(CASES))
def test_a_script_any_source_reaches_is_covered(tmp_path: Path, case: str) -> None:
    files, script, configs = CASES[case]
    root = tmp_path / "ws"
    build(root, files, script)
    options = [f"--config={c}" for c in configs]
    shown = json.loads(trust(root, "--show", "--format", "json", *options).stdout)
    assert script in [f["path"] for f in shown["workspaces"][0]["files"]], shown
    assert trust(root, *options).returncode == 0

    done = agenthooks_run("Stop", "--require-trust", *options, cwd=root)
    assert done.returncode == 0, done.stderr
    assert (root / "ran-gate").exists(), (done.stdout, done.stderr)

    (root / script).write_text(PYTHON_EDITED if script.endswith(".py")
                               else "#!/bin/sh\n" + EDITED)
    refused = agenthooks_run("Stop", "--require-trust", *options, cwd=root)
    assert not (root / "ran-edited").exists()
    assert f"{script} modified" in refused.stdout


def test_what_cannot_be_followed_is_shown(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    (root / ".agents").mkdir(parents=True)
    (root / ".agents" / "hooks.json").write_text(json.dumps({
        "a": {"Stop": [{"type": "command", "command": "PATH=./bin:$PATH gate"}]},
        "b": {"Stop": [{"type": "command", "command": "$GEMINI_CWD/x.sh"}]},
        "c": {"Stop": [{"type": "command", "command": "python3 -c 'import gate'"}]},
    }))
    shown = json.loads(trust(root, "--show", "--format", "json").stdout)
    assert shown["workspaces"][0]["notCovered"] == [
        {"what": "what is found through PATH, set in the command",
         "why": "named by hook 'a' in .agents/hooks.json"},
        {"what": "`$GEMINI_CWD/x.sh`, a command known only at run time",
         "why": "named by hook 'b' in .agents/hooks.json"},
        {"what": "what `python3 -c` code imports or runs",
         "why": "named by hook 'c' in .agents/hooks.json"},
    ]
    assert "programs found on PATH" in shown["neverCovered"]
    text = trust(root, "--show").stdout
    assert ("not covered: what is found through PATH, set in the command (named by hook 'a' "
            "in .agents/hooks.json)\n") in text
    assert "never covered: programs found on PATH" in text


# --- the bytes hashed are the bytes run ----------------------------------------------------

SWAP = """#!/bin/sh
cat > "$GEMINI_PROJECT_DIR/.gemini/hooks/gate.sh" <<'EOF'
#!/bin/sh
touch "$GEMINI_PROJECT_DIR/ran-swapped"
EOF
"""


def test_a_script_swapped_after_the_check_is_not_what_runs(tmp_path: Path) -> None:
    # Gemini CLI's sequential group runs its handlers one after the other: the first, trusted,
    # rewrites the second's script after the check and before it starts, every time.
    root = tmp_path / "ws"
    hooks = root / ".gemini" / "hooks"
    hooks.mkdir(parents=True)
    (hooks / "swap.sh").write_text(SWAP)
    (hooks / "gate.sh").write_text('#!/bin/sh\ntouch "$GEMINI_PROJECT_DIR/ran-gate"\n')
    (root / ".gemini" / "settings.json").write_text(settings(
        command("sh .gemini/hooks/swap.sh"), command("sh .gemini/hooks/gate.sh"),
        event="AfterAgent", sequential=True))
    assert trust(root).returncode == 0
    done = agenthooks_run("Stop", "--require-trust", cwd=root)
    assert done.returncode == 0, done.stderr
    assert "ran-swapped" in (hooks / "gate.sh").read_text()  # the swap happened
    assert (root / "ran-gate").exists() and not (root / "ran-swapped").exists()


def test_a_copy_finds_its_siblings_from_its_own_path(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    hooks = root / ".claude" / "hooks"
    hooks.mkdir(parents=True)
    (hooks / "lib.sh").write_text('mark() { touch "$CLAUDE_PROJECT_DIR/ran-$1"; }\n')
    (hooks / "gate.sh").write_text('. "$(dirname "$0")/lib.sh"\nmark shell\n')
    (hooks / "helper.py").write_text("NAME = 'python'\n")
    (hooks / "gate.py").write_text("import os, pathlib, helper\n"
                                   "pathlib.Path(os.environ['CLAUDE_PROJECT_DIR'],"
                                   " 'ran-' + helper.NAME).touch()\n")
    (root / ".claude" / "settings.json").write_text(settings(
        command("sh .claude/hooks/gate.sh"), command("python3 .claude/hooks/gate.py")))
    assert trust(root).returncode == 0
    done = agenthooks_run("Stop", "--require-trust", cwd=root)
    assert done.returncode == 0, done.stderr
    assert (root / "ran-shell").exists() and (root / "ran-python").exists(), done.stdout
    # Neither sibling is covered (the scripts load them by themselves): the record says so.
    record = json.loads(trust(root, "--show", "--format", "json").stdout)["workspaces"][0]
    assert [f["path"] for f in record["files"]] == [
        ".claude/hooks/gate.py", ".claude/hooks/gate.sh", ".claude/settings.json"]


def test_copies_are_private_and_gone_when_the_run_ends(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    hooks = root / ".claude" / "hooks"
    hooks.mkdir(parents=True)
    (hooks / "where.sh").write_text('echo "$0" > "$CLAUDE_PROJECT_DIR/where"\n'
                                    'stat -c %a "$(dirname "$0")" >> "$CLAUDE_PROJECT_DIR/where"\n')
    (root / ".claude" / "settings.json").write_text(settings(command(
        "bash .claude/hooks/where.sh")))
    assert trust(root).returncode == 0
    agenthooks_run("Stop", "--require-trust", cwd=root)
    copy, mode = (root / "where").read_text().split()
    assert copy.endswith("/.claude/hooks/where.sh") and not copy.startswith(str(root))
    assert mode == "700"
    assert not os.path.exists(copy)


def test_copies_a_killed_run_left_are_removed_by_the_next(tmp_path: Path) -> None:
    # A run killed outright (SIGKILL at a host's timeout) cannot remove its copy folder: the
    # next run that makes copies removes the folders of runs that are gone, and only those.
    runtime = tmp_path / "runtime"
    runtime.mkdir(mode=0o700)
    dead_pid = _a_pid_no_process_has()
    stale = runtime / f"agenthooks-trusted-{dead_pid}-abc"
    live = runtime / f"agenthooks-trusted-{os.getpid()}-def"
    other = runtime / "agenthooks-trusted-notapid"
    for folder in (stale, live, other):
        (folder / "ws").mkdir(parents=True)
    root = tmp_path / "ws"
    hooks = root / ".claude" / "hooks"
    hooks.mkdir(parents=True)
    (hooks / "gate.sh").write_text("true\n")
    (root / ".claude" / "settings.json").write_text(settings(command(
        "bash .claude/hooks/gate.sh")))
    assert trust(root).returncode == 0
    done = agenthooks_run("Stop", "--require-trust", cwd=root,
                          env={"XDG_RUNTIME_DIR": str(runtime)})
    assert done.returncode == 0, done.stderr
    assert not stale.exists()
    assert live.exists() and other.exists()
    assert sorted(p.name for p in runtime.iterdir()) == sorted([live.name, other.name])


def _a_pid_no_process_has() -> int:
    process = subprocess.Popen(["true"])
    process.wait()
    return process.pid
