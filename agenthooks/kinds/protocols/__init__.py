"""How one handler's answer reads under its host: its exit status and output, into the engine's
`Answer` (`model.handlers`). One module per host whose handlers speak a protocol of their own,
named by the host's row (`model.hosts.HostRow.protocol`); a host derived from another reads
with its parent's. `antigravity` is hooks.json's exit-code protocol, which the others start from.
"""
