"""Reads a fixture file (`*.hooktest.yaml` or `*.hooktest.json`) with positions, and checks it.

    cases:                      a list of cases (required)
      - name: rm -rf is denied  every key below is checked; an unknown one is an error with a
        event: PreToolUse       did-you-mean, at file:line:col, like every other diagnostic
        payload_file: ../../payloads/pre_tool_use_denied.json
        expect: {decision: deny, blocked: true, reason: "recursive force delete"}
    workspace: ..               optional, relative to the file

YAML and JSON alike are composed by PyYAML into nodes that carry their marks; a JSON file is
first parsed by `json`, whose errors (and strictness) are the JSON ones.
"""

from __future__ import annotations

import json
import math
import os
import re
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from agenthooks.config import discovery
from agenthooks.config.loader import Unusable, read_bytes
from agenthooks.decision import WORDS
from agenthooks.events import did_you_mean, unknown_event_hint
from agenthooks.model.events import ALIASES, ALL_EVENTS
from agenthooks.model.handlers import Diagnostic
from agenthooks.testing.model import FIXTURE_SUFFIXES, Case, Expect, Fixture

TOP_KEYS: tuple[str, ...] = ("cases", "workspace")
CASE_KEYS: tuple[str, ...] = (
    "name", "host", "other_hosts", "event", "tool", "payload", "payload_file", "env",
    "isolate_home", "expect",
)
EXPECT_KEYS: tuple[str, ...] = (
    "decision", "blocked", "reason", "system_message", "modified_args", "handlers",
    "exit_code", "max_ms",
)
HANDLER_KEYS: tuple[str, ...] = ("ran", "not_ran")
MAX_NODES = 1_000_000
EVENT_NAMES: tuple[str, ...] = (*ALL_EVENTS, *ALIASES)
# Words people write for a merged decision that the report spells otherwise: the API's
# `approve` is the answer's `allow`; a block or a Stop's continue is the report's deny.
DECISION_HINTS: dict[str, str] = {
    "approve": "allow",
    "block": "deny",
    "continue": "deny",
}
# `decision: null` in a fixture: the case expects no decision at all.
NO_DECISION = "null"

# The rule ids of fixture diagnostics (all errors: a fixture that is not understood runs
# nothing, so a typo can never turn into a test that passes without checking anything).
RULES: dict[str, str] = {
    "fixture-unreadable": "the file cannot be read",
    "fixture-syntax": "the file is not valid YAML or JSON",
    "fixture-type": "a value of the wrong type",
    "fixture-unknown-key": "a key the fixture format does not have",
    "fixture-missing-key": "a required key is missing",
    "fixture-duplicate": "a key or a case name given twice",
    "fixture-value": "a value that is not allowed here",
    "fixture-payload-file": "a payload_file that cannot be read",
    "fixture-workspace": "no workspace for the cases",
}


class Node(NamedTuple):
    """A value with the 1-based position of where it starts; mappings and lists keep their
    children's nodes (`items`) so that every finding can point into them."""

    value: Any
    line: int
    column: int
    items: Any = None  # dict[str, tuple[Node, Node]] (key node, value node) or list[Node]


def is_fixture(path: str) -> bool:
    return path.endswith(FIXTURE_SUFFIXES)


class _Found(Exception):
    """Stops reading a file at a finding that leaves nothing to check below it."""


