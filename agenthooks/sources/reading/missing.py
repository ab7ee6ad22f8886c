"""What a hook whose script is missing does, under its own host and under agenthooks' run
(`validate`'s `script-missing`).

A missing script is not one failure: the shell ends a program it cannot find with 127, but an
interpreter given a missing file exits with its own code, and exit 2 is the code most hosts
read as a block. So `python3 missing.py` blocks every call it gates under Claude Code, while
`./missing.sh` lets every call through: the message says which, host by host.
"""

from __future__ import annotations

# The exit code of an interpreter given a file that does not exist (measured: python3 2, perl 2,
# dash 2, node 1, bash 127); `sh` is dash on Debian and Ubuntu (bash elsewhere: 127). A program
# the shell cannot find at all exits 127.
INTERPRETER_EXITS = {"python": 2, "pypy": 2, "perl": 2, "sh": 2, "dash": 2, "bash": 127,
                     "zsh": 127, "node": 1, "nodejs": 1, "ruby": 1, "php": 1, "deno": 1,
                     "bun": 1, "tsx": 1}
NOT_FOUND = 127


def missing_exit(interpreter: str | None) -> int:
    """The exit code of a handler whose script is missing: `interpreter`'s (`python3.12`), or
    the shell's 127 for a script run by its path."""
    if interpreter is None:
        return NOT_FOUND
    return INTERPRETER_EXITS.get(interpreter.rstrip("0123456789."), 1)


def native_reading(host: str, host_name: str, code: int) -> str:
    """What `host` makes of a handler that exits `code` (`model.capabilities.HostFacts`)."""
    from agenthooks.model.capabilities import EXIT_RULES, host_facts

    facts = host_facts(host)
    native_exits = facts.blocking_exits if facts is not None else None
    if facts is None or native_exits is None:
        return f"what {host_name} does then is not documented"
    if EXIT_RULES[native_exits](code):
        return (f"{host_name} reads exit {code} as a block, so this hook blocks every call it "
                "gates")
    return f"{host_name} reads exit {code} as {facts.other_exit}, so this gate is off"


def consequence(host: str, host_name: str, code: int) -> str:
    """What a handler of `host` that exits `code` does, natively and under agenthooks' run,
    which reads the exits the host's docs say block (`model.capabilities.HostFacts`)."""
    from agenthooks.model.capabilities import EXIT_RULES, host_facts

    native = native_reading(host, host_name, code)
    facts = host_facts(host)
    native_exits = facts.blocking_exits if facts is not None else None
    documented = (facts.documented_exits or native_exits) if facts is not None else None
    ours = EXIT_RULES[documented or "2"](code)
    run = "blocks every call it gates" if ours else "is a warning (a deny under --fail-closed)"
    return f"{native}; under agenthooks run it {run}"
