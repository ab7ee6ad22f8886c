"""`agenthooks run --record DIR` (or AGENTHOOKS_RECORD=DIR): each payload a host really sent,
with the answer it got, as a fixture file `agenthooks test` runs.

Imported only when a run records, after its answer is written: nothing here is on the path of
a run that does not record, and nothing here can change an answer (the caller turns every
failure into a one-line warning). One file per run, `DIR/<time>-<host>-<event>-<pid>-<random>
.hooktest.json`, created with O_EXCL (two runs at once never write the same file) and readable
by its owner only, as the payload may hold what the redaction did not recognise.

The case is the one `agenthooks test --record` writes (`testing.record`), with the host: its
`expect` is what was answered (decision, whether it blocked, the reason), to be edited at will;
its payload went through `testing.redact` first, and a reason that holds something redacted is
left out (the decision and whether it blocked are still checked).
"""

from __future__ import annotations

import json
import os
import time

from agenthooks.testing.redact import compile_patterns, redact_payload, redact_text

# Neither `typing` nor `collections.abc` is imported at run time: a run that records pays
# for what it writes, not for names (no run without --record imports this module at all).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

    from agenthooks.api import EventResult

SUFFIX = ".hooktest.json"
_ATTEMPTS = 8
_SAFE = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.")


class Recorded:
    """What a run was, as much as its fixture needs (no import of `commands.run`, a layer
    above this one)."""

    __slots__ = ("event", "fail_closed", "host", "other_hosts", "redact", "tool", "workspace")

    def __init__(self, *, event: str, host: str | None, tool: str | None, workspace: str,
                 fail_closed: bool = False, other_hosts: bool = False,
                 redact: Sequence[str] = ()) -> None:
        self.event = event  # as given on the command line (the host's word)
        self.host = host
        self.tool = tool  # --tool, when given
        self.workspace = workspace  # absolute
        self.fail_closed = fail_closed
        self.other_hosts = other_hosts
        self.redact = tuple(redact)


def record_run(directory: str, run: Recorded, payload: bytes, result: EventResult) -> str:
    """Write the run's fixture file in `directory` (made if missing); its path. Raises
    OSError, ValueError (a payload that is not a JSON object) or re.error (a bad --redact)."""
    document = fixture_of(directory, run, payload, result)
    text = json.dumps(document, indent=2, ensure_ascii=False) + "\n"
    return write_new(directory, _stem(run), text)


def fixture_of(directory: str, run: Recorded, payload: bytes,
               result: EventResult) -> dict[str, Any]:
    """The fixture document of one recorded run."""
    patterns = compile_patterns(run.redact)
    doc = json.loads(payload) if payload.strip() else {}
    if not isinstance(doc, dict):
        raise ValueError("the payload is not a JSON object")
    case: dict[str, Any] = {"name": _name(run, doc)}
    if run.host is not None:
        case["host"] = run.host
    if run.other_hosts:
        case["other_hosts"] = True
    case["event"] = run.event
    if run.tool is not None:
        case["tool"] = run.tool
    if run.fail_closed:
        case["env"] = {"AGENTHOOKS_FAIL_CLOSED": "1"}
    case["payload"] = redact_payload(doc, patterns)
    case["expect"] = expected(result)
    reason = case["expect"].get("reason")
    if reason is not None and redact_text(reason, patterns) != reason:
        del case["expect"]["reason"]  # a secret in it: the decision alone is checked
    folder = os.path.abspath(directory)
    try:
        workspace = os.path.relpath(run.workspace, folder)
    except ValueError:  # another drive (Windows): the absolute path
        workspace = run.workspace
    return {"workspace": workspace, "cases": [case]}


def expected(result: EventResult) -> dict[str, Any]:
    """What the run answered, as a case's `expect` (null: no decision at all)."""
    expect: dict[str, Any] = {"decision": result.decision.word, "blocked": result.blocked}
    reason = result.output.get("reason") if isinstance(result.output, dict) else None
    if isinstance(reason, str) and reason:
        expect["reason"] = reason
    return expect


def _name(run: Recorded, doc: dict[str, Any]) -> str:
    from agenthooks.sources.payloads import detect, tool_call

    tool = run.tool or tool_call(doc, run.host or detect(doc, run.event))[0]
    when = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    what = f"{run.event} {tool}" if tool else run.event
    return f"{what} ({run.host or 'no --host'}, {when})"


def _stem(run: Recorded) -> str:
    stamp = time.strftime("%Y%m%dT%H%M%S", time.gmtime())
    event = "".join(c if c in _SAFE else "_" for c in run.event)[:40]
    return f"{stamp}-{run.host or 'any'}-{event}-{os.getpid()}"


def write_new(directory: str, stem: str, text: str) -> str:
    """`text` in a new file `directory/<stem>-<random>.hooktest.json`, never over another;
    its path. A file that cannot be written whole is removed."""
    os.makedirs(directory, exist_ok=True)
    data = text.encode("utf-8", "surrogatepass")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
    for _ in range(_ATTEMPTS):
        path = os.path.join(directory, f"{stem}-{os.urandom(4).hex()}{SUFFIX}")
        try:
            fd = os.open(path, flags, 0o600)
        except FileExistsError:
            continue
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
        except OSError:
            os.close(fd)
            os.unlink(path)
            raise
        os.close(fd)
        return path
    raise FileExistsError(f"no free file name in {directory}")
