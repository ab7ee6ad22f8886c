"""Output of the read-only commands: diagnostics reporters and tables.

Reporters read a results object and write to a stream; they never decide exit codes. rich is
imported only by code that renders to a terminal.
"""
