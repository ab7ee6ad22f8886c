"""Combining outcomes: pure functions over the answers of one event, tested by tables.

    fold        in-process decide/transform hooks, in order: modify chains, the first
                terminal decision wins
    merge       the command handlers' answers, in parallel: the most restrictive wins
    failclosed  the one place a failure becomes a deny (`--fail-closed`)
    verdict     fold and merge together: the event's one answer and decision
"""
