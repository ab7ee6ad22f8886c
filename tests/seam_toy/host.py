"""The toy host's modules: its files' reader, its matchers, its protocol and
its writer (see `tests.seam_toy`)."""

from __future__ import annotations

import json
from typing import Any

from agenthooks.executor import ProcessResult
from agenthooks.hosts.writers import HostAnswer
from agenthooks.kinds.protocols.antigravity import answer as hooks_json_answer
from agenthooks.model.handlers import Answer, Handler, Source, escape
from agenthooks.sources.dialects.check import DialectChecker, runs_as
from agenthooks.sources.dialects.matching import ALL, Selection
from tests.seam_toy.dialect import TOY


class ToyChecker(DialectChecker):
    """`{"hooks": {"pre": [{"match": "sh", "command": "..."}]}}`; an unknown event is an
    error."""

    def document(self, doc: Any) -> None:
        hooks = doc.get("hooks") if isinstance(doc, dict) else None
        if not isinstance(hooks, dict):
            self.add("settings-type", "a toy file is {\"hooks\": {...}}", "")
            return
        for event, handlers in hooks.items():
            pointer = "/hooks/" + escape(event)
            if event not in TOY.events:
                self.add("unknown-event", f"unknown event {event!r}", pointer, "key")
                continue
            for index, handler in enumerate(handlers):
                self.handlers.append(Handler(
                    self.source, "", event, handler.get("match"), handler["command"], 10.0,
                    "command", True, f"{pointer}/{index}", dialect="toy",
                    **runs_as(TOY, event, handler)))


def read(doc: Any, source: Source, *, thorough: bool) -> DialectChecker:
    checker = ToyChecker(source, TOY, thorough=thorough)
    checker.document(doc)
    return checker


def selection(matcher: str | None, event: str) -> Selection:
    """Exact names; no matcher matches every tool."""
    return ALL if not matcher else Selection("names", (matcher,))


def answer(handler: Handler, result: ProcessResult, event: str) -> Answer:
    """`{"verdict": "no", "why": ...}` on stdout denies; anything else as hooks.json reads it."""
    said = json.loads(result.stdout or b"{}")
    if said.get("verdict") == "no":
        return Answer(handler, "ok", exit_code=0, output=said, decision="deny",
                      reason=said.get("why"))
    return hooks_json_answer(handler, result, event)


def write(verdict: Any, event: str) -> HostAnswer:
    """`{"go": bool, "because": text}`, always on exit 0."""
    return HostAnswer({"event": event, "go": not verdict.blocked,
                       "because": verdict.decision.reason}, 0)