class FixtureReader:
    """Reads and checks one fixture file; `read()` returns the cases or the diagnostics."""

    def __init__(self, path: str, *, default_workspace: str | None = None) -> None:
        self.path = path  # as shown
        self.file = os.path.abspath(path)
        self.folder = os.path.dirname(self.file)
        self.default_workspace = default_workspace
        self.found: list[Diagnostic] = []
        self.nodes = 0

    def add(self, rule: str, message: str, node: Node | None = None) -> None:
        line, column = (node.line, node.column) if node is not None else (1, 1)
        self.found.append(Diagnostic(self.path, line, column, "error", rule, message, ""))

    def read(self) -> Fixture:
        try:
            root = self._parse()
            cases = self._fixture(root)
        except _Found:
            cases = []
        self.found.sort(key=lambda d: (d.line, d.column))
        if self.found:
            return Fixture(self.path, self.file, (), tuple(self.found))
        return Fixture(self.path, self.file, tuple(cases), ())

    # -- text to nodes

    def _parse(self) -> Node:
        try:
            data, _ = read_bytes(self.file, self.path, "fixture file")
        except Unusable as exc:
            self.add("fixture-unreadable", exc.message)
            raise _Found from None
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            self.add("fixture-unreadable", f"the file is not UTF-8 (byte {exc.start})")
            raise _Found from None
        text = text.removeprefix("\ufeff")
        if self.file.endswith(".json"):
            return self._json(text)
        return self._yaml(text)

    def _json(self, text: str) -> Node:
        try:
            value = json.loads(text, parse_constant=_no_constant)
        except json.JSONDecodeError as exc:
            self.add("fixture-syntax", f"not valid JSON: {exc.msg}",
                     Node(None, exc.lineno, exc.colno))
            raise _Found from None
        except (ValueError, RecursionError) as exc:
            self.add("fixture-syntax", f"not valid JSON: {exc}")
            raise _Found from None
        from agenthooks.config.jsonpos import read_positions

        try:
            value, positions = read_positions(text)
        except ValueError as exc:  # nested deeper than agenthooks reads anywhere
            self.add("fixture-syntax", f"not valid JSON: {exc}")
            raise _Found from None
        for pointer, offset in positions.duplicates:
            line, column = positions.line_col(offset)
            key = pointer.rsplit("/", 1)[-1].replace("~1", "/").replace("~0", "~")
            self.add("fixture-duplicate", f"key {key!r} is given twice; JSON keeps the last one",
                     Node(None, line, column))
        return _located(value, "", positions)

    def _yaml(self, text: str, *, report: bool = True) -> Node:
        import yaml

        loader = yaml.SafeLoader(text)
        try:
            node = loader.get_single_node()
            if node is None:
                self.add("fixture-type", "the file is empty: write `cases:` and a list of cases")
                raise _Found
            return self._node(loader, node)
        except yaml.MarkedYAMLError as exc:
            if report:
                mark = exc.problem_mark or exc.context_mark
                where = Node(None, mark.line + 1, mark.column + 1) if mark else None
                self.add("fixture-syntax",
                         f"not valid YAML: {exc.problem or exc.context or 'invalid'}", where)
            raise _Found from None
        except (yaml.YAMLError, RecursionError) as exc:
            if report:
                self.add("fixture-syntax", f"not valid YAML: {exc}")
            raise _Found from None
        finally:
            loader.dispose()

    def _node(self, loader: Any, node: Any) -> Node:
        import yaml

        self.nodes += 1
        if self.nodes > MAX_NODES:  # aliases of aliases ("billion laughs") expand without end
            self.add("fixture-syntax", f"more than {MAX_NODES} values (YAML aliases?)",
                     Node(None, node.start_mark.line + 1, node.start_mark.column + 1))
            raise _Found
        line, column = node.start_mark.line + 1, node.start_mark.column + 1
        if isinstance(node, yaml.MappingNode):
            items: dict[str, tuple[Node, Node]] = {}
            for key_node, value_node in node.value:
                key = self._node(loader, key_node)
                if not isinstance(key.value, str):
                    self.add("fixture-type", f"key {key.value!r} is not a name", key)
                    continue
                if key.value in items:
                    self.add("fixture-duplicate", f"key {key.value!r} is given twice", key)
                items[key.value] = (key, self._node(loader, value_node))
            return Node({k: v.value for k, (_, v) in items.items()}, line, column, items)
        if isinstance(node, yaml.SequenceNode):
            children = [self._node(loader, child) for child in node.value]
            return Node([child.value for child in children], line, column, children)
        return Node(loader.construct_object(node), line, column)

    # -- nodes to cases

    def _fixture(self, root: Node) -> list[Case]:
        if not isinstance(root.items, dict):
            self.add("fixture-type", "a fixture file is an object: `cases:` and a list of cases "
                     "(and optionally `workspace:`)", root)
            raise _Found
        items = self._known(root, TOP_KEYS)
        workspace = self._workspace(items.get("workspace"), root)
        cases_node = items.get("cases")
        if cases_node is None:
            self.add("fixture-missing-key", "no `cases:` (a list of cases)", root)
            return []
        if not isinstance(cases_node.items, list) or not cases_node.items:
            self.add("fixture-type", "`cases` must be a non-empty list of cases", cases_node)
            return []
        cases = [self._case(node, workspace) for node in cases_node.items]
        self._unique_names(cases_node.items)
        return [case for case in cases if case is not None]

    def _known(self, node: Node, keys: tuple[str, ...]) -> dict[str, Node]:
        """The mapping's values by key; unknown keys reported with a did-you-mean."""
        known: dict[str, Node] = {}
        for key, (key_node, value_node) in node.items.items():
            if key in keys:
                known[key] = value_node
                continue
            guess = did_you_mean(key, list(keys))
            hint = f"; did you mean {guess!r}?" if guess else f" (known keys: {', '.join(keys)})"
            self.add("fixture-unknown-key", f"unknown key {key!r}{hint}", key_node)
        return known

    def _workspace(self, node: Node | None, root: Node) -> str:
        if node is not None:
            if not isinstance(node.value, str) or not node.value:
                self.add("fixture-type", "`workspace` must be a directory (relative to this "
                         f"file), not {node.value!r}", node)
                return ""
            folder = os.path.normpath(os.path.join(self.folder, node.value))
            if not os.path.isdir(folder):
                self.add("fixture-workspace", f"workspace {node.value!r} is not a directory "
                         f"({folder})", node)
            return folder
        if self.default_workspace is not None:
            return os.path.abspath(self.default_workspace)
        found = workspace_of(self.file)
        if found is None:
            self.add("fixture-workspace", "no workspace holds this file (no .agents/hooks.json "
                     "or .harness/hooks/*.md above it): set `workspace:` or pass --workspace",
                     root)
            return ""
        return found

    def _unique_names(self, nodes: Sequence[Node]) -> None:
        seen: set[str] = set()
        for node in nodes:
            name = node.value.get("name") if isinstance(node.value, dict) else None
            if not isinstance(name, str):
                continue
            if name in seen:
                self.add("fixture-duplicate", f"case name {name!r} is used twice in this file",
                         node.items["name"][1])
            seen.add(name)

    def _case(self, node: Node, workspace: str) -> Case | None:
        if not isinstance(node.items, dict):
            self.add("fixture-type", "a case is an object (name, event, payload, expect...)",
                     node)
            return None
        errors = len(self.found)
        items = self._known(node, CASE_KEYS)
        name = self._required_text(items, "name", node)
        host = self._host(items.get("host"))
        other_hosts = self._flag(items.get("other_hosts"), "other_hosts", default=False)
        event = self._event(items, node)
        tool = self._optional_text(items.get("tool"), "tool")
        payload = self._payload(items)
        env = self._env(items.get("env"))
        isolate = self._flag(items.get("isolate_home"), "isolate_home", default=True)
        expect = self._expect(items.get("expect"))
        if len(self.found) > errors or name is None or event is None:
            return None
        return Case(name, self.path, node.line, workspace, event, tool, payload, env, isolate,
                    expect, host, other_hosts)

    def _host(self, node: Node | None) -> str | None:
        """`host`: the host whose words the case's run answers in (`run --host`)."""
        from agenthooks.userconfig import HOSTS

        host = self._optional_text(node, "host")
        if host is None or host in HOSTS:
            return host
        assert node is not None
        guess = did_you_mean(host, list(HOSTS))
        hint = f"; did you mean {guess!r}?" if guess else ""
        self.add("fixture-value", f"unknown host {host!r}{hint} (one of {', '.join(HOSTS)})",
                 node)
        return None

    def _required_text(self, items: dict[str, Node], key: str, case: Node) -> str | None:
        if key not in items:
            self.add("fixture-missing-key", f"a case needs `{key}:`", case)
            return None
        return self._optional_text(items[key], key)

    def _optional_text(self, node: Node | None, key: str) -> str | None:
        if node is None:
            return None
        if not isinstance(node.value, str) or not node.value:
            self.add("fixture-type", f"`{key}` must be non-empty text, not {node.value!r}", node)
            return None
        return node.value

    def _event(self, items: dict[str, Node], case: Node) -> str | None:
        event = self._required_text(items, "event", case)
        if event is None or event in EVENT_NAMES or _runs(event):
            return event
        self.add("fixture-value", f"unknown event {event!r}: "
                 f"{unknown_event_hint(event, EVENT_NAMES)}", items["event"])
        return None

    def _payload(self, items: dict[str, Node]) -> bytes:
        inline, named = items.get("payload"), items.get("payload_file")
        if inline is not None and named is not None:
            self.add("fixture-value", "give `payload` or `payload_file`, not both", named)
            return b""
        if named is not None:
            return self._payload_file(named)
        if inline is None:
            return b"{}"
        if not isinstance(inline.value, dict):
            self.add("fixture-type", "`payload` must be an object (the event's JSON payload); "
                     "use payload_file for anything else", inline)
            return b""
        if not self._json_values(inline):
            return b""
        return json.dumps(inline.value, ensure_ascii=False).encode("utf-8", "surrogatepass")

    def _payload_file(self, node: Node) -> bytes:
        if not isinstance(node.value, str) or not node.value:
            self.add("fixture-type", "`payload_file` must be a file name (relative to this "
                     f"file), not {node.value!r}", node)
            return b""
        target = os.path.join(self.folder, node.value)
        try:
            data, _ = read_bytes(target, node.value, "payload file")
        except Unusable as exc:
            self.add("fixture-payload-file", exc.message, node)
            return b""
        return data

    def _json_values(self, node: Node) -> bool:
        """Whether every scalar under `node` is one JSON has (YAML also has dates, sets...)."""
        if isinstance(node.items, dict):
            return all(self._json_values(value) for _, value in node.items.values())
        if isinstance(node.items, list):
            return all(self._json_values(child) for child in node.items)
        if isinstance(node.value, float) and not math.isfinite(node.value):
            self.add("fixture-value", "NaN and infinities are not JSON values", node)
            return False
        if node.value is None or isinstance(node.value, (str, int, float, bool)):
            return True
        self.add("fixture-value", f"{node.value!r} ({type(node.value).__name__}) is not a JSON "
                 "value: quote it", node)
        return False

    def _env(self, node: Node | None) -> dict[str, str]:
        if node is None:
            return {}
        if not isinstance(node.items, dict):
            self.add("fixture-type", "`env` must be an object of NAME: value", node)
            return {}
        env: dict[str, str] = {}
        for key, (key_node, value) in node.items.items():
            if not key or "=" in key or "\0" in key:
                self.add("fixture-value", f"{key!r} is not an environment variable name",
                         key_node)
            elif isinstance(value.value, str) and "\0" not in value.value:
                env[key] = value.value
            elif isinstance(value.value, int) and not isinstance(value.value, bool):
                env[key] = str(value.value)
            else:
                self.add("fixture-type", f"env {key}: the value must be text, not "
                         f"{value.value!r} (quote it)", value)
        return env

    def _flag(self, node: Node | None, key: str, *, default: bool) -> bool:
        if node is None:
            return default
        if not isinstance(node.value, bool):
            self.add("fixture-type", f"`{key}` must be true or false, not {node.value!r}", node)
            return default
        return node.value

    def _expect(self, node: Node | None) -> Expect:
        if node is None:
            return Expect()
        if not isinstance(node.items, dict):
            self.add("fixture-type", "`expect` must be an object (decision, blocked, reason...)",
                     node)
            return Expect()
        items = self._known(node, EXPECT_KEYS)
        ran, not_ran = self._handlers(items.get("handlers"))
        return Expect(
            decision=self._decision(items.get("decision")),
            blocked=self._flag(items.get("blocked"), "blocked", default=False)
            if "blocked" in items else None,
            reason=self._pattern(items.get("reason"), "reason"),
            system_message=self._pattern(items.get("system_message"), "system_message"),
            modified_args=self._modified_args(items.get("modified_args")),
            ran=ran,
            not_ran=not_ran,
            exit_code=self._exit_code(items.get("exit_code")),
            max_ms=self._max_ms(items.get("max_ms")),
        )

    def _decision(self, node: Node | None) -> str | None:
        if node is not None and node.value is None:
            return NO_DECISION
        word = self._optional_text(node, "decision")
        if word is None or word in WORDS:
            return word
        assert node is not None
        meant = DECISION_HINTS.get(word) or did_you_mean(word, list(WORDS))
        hint = f"; did you mean {meant!r}?" if meant else ""
        self.add("fixture-value", f"unknown decision {word!r}{hint} (the merged decision is "
                 f"one of {', '.join(WORDS)}, or null for none)", node)
        return None

    def _pattern(self, node: Node | None, key: str) -> str | None:
        text = self._optional_text(node, key)
        regex = regex_of(text) if text is not None else None
        if regex is not None:
            try:
                re.compile(regex)
            except re.error as exc:
                self.add("fixture-value", f"`{key}` is not a valid regex: {exc}", node)
                return None
        return text

    def _modified_args(self, node: Node | None) -> dict[str, Any] | None:
        if node is None:
            return None
        if not isinstance(node.value, dict) or not self._json_values(node):
            if not isinstance(node.value, dict):
                self.add("fixture-type", "`modified_args` must be an object (argument: value)",
                         node)
            return None
        return dict(node.value)

    def _handlers(self, node: Node | None) -> tuple[tuple[str, ...], tuple[str, ...]]:
        if node is None:
            return (), ()
        if not isinstance(node.items, dict):
            self.add("fixture-type", "`handlers` must be an object: {ran: [...], not_ran: [...]}",
                     node)
            return (), ()
        items = self._known(node, HANDLER_KEYS)
        return self._names(items.get("ran"), "ran"), self._names(items.get("not_ran"), "not_ran")

    def _names(self, node: Node | None, key: str) -> tuple[str, ...]:
        if node is None:
            return ()
        if isinstance(node.value, str):
            return (node.value,) if node.value else ()
        if not isinstance(node.items, list) or not all(
                isinstance(child.value, str) and child.value for child in node.items):
            self.add("fixture-type", f"`{key}` must be a list of hook names", node)
            return ()
        return tuple(child.value for child in node.items)

    def _exit_code(self, node: Node | None) -> int | None:
        value = self._number(node, "exit_code", lambda v: isinstance(v, int) and 0 <= v <= 255,
                             "a whole number from 0 to 255")
        return None if value is None else int(value)

    def _max_ms(self, node: Node | None) -> float | None:
        return self._number(node, "max_ms", lambda v: isinstance(v, (int, float)) and v > 0,
                            "a positive number of milliseconds")

    def _number(self, node: Node | None, key: str, good: Callable[[Any], bool],
                need: str) -> float | None:
        if node is None:
            return None
        if isinstance(node.value, bool) or not good(node.value):
            self.add("fixture-type", f"`{key}` must be {need}, not {node.value!r}", node)
            return None
        return float(node.value) if isinstance(node.value, float) else int(node.value)


