"""JetBrains Junie CLI as a host: its writer (`render`); its handlers' answers read by
`kinds.protocols.junie`, its config.json by `sources.dialects.junie_check`."""
