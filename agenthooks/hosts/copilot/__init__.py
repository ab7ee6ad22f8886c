"""GitHub Copilot CLI: the answer written under `--host copilot` (`render`); its handlers'
answers read by `kinds.protocols.copilot`."""
