"""Gemini CLI as a host: its protocol (`protocol`) and its output writer."""
