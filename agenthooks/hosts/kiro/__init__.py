"""Kiro: the answer in its words (`render`) and the hooks file `agenthooks init` writes
(`wiring`)."""
