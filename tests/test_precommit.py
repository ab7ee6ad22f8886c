"""The `agenthooks-validate` pre-commit hook, run by real pre-commit in a temporary git repo.

`pre-commit try-repo` installs this repository (its HEAD plus uncommitted changes) into an
environment of its own, the way a user's `.pre-commit-config.yaml` would, so this checks
`.pre-commit-hooks.yaml`, the package metadata and the console script together. It needs git
and the package registry; the environment is built once per session.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from agenthooks.cli.commands.init import WIRING
from agenthooks.sources.discovery import DIALECT_FILES
from agenthooks.sources.paths import hook_files_pattern, hook_folders_pattern

REPO = Path(__file__).resolve().parent.parent

GOOD = '{\n  "lint": {\n    "Stop": [{ "command": "make lint", "timeout": 60 }]\n  }\n}\n'
BAD = '{\n  "lint": {\n    "Stop": [{ "command": "make lint", "timeout": "60" }]\n  }\n}\n'


def _skip_reason() -> str | None:
    if shutil.which("git") is None:
        return "git is not installed"
    if importlib.util.find_spec("pre_commit") is None:
        return "pre-commit is not installed (pip install -e '.[test]')"
    inside = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--is-inside-work-tree"],
                            capture_output=True, text=True, check=False)
    if inside.stdout.strip() != "true":
        return f"{REPO} is not a git work tree, which pre-commit try-repo needs"
    if not (REPO / ".pre-commit-hooks.yaml").is_file():
        return ".pre-commit-hooks.yaml is missing"
    return None


@pytest.fixture(scope="module")
def pre_commit_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    reason = _skip_reason()
    if reason:
        pytest.skip(reason)
    return tmp_path_factory.mktemp("pre-commit-home")


def _env(home: Path, pre_commit_home: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)  # the hook must use what pre-commit installed, not this tree
    env.update({
        "HOME": str(home),
        "PRE_COMMIT_HOME": str(pre_commit_home),
        "GIT_AUTHOR_NAME": "agenthooks tests",
        "GIT_AUTHOR_EMAIL": "tests@agenthooks.invalid",
        "GIT_COMMITTER_NAME": "agenthooks tests",
        "GIT_COMMITTER_EMAIL": "tests@agenthooks.invalid",
        "GIT_CONFIG_NOSYSTEM": "1",
        "PRE_COMMIT_COLOR": "never",
    })
    return env


def _try_repo(project: Path, hooks_json: str, home: Path, pre_commit_home: Path,
              hook: str = "agenthooks-validate",
              files: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    env = _env(home, pre_commit_home)
    project.mkdir()
    subprocess.run(["git", "init", "-q", str(project)], check=True, env=env)
    (project / ".agents").mkdir()
    (project / ".agents" / "hooks.json").write_text(hooks_json, encoding="utf-8")
    (project / "notes.json").write_text("not even json", encoding="utf-8")  # not a hooks file
    for name, text in (files or {}).items():
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text(text, encoding="utf-8")
        if name.endswith(".sh"):
            (project / name).chmod(0o755)
    subprocess.run(["git", "add", "-A"], cwd=project, check=True, env=env)
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", "try-repo", str(REPO), hook, "--all-files"],
        cwd=project, env=env, capture_output=True, text=True, check=False, timeout=900,
    )


def test_good_file_passes(pre_commit_home: Path, home: Path, tmp_path: Path) -> None:
    done = _try_repo(tmp_path / "good", GOOD, home, pre_commit_home)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "agenthooks validate" in done.stdout and "Passed" in done.stdout


def test_bad_file_fails_with_the_rule(pre_commit_home: Path, home: Path, tmp_path: Path) -> None:
    done = _try_repo(tmp_path / "bad", BAD, home, pre_commit_home)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Failed" in done.stdout
    assert ".agents/hooks.json:3:51: error [timeout-invalid]" in done.stdout
    assert "notes.json" not in done.stdout


# --- the hooks' `files:`, from the host table ------------------------------------------------


def _manifest() -> dict[str, dict[str, object]]:
    import yaml

    hooks = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    return {hook["id"]: hook for hook in hooks}


def test_the_files_patterns_are_made_from_the_host_table() -> None:
    manifest = _manifest()
    assert manifest["agenthooks-validate"]["files"] == hook_files_pattern()
    assert manifest["agenthooks-test"]["files"] == hook_folders_pattern()


# Every file a wiring writes or names, and each host's own files, deeper in a repository too.
# (A whole file a wiring writes, OpenCode's plugin, is code, no hook file: validate skips it.)
# (A host's scripts, Cline's, are files of the wiring's folder, named after their event.)
WIRED = sorted({path for wiring in WIRING.values() for path in (wiring.settings, wiring.gates)
                if path != wiring.settings or (wiring.whole is None and wiring.scripts is None)}
               | {f"{wiring.settings}/{event.word}" for wiring in WIRING.values()
                  if wiring.scripts is not None for event in wiring.events}
               | {rel.replace(os.sep, "/") for _, rel in DIALECT_FILES})


@pytest.mark.parametrize("path", [*WIRED, *(f"sub/dir/{p}" for p in WIRED)])
def test_validate_is_handed_every_hook_file(path: str) -> None:
    files = str(_manifest()["agenthooks-validate"]["files"])
    assert re.search(files, path.replace("*", "gates")), path
    assert re.search(str(_manifest()["agenthooks-test"]["files"]), path.replace("*", "x")), path


@pytest.mark.parametrize("path", ["notes.json", ".agents/scripts/gate.json", ".github/ci.yml",
                                  ".github/hooks/x.json.bak", ".codex/other.toml"])
def test_other_files_are_not_hook_files(path: str) -> None:
    assert not re.search(str(_manifest()["agenthooks-validate"]["files"]), path)


def _snippet(page: str = "test.md") -> str:
    """The `.pre-commit-config.yaml` that a page of docs/ tells users to write."""
    text = (REPO / "docs" / page).read_text(encoding="utf-8")
    start = text.index("```yaml\n", text.index("<!-- checked by: tests/test_precommit.py -->"))
    return text[start + len("```yaml\n"):text.index("```", start + 3)]


@pytest.mark.parametrize("page", ["test.md", "validate.md"])
def test_the_documented_config_is_one_pre_commit_accepts(pre_commit_home: Path, home: Path,
                                                         tmp_path: Path, page: str) -> None:
    config = tmp_path / ".pre-commit-config.yaml"
    config.write_text(_snippet(page), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "pre_commit", "validate-config", str(config)],
                          env=_env(home, pre_commit_home), capture_output=True, text=True,
                          check=False, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    import yaml

    named = [hook["id"] for repo in yaml.safe_load(_snippet(page))["repos"]
             for hook in repo["hooks"]]
    assert named and set(named) <= set(_manifest())


def test_the_documented_config_runs_its_hooks(pre_commit_home: Path, home: Path,
                                             tmp_path: Path) -> None:
    """The snippet as a user writes it, its repository this checkout as committed: pre-commit
    installs it and runs both hooks."""
    import yaml

    env = _env(home, pre_commit_home)
    head = subprocess.run(["git", "-C", str(REPO), "rev-parse", "HEAD"], capture_output=True,
                          text=True, check=True, env=env).stdout.strip()
    config = yaml.safe_load(_snippet())
    config["repos"][0].update(repo=str(REPO), rev=head)
    project = tmp_path / "project"
    project.mkdir()
    subprocess.run(["git", "init", "-q", str(project)], check=True, env=env)
    (project / ".pre-commit-config.yaml").write_text(yaml.safe_dump(config), encoding="utf-8")
    (project / ".agents").mkdir()
    (project / ".agents" / "hooks.json").write_text(GOOD, encoding="utf-8")
    subprocess.run(["git", "add", "-A"], cwd=project, check=True, env=env)
    done = subprocess.run([sys.executable, "-m", "pre_commit", "run", "--all-files"],
                          cwd=project, env=env, capture_output=True, text=True, check=False,
                          timeout=900)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "agenthooks validate" in done.stdout and "agenthooks test" in done.stdout


# One error in each kind of file the validate hook covers, besides the hooks.json.
EVERY_KIND = {
    ".claude/settings.json": '{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": '
                             '[{"type": "command"}]}]}}\n',
    ".gemini/settings.json": '{"hooks": {"BeforeTool": [{"matcher": ".*", "hooks": '
                             '[{"type": "command", "command": "x", "timeout": "5"}]}]}}\n',
    ".harness/hooks/guard.md": "---\nevent: tool.pre\nscript: |\n  def handle(event):\n"
                               "      return allow()\n---\n",
    ".agents/tests/gate.hooktest.yaml": "cases:\n  - {name: x, event: Stop, expect: "
                                        "{decison: allow}}\n",
    ".cursor/hooks.json": '{"version": 1, "hooks": {"preToolUse": [{"command": "x", '
                          '"timeout": "5"}]}}\n',
    ".codex/hooks.json": '{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": '
                         '[{"type": "command"}]}]}}\n',
    ".github/hooks/agenthooks.json": '{"version": 1, "hooks": {"preToolUse": '
                                     '[{"type": "command", "bash": "x", "timeoutSec": "5"}]}}\n',
    ".agents/agenthooks.json": '{"gate": {"Stop": [{"command": "x", "timeout": "5"}]}}\n',
}


def test_validate_covers_every_kind_of_hook_file(pre_commit_home: Path, home: Path,
                                                 tmp_path: Path) -> None:
    done = _try_repo(tmp_path / "every", GOOD, home, pre_commit_home, files=EVERY_KIND)
    assert done.returncode == 1, done.stdout + done.stderr
    for name in EVERY_KIND:
        assert f"{name}:" in done.stdout, (name, done.stdout)
    assert ".agents/hooks.json" not in done.stdout  # a good file says nothing
    assert "starlark-handle-params" in done.stdout
    assert "fixture-unknown-key" in done.stdout


# `agenthooks-test`: a gate script, and fixtures that pin what it decides.
GATE_JSON = (
    '{"gate": {"PreToolUse": [{"matcher": "run_command",'
    ' "hooks": [{"command": "./scripts/gate.sh"}]}]}}\n'
)
GATE_FILES = {
    ".agents/scripts/gate.sh": "#!/bin/sh\ncat >/dev/null\necho 'no deletes' >&2\nexit 2\n",
}
GATE_FIXTURE = """\
cases:
  - name: the gate denies
    event: PreToolUse
    payload: {{toolCall: {{name: run_command, args: {{CommandLine: rm -rf /}}}}}}
    expect: {{decision: {decision}, reason: no deletes}}
"""


def test_agenthooks_test_passes(pre_commit_home: Path, home: Path, tmp_path: Path) -> None:
    files = {**GATE_FILES, ".agents/tests/gate.hooktest.yaml": GATE_FIXTURE.format(
        decision="deny")}
    done = _try_repo(tmp_path / "good", GATE_JSON, home, pre_commit_home, "agenthooks-test",
                     files)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "agenthooks test" in done.stdout and "Passed" in done.stdout


def test_agenthooks_test_fails_with_the_diff(pre_commit_home: Path, home: Path,
                                             tmp_path: Path) -> None:
    files = {**GATE_FILES, ".agents/tests/gate.hooktest.yaml": GATE_FIXTURE.format(
        decision="allow")}
    done = _try_repo(tmp_path / "bad", GATE_JSON, home, pre_commit_home, "agenthooks-test",
                     files)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Failed" in done.stdout
    assert ".agents/tests/gate.hooktest.yaml:2: the gate denies" in done.stdout
    assert 'expected "allow"' in done.stdout and 'actual   "deny"' in done.stdout
