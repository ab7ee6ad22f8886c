"""The run path's stand-ins for standard-library modules, each proven against the real one.

A host starts `agenthooks run` for every tool call, so what the program imports is what a user
waits for. Where a standard-library module costs more to import than agenthooks uses of it,
its use on the run path goes through one module here instead; callers never see the choice.
Each module's docstring says what it stands for, what it saves (in instructions, against the
interpreter's own start of about 39 million) and how it is proven: every one is compared with
the module it replaces over generated inputs, in a fresh interpreter that has imported nothing
else, on every supported Python (`tests/shipped/test_lean_differential.py`, from the wheel in
`scripts/test-pythons`). A stand-in that cannot be proven equal where it is used is removed;
the shell's stand-in (a direct exec of simple commands) was, for that reason.

- `jsontext`: `json.loads`/`json.dumps` on the C codec (`json` brings `re`);
- `records`: `typing.NamedTuple` (`typing` brings `collections` and `functools`);
- `memo`: `functools.lru_cache`;
- `suppress`: `contextlib.suppress`;
- `imports`: the path finder and source loader, for agenthooks' own modules (proven by
  `tests/test_lean_imports.py`, every module imported by both).

`TYPE_CHECKING = False` at the top of a module, with the type-only imports under it, stands for
`typing.TYPE_CHECKING` the same way: the type checker reads the block, the program never runs it.
"""
