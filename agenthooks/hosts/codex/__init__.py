"""OpenAI Codex as a host: its hook trust (`trust`)."""
