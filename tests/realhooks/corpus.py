"""The real-hook corpus (corpus.json) as the tests use it: each hook's command on this machine,
the payload of a call in any host's words, the host file that wires it, and how a host reads
an answer.

The hooks are scripts published by others (see corpus.json: package, version, license,
source); scripts/install-realhooks brings them from their registry into .cache/realhooks.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from agenthooks.model.events import counterpart
from agenthooks.model.hosts import HOST_TABLE
from agenthooks.model.tools import tool_name, translate_args
from agenthooks.sources.payloads import SHAPES

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
INSTALLER = REPO / "scripts" / "install-realhooks"
CORPUS: dict[str, Any] = json.loads((HERE / "corpus.json").read_text("utf-8"))
HOOKS: list[dict[str, Any]] = CORPUS["hooks"]
MATCHERS: dict[str, str | None] = {hook["id"]: hook.get("matcher") for hook in HOOKS}
HOSTS_OF: dict[str, str] = {hook["id"]: hook["host"] for hook in HOOKS}
# The hosts the end-to-end suite drives (tests/e2e/hosts.json): the differential runs each
# hook under every one of them.
DRIVEN = ("claude", "gemini", "codex", "copilot")
INSTALL_TIMEOUT = 1800
# Hosts that run another host's settings file themselves (Copilot CLI runs Claude Code's):
# agenthooks leaves that file to them, so a hook of such a file reaches them natively.
GUESTS = {(row.id, guest) for row in HOST_TABLE for guest, _ in row.guest_protocols}


def install() -> dict[str, dict[str, str]]:
    """{package: {"root", "bin"}, or {"error"} for one that could not be had} of every corpus
    package, installed once; skips the caller when none could be installed."""
    try:
        done = subprocess.run([sys.executable, str(INSTALLER), "--json"], capture_output=True,
                              text=True, timeout=INSTALL_TIMEOUT, stdin=subprocess.DEVNULL,
                              check=False)
    except subprocess.TimeoutExpired:
        pytest.skip(f"realhooks: scripts/install-realhooks took over {INSTALL_TIMEOUT} s")
    lines = [ln for ln in done.stdout.splitlines() if ln.startswith("{")]
    installed: dict[str, dict[str, str]] = json.loads(lines[-1]) if lines else {}
    if not any("bin" in where for where in installed.values()):
        said = [ln for ln in done.stderr.splitlines() if ln.strip()]
        pytest.skip("realhooks: no hook package could be installed (registries unreachable?): "
                    f"{said[-1] if said else 'install failed'}")
    return installed


@dataclass(frozen=True)
class Hook:
    """One corpus hook, made concrete for one install and one workspace."""

    spec: dict[str, Any]
    command: str
    workspace: Path

    @property
    def id(self) -> str:
        return str(self.spec["id"])

    @property
    def host(self) -> str:
        return str(self.spec["host"])

    @property
    def event(self) -> str:
        return str(self.spec["event"])

    @property
    def reason(self) -> str:
        return str(self.spec.get("reason") or "")

    def call(self, which: str) -> dict[str, Any]:
        """The act or pass call in the hook's own host's words, paths made concrete."""
        call: dict[str, Any] = in_workspace(self.spec[which], self.workspace)
        return call

    def payload(self, which: str, caller: str) -> dict[str, Any]:
        """What `caller` sends for this call: its event word, its tool and argument names,
        its common fields."""
        call = self.call(which)
        word = counterpart(self.event, self.host, caller)
        assert word is not None, f"{caller} has no event for {self.host}'s {self.event}"
        payload = common_fields(caller, self.workspace)
        if caller != "copilot":
            payload["hook_event_name"] = word
        if "tool" in call:
            source, native_tool, native_args = self.host, call["tool"], call["input"]
            if native_tool == "apply_patch" and caller != "codex":
                # Another host writes the file the patch adds with its Write tool.
                source, native_tool = "claude", "Write"
                native_args = written_file(native_args["command"], self.workspace)
            tool = tool_name(native_tool, source, caller)
            args = translate_args(native_args, native_tool, source, caller)
            if tool == "apply_patch" and native_tool != "apply_patch":
                # Codex writes every file through one patch text, never as path and content.
                args = {"command": patch_text(call["input"], self.workspace)}
            if caller == "copilot":
                args = {COPILOT_ARGS.get(key, key): value for key, value in args.items()}
                payload.update(toolName=tool, toolArgs=args)
            else:
                payload.update(tool_name=tool, tool_input=args)
        # The event's own fields (a prompt, a Stop's last answer), under the caller's names;
        # a field the caller does not send is left out.
        names = dict(SHAPES[caller].fields)
        for canonical, value in call.get("fields", {}).items():
            if canonical in names:
                payload[names[canonical]] = value
        return payload

    def word_for(self, caller: str) -> str:
        word = counterpart(self.event, self.host, caller)
        assert word is not None
        return word


def concrete(spec: dict[str, Any], installed: dict[str, dict[str, str]],
             workspace: Path) -> Hook:
    """The hook for this install and workspace; the files its configuration names (a policy
    a user writes, corpus.json's `files`) are written into the workspace."""
    where = installed[spec["package"]]
    if "error" in where:
        pytest.skip(f"realhooks: {spec['package']} could not be installed: {where['error']}")
    command = (spec["command"].replace("{bin}", where["bin"]).replace("{root}", where["root"])
               .replace("{workspace}", str(workspace)))
    for name, content in in_workspace(spec.get("files", {}), workspace).items():
        (workspace / name).write_text(json.dumps(content, indent=2) + "\n", "utf-8")
    return Hook(spec, command, workspace)


def in_workspace(data: Any, workspace: Path) -> Any:
    """corpus data with {workspace} made the folder's path."""
    return json.loads(json.dumps(data).replace("{workspace}", str(workspace)))


def written_file(patch: str, workspace: Path) -> dict[str, Any]:
    """The file an "Add File" patch writes, as Claude Code's Write arguments."""
    lines = patch.splitlines()
    [header] = [line for line in lines if line.startswith("*** Add File: ")]
    content = "".join(line[1:] + "\n" for line in lines if line.startswith("+"))
    return {"file_path": str(workspace / header[len("*** Add File: "):]), "content": content}


def patch_text(args: dict[str, Any], workspace: Path) -> str:
    """A Write's file as the patch Codex's apply_patch sends (its path relative to the
    project, each line added)."""
    path = Path(str(args.get("file_path", "file")))
    relative = path.relative_to(workspace) if path.is_absolute() else path
    added = "".join(f"+{line}\n" for line in str(args.get("content", "")).splitlines())
    return f"*** Begin Patch\n*** Add File: {relative}\n{added}*** End Patch\n"


def missing_tools(spec: dict[str, Any]) -> list[str]:
    """The programs a hook script needs that this machine lacks (jq for the shell hooks)."""
    return [tool for tool in spec.get("needs", ()) if shutil.which(tool) is None]


def common_fields(host: str, workspace: Path) -> dict[str, Any]:
    """The fields every payload of the host carries, as its own CLI writes them."""
    transcript = str(workspace / "transcript.jsonl")
    # A session of its own for each call: hooks keep state per session (azet-guard's Stop
    # check speaks once a session), and one call must not change what the next one gets.
    session = f"realhooks-{uuid.uuid4().hex[:12]}"
    if host == "copilot":
        return {"sessionId": session, "timestamp": 1_780_000_000_000, "cwd": str(workspace)}
    fields: dict[str, Any] = {"session_id": session, "transcript_path": transcript,
                              "cwd": str(workspace)}
    if host == "gemini":
        fields["timestamp"] = "2026-12-06T08:00:00.000Z"
    elif host == "codex":
        fields.update(turn_id="realhooks-turn", model="gpt-5.1-codex",
                      permission_mode="bypassPermissions")
    elif host == "claude":
        fields["permission_mode"] = "bypassPermissions"
    return fields


# The argument names of Copilot CLI's own file tools (create: path, file_text; edit: path,
# old_str, new_str: issue 23 item 10, measured with copilot 1.0.102), which its model sends and
# its hooks see, whatever agenthooks' tool table says.
COPILOT_ARGS = {"file_path": "path", "content": "file_text", "old_string": "old_str",
                "new_string": "new_str"}


# -- Wiring a hook into its own host's file -------------------------------------------------

SETTINGS_FILE = {"claude": ".claude/settings.json", "gemini": ".gemini/settings.json",
                 "codex": ".codex/hooks.json", "copilot": ".github/hooks/realhook.json"}


def host_file(hook: Hook) -> dict[str, Any]:
    """The settings that wire the hook as its own host's docs do."""
    matcher = hook.spec.get("matcher")
    if hook.host == "copilot":
        entry: dict[str, Any] = {"type": "command", "bash": hook.command, "timeoutSec": 30}
        if matcher:
            entry["matcher"] = matcher
        return {"version": 1, "hooks": {hook.event: [entry]}}
    handler: dict[str, Any] = {"type": "command", "command": hook.command}
    if hook.host == "gemini":
        handler.update(name=hook.id.replace("/", "-"), timeout=30_000)
    else:
        handler["timeout"] = 30
    group: dict[str, Any] = {"hooks": [handler]}
    if matcher:
        group["matcher"] = matcher
    return {"hooks": {hook.event: [group]}}


def wire(hook: Hook, settings: dict[str, Any] | None = None) -> Path:
    """Writes the hook into its host's file in the workspace (merged into `settings`, the
    file's other content, when given); returns the file."""
    path = hook.workspace / SETTINGS_FILE[hook.host]
    data = host_file(hook)
    if settings is not None:
        merged = json.loads(json.dumps(settings))
        for event, groups in data["hooks"].items():
            merged.setdefault("hooks", {}).setdefault(event, []).extend(groups)
        data = merged
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2) + "\n", "utf-8")
    return path


