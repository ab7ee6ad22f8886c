"""deepagents-code as a host: its writer (`render`); its handlers' answers read by
`kinds.protocols.deepagents`, its files by `sources.dialects.deepagents`."""
