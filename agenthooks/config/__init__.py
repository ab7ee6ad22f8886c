"""Reading hooks.json files: discovery, the typed model, and the rules a file must follow."""
