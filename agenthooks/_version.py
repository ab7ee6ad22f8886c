"""The version of agenthooks: read by hatch at build time, by caches and by `--version`."""

__version__ = "0.1.0"
