"""Cursor: the answer written under `--host cursor` (`render`); its handlers' answers read by
`kinds.protocols.cursor`."""
