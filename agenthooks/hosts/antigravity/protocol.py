"""One handler's answer: what its exit status and output mean under the exit-code protocol.

Exit 0: stdout is the answer (a JSON object; anything else becomes a `systemMessage`). Exit 2:
a block whose reason is stderr. Anything else (another exit code, a signal, a timeout, a command
that cannot start) is a non-blocking warning and the output is ignored. Decision words are
normalised per event here, so the merge only ever sees this format's own words.
"""

from __future__ import annotations

import json
import signal

from agenthooks.model.events import ALL_EVENTS, DEFAULT_BLOCK, block_decision

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Literal, NamedTuple
    Status = Literal["ok", "blocked", "warning", "timeout", "not-started", "skipped"]
else:
    from agenthooks._records import NamedTuple

if TYPE_CHECKING:
    from agenthooks.config.model import Handler
    from agenthooks.executor import ProcessResult


# Decision words a handler may write, per event, and what each means here. None means the word
# is known and asks for nothing (e.g. "allow" on Stop lets the agent stop, as it would anyway);
# a word missing from an event's table is unknown there: a warning, and ignored.
_TOOL_WORDS: dict[str, str | None] = {
    "allow": "allow",
    "approve": "allow",  # Gemini CLI, Claude Code
    "deny": "deny",
    "block": "deny",  # Gemini CLI, Claude Code
    "ask": "ask",
    "force_ask": "force_ask",
}
# On Stop, Claude Code and Gemini CLI write "block"/"deny" for "do not stop yet".
_STOP_WORDS: dict[str, str | None] = {
    "continue": "continue",
    "block": "continue",
    "deny": "continue",
    "allow": None,
    "approve": None,
}
_OTHER_WORDS: dict[str, str | None] = {
    "block": "block",
    "deny": "block",
    "allow": None,
    "approve": None,
}
# Per engine event, the words its `decision` takes: those of what a block means there.
_WORDS_OF_BLOCK: dict[str, dict[str, str | None]] = {
    "deny": _TOOL_WORDS, "continue": _STOP_WORDS, DEFAULT_BLOCK: _OTHER_WORDS}
DECISION_WORDS: dict[str, dict[str, str | None]] = {
    event: _WORDS_OF_BLOCK[block_decision(event)] for event in ALL_EVENTS}
# Claude Code's hookSpecificOutput.permissionDecision; "defer" means "no opinion".
_PERMISSION_WORDS: dict[str, str | None] = {**_TOOL_WORDS, "defer": None}


class Answer(NamedTuple):
    """One handler's result: how its process ended and what it answered.

    `status`: ok (exit 0), blocked (exit 2), warning (another exit code or a signal), timeout,
    not-started, skipped (a prompt handler). `output` is the parsed answer of an exit 0;
    `decision` is already in this format's words for the event; `warning` is the one-line
    message naming the hook, and `failed` says whether `--fail-closed` counts it as a failure.
    """

    handler: Handler
    status: Status
    exit_code: int | None = None
    signal: int | None = None
    duration_ms: float = 0.0
    stdout: str = ""
    stderr: str = ""
    stdout_truncated: bool = False
    stderr_truncated: bool = False
    output: dict[str, Any] | None = None
    decision: str | None = None
    reason: str | None = None
    warning: str | None = None
    failed: bool = False
    # A Claude Code SessionStart handler's CLAUDE_ENV_FILE that agenthooks made: (path, what
    # the handlers wrote to it), shown in `--report json`.
    env_file: tuple[str, str] | None = None

    @property
    def hook(self) -> str:
        return self.handler.hook

    @property
    def source(self) -> str:
        return self.handler.source.path

    @property
    def command(self) -> str:
        return self.handler.command

    @property
    def timed_out(self) -> bool:
        return self.status == "timeout"

    @property
    def signal_name(self) -> str | None:
        return None if self.signal is None else signal_name(self.signal)

    @property
    def first_stderr_line(self) -> str:
        return first_line(self.stderr)

    def as_json(self) -> dict[str, Any]:
        """The handler object of `agenthooks run --report json`."""
        return {
            "hook": self.hook,
            "source": self.source,
            "command": self.command,
            "status": self.status,
            "exitCode": self.exit_code,
            "signal": self.signal_name,
            "durationMs": round(self.duration_ms, 3),
            "timedOut": self.timed_out,
            "stdout": self.stdout,
            "stderr": self.stderr,
            "stdoutTruncated": self.stdout_truncated,
            "stderrTruncated": self.stderr_truncated,
            "output": self.output,
            "decision": self.decision,
            **({"envFile": {"path": self.env_file[0], "content": self.env_file[1]}}
               if self.env_file is not None else {}),
        }


def signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def first_line(text: str) -> str:
    for line in text.splitlines():
        if line.strip():
            return line.strip()
    return ""


def _decode(data: bytes) -> str:
    return data.decode("utf-8", "replace")


# Handler types only their host can run, per dialect, and what they need.
_NEEDS_HOST: dict[str, str] = {
    "mcp_tool": "Claude Code's MCP servers", "prompt": "Claude Code's model",
    "agent": "Claude Code's model and tools", "plugin": "Gemini CLI's extension code",
    "runtime": "Gemini CLI's process",
}


def prompt_warning(handler: Handler) -> str:
    if handler.dialect == "antigravity":
        return f"hook {handler.hook!r}: prompt handlers need the agent's model; skipped"
    needs = _NEEDS_HOST.get(handler.kind, "its host")
    return f"hook {handler.hook!r}: {handler.kind} handlers need {needs}; skipped"


