"""Claude Code as a host: its protocol (`protocol`) and its output writer."""
