"""OpenAI Codex as a host: its answer (`render`) and its legacy `notify` program (`notify`);
its files are `sources.dialects.codex` (its own trust of each hook `sources.dialects.codex_trust`),
its handlers' answers read by `kinds.protocols.codex`."""
