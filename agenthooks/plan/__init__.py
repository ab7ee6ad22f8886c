"""Which handlers run for one event: the one selection `run`, `--dry-run`, `list` and
`explain` share (`select`), each matcher matching in its own dialect's words, and which files
a host's run includes."""
