"""hooks.json, Antigravity's hook file: loading it (`loader`) and its JSON Schema (`schema`)."""
