"""Antigravity's hooks.json protocol: how one handler's answer reads (`protocol`), and the
answer written under `--host antigravity` (`render`): the engine's own (`combine.verdict`),
with the Antigravity CLI's other vocabulary added where the two agree.
"""
