"""Kimi Code as a host: its writer (`render`); its handlers' answers read by
`kinds.protocols.kimi`, its file by `sources.dialects.kimi`."""
