"""Antigravity's hooks.json protocol: how one handler's answer reads (`protocol`).

The answer agenthooks writes when no other host is named is the engine's own
(`combine.verdict`), which is Antigravity's: `hosts.writers.antigravity` passes it on.
"""
