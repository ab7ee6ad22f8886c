"""Grok Build as a host: its writer (`render`); its handlers' answers read by
`kinds.protocols.grok`, its files by `sources.dialects.grok`."""
