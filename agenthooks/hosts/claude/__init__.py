"""Claude Code as a host: its output writer (`render`); its handlers' answers read by
`kinds.protocols.claude`."""
