"""GitHub Copilot CLI (and VS Code agent hooks) as a host: its answers and its handlers' protocol."""
