"""Goose as a host: its writer (`render`); its handlers' answers read by
`kinds.protocols.goose`, its files by `sources.dialects.goose`."""
