"""Costly imports stay deferred: checked in a fresh interpreter, through `sys.modules`.

`agenthooks run` starts once per tool call of an agent, so its path must not import
jsonschema, rich or click for a valid file; rich is for terminals only.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from agenthooks.sources.reading.entries import RACY_NS

pytestmark = pytest.mark.program

REPO = Path(__file__).resolve().parent.parent

REPORT = (
    "import sys\n"
    "def costly(*roots):\n"
    "    return sorted(m for m in sys.modules if m.split('.')[0] in roots)\n"
)


def python(code: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    # A source checkout works without installing; an installed package is found either way.
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, check=False, timeout=60)


def last_line(done: subprocess.CompletedProcess[str]) -> object:
    assert "Traceback" not in done.stderr, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_version_imports_neither_jsonschema_nor_rich() -> None:
    code = (
        "import sys; from agenthooks.cli import main; main(['--version']); "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('jsonschema','rich')))"
    )
    done = python(code)
    assert done.returncode == 0, done.stderr
    version, modules = done.stdout.splitlines()
    assert version.startswith("agenthooks ")
    assert modules == "[]"


@pytest.mark.parametrize(
    "args",
    [
        ["list", "--format", "json"],
        ["list"],
        ["validate", "--format", "json"],
        ["validate"],
        ["validate", "--format", "github"],
    ],
)
def test_read_only_commands_do_not_import_rich_off_a_terminal(args: list[str],
                                                              samples: Path) -> None:
    argv = [*args, "--workspace", str(samples), "--no-user"]
    code = REPORT + (
        "from agenthooks.cli import main\n"
        f"code = main({argv!r})\n"
        "import json; print(json.dumps([code, costly('rich')]))\n"
    )
    done = python(code)
    assert done.returncode == 0, done.stderr
    assert last_line(done) == [0, []]


def test_loading_a_valid_file_imports_no_jsonschema_rich_or_click(samples: Path) -> None:
    code = REPORT + (
        "from agenthooks.sources.hooksjson.loader import load\n"
        "from agenthooks.sources.discovery import discover\n"
        f"(source,) = discover(workspaces=[{str(samples)!r}], no_user=True)\n"
        "hook_file = load(source)\n"
        "import json\n"
        "print(json.dumps([len(hook_file.handlers), costly('jsonschema', 'rich', 'click')]))\n"
    )
    done = python(code)
    assert done.returncode == 0, done.stderr
    assert last_line(done) == [5, []]


def test_rich_is_imported_to_render_on_a_terminal() -> None:
    # The other side of the contract: the terminal branch really is the rich one.
    code = REPORT + (
        "import io\n"
        "from agenthooks.report.table import render_table\n"
        "class Tty(io.StringIO):\n"
        "    def isatty(self): return True\n"
        "out = Tty()\n"
        "render_table(['A', 'B'], [['1', '[x]']], stream=out)\n"
        "import json; print(json.dumps(['[x]' in out.getvalue(), bool(costly('rich'))]))\n"
    )
    done = python(code)
    assert done.returncode == 0, done.stderr
    assert last_line(done) == [True, True]


def test_the_public_api_imports_no_costly_module() -> None:
    code = REPORT + (
        "from agenthooks import Hooks, Decision, EventResult, policy\n"
        "hooks = Hooks()\n"
        "hooks.on('PreToolUse', policy.enforce([policy.deny('run_command')]))\n"
        "result = hooks.run('PreToolUse', {'tool_name': 'run_command'})\n"
        "import json\n"
        "print(json.dumps([result.decision.kind,\n"
        "                  costly('asyncio', 'jsonschema', 'rich', 'click', 'signal',\n"
        "                         'threading')]))\n"
    )
    done = python(code)
    assert done.returncode == 0, done.stderr
    assert last_line(done) == ["deny", []]


def test_a_plain_run_imports_no_in_process_engine() -> None:
    code = REPORT + (
        "import io, sys\n"
        "sys.stdin = io.TextIOWrapper(io.BytesIO(b'{}'))\n"
        "from agenthooks.cli import main\n"
        "code = main(['run', 'Stop', '--no-user'])\n"
        "import json\n"
        "inproc = sorted(m for m in sys.modules if m in ('agenthooks.kinds.inprocess.call',\n"
        "    'agenthooks.kinds.inprocess.context', 'agenthooks.kinds.inprocess.frozen',\n"
        "    'agenthooks.kinds.policy',\n"
        "    'asyncio', 'uuid', 'jsonschema', 'rich', 'click'))\n"
        "print(json.dumps([code, inproc]))\n"
    )
    done = python(code)
    assert done.returncode == 0, done.stderr
    assert last_line(done) == [0, []]


def test_no_subprocess_until_a_handler_is_to_start() -> None:
    # Most tool calls match no command handler of most events: they pay for no spawning.
    code = REPORT + (
        "import io, sys\n"
        "sys.stdin = io.TextIOWrapper(io.BytesIO(b'{}'))\n"
        "from agenthooks.cli import main\n"
        "code = main(['run', 'Stop', '--no-user'])\n"
        "import json\n"
        "print(json.dumps([code, sorted(m for m in sys.modules\n"
        "    if m in ('subprocess', 'selectors', 'agenthooks.executor.process'))]))\n"
    )
    done = python(code)
    assert done.returncode == 0, done.stderr
    assert last_line(done) == [0, []]


def test_a_run_starting_a_handler_imports_no_subprocess_selectors_or_ctypes(
        tmp_path: Path) -> None:
    # Handlers start through posix_spawn and one poll loop; the subreaper's prctl goes
    # through the C module `_ctypes` alone.
    config = tmp_path / ".agents" / "hooks.json"
    config.parent.mkdir()
    config.write_text(json.dumps({"h": {"Stop": [{"command": "true"}]}}))
    code = REPORT + (
        "import io, sys\n"
        "sys.stdin = io.TextIOWrapper(io.BytesIO(b'{}'))\n"
        "from agenthooks.cli import main\n"
        f"code = main(['run', 'Stop', '--no-user', '--config', {str(config)!r}])\n"
        "import json\n"
        "print(json.dumps([code, 'agenthooks.executor.process' in sys.modules,\n"
        "    sorted(m for m in sys.modules if m in ('subprocess', 'selectors', 'ctypes'))]))\n"
    )
    done = python(code)
    assert done.returncode == 0, done.stderr
    assert last_line(done) == [0, True, []]


# One workspace of each source, the run that a tool call of a host makes in it.
MARKDOWN_HOOK = (
    "---\nevent: tool.pre\nwhen: payload[\"name\"] == \"run_command\"\nscript: |\n"
    "  def handle(event, payload):\n      return allow()\n---\n# h\n"
)
POLICY_MODULE = (
    "from agenthooks import Hooks, policy\nhooks = Hooks()\n"
    "hooks.on('PreToolUse', policy.enforce([policy.deny(f'tool_{i}') for i in range(10)]))\n"
)
WORKSPACES: dict[str, dict[str, str]] = {
    "hooks.json": {".agents/hooks.json": json.dumps(
        {"g": {"PreToolUse": [{"matcher": "run_command", "hooks": [{"command": "true"}]}]}})},
    "claude": {".claude/settings.json": json.dumps({"hooks": {"PreToolUse": [
        {"matcher": "Bash", "hooks": [{"type": "command", "command": "true"}]}]}})},
    # The matcher draws a warning, which the run places at its line: positions are read.
    "gemini": {".gemini/settings.json": json.dumps({"hooks": {"BeforeTool": [
        {"matcher": "run_shell_command", "hooks": [{"type": "command", "command": "true"}]}]}})},
    "markdown": {f".harness/hooks/h{i}.md": MARKDOWN_HOOK for i in range(3)},
    "python": {"policies.py": POLICY_MODULE},
}
# What no source's run path imports; `inspect` is the policies' own (async detection).
NEVER = ("typing", "dataclasses", "inspect", "pathlib", "subprocess", "selectors", "ctypes",
         "shutil", "shlex", "importlib", "jsonschema", "rich", "click", "asyncio", "signal",
         "threading")
ALLOWED = {"python": {"inspect", "importlib"}}
# A settings workspace loads its own host's dialect tables alone, and not the walker that
# checks files (a warm run's files come from the cache).
DIALECT_MODULES = {f"agenthooks.sources.dialects.{name}" for name in
                   ("check", "claude", "gemini", "cursor", "codex", "copilot", "convert")}
OWN_DIALECT = {"claude": "agenthooks.sources.dialects.claude",
               "gemini": "agenthooks.sources.dialects.gemini"}
# The templates of records wider than 28 fields: a host's `Dialect` is one, no record of a
# hooks.json, Markdown or Python run is (a 29th field of `HostRow` would load them on each).
WIDE = "agenthooks._lean.wide_records"


@pytest.mark.parametrize("kind", list(WORKSPACES))
def test_each_source_runs_without_costly_imports(kind: str, tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    for name, text in WORKSPACES[kind].items():
        (workspace / name).parent.mkdir(parents=True, exist_ok=True)
        (workspace / name).write_text(text)
    argv = ["run", "PreToolUse", "--no-user", "--workspace", str(workspace)]
    if kind == "python":
        argv += ["--python", "policies:hooks"]
    code = REPORT + (
        "import io, os, sys\n"
        f"os.chdir({str(workspace)!r})\n"
        "sys.stdin = io.TextIOWrapper(io.BytesIO(b'{\"toolCall\": {\"name\": \"run_command\","
        " \"args\": {\"CommandLine\": \"ls\"}}}'))\n"
        "from agenthooks.cli import main\n"
        f"code = main({argv!r})\n"
        "import json\n"
        f"dialects = sorted(m for m in sys.modules if m in {sorted(DIALECT_MODULES)!r})\n"
        f"print(json.dumps([code, costly(*{NEVER!r}), dialects, {WIDE!r} in sys.modules]))\n"
    )
    python(code)  # the first run fills the caches (writing one costs `tempfile`)
    done = python(code)
    assert done.returncode == 0, done.stderr
    code_, imported, dialects, wide = last_line(done)  # type: ignore[misc]
    assert code_ == 0, done.stderr
    assert wide is (kind in OWN_DIALECT), f"{WIDE} imported: {wide}"
    assert {m.split(".")[0] for m in imported} - ALLOWED.get(kind, set()) == set()
    assert dialects == ([OWN_DIALECT[kind]] if kind in OWN_DIALECT else [])


# What a warm Markdown run imports in neither of its processes (the run, and the one its hooks
# run in): starlark-pyo3 converts values through `json`, which is lent jsontext's codec there.
MARKDOWN_NEVER = ("json", "re", "enum", "typing", "dataclasses", "inspect", "pathlib", "yaml",
                  "hashlib", "tempfile", "asyncio", "threading", "signal")
MARKDOWN_PROGRAM = """
import os, sys
seen = os.open(sys.argv[1], os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
def audit(event, args):
    if event == "import":
        os.write(seen, f"{os.getpid()} {args[0]}\\n".encode())
sys.addaudithook(audit)
sys.argv = ["agenthooks", "run", "PreToolUse", "--no-user"]
from agenthooks.cli import program
program()
"""


def test_a_markdown_run_and_its_hooks_process_import_no_costly_module(tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    for name, text in WORKSPACES["markdown"].items():
        (workspace / name).parent.mkdir(parents=True, exist_ok=True)
        (workspace / name).write_text(text)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    log = tmp_path / "imports"
    stdin = '{"toolCall": {"name": "run_command", "args": {"CommandLine": "ls"}}}'
    for _ in range(2):  # the first run fills the caches
        log.unlink(missing_ok=True)
        done = subprocess.run([sys.executable, "-c", MARKDOWN_PROGRAM, str(log)], input=stdin,
                              capture_output=True, text=True, env=env, cwd=workspace,
                              check=False, timeout=60)
        assert done.returncode == 0, done.stderr
    imports = [line.split() for line in log.read_text().splitlines()]
    run = imports[0][0]
    assert {pid for pid, _ in imports} - {run}, "the hooks ran in a process of their own"
    assert sorted({m for _, m in imports if m.split(".")[0] in MARKDOWN_NEVER}) == []
    assert [m for pid, m in imports if pid == run and m.startswith("starlark")] == []


GC_PROBE = (
    "import gc, sys\nsys.stderr.write(f'collector on: {gc.isenabled()}\\n')\n"
    "from agenthooks import Hooks\nhooks = Hooks()\n"
)


def test_only_the_program_runs_without_the_cycle_collector(tmp_path: Path) -> None:
    # The program lives for one tool call; an embedding caller keeps its collector as it was.
    (tmp_path / "gcprobe.py").write_text(GC_PROBE)
    argv = ["run", "Stop", "--no-user", "--workspace", str(tmp_path), "--python", "gcprobe:hooks"]
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    program = subprocess.run([sys.executable, "-m", "agenthooks", *argv], input="{}",
                             capture_output=True, text=True, env=env, cwd=tmp_path,
                             check=False, timeout=60)
    assert program.returncode == 0, program.stderr
    assert "collector on: False" in program.stderr
    code = REPORT + (
        "import gc, io, os, sys\n"
        f"os.chdir({str(tmp_path)!r})\n"
        "sys.stdin = io.TextIOWrapper(io.BytesIO(b'{}'))\n"
        "from agenthooks.cli import main\n"
        f"code = main({argv!r})\n"
        "import json\n"
        "print(json.dumps([code, gc.isenabled()]))\n"
    )
    done = python(code)
    assert "collector on: True" in done.stderr
    assert last_line(done) == [0, True]



# What the program itself (bin/agenthooks, as installed) imports beyond the interpreter's own
# start, for a warm workspace of each host's own files whose matchers are plain names: none of
# the standard library's regular expressions, enum, functools, collections, contextlib or json
# (the program's JSON goes through `_json`, see agenthooks/_lean/jsontext.py), each of which costs a
# cold run more than the module that would use it; nor the checker or the cache's writer.
STDLIB_NEVER = ("re", "enum", "functools", "collections", "contextlib", "json", "fnmatch",
                "operator", "keyword", "reprlib", "copyreg", "hashlib", "tempfile")
WARM_NEVER = ("agenthooks.sources.reading.check", "agenthooks.sources.reading.cache",
              "agenthooks.sources.dialects.check",
              # a package of what is done beside running (convert...): its import alone
              # costs a run 0.2 %, so what a run reads lives elsewhere (`userconfig`)
              "agenthooks.features")


def imported_by(argv: list[str], cwd: Path, stdin: str) -> set[str]:
    """The modules `python -X importtime ARGV` imports beyond what `python -c pass` does."""
    def names(args: list[str]) -> set[str]:
        done = subprocess.run([sys.executable, "-X", "importtime", *args], input=stdin,
                              capture_output=True, text=True, cwd=cwd, check=False, timeout=60)
        assert "Traceback" not in done.stderr, done.stderr
        return {line.rsplit("|", 1)[1].strip() for line in done.stderr.splitlines()
                if line.startswith("import time:") and "|" in line
                and "imported package" not in line}
    return names(argv) - names(["-c", "pass"])


PROGRAM_KINDS = ("hooks.json", "claude", "gemini")


@pytest.fixture(scope="module")
def settled_workspaces(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A workspace of each kind whose files changed long enough ago for the caches to know
    them by their status (sources.reading.cache's RACY_NS), as a user's files are: one wait for
    all."""
    made = {}
    for kind in PROGRAM_KINDS:
        workspace = tmp_path_factory.mktemp(kind.replace(".", "-"))
        for name, text in WORKSPACES[kind].items():
            (workspace / name).parent.mkdir(parents=True, exist_ok=True)
            (workspace / name).write_text(text)
        made[kind] = workspace
    time.sleep(RACY_NS / 1e9 + 0.2)
    return made


@pytest.mark.parametrize("kind", PROGRAM_KINDS)
def test_the_program_imports_no_costly_standard_module(
        kind: str, settled_workspaces: dict[str, Path]) -> None:
    workspace = settled_workspaces[kind]
    argv = [str(REPO / "bin" / "agenthooks"), "run", "PreToolUse", "--no-user"]
    stdin = '{"toolCall": {"name": "run_command", "args": {"CommandLine": "ls"}}}'
    imported_by(argv, workspace, stdin)  # the first run fills the caches
    modules = imported_by(argv, workspace, stdin)
    assert "agenthooks.executor.process" in modules  # the handler did start
    assert sorted(m for m in modules if m.split(".")[0] in STDLIB_NEVER) == []
    assert sorted(m for m in modules if m in WARM_NEVER) == []
