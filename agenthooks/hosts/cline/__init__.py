"""Cline as a host: its writer (`render`); its hooks' answers read by
`kinds.protocols.cline`, its hook files by `sources.dialects.cline`."""
