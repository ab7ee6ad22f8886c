"""`agenthooks test`: fixture files that pin what the hooks of a workspace decide.

    model      the records: a fixture file, its cases, what each case expects and got
    loader     reads `*.hooktest.yaml|json` with positions; every finding at file:line:col
    runner     runs each case as a real `agenthooks run --report json` process and checks it
    reporters  text for people, JSON for tools, JUnit XML for CI
    record     writes a fixture from what the hooks decide today (`--record`)
"""
