"""`agenthooks hosts`: what each host can really enforce, from `model.capabilities`.

One table per host of its failure handling (its fail-closed switch, what a timeout and another
exit code do), then one row per host and event: whether a hook can block there, rewrite what
the event is about, add context for the model. `--format json` adds each fact's sources;
`--format markdown` prints the tables docs/hosts.md holds.
"""

from __future__ import annotations

import json
import sys

from agenthooks.escape import printable
from agenthooks.model import capabilities as caps
from agenthooks.model.hosts import host_name

GENERAL_HEADERS = ("HOST", "FAIL-CLOSED SWITCH", "ON TIMEOUT", "ON ANOTHER EXIT")
EVENT_HEADERS = ("HOST", "EVENT", "WORD", "BLOCK", "REWRITE", "CONTEXT", "ON ANOTHER EXIT")


def report(hosts: tuple[str, ...] | None) -> dict[str, object]:
    """The table as one JSON-ready object: each host's general facts, then each event's."""
    from agenthooks.model.hosts import host_ids

    chosen = host_ids() if hosts is None else hosts
    general = []
    for host in chosen:
        facts = caps.host_facts(host)
        if facts is None:
            continue
        general.append({
            "host": host, "name": host_name(host), "failSwitch": facts.fail_switch,
            "onTimeout": facts.on_timeout, "onError": facts.on_error,
            "note": facts.note or None,
            "sources": {"failSwitch": facts.fail_switch_cite,
                        "onTimeout": facts.on_timeout_cite, "onError": facts.on_error_cite}})
    return {"hosts": general,
            "capabilities": [caps.as_dict(cap) for cap in caps.capabilities(chosen)]}


def hosts(host: str | None, fmt: str) -> int:
    """Print the table (of one host with `host`); 0."""
    chosen = None if host is None else (host,)
    if fmt == "markdown":
        sys.stdout.write(caps.markdown_table(chosen))
    elif fmt == "json":
        sys.stdout.write(json.dumps(report(chosen), indent=2, ensure_ascii=False) + "\n")
    else:
        write_text(report(chosen))
    return 0


def write_text(found: dict[str, object]) -> None:
    from agenthooks.report.table import render_table

    general = found["hosts"]
    events = found["capabilities"]
    assert isinstance(general, list) and isinstance(events, list)
    render_table(GENERAL_HEADERS, [
        tuple(printable(text) for text in (
            row["name"], row["failSwitch"] or "none", caps.failure_word(row["onTimeout"]),
            caps.failure_word(row["onError"])))
        for row in general], stream=sys.stdout)
    sys.stdout.write("\n")
    render_table(EVENT_HEADERS, [
        tuple(printable(text) for text in (
            host_name(row["host"]), row["event"], row["word"] or "-",
            caps.yes_no(row["block"]), caps.yes_no(row["rewrite"]),
            caps.yes_no(row["context"]), caps.failure_word(row["onError"])))
        for row in events], stream=sys.stdout)