# -- Reading an answer as a host reads it ----------------------------------------------------


@dataclass(frozen=True)
class Effect:
    """What a host makes of a hook's answer: "deny" (the call or prompt is blocked), "ask",
    or "allow"; and the reason it passes on."""

    decision: str
    reason: str = ""


def effect(host: str, returncode: int, stdout: str, stderr: str) -> Effect:
    """A pre-call answer (PreToolUse and its counterparts, a prompt event) as `host` reads it
    (/work notes: each host's hooks reference; docs/protocol.md): exit 2 blocks with stderr
    as the reason (Codex only with a non-empty stderr); else a JSON object's
    permissionDecision, decision or continue; Gemini CLI also denies on another failing
    exit with text."""
    text = stdout.strip()
    doc: Any = None
    if text.startswith("{") and (host != "codex" or returncode == 0):
        try:
            doc = json.loads(text)
        except ValueError:
            doc = None
    if not isinstance(doc, dict):
        doc = {}
    specific = doc.get("hookSpecificOutput")
    specific = specific if isinstance(specific, dict) else {}
    permission = specific.get("permissionDecision") or doc.get("permissionDecision")
    decision = doc.get("decision")
    reason = str(specific.get("permissionDecisionReason") or doc.get("permissionDecisionReason")
                 or doc.get("reason") or doc.get("stopReason") or "")
    if host == "gemini" and decision == "allow":
        return Effect("allow")
    if returncode == 2 and (stderr.strip() or host != "codex"):
        return Effect("deny", stderr.strip() or reason)
    if permission == "deny" or decision in ("deny", "block") or doc.get("continue") is False:
        return Effect("deny", reason)
    if permission == "ask" or decision == "ask":
        return Effect("ask", reason)
    if host == "gemini" and returncode not in (0, 1) and not doc:
        return Effect("deny", text or stderr.strip())
    return Effect("allow")
