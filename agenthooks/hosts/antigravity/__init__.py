"""Antigravity's answer under `--host antigravity` (`render`): the engine's own
(`combine.verdict`), with the Antigravity CLI's other vocabulary added where the two agree.
How a hooks.json handler's answer reads is `kinds.protocols.antigravity`.
"""
