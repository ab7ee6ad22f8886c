"""Gemini CLI as a host: its output writer (`render`); its handlers' answers read by
`kinds.protocols.gemini`."""
