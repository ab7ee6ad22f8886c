"""The toy host's files, as data (a dialect module imports only `sources.dialects.spec`: the table
of dialects imports it while `sources.dialects.check` loads)."""

from __future__ import annotations

from agenthooks.sources.dialects.spec import Dialect, HandlerType

TOY = Dialect(
    name="toy", host="Toy", events={"pre": "tool_name"}, exact_events=frozenset(),
    types={"command": HandlerType("command", ("command",), ("command", "match"), True)},
    group_keys=(), settings_keys=(), timeout_unit=1.0, default_timeout=10.0,
    timeout_by_event={}, project_var="TOY_PROJECT_DIR", option_types={}, shell="sh",
    reader="tests.seam_toy.host:read")
