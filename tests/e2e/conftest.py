"""End-to-end runs of the real host CLIs (Claude Code, Gemini CLI, Codex, GitHub Copilot CLI,
Qwen Code, Mistral Vibe, Grok Build, OpenCode, Goose, Cline), with agenthooks as their one
hook.

Each run copies a workspace to a temporary folder, wires agenthooks into the host's settings as
README.md shows, and starts the host headless (`-p`, Codex's `exec`) against a fake model server
on 127.0.0.1 (fake_models.py) that plays a scripted conversation and records every request.
Tests then look at what the host did (files, the stream it printed) and at what reached the
model.

The hosts come from scripts/install-hosts (versions pinned in hosts.json, installed once into the
checkout's .cache/hosts): the npm ones together (`host_bins`), Mistral Vibe from PyPI on its own
(`vibe_bins`: it needs a Python >= 3.12 the others do not), Grok Build from npm on its own too
(`grok_bins`: a 166 MB native binary the others' tests need not wait for), OpenCode likewise
(`opencode_bins`: a 185 MB one, and agenthooks runs from its plugin), Goose
(`goose_bins`: a 300 MB one), Cline (`cline_bins`: a 150 MB one). Without npm, PyPI,
such a Python or a working CLI, the tests of those hosts are skipped, never failed. Where the
machine allows it, each run happens in its own network namespace holding only loopback
(`unshare -rn`) and its own PID namespace, so nothing can leave the machine and nothing the host
or a hook started outlives the run; otherwise plain loopback, as the summary line says.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.fake_models import side_request

E2E = Path(__file__).resolve().parent
REPO = E2E.parent.parent
INSTALLER = REPO / "scripts" / "install-hosts"
FAKE_MODELS = E2E / "fake_models.py"

# The model each host is told to use: with -m, Gemini CLI sends no routing request first.
GEMINI_MODEL = "gemini-2.5-flash"
CODEX_MODEL = "gpt-5.1-codex"
COPILOT_MODEL = "gpt-4.1"
QWEN_MODEL = "qwen3-coder-plus"
VIBE_MODEL = "fake-model"
GROK_MODEL = "fake-model"
OPENCODE_MODEL = "fake-model"
GOOSE_MODEL = "gpt-4o"
CLINE_MODEL = "fake-model"
# One host run: a few seconds normally; the bound only matters when something hangs.
RUN_TIMEOUT = 90
INSTALL_TIMEOUT = 900

_isolation: dict[str, Any] = {"mode": None, "runs": 0}


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "e2e: drives the real Claude Code / Gemini CLI / Codex against fake model servers")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if E2E in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.e2e)
            item.add_marker(pytest.mark.program)  # the hosts run the agenthooks command


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if _isolation["runs"]:
        terminalreporter.write_line(
            f"e2e: {_isolation['runs']} host runs; isolation: {_isolation['mode']}")


# -- Installing and checking the hosts ---------------------------------------------------------


def scratch_env(root: Path) -> dict[str, str]:
    """An environment whose home, caches and temporary files all live under root."""
    home = root / "home"
    for sub in ("home", "home/.config", "home/.cache", "home/.local/share", "home/.local/state",
                "tmp", "npm-cache"):
        (root / sub).mkdir(parents=True, exist_ok=True)
    env = {
        "PATH": os.environ.get("PATH", "/usr/local/bin:/usr/bin:/bin"),
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "XDG_CACHE_HOME": str(home / ".cache"),
        "XDG_DATA_HOME": str(home / ".local/share"),
        "XDG_STATE_HOME": str(home / ".local/state"),
        "TMPDIR": str(root / "tmp"),
        "npm_config_cache": str(root / "npm-cache"),
        "LANG": "C.UTF-8",
        "NO_COLOR": "1",
    }
    # npm's and pip's settings given in the environment (a mirror, a CA file) still apply, and
    # pyenv's root tells install-hosts where a Python for a PyPI host may be.
    passed = ("NODE_EXTRA_CA_CERTS", "INSTALL_HOSTS_CACHE", "INSTALL_HOSTS_TIMEOUT", "PYENV_ROOT")
    for key, value in os.environ.items():
        npm_setting = key.lower().startswith("npm_config_") and key != "npm_config_cache"
        if npm_setting or key.startswith("PIP_") or key in passed:
            env[key] = value
    return env


# The npm hosts installed and checked apart from the others (each by a fixture of its own).
APART = ("grok", "opencode", "goose-binary-linux-x64", "cline")


def install_hosts(root: Path, registry: str, only: tuple[str, ...] = ()) -> dict[str, str]:
    """{"<bin>": path} of the hosts.json packages from one registry (those of `only`, else all
    but APART's), installed once; skips the caller when that fails."""
    pins = json.loads((E2E / "hosts.json").read_text("utf-8"))["packages"]
    names = [pin["bin"] for pin in pins.values() if pin.get("registry", "npm") == registry
             and (pin["bin"] in only if only else pin["bin"] not in APART)]
    env = scratch_env(root)
    try:
        done = subprocess.run([sys.executable, str(INSTALLER), "--json", *names], env=env,
                              capture_output=True, text=True, timeout=INSTALL_TIMEOUT,
                              stdin=subprocess.DEVNULL, check=False)
    except subprocess.TimeoutExpired:
        pytest.skip(f"e2e: scripts/install-hosts took over {INSTALL_TIMEOUT} s")
    if done.returncode != 0:
        lines = [ln for ln in done.stderr.splitlines() if ln.strip()]
        pytest.skip(f"e2e: host CLIs unavailable: {lines[-1] if lines else 'install failed'}")
    bins: dict[str, str] = json.loads(done.stdout.strip().splitlines()[-1])
    for name, path in bins.items():
        try:
            version = subprocess.run([path, "--version"], env=env, capture_output=True,
                                     text=True, timeout=60, stdin=subprocess.DEVNULL,
                                     check=False, start_new_session=True)
        except (OSError, subprocess.TimeoutExpired) as error:
            pytest.skip(f"e2e: {name} cannot start: {error}")
        if version.returncode != 0:
            pytest.skip(f"e2e: {name} --version exited {version.returncode}: "
                        f"{version.stderr.strip()[:200]}")
    return bins


@pytest.fixture(scope="session")
def host_bins(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """{"claude": path, "gemini": path, ...}: the npm hosts, installed once; skips the suites
    that drive them when that fails."""
    return install_hosts(tmp_path_factory.mktemp("install"), "npm")


@pytest.fixture(scope="session")
def vibe_bins(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """{"vibe": path}: Mistral Vibe from PyPI in a venv of its own, installed once; skips its
    tests when that fails (no PyPI, no Python >= 3.12)."""
    return install_hosts(tmp_path_factory.mktemp("install-pypi"), "pypi")


@pytest.fixture(scope="session")
def grok_bins(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """{"grok": path}: Grok Build from npm, installed once on its own; skips its tests when that
    fails. Its package's install script points `grok` at the native binary it unpacks beside
    it; without that (install scripts off), every run would unpack 166 MB into its GROK_HOME."""
    bins = install_hosts(tmp_path_factory.mktemp("install-grok"), "npm", only=("grok",))
    if not os.path.realpath(bins["grok"]).endswith("grok-native"):
        pytest.skip("e2e: grok's install script did not unpack its binary (npm ignore-scripts?)")
    return bins


@pytest.fixture(scope="session")
def opencode_bins(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """{"opencode": path}: OpenCode from npm, installed once on its own (its package's
    optional dependency `opencode-linux-x64` holds the binary, also from npm); skips its tests
    when that fails."""
    return install_hosts(tmp_path_factory.mktemp("install-opencode"), "npm", only=("opencode",))


@pytest.fixture(scope="session")
def goose_bins(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """{"goose": path}: Goose from npm (@aaif/goose-binary-linux-x64, the binary in the
    package, its bin named after the package), installed once on its own; skips its tests when
    that fails (no npm, another platform)."""
    bins = install_hosts(tmp_path_factory.mktemp("install-goose"), "npm",
                         only=("goose-binary-linux-x64",))
    return {"goose": bins["goose-binary-linux-x64"]}


@pytest.fixture(scope="session")
def cline_bins(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """{"cline": path}: Cline's CLI from npm (`cline`, its binary in the optional dependency
    `@cline/cli-linux-x64`, also from npm), installed once on its own; skips its tests when
    that fails."""
    return install_hosts(tmp_path_factory.mktemp("install-cline"), "npm", only=("cline",))


def agenthooks_bin_dir() -> Path:
    """The folder whose agenthooks the hosts run: AGENTHOOKS_E2E_BIN_DIR (to try another build),
    else this checkout's venv, else pytest's own."""
    chosen = os.environ.get("AGENTHOOKS_E2E_BIN_DIR")
    candidates = [Path(chosen)] if chosen else [REPO / ".venv" / "bin", Path(sys.executable).parent]
    for folder in candidates:
        if os.access(folder / "agenthooks", os.X_OK):
            return folder
    # agenthooks is what is under test: its absence is a failure, not a reason to skip.
    pytest.fail(f"no agenthooks executable in {', '.join(map(str, candidates))}")


def probe_isolation() -> list[str]:
    """The command prefix that puts a run in fresh network and PID namespaces, or [] for none.

    AGENTHOOKS_E2E_NETNS=0 asks for plain loopback, to try the fallback where namespaces work.
    """
    unshare = shutil.which("unshare")
    if unshare is None or os.environ.get("AGENTHOOKS_E2E_NETNS") == "0":
        return []
    check = [sys.executable, "-c",
             f"import sys; sys.path.insert(0, {str(E2E)!r}); import fake_models; "
             "fake_models.loopback_up()"]
    for prefix in ([unshare, "-rn", "-pf", "--kill-child"], [unshare, "-rn", "-pf"],
                   [unshare, "-rn"]):
        with contextlib.suppress(OSError, subprocess.TimeoutExpired):
            if subprocess.run(prefix + check, capture_output=True, timeout=30,
                              check=False).returncode == 0:
                return prefix
    return []


@pytest.fixture(scope="session")
def isolation() -> list[str]:
    prefix = probe_isolation()
    if prefix:
        pid = " and PID" if "-pf" in prefix else ""
        _isolation["mode"] = f"network{pid} namespace with only loopback ({' '.join(prefix[1:])})"
    elif os.environ.get("AGENTHOOKS_E2E_NETNS") == "0":
        _isolation["mode"] = "plain loopback (AGENTHOOKS_E2E_NETNS=0)"
    else:
        _isolation["mode"] = "plain loopback (unshare is missing or not permitted here)"
    return prefix


# -- Workspaces --------------------------------------------------------------------------------


def readme_wiring() -> dict[str, dict[str, Any]]:
    """The settings the docs tell users to write: {"claude": {...}, "gemini": {...}, ...}."""
    section = (REPO / "docs" / "hosts.md").read_text(encoding="utf-8")
    wiring = {}
    for host, lead in (("claude", "Claude Code, in `.claude/settings.json`"),
                       ("gemini", "Gemini CLI, in `.gemini/settings.json`"),
                       ("codex", "Codex, in `.codex/hooks.json`"),
                       ("copilot", "GitHub Copilot CLI, in `.github/hooks/agenthooks.json`")):
        after = section.split(lead, 1)[1]
        block = re.search(r"```json\n(.*?)\n```", after, re.S)
        assert block, f"README.md shows no JSON after {lead!r}"
        wiring[host] = json.loads(block.group(1))
    return wiring


def with_option(settings: dict[str, Any], option: str) -> dict[str, Any]:
    """The settings with option added to every agenthooks command."""
    copy = json.loads(json.dumps(settings))
    for groups in copy["hooks"].values():
        for group in groups:
            # Copilot's files list handlers flat, their command under `bash`.
            for handler in group.get("hooks", [group]):
                key = "bash" if "bash" in handler else "command"
                if handler[key].startswith("agenthooks run "):
                    handler[key] += f" {option}"
    return copy


def add_hooks(settings: dict[str, Any], extra: dict[str, list[Any]]) -> dict[str, Any]:
    """The settings with extra hook groups appended to their events."""
    copy = json.loads(json.dumps(settings))
    for event, groups in extra.items():
        copy["hooks"].setdefault(event, []).extend(groups)
    return copy


def write_json(path: Path, data: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


def write_script(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    path.chmod(0o755)


# -- Running a host ----------------------------------------------------------------------------


@dataclass
class HostRun:
    host: str
    workspace: Path
    result: dict[str, Any]
    events: list[dict[str, Any]] = field(default_factory=list)

    @property
    def main_requests(self) -> list[dict[str, Any]]:
        """The agent's own model calls (those offering tools, but Grok Build's title and turn
        summary requests: `fake_models.side_request`), in order."""
        return [r["body"] for r in self.result["requests"]
                if isinstance(r["body"], dict) and r["body"].get("tools")
                and not side_request(r["body"])]

    def tool_results(self, request: dict[str, Any]) -> list[dict[str, Any]]:
        """The tool outcomes a model request carries: [{"error": bool, "text": str}]."""
        own = {"codex": codex_tool_results, "goose": goose_tool_results}.get(self.host)
        if own is not None:
            return own(request)
        if self.host in SHELL_SUCCESS:
            return chat_tool_results(request, SHELL_SUCCESS[self.host])
        found = []
        if self.host == "claude":
            for message in request.get("messages", ()):
                for block in message.get("content", ()) if isinstance(
                        message.get("content"), list) else ():
                    if block.get("type") == "tool_result":
                        found.append({"error": bool(block.get("is_error")),
                                      "text": flatten(block.get("content"))})
        else:
            for content in request.get("contents", ()):
                for part in content.get("parts", ()):
                    response = part.get("functionResponse")
                    if response:
                        body = response.get("response", {})
                        found.append({"error": "error" in body, "text": flatten(body)})
        return found

    def prompt_text(self, request: dict[str, Any]) -> str:
        """Everything the request says apart from the tool definitions, as one string."""
        visible = {k: v for k, v in request.items() if k not in ("tools", "system",
                                                                 "systemInstruction",
                                                                 "instructions")}
        return json.dumps(visible)

    def describe(self) -> str:
        """For assertion messages: how the run ended and the tail of its output."""
        r = self.result
        return (f"{self.host} exit {r['returncode']} after {r['seconds']} s"
                f"{' (timed out)' if r['timed_out'] else ''}; {len(self.main_requests)} model "
                f"calls\n--- stdout tail\n{r['stdout'][-3000:]}\n--- stderr tail\n"
                f"{r['stderr'][-2000:]}")


def codex_tool_results(request: dict[str, Any]) -> list[dict[str, Any]]:
    """Responses API input items; Codex marks no failure, so a call counts as failed unless
    its process exited 0."""
    found = []
    for item in request.get("input", ()):
        if item.get("type") == "function_call_output":
            text = flatten(item.get("output"))
            found.append({"error": "exited with code 0" not in text, "text": text})
    return found


# How a Chat Completions host's shell tool says, in its result, that the command exited 0.
# Mistral Vibe sends its result as JSON, or as text once a hook added a block to it.
# Grok Build's run_terminal_command result starts with its exit line.
SHELL_SUCCESS = {"copilot": ("exit code 0>",), "qwen": ("Exit Code: 0\n",),
                 "vibe": ('"returncode":0,', "\nreturncode: 0\n"), "grok": ("exit: 0\n",)}


def chat_tool_results(request: dict[str, Any], ran: tuple[str, ...]) -> list[dict[str, Any]]:
    """Chat Completions `tool` messages; the API marks no failure, so a call counts as failed
    unless the host's shell reported exit code 0 (`ran`: the ways it says so)."""
    found = []
    for message in request.get("messages", ()):
        if message.get("role") == "tool":
            text = flatten(message.get("content"))
            found.append({"error": not any(said in text for said in ran), "text": text})
    return found


def goose_tool_results(request: dict[str, Any]) -> list[dict[str, Any]]:
    """Goose's `tool` messages: its shell's output ("(no output)" for none), "Command exited
    with code N" after it on a failure, "The tool call returned the following error:" before a
    denied or failed call (measured with goose 1.52.0)."""
    found = []
    for message in request.get("messages", ()):
        if message.get("role") == "tool":
            text = flatten(message.get("content"))
            failed = (text.startswith("The tool call returned the following error")
                      or "Command exited with code" in text)
            found.append({"error": failed, "text": text})
    return found


def flatten(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return "\n".join(flatten(v) for v in value)
    if isinstance(value, dict):
        if "text" in value and isinstance(value["text"], str):
            return value["text"]
        return json.dumps(value)
    return "" if value is None else str(value)


class Hosts:
    """Starts host runs for one test; every run ends (or is killed) before the test does."""

    def __init__(self, bins: dict[str, str], isolation: list[str], tmp_path: Path) -> None:
        self.bins = bins
        self.isolation = isolation
        self.tmp_path = tmp_path
        self.count = 0
        self.live: list[subprocess.Popen[bytes]] = []

    def run(self, host: str, workspace: Path, prompt: str, script: list[dict[str, Any]],
            extra_args: tuple[str, ...] = (), bypass_hook_trust: bool = True,
            before: Callable[[dict[str, str]], None] | None = None) -> HostRun:
        """One headless run; bypass_hook_trust (Codex only) runs hooks nobody trusted yet;
        `before` is called with the run's environment once its home is set up."""
        self.count += 1
        root = self.tmp_path / f"run{self.count}-{host}"
        env = scratch_env(root)
        home = Path(env["HOME"])
        env["PATH"] = f"{agenthooks_bin_dir()}{os.pathsep}{env['PATH']}"
        # The fake server is also the proxy: any connection leaving the machine is recorded
        # and refused instead of silently reaching the internet.
        for key in ("HTTPS_PROXY", "HTTP_PROXY", "https_proxy", "http_proxy"):
            env[key] = "{URL}"
        env["NO_PROXY"] = env["no_proxy"] = "127.0.0.1,localhost"
        argv = self.command(host, workspace, prompt, env, extra_args, bypass_hook_trust)
        if before is not None:
            before(env)
        spec = {"host": host, "argv": argv, "env": env, "cwd": str(workspace),
                "script": script, "timeout": RUN_TIMEOUT, "netns": bool(self.isolation),
                # Files whose {URL} the runner fills in: Vibe and Grok Build take their
                # provider from a file.
                "url_files": [str(home / URL_FILES[host])] if host in URL_FILES else [],
                "result": str(root / "result.json")}
        spec_file = root / "spec.json"
        write_json(spec_file, spec)
        process = subprocess.Popen([*self.isolation, sys.executable, str(FAKE_MODELS),
                                    str(spec_file)], stdin=subprocess.DEVNULL,
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                   start_new_session=True)
        self.live.append(process)
        try:
            output, _ = process.communicate(timeout=RUN_TIMEOUT + 30)
        except subprocess.TimeoutExpired:
            self.kill(process)
            pytest.fail(f"{host} run did not end within {RUN_TIMEOUT + 30} s")
        _isolation["runs"] += 1
        result_file = root / "result.json"
        assert result_file.exists(), (f"the runner wrote no result (exit {process.returncode}):"
                                      f"\n{output.decode('utf-8', 'replace')[-3000:]}")
        result = json.loads(result_file.read_text(encoding="utf-8"))
        events = []
        for line in result["stdout"].splitlines():
            with contextlib.suppress(ValueError):
                events.append(json.loads(line))
        run = HostRun(host, workspace, result, events)
        assert not result["timed_out"], run.describe()
        return run

    def command(self, host: str, workspace: Path, prompt: str, env: dict[str, str],
                extra_args: tuple[str, ...], bypass_hook_trust: bool) -> list[str]:
        """The host's headless command line; sets up its environment and home for it."""
        home = Path(env["HOME"])
        if host == "claude":
            env.update({
                "ANTHROPIC_BASE_URL": "{URL}",
                "ANTHROPIC_API_KEY": "sk-ant-e2e-fake-key",
                "CLAUDE_CONFIG_DIR": str(home / ".claude"),
                "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
                "DISABLE_TELEMETRY": "1",
                "DISABLE_AUTOUPDATER": "1",
                "DISABLE_ERROR_REPORTING": "1",
                # bypassPermissions refuses to start as root outside a declared sandbox.
                "IS_SANDBOX": "1",
            })
            argv = [self.bins["claude"], "-p", prompt, "--output-format", "stream-json",
                    "--verbose", "--include-hook-events",
                    "--permission-mode", "bypassPermissions", *extra_args]
        elif host == "codex":
            env.update(codex_env(home))
            write_codex_config(home, workspace)
            argv = [self.bins["codex"], "exec", "--json", "--skip-git-repo-check",
                    "--dangerously-bypass-approvals-and-sandbox",
                    "-c", 'model_providers.fake.base_url="{URL}/v1"',
                    *(["--dangerously-bypass-hook-trust"] if bypass_hook_trust else []),
                    *extra_args, prompt]
        elif host == "copilot":
            env.update(copilot_env(home, workspace))
            argv = [self.bins["copilot"], "-p", prompt, "--allow-all-tools", "--no-ask-user",
                    "--output-format", "json", "--no-auto-update", "--disable-builtin-mcps",
                    "--no-custom-instructions", *extra_args]
        elif host == "qwen":
            env.update(qwen_env(home))
            argv = [self.bins["qwen"], "-p", prompt, "--output-format", "stream-json",
                    "--approval-mode", "yolo", *extra_args]
        elif host == "vibe":
            env.update(vibe_env(home))
            argv = [self.bins["vibe"], "-p", prompt, "--auto-approve", "--trust",
                    "--max-turns", "4", "--output", "text", *extra_args]
        elif host == "opencode":
            env.update(opencode_env(home, workspace))
            argv = [self.bins["opencode"], "run", "--format", "json", *extra_args, prompt]
        elif host == "cline":
            env.update(cline_env(home))
            argv = [self.bins["cline"], "--json", *extra_args, prompt]
        elif host == "goose":
            env.update(goose_env(home))
            argv = [self.bins["goose"], "run", "-t", prompt, "--no-session", "--max-turns", "6",
                    *extra_args]
        elif host == "grok":
            env.update(grok_env(home))
            argv = [self.bins["grok"], "-p", prompt, "-m", "fake", "--always-approve", "--trust",
                    "--output-format", "streaming-json", *extra_args]
        else:
            write_json(home / ".gemini" / "settings.json", {
                # Without it the base URL alone selects the "gateway" auth, which -p refuses.
                "security": {"auth": {"selectedType": "gemini-api-key"}},
                "privacy": {"usageStatisticsEnabled": False},
            })
            env.update({
                "GOOGLE_GEMINI_BASE_URL": "{URL}",
                "GEMINI_API_KEY": "e2e-fake-key",
                # --skip-trust would also skip the workspace settings, hooks included.
                "GEMINI_CLI_TRUST_WORKSPACE": "true",
            })
            argv = [self.bins["gemini"], "-p", prompt, "-m", GEMINI_MODEL,
                    "--output-format", "stream-json", "--approval-mode", "yolo", *extra_args]
        return argv

    @staticmethod
    def kill(process: subprocess.Popen[bytes]) -> None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=10)

    def close(self) -> None:
        for process in self.live:
            self.kill(process)


@pytest.fixture
def hosts(host_bins: dict[str, str], isolation: list[str], tmp_path: Path) -> Iterator[Hosts]:
    runner = Hosts(host_bins, isolation, tmp_path)
    try:
        yield runner
    finally:
        runner.close()


@pytest.fixture
def vibe_hosts(vibe_bins: dict[str, str], isolation: list[str],
               tmp_path: Path) -> Iterator[Hosts]:
    """Hosts that runs Mistral Vibe alone: its tests do not wait for, or skip with, npm's."""
    runner = Hosts(vibe_bins, isolation, tmp_path)
    try:
        yield runner
    finally:
        runner.close()


@pytest.fixture
def opencode_hosts(opencode_bins: dict[str, str], isolation: list[str],
                   tmp_path: Path) -> Iterator[Hosts]:
    """Hosts that runs OpenCode alone."""
    runner = Hosts(opencode_bins, isolation, tmp_path)
    try:
        yield runner
    finally:
        runner.close()


@pytest.fixture
def grok_hosts(grok_bins: dict[str, str], isolation: list[str],
               tmp_path: Path) -> Iterator[Hosts]:
    """Hosts that runs Grok Build alone: its tests do not wait for, or skip with, the other npm
    hosts'."""
    runner = Hosts(grok_bins, isolation, tmp_path)
    try:
        yield runner
    finally:
        runner.close()


@pytest.fixture
def goose_hosts(goose_bins: dict[str, str], isolation: list[str],
                tmp_path: Path) -> Iterator[Hosts]:
    """Hosts that runs Goose alone: its tests do not wait for, or skip with, the other npm
    hosts'."""
    runner = Hosts(goose_bins, isolation, tmp_path)
    try:
        yield runner
    finally:
        runner.close()


@pytest.fixture
def cline_hosts(cline_bins: dict[str, str], isolation: list[str],
                tmp_path: Path) -> Iterator[Hosts]:
    """Hosts that runs Cline alone: its tests do not wait for, or skip with, the other npm
    hosts'."""
    runner = Hosts(cline_bins, isolation, tmp_path)
    try:
        yield runner
    finally:
        runner.close()


def cline_env(home: Path) -> dict[str, str]:
    """Cline against the fake server as its `openai-compatible` provider (Chat Completions,
    streamed), set in its provider settings under the run's home (`{URL}` filled in by the
    runner) as `cline auth -p openai-compatible -k ... -m ... -b URL` writes them; its sessions
    in-process (CLINE_SESSION_BACKEND_MODE=local: no hub daemon outliving the run), no update
    check (CLINE_NO_AUTO_UPDATE=1) and no telemetry (`telemetryOptOut` of its global
    settings); every tool call approved (its default). Measured with cline 3.0.65."""
    write_json(home / ".cline" / "data" / "settings" / "providers.json", {
        "version": 1, "lastUsedProvider": "openai-compatible", "modes": {},
        "providers": {"openai-compatible": {
            "settings": {"provider": "openai-compatible", "apiKey": "sk-e2e-fake-key",
                         "model": CLINE_MODEL, "baseUrl": "{URL}/v1"},
            "updatedAt": "2026-01-01T00:00:00.000Z", "tokenSource": "manual"}}})
    write_json(home / ".cline" / "data" / "settings" / "global-settings.json",
               {"telemetryOptOut": True, "autoUpdateEnabled": False})
    return {"CLINE_SESSION_BACKEND_MODE": "local", "CLINE_NO_AUTO_UPDATE": "1"}


def goose_env(home: Path) -> dict[str, str]:
    """Goose against the fake server as its `openai` provider (Chat Completions, streamed), its
    config, logs and sessions under the run's home (the XDG folders), no keyring (the key is a
    dummy), no telemetry, every tool call approved (`GOOSE_MODE=auto`); measured with goose
    1.52.0. Its first request, a session title, offers no tools."""
    return {"GOOSE_PROVIDER": "openai", "GOOSE_MODEL": GOOSE_MODEL, "OPENAI_HOST": "{URL}",
            "OPENAI_API_KEY": "sk-e2e-fake-key", "GOOSE_DISABLE_KEYRING": "1",
            "GOOSE_TELEMETRY_ENABLED": "false", "GOOSE_MODE": "auto"}


def codex_env(home: Path) -> dict[str, str]:
    """Codex's environment: its home under the run's home, a key it never sends anywhere real."""
    return {"CODEX_HOME": str(home / ".codex"), "OPENAI_API_KEY": "sk-e2e-fake-key"}


def copilot_env(home: Path, workspace: Path) -> dict[str, str]:
    """GitHub Copilot CLI against the fake server as a BYOK provider, offline (no GitHub
    login, no telemetry: docs.github.com copilot-cli "use-byok-models"), its home under the
    run's home, and the workspace trusted: `copilot -p` runs a repository's `.github/hooks/`
    only in a folder of `trustedFolders` and skips them without a word otherwise (measured
    with 1.0.102; navikt/copilot#892 saw the same with 1.0.83)."""
    copilot_home = home / ".copilot"
    write_json(copilot_home / "config.json", {"trustedFolders": [str(workspace.resolve())]})
    return {"COPILOT_HOME": str(copilot_home), "COPILOT_PROVIDER_BASE_URL": "{URL}/v1",
            "COPILOT_PROVIDER_TYPE": "openai", "COPILOT_MODEL": COPILOT_MODEL,
            "COPILOT_OFFLINE": "true"}


def qwen_env(home: Path) -> dict[str, str]:
    """Qwen Code against the fake server as an OpenAI-compatible provider, its user settings
    in the run's home: no usage statistics, and no memory extraction, a background agent whose
    model calls (with tools) would come after the run's own."""
    write_json(home / ".qwen" / "settings.json", {
        "security": {"auth": {"selectedType": "openai"}},
        "privacy": {"usageStatisticsEnabled": False},
        "memory": {"enableManagedAutoMemory": False, "enableManagedAutoDream": False},
    })
    return {"OPENAI_BASE_URL": "{URL}/v1", "OPENAI_API_KEY": "sk-e2e-fake-key",
            "OPENAI_MODEL": QWEN_MODEL}


def vibe_env(home: Path) -> dict[str, str]:
    """Mistral Vibe against the fake server as a generic OpenAI-compatible provider that needs no
    key (no MISTRAL_API_KEY anywhere), its home ($VIBE_HOME: config, trust, logs, sessions) under
    the run's home, no update check, telemetry or notification. `{URL}` in the config is filled
    in by the runner once the port is known. The project's `.vibe/hooks.toml` is read only in a
    trusted folder: `--trust` trusts the workspace for the run."""
    vibe_home = home / ".vibe"
    vibe_home.mkdir(parents=True, exist_ok=True)
    (vibe_home / "config.toml").write_text(
        'active_model = "fake"\n'
        "enable_telemetry = false\n"
        "enable_update_checks = false\n"
        "enable_notifications = false\n\n"
        "[[providers]]\n"
        'name = "fake"\n'
        'api_base = "{URL}/v1"\n'
        'api_key_env_var = ""\n'
        'backend = "generic"\n'
        'api_style = "openai"\n\n'
        "[[models]]\n"
        f'name = "{VIBE_MODEL}"\n'
        'provider = "fake"\n'
        'alias = "fake"\n', encoding="utf-8")
    return {"VIBE_HOME": str(vibe_home)}


def grok_env(home: Path) -> dict[str, str]:
    """Grok Build against the fake server as a custom model of `$GROK_HOME/config.toml` (Chat
    Completions; `{URL}` filled in by the runner), its home (config, sessions, trusted folders)
    under the run's home, no login (the key is a dummy in FAKE_API_KEY), no auto-update,
    telemetry or feedback, and no turn-summary request after each turn. `--trust` trusts the
    workspace for the run: without it Grok skips the project's hooks without a word."""
    grok_home = home / ".grok"
    grok_home.mkdir(parents=True, exist_ok=True)
    (grok_home / "config.toml").write_text(
        "[model.fake]\n"
        f'model = "{GROK_MODEL}"\n'
        'base_url = "{URL}/v1"\n'
        'env_key = "FAKE_API_KEY"\n'
        'name = "Fake"\n'
        "context_window = 128000\n\n"
        "[models]\n"
        'default = "fake"\n', encoding="utf-8")
    return {"GROK_HOME": str(grok_home), "FAKE_API_KEY": "sk-e2e-fake-key",
            "GROK_DISABLE_AUTOUPDATER": "1", "GROK_TELEMETRY_ENABLED": "0",
            "DISABLE_TELEMETRY": "1", "DISABLE_ERROR_REPORTING": "1",
            "GROK_FEEDBACK_ENABLED": "0", "GROK_TURN_SUMMARY": "0"}


def opencode_env(home: Path, workspace: Path) -> dict[str, str]:
    """OpenCode against the fake server as an `@ai-sdk/openai-compatible` provider (bundled in
    its binary) of its global config, `$XDG_CONFIG_HOME/opencode/opencode.json` (`{URL}` filled
    in by the runner), the shell allowed, no auto-update, sharing, models.dev fetch or LSP
    download. At startup OpenCode npm-installs @opencode-ai/plugin into each config folder
    unless its node_modules/ exists and its package-lock.json lists that package (measured with
    opencode 1.18.33): both are made here, for the global folder and the workspace's
    `.opencode/`, so that no run waits for a registry."""
    config = home / ".config" / "opencode"
    write_json(config / "opencode.json", {
        "$schema": "https://opencode.ai/config.json", "autoupdate": False, "share": "disabled",
        "model": f"fake/{OPENCODE_MODEL}", "small_model": f"fake/{OPENCODE_MODEL}",
        "provider": {"fake": {
            "npm": "@ai-sdk/openai-compatible", "name": "Fake",
            "options": {"baseURL": "{URL}/v1", "apiKey": "sk-e2e-fake-key"},
            "models": {OPENCODE_MODEL: {"name": "Fake Model", "tool_call": True}}}},
        "permission": {"bash": "allow", "edit": "allow", "webfetch": "allow"}})
    for folder in (config, workspace / ".opencode"):
        (folder / "node_modules").mkdir(parents=True, exist_ok=True)
        write_json(folder / "package-lock.json",
                   {"packages": {"": {"dependencies": {"@opencode-ai/plugin": "*"}}}})
    return {"OPENCODE_DISABLE_AUTOUPDATE": "1", "OPENCODE_DISABLE_SHARE": "1",
            "OPENCODE_DISABLE_MODELS_FETCH": "1", "OPENCODE_DISABLE_LSP_DOWNLOAD": "1",
            "OPENCODE_DISABLE_CLAUDE_CODE": "1", "OPENCODE_DISABLE_DEFAULT_PLUGINS": "1",
            "npm_config_registry": "http://127.0.0.1:9/"}


def write_codex_config(home: Path, workspace: Path) -> None:
    """$CODEX_HOME/config.toml: the fake provider (its base_url comes with -c once the port is
    known), no retries, and the workspace trusted, without which Codex ignores its `.codex/`
    folder, hooks included ("Untrusted project-local configuration is disabled")."""
    config = home / ".codex" / "config.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    project = json.dumps(str(workspace.resolve()))
    config.write_text(
        f'model = "{CODEX_MODEL}"\n'
        'model_provider = "fake"\n'
        'check_for_update_on_startup = false\n\n'
        '[model_providers.fake]\n'
        'name = "fake"\n'
        'wire_api = "responses"\n'
        'requires_openai_auth = false\n'
        'request_max_retries = 0\n'
        'stream_max_retries = 0\n\n'
        f'[projects.{project}]\n'
        'trust_level = "trusted"\n', encoding="utf-8")


# -- What the scripted model does ---------------------------------------------------------------

# Codex's shell tool has several names (exec_command, shell_command...); the fake server sends
# "shell" to whichever the request offers.
SHELL_TOOL = {"claude": "Bash", "gemini": "run_shell_command", "codex": "shell",
              "copilot": "bash", "qwen": "run_shell_command", "vibe": "bash",
              "grok": "run_terminal_command", "opencode": "bash",
              "goose": "shell", "cline": "run_commands"}
# The files in the run's home holding the fake server's URL (`{URL}`, filled in by the runner).
URL_FILES = {"vibe": ".vibe/config.toml", "grok": ".grok/config.toml",
             "opencode": ".config/opencode/opencode.json",
             "cline": ".cline/data/settings/providers.json"}
SETTINGS_FILE = {"claude": ".claude/settings.json", "gemini": ".gemini/settings.json",
                 "codex": ".codex/hooks.json", "copilot": ".github/hooks/agenthooks.json",
                 "qwen": ".qwen/settings.json"}


def shell_call(host: str, command: str) -> dict[str, Any]:
    """A tool call of the host's shell tool, as its model would make it. Mistral Vibe's bash
    takes `command` and `timeout_seconds` alone (additionalProperties false)."""
    if host in ("vibe", "goose"):
        return {"name": SHELL_TOOL[host], "input": {"command": command}}
    if host == "cline":  # a list of commands, run side by side
        return {"name": SHELL_TOOL[host], "input": {"commands": [command]}}
    return {"name": SHELL_TOOL[host],
            "input": {"command": command, "description": "Run a shell command"}}


def tool_turn(host: str, *commands: str) -> dict[str, Any]:
    return {"tool_calls": [shell_call(host, c) for c in commands]}


def stream_text(run: HostRun) -> str:
    """What the host printed for its user (the stream-json events), as one string. Codex's
    `exec --json` stream has no item for a blocked call: its log on stderr names the reason."""
    if run.host == "codex":
        return run.result["stdout"] + run.result["stderr"]
    return run.result["stdout"]


def final_answer(run: HostRun) -> str:
    """The answer the host reported at the end of the run."""
    if run.host == "claude":
        results = [e for e in run.events if e.get("type") == "result"]
        return str(results[-1].get("result", "")) if results else ""
    if run.host == "codex":
        said = [e["item"].get("text", "") for e in run.events if e.get("type") == "item.completed"
                and e.get("item", {}).get("type") == "agent_message"]
        return str(said[-1]) if said else ""
    if run.host == "copilot":
        said = [e["data"].get("content", "") for e in run.events
                if e.get("type") == "assistant.message" and isinstance(e.get("data"), dict)]
        return str(said[-1]) if said else ""
    # Gemini CLI streams the answer as assistant message deltas; the last turn's are the answer.
    pieces: list[str] = []
    for event in run.events:
        if event.get("type") == "message" and event.get("role") == "assistant":
            pieces.append(str(event.get("content", "")))
        elif event.get("type") == "tool_use":
            pieces = []
    return "".join(pieces)


def wired_workspace(tmp_path: Path, host: str, source: Path | None = None,
                    option: str | None = None) -> Path:
    """A workspace (a copy of source, else empty) whose host settings are README.md's wiring."""
    workspace = tmp_path / "workspace"
    if source is None:
        workspace.mkdir()
    else:
        shutil.copytree(source, workspace, symlinks=True)
    settings = readme_wiring()[host]
    if option:
        settings = with_option(settings, option)
    write_json(workspace / SETTINGS_FILE[host], settings)
    return workspace


def hooks_json(**hooks: dict[str, Any]) -> dict[str, Any]:
    """An Antigravity hooks.json: named hooks, each {event: [...]}."""
    return {name: {"enabled": True, **events} for name, events in hooks.items()}


# What a host's hook writes it saw, so a test can tell "denied" from "never ran".
SPY = 'tee -a "$PWD/hook-payloads.jsonl" | '
BUILD_GATE = """#!/usr/bin/env python3
import json, os, sys

payload = json.load(sys.stdin)
call = payload.get("toolCall") or {}
command = (call.get("args") or {}).get("CommandLine", "")
with open(os.path.join(os.environ["GEMINI_PROJECT_DIR"], "gate-calls.jsonl"), "a") as log:
    log.write(json.dumps({"command": command}) + "\\n")
if "build" in command:
    print(json.dumps({"decision": "deny", "reason": "TAG: build/ is not yours to touch"}))
"""


def build_gate(workspace: Path, tag: str, command: str = "./scripts/gate.py",
               timeout: int = 10) -> None:
    """A hooks.json gate in the workspace's `.agents/`, run as `command`: it logs every shell
    command it sees (gate-calls.jsonl) and denies one naming build/ ("<tag>: build/ is not
    yours to touch"); and build/out.o, which it guards."""
    write_script(workspace / ".agents" / "scripts" / "gate.py", BUILD_GATE.replace("TAG", tag))
    write_json(workspace / ".agents" / "hooks.json", hooks_json(gate={"PreToolUse": [
        {"matcher": "run_command", "hooks": [{"type": "command", "command": command,
                                              "timeout": timeout}]}]}))
    (workspace / "build").mkdir()
    (workspace / "build" / "out.o").write_text("object", "utf-8")


# A hooks.json handler that logs every shell command it sees (gate-calls.jsonl in the project)
# and denies `rm -rf` ("<TAG>: recursive delete refused").
RM_GATE = """#!/usr/bin/env python3
import json, os, sys

payload = json.load(sys.stdin)
call = payload.get("toolCall") or {}
command = (call.get("args") or {}).get("CommandLine") or (payload.get("tool_input") or {}).get(
    "command", "")
with open(os.path.join(os.environ["GEMINI_PROJECT_DIR"], "gate-calls.jsonl"), "a") as log:
    log.write(json.dumps({"command": command}) + "\\n")
if "rm -rf" in command:
    print(json.dumps({"decision": "deny", "reason": "TAG: recursive delete refused"}))
"""


def rm_gate(tag: str) -> str:
    """RM_GATE, its deny reason starting with `tag`."""
    return RM_GATE.replace("TAG", tag)


def hooks_json_handler(workspace: Path, name: str, script: str,
                       event: str = "PreToolUse") -> None:
    """The workspace's `.agents/hooks.json`: one hook `name` whose one handler of `event` runs
    `script` (written to `.agents/scripts/<name>.py`) on every shell command."""
    write_script(workspace / ".agents" / "scripts" / f"{name}.py", script)
    write_json(workspace / ".agents" / "hooks.json", hooks_json(**{name: {event: [
        {"matcher": "run_command",
         "hooks": [{"type": "command", "command": f"./scripts/{name}.py", "timeout": 10}]}]}}))


def lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines() if path.exists() else []


def payloads(workspace: Path) -> list[dict[str, Any]]:
    """What the spy in front of agenthooks saved of each payload its host gave it."""
    return [json.loads(line) for line in lines(workspace / "hook-payloads.jsonl") if line]


def gate_calls(workspace: Path) -> list[str]:
    """The shell commands the gate (RM_GATE, BUILD_GATE) saw, in order."""
    return [json.loads(line)["command"] for line in lines(workspace / "gate-calls.jsonl")]


def one_tool_result(run: HostRun) -> dict[str, Any]:
    """The one tool result of a run whose model made one call: what it was told after it."""
    assert len(run.main_requests) == 2, run.describe()
    [outcome] = run.tool_results(run.main_requests[1])
    return outcome