def regex_of(text: str) -> str | None:
    """The pattern of a `/regex/` expectation, or None for a plain substring."""
    if len(text) >= 2 and text.startswith("/") and text.endswith("/"):
        return text[1:-1]
    return None


def workspace_of(file: str) -> str | None:
    """The workspace a fixture file sits in: the nearest one upward as discovery finds it,
    else the folder that holds its `.agents/` or `.harness/` (a workspace of Python hooks)."""
    folder = os.path.dirname(os.path.abspath(file))
    found = discovery.find_workspace_root(folder)
    if found is not None:
        return found
    parts = folder.split(os.sep)
    for index in range(len(parts) - 1, 0, -1):
        if parts[index] in (*discovery.CUSTOMIZATION_DIRS, discovery.HARNESS_DIR):
            return os.sep.join(parts[:index]) or os.sep
    return None


def _no_constant(word: str) -> Any:
    raise ValueError(f"{word} is not JSON")


def _located(value: Any, pointer: str, positions: Any) -> Node:
    """Nodes for a JSON value, each at its place in the text (keys at the key)."""
    from agenthooks.model.handlers import escape

    line, column = positions.locate(pointer, "value")
    if isinstance(value, dict):
        items = {}
        for key, child in value.items():
            inner = f"{pointer}/{escape(key)}"
            key_line, key_column = positions.locate(inner, "key")
            items[key] = (Node(key, key_line, key_column), _located(child, inner, positions))
        return Node(value, line, column, items)
    if isinstance(value, list):
        children = [_located(child, f"{pointer}/{index}", positions)
                    for index, child in enumerate(value)]
        return Node(value, line, column, children)
    return Node(value, line, column)


def load(path: str, *, default_workspace: str | None = None) -> Fixture:
    """One fixture file, read and checked."""
    return FixtureReader(path, default_workspace=default_workspace).read()


def _runs(event: str) -> bool:
    """Whether `agenthooks run` takes this event word (any host's word for a row counts)."""
    from agenthooks.api import check_event

    try:
        check_event(event)
    except ValueError:
        return False
    return True
