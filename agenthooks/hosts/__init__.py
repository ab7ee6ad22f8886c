"""Hosts: each reads the payload it is given and renders the final decision as its answer.

Antigravity's hooks.json protocol is the one today (`hosts.antigravity`): its exit-code
protocol, its decision words and its merge of parallel handlers are its own tables.
"""
