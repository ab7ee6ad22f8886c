#!/bin/sh
# PreToolUse hook (disabled in hooks.json): a side-effect-free placeholder for an audit log.
cat >/dev/null