def skipped(handler: Handler) -> Answer:
    """A prompt handler: it needs the agent's model, which agenthooks does not have."""
    return Answer(handler, "skipped", warning=prompt_warning(handler))


def process_fields(result: ProcessResult) -> dict[str, Any]:
    """The fields of an `Answer` that say how the process ended, its output decoded."""
    return {
        "exit_code": result.exit_code,
        "signal": result.signal,
        "duration_ms": result.duration_ms,
        "stdout": _decode(result.stdout),
        "stderr": _decode(result.stderr),
        "stdout_truncated": result.stdout_truncated,
        "stderr_truncated": result.stderr_truncated,
    }


def answer(handler: Handler, result: ProcessResult, event: str) -> Answer:
    """Interpret one finished process under the exit-code protocol for `event`."""
    common = process_fields(result)
    stdout, stderr = common["stdout"], common["stderr"]
    name = handler.hook
    if result.status == "exited" and result.exit_code == 0:
        try:
            output = parse_output(stdout)
        except MalformedOutput as exc:
            cut = " (cut at 1 MiB)" if result.stdout_truncated else ""
            warning = f"hook {name!r} wrote malformed JSON{cut}: {exc}; ignored"
            return Answer(handler, "ok", warning=warning, failed=True, **common)
        decision, reason, unknown = read_decision(output, event)
        notes = []
        if unknown is not None:
            notes.append(f"gave decision {unknown!r}, unknown for {event}; ignored")
        if result.stdout_truncated:
            # The answer was cut at the limit, so it is likely not the JSON that was meant.
            notes.append("wrote more than 1 MiB on stdout; the rest was dropped")
        return Answer(
            handler, "ok", output=output, decision=decision, reason=reason,
            warning=f"hook {name!r} " + "; ".join(notes) if notes else None,
            failed=unknown is not None, **common,
        )
    if result.status == "exited" and result.exit_code == 2:
        reason = stderr.strip() or f"hook {name} blocked (exit 2)"
        return Answer(handler, "blocked", decision=block_decision(event), reason=reason,
                      **common)
    return failure(handler, result, name, stderr)


def failure(handler: Handler, result: ProcessResult, name: str, stderr: str) -> Answer:
    """A handler that did not answer: another exit code, a signal, a timeout, no start."""
    status: Status
    if result.status == "timeout":
        status = "timeout"
        what = f"timed out after {handler.timeout:g} s"
    elif result.status == "not-started":
        status = "not-started"
        error = result.error or "cannot start"
        what = error if error.startswith("cannot start") else f"cannot start: {error}"
    elif result.status == "signaled":
        status = "warning"
        what = f"killed by {signal_name(result.signal or 0)}"
    else:
        status = "warning"
        what = f"exited {result.exit_code}"
    detail = first_line(stderr)
    warning = f"hook {name!r} {what}" + (f": {detail}" if detail else "")
    return Answer(handler, status, warning=warning, failed=True, **process_fields(result))


class MalformedOutput(ValueError):
    """Output that starts like a JSON object but is not one agenthooks can take."""


def _reject_constant(word: str) -> Any:
    raise ValueError(f"{word} is not valid JSON")


def parse_output(stdout: str) -> dict[str, Any] | None:
    """An exit 0's answer: a JSON object as is, nothing for empty stdout, else a message.

    Output that starts with `{` must be a strict JSON object (no NaN, no integer beyond
    Python's digit limit, nesting within `jsonlimits.MAX_DEPTH`): anything else raises
    `MalformedOutput`, since a cut or mistyped answer must not pass for a message.
    """
    from agenthooks.jsonlimits import MAX_DEPTH, could_be_too_deep, depth_exceeds

    text = stdout.strip()
    if not text:
        return None
    if text[0] != "{":
        return {"systemMessage": text}
    too_deep = f"nests deeper than {MAX_DEPTH} levels"
    try:
        value = json.loads(text, parse_constant=_reject_constant)
    except RecursionError:
        raise MalformedOutput(too_deep) from None
    except ValueError as exc:
        raise MalformedOutput(str(exc)) from None
    if not isinstance(value, dict):  # e.g. `{} []`, which json rejects anyway
        raise MalformedOutput("not a JSON object")
    if could_be_too_deep(text) and depth_exceeds(value):
        raise MalformedOutput(too_deep)
    return value


def read_decision(
    output: dict[str, Any] | None, event: str
) -> tuple[str | None, str | None, str | None]:
    """(decision in this format's words, its reason, the word if unknown for the event).

    `decision` wins; on PreToolUse Claude Code's `hookSpecificOutput.permissionDecision` (with
    `permissionDecisionReason`) is read when `decision` is absent. An empty word is no word.
    """
    if not output:
        return None, None, None
    words = DECISION_WORDS.get(event, _OTHER_WORDS)
    word = output.get("decision")
    reason = output.get("reason")
    if word is None or word == "":
        specific = output.get("hookSpecificOutput")
        if event != "PreToolUse" or not isinstance(specific, dict):
            return None, None, None
        word = specific.get("permissionDecision")
        if word is None or word == "":
            return None, None, None
        words = _PERMISSION_WORDS
        reason = specific.get("permissionDecisionReason", reason)
    if not isinstance(word, str) or word not in words:
        return None, None, word if isinstance(word, str) else json.dumps(word)
    decision = words[word]
    if decision is None:
        return None, None, None
    return decision, reason if isinstance(reason, str) and reason.strip() else None, None
