"""Windsurf: how one of its handlers' answers reads (`protocol`), and the answer written
under `--host windsurf` (`render`)."""
