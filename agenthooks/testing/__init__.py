"""`agenthooks test`: fixture files that pin what the hooks of a workspace decide.

    model      the records: a fixture file, its cases, what each case expects and got
    loader     reads `*.hooktest.yaml|json` with positions; every finding at file:line:col
    runner     runs each case as a real `agenthooks run --report json` process and checks it
    reporters  text for people, JSON for tools, JUnit XML for CI
    record     writes a fixture from what the hooks decide today (`--record`)
    replay     each case under every host, its payload translated (`--replay`)
    capture    `agenthooks run --record DIR`: a run's payload and answer as a fixture file
    redact     what a recorded payload keeps of secrets and file contents
"""
