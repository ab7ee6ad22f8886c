"""What every hook-file format shares to read a file: its bytes and text (`text`), where each
key stands (`jsonpos`), the cache of checked files (`cache`, read back by `entries`), the walk
that checks a hook document (`check`: hooks.json's rules, which each host's checker extends),
what a missing script does (`missing`) and hook entries in TOML (`toml`). The formats
(`sources.hooksjson`, `sources.dialects`, `sources.markdown`) import this and never each
other."""
