"""Windsurf: the answer written under `--host windsurf` (`render`); its handlers' answers
read by `kinds.protocols.windsurf`."""
