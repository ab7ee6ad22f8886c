"""Charm Crush as a host: its writer (`render`); its handlers' answers read by
`kinds.protocols.crush`, its file by `sources.dialects.crush`."""
