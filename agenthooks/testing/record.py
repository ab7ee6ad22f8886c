"""`agenthooks test --record`: a fixture file from what the hooks decide today (golden files).

Each payload becomes one case named after its file, with the payload inline and `expect`
holding the decision, whether it blocks, and the reason as it is now. Recording into an
existing fixture file keeps its other cases and replaces those of the same name, so one file
can collect the cases of several events (one `--event` per recording).
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from typing import Any

from agenthooks.errors import AgentHooksError
from agenthooks.testing.loader import workspace_of
from agenthooks.testing.model import Case, CaseResult, Expect
from agenthooks.testing.runner import Options, run_cases

TYPE_CHECKING = False
if TYPE_CHECKING:
    from agenthooks.userfiles import Written


class RecordError(AgentHooksError):
    """A payload or fixture file that cannot be recorded; `code` is the exit status."""

    def __init__(self, message: str, code: int) -> None:
        super().__init__(message)
        self.code = code


def is_yaml(path: str) -> bool:
    return path.lower().endswith((".yaml", ".yml"))


def _payload(path: str) -> tuple[bytes, dict[str, Any]]:
    try:
        with open(path, "rb") as stream:
            data = stream.read()
    except OSError as exc:
        raise RecordError(f"{path}: {exc.strerror or exc}", 2) from None
    try:
        value = json.loads(data or b"{}")
    except ValueError as exc:
        raise RecordError(f"{path}: not a JSON payload: {exc}", 2) from None
    if not isinstance(value, dict):
        raise RecordError(f"{path}: a payload is a JSON object", 2)
    return data, value


def _names(paths: Sequence[str]) -> list[str]:
    """A case name per payload: its file name without `.json`, numbered when repeated."""
    names: list[str] = []
    for path in paths:
        stem = os.path.basename(path).removesuffix(".json") or "payload"
        name, number = stem, 2
        while name in names:
            name, number = f"{stem} ({number})", number + 1
        names.append(name)
    return names


def record(payloads: Sequence[str], *, event: str, tool: str | None, workspace: str,
           output: str, options: Options) -> tuple[int, Written]:
    """Run each payload, write the fixture file; the number of cases written, and where."""
    parsed = [_payload(path) for path in payloads]
    cases = [
        Case(name, output, 0, os.path.abspath(workspace), event, tool, data, {}, True, Expect())
        for name, (data, _) in zip(_names(payloads), parsed, strict=True)
    ]
    results = run_cases(cases, options)
    recorded = [_recorded(result, value) for result, (_, value) in zip(results, parsed,
                                                                       strict=True)]
    document = _merged(output, recorded)
    here = workspace_of(output)
    if here is None or os.path.realpath(here) != os.path.realpath(workspace):
        folder = os.path.dirname(os.path.abspath(output))
        document = {"workspace": os.path.relpath(os.path.abspath(workspace), folder),
                    **{k: v for k, v in document.items() if k != "workspace"}}
    return len(recorded), _write(output, document)


def _recorded(result: CaseResult, payload: dict[str, Any]) -> dict[str, Any]:
    report = result.report
    if report is None or result.exit_code not in (0, 2):
        status = "did not finish" if result.exit_code is None else f"exit {result.exit_code}"
        detail = result.stderr.strip().splitlines()
        raise RecordError(f"{result.case.name}: agenthooks run gave no answer ({status})"
                          + (f": {detail[-1]}" if detail else ""), 1)
    case: dict[str, Any] = {"name": result.case.name, "event": result.case.event}
    if result.case.tool is not None:
        case["tool"] = result.case.tool
    case["payload"] = payload
    expect: dict[str, Any] = {"decision": report["decision"], "blocked": report["blocked"]}
    output = report.get("output")
    reason = output.get("reason") if isinstance(output, dict) else None
    if isinstance(reason, str) and reason:
        expect["reason"] = reason
    case["expect"] = expect
    return case


def _merged(output: str, recorded: list[dict[str, Any]]) -> dict[str, Any]:
    """The existing fixture's document with the recorded cases in it, or a new one."""
    if not os.path.exists(output):
        return {"cases": recorded}
    import yaml

    try:
        with open(output, encoding="utf-8") as stream:
            text = stream.read()
        document = yaml.safe_load(text) if is_yaml(output) else json.loads(text)
    except (OSError, ValueError, yaml.YAMLError) as exc:  # UnicodeDecodeError is a ValueError
        raise RecordError(f"{output}: cannot add to it: {exc}", 2) from None
    if not isinstance(document, dict) or not isinstance(document.get("cases", []), list):
        raise RecordError(f"{output}: cannot add to it: not a fixture file "
                          "({\"cases\": [...]})", 2)
    cases = list(document.get("cases", []))
    by_name = {case.get("name"): index for index, case in enumerate(cases)
               if isinstance(case, dict)}
    for case in recorded:
        if case["name"] in by_name:
            cases[by_name[case["name"]]] = case
        else:
            cases.append(case)
    return {**document, "cases": cases}


def _write(output: str, document: dict[str, Any]) -> Written:
    """The fixture file written whole or not at all, what it replaced kept as a `.bak`
    (`agenthooks.userfiles`)."""
    from agenthooks.userfiles import WriteError, write

    if is_yaml(output):
        import yaml

        text = yaml.safe_dump(document, sort_keys=False, allow_unicode=True, width=100)
    else:
        text = json.dumps(document, indent=2, ensure_ascii=False) + "\n"
    try:
        return write(output, text)
    except WriteError as exc:
        raise RecordError(str(exc), 1) from None
