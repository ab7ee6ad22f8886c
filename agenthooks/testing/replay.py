"""`agenthooks test --replay`: each case as it was recorded, then as every other host would
have sent it.

A recorded case (`agenthooks run --record`) holds one host's payload and the decision it got.
Replayed, it runs under that host as written, and under each other host that has the event
with the payload translated to that host's words (`sources.payloads.Translation`: its event
word, tool and argument names, the fields it has), run as `agenthooks run WORD --host HOST
--other-hosts` so that other hosts' settings files run whichever host calls (a host's own
files are left out, as in a live run: the host runs them itself). Antigravity's run takes no
`--host`: hooks.json is its own file, which agenthooks then runs as Antigravity would, in its
words (the payload says who calls: `sources.payloads.detect`). Each run expects the
recorded decision (and whether it blocked): a case that fails under a host is a decision that
changed there. A case names no host when it was written by hand: the host is then read off
its payload (`sources.payloads.detect`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from agenthooks.model.events import call_word, find_row, row_of
from agenthooks.model.hosts import host_ids
from agenthooks.sources.payloads import Translation, detect, tool_call
from agenthooks.testing.model import Case, Expect

# The host whose words `agenthooks run` speaks without --host, every workspace file run.
OWN_WORDS = "antigravity"


def across_hosts(cases: Sequence[Case]) -> list[Case]:
    """Every case under its own host, each followed by its runs under the other hosts."""
    replayed: list[Case] = []
    for case in cases:
        replayed.append(case._replace(name=f"{case.name} [{case.host or 'no --host'}]"))
        replayed.extend(translated(case))
    return replayed


def translated(case: Case) -> list[Case]:
    """The case under each host other than the one that sent it, where that host has the
    event; none when its payload is not a JSON object (there is nothing to translate)."""
    try:
        doc = json.loads(case.payload or b"{}")
    except ValueError:
        return []
    if not isinstance(doc, dict):
        return []
    caller = case.host or detect(doc, case.event)
    row = row_of(caller, case.event) or find_row(case.event)
    if row is None:
        return []
    tool, args = tool_call(doc, caller)
    if case.tool is not None:
        tool = case.tool
    call = Translation(caller, doc, case.payload, tool, args)
    expect = Expect(decision=case.expect.decision, blocked=case.expect.blocked)
    runs: list[Case] = []
    for host in host_ids():
        word = call_word(host, row, caller, tool)
        if host == caller or word is None:
            continue
        payload = json.dumps(call.built(host, word), ensure_ascii=False)
        flag = None if host == OWN_WORDS else host
        runs.append(case._replace(
            name=f"{case.name} [as {host}]", event=word, host=flag, other_hosts=flag is not None,
            tool=call.tool_in(host) if case.tool is not None else None,
            payload=payload.encode("utf-8", "surrogatepass"), expect=expect))
    return runs
