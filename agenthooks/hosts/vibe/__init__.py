"""Mistral Vibe as a host: its writer (`render`); its handlers' answers read by
`kinds.protocols.vibe`, its file by `sources.dialects.vibe`."""
