"""The Agent Hooks Protocol (AHP) v0.1 as a protocol agenthooks answers: `agenthooks ahp`.

Not a host with files of its own (no row in `model.hosts`): a harness speaking AHP sends a
`hooks/intercept` request, `protocol` reads it into the payload the engine runs, and the
engine's verdict is written back as the effects AHP defines.
"""
