"""OpenAI Codex as a host: its answer (`render`), its own
per-hook trust (`trust`) and its legacy `notify` program (`notify`); its files are
`sources.dialects.codex`, its handlers' answers read by `kinds.protocols.codex`."""
