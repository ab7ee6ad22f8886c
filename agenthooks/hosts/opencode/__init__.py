"""OpenCode as a host: its writer (`render`) and the plugin that calls agenthooks
(`plugin.js`, which `agenthooks init --host opencode` writes as `.opencode/plugin/agenthooks.js`
and `plugin.text` reads). OpenCode has no hook files of its own."""
