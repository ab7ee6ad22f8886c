#!/bin/sh
# PreInvocation hook: remind the agent to lint, every invocation.
cat >/dev/null
printf '%s\n' '{"injectSteps":[{"ephemeralMessage":"Run the linter before you finish."}]}'
