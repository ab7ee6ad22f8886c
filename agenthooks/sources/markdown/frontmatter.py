"""A Markdown hook file's frontmatter: split, parsed as YAML, and checked, with positions.

    ---                        line 1
    event: tool.pre            YAML, lines 2.. (the block)
    script: |
      def handle(event, payload):
          ...
    ---
    # name                     the body: documentation, never executed

Every finding is placed at `line:col` of the `.md` file itself; `Place` maps a position inside
`script:` or `when:` (as Starlark reports it) back through the block's offset and the
scalar's indent.
"""

from __future__ import annotations

from agenthooks._lean.records import NamedTuple
from agenthooks.model.eventnames import INT32_MAX
from agenthooks.model.handlers import Diagnostic, Source
from agenthooks.model.rules import RULES
from agenthooks.sources.markdown.events import engine_event, event_hint, event_meant, is_custom

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from agenthooks.sources.markdown.when import Test

KEYS: tuple[str, ...] = ("event", "priority", "when", "script", "timeout_ms", "on_error")
ON_ERROR: tuple[str, ...] = ("block", "allow")
DEFAULT_TIMEOUT_MS = 100
_FENCE = "---"
_FENCE_ENDS = ("---", "...")


class Place(NamedTuple):
    """Where line 1, column 1 of a scalar's text is in the file; `literal` when its lines
    are the file's lines (a `|` block), so later lines map too."""

    line: int
    column: int
    literal: bool

    def map(self, line: int, column: int) -> tuple[int, int]:
        """The file position of (line, column) inside the scalar's text (all 1-based)."""
        if line <= 1:
            return self.line, self.column + column - 1
        if self.literal:
            return self.line + line - 1, self.column + column - 1
        return self.line, self.column  # a folded scalar: its own lines are gone


class Frontmatter(NamedTuple):
    """What a file's frontmatter says, checked; positions for mapping Starlark's."""

    event: str  # the file's word, e.g. tool.pre
    priority: int
    when: str | None
    script: str
    timeout_ms: int
    on_error: str  # block | allow
    script_place: Place
    when_place: Place | None
    event_place: tuple[int, int]
    # `when` as a test answered without Starlark when it is a simple one (`sources.markdown.when`).
    when_test: Test | None = None


class Parsed(NamedTuple):
    # None without a script; with errors elsewhere, what could be read (for `validate` to
    # check the script too): a file runs only when `diagnostics` hold no error.
    front: Frontmatter | None
    diagnostics: tuple[Diagnostic, ...]


def diagnostic(source: Source, rule: str, message: str, line: int = 1, column: int = 1,
               pointer: str = "") -> Diagnostic:
    return Diagnostic(source.path, line, column, RULES[rule].severity, rule, message, pointer)


def split(text: str) -> tuple[int, str] | str:
    """(the index of the closing fence's line, the YAML block), or the rule that fails."""
    lines = text.split("\n")
    if lines[0].rstrip() != _FENCE:
        return "frontmatter-missing"
    for index in range(1, len(lines)):
        if lines[index].rstrip() in _FENCE_ENDS:
            return index, "\n".join(line.removesuffix("\r") for line in lines[1:index])
    return "frontmatter-unterminated"


_SPLIT_MESSAGES = {
    "frontmatter-missing": "a Markdown hook starts with a `---` line, then YAML frontmatter "
                           "(event, script, ...), then a closing `---` line",
    "frontmatter-unterminated": "the frontmatter that starts here has no closing `---` line",
}


def parse(source: Source, text: str) -> Parsed:
    """The checked frontmatter of a file's text, and every finding in it."""
    found = split(text)
    if isinstance(found, str):
        return Parsed(None, (diagnostic(source, found, _SPLIT_MESSAGES[found]),))
    _, block = found
    return _Checker(source, block).run()


class _Checker:
    """Reads the YAML block once (nodes with positions) and checks every key."""

    def __init__(self, source: Source, block: str) -> None:
        self.source = source
        self.block = block
        self.lines = block.split("\n")
        self.found: list[Diagnostic] = []
        self.errors = 0

    def add(self, rule: str, message: str, mark: Any = None, fix: str | None = None) -> None:
        line, column = (2 + mark.line, 1 + mark.column) if mark is not None else (1, 1)
        self.found.append(diagnostic(self.source, rule, message, line, column)._replace(fix=fix))
        if RULES[rule].severity == "error":
            self.errors += 1

    def run(self) -> Parsed:
        import yaml

        loader = yaml.SafeLoader(self.block)
        try:
            node = loader.get_single_node()
            values = self._values(loader, node)
        except yaml.MarkedYAMLError as exc:
            mark = exc.problem_mark or exc.context_mark
            what = exc.problem or exc.context or "invalid YAML"
            self.add("yaml-syntax", f"the frontmatter is not valid YAML: {what}", mark)
            return self._done(None)
        except yaml.YAMLError as exc:
            self.add("yaml-syntax", f"the frontmatter is not valid YAML: {exc}")
            return self._done(None)
        finally:
            loader.dispose()
        if values is None:
            return self._done(None)
        return self._done(self._front(values))

    def _done(self, front: Frontmatter | None) -> Parsed:
        self.found.sort(key=lambda d: (d.line, d.column))
        return Parsed(front, tuple(self.found))

    def _values(self, loader: Any, node: Any) -> dict[str, tuple[Any, Any]] | None:
        """key → (value, value node), duplicates and unknown keys reported on the way."""
        import yaml

        if not isinstance(node, yaml.MappingNode):
            where = node.start_mark if node is not None else None
            self.add("frontmatter-type", "the frontmatter must be a mapping of keys "
                     "(event: ..., script: ...)", where)
            return None
        values: dict[str, tuple[Any, Any]] = {}
        for key_node, value_node in node.value:
            key = loader.construct_object(key_node, deep=True)
            if not isinstance(key, str):
                self.add("frontmatter-unknown-key", f"key {key!r} is not a name; ignored",
                         key_node.start_mark)
                continue
            if key in values:
                self.add("frontmatter-duplicate-key",
                         f"key {key!r} is given twice; YAML keeps only this last one",
                         key_node.start_mark)
            elif key not in KEYS:
                self._unknown_key(key, key_node.start_mark)
            values[key] = (loader.construct_object(value_node, deep=True), value_node)
        return values

    def _unknown_key(self, key: str, mark: Any) -> None:
        from agenthooks.model.eventnames import did_you_mean

        guess = did_you_mean(key, list(KEYS))
        hint = f"; did you mean {guess!r}?" if guess else f" (known keys: {', '.join(KEYS)})"
        self.add("frontmatter-unknown-key", f"unknown key {key!r} is ignored{hint}", mark)

    def _front(self, values: dict[str, tuple[Any, Any]]) -> Frontmatter | None:
        event, event_mark = self._event(values)
        priority = self._integer(values, "priority", 0, "priority-invalid", minimum=-INT32_MAX)
        timeout_ms = self._integer(values, "timeout_ms", DEFAULT_TIMEOUT_MS,
                                   "timeout-ms-invalid", minimum=1)
        on_error = self._on_error(values)
        when, when_place = self._when(values)
        script, script_place = self._script(values)
        if script is None or script_place is None:
            return None
        from agenthooks.sources.markdown.when import analyse

        return Frontmatter(event or "", priority, when, script, timeout_ms, on_error, script_place,
                           when_place, event_mark, None if when is None else analyse(when))

    def _event(self, values: dict[str, tuple[Any, Any]]) -> tuple[str | None, tuple[int, int]]:
        if "event" not in values:
            self.add("event-missing", "no `event:` (tool.pre, tool.post, turn.start, turn.end, "
                     "agent.stop, session.start, session.end, error or custom.<name>)")
            return None, (1, 1)
        value, node = values["event"]
        mark = node.start_mark
        if not isinstance(value, str) or not (engine_event(value) or is_custom(value)):
            shown = value if isinstance(value, str) else repr(value)
            hint = event_hint(value) if isinstance(value, str) else "write an event word"
            meant = event_meant(value) if isinstance(value, str) else None
            self.add("event-invalid", f"unknown event {shown!r}: {hint}", mark, meant)
            return None, (2 + mark.line, 1 + mark.column)
        return value, (2 + mark.line, 1 + mark.column)

    def _integer(self, values: dict[str, tuple[Any, Any]], key: str, default: int, rule: str,
                 *, minimum: int) -> int:
        if key not in values:
            return default
        value, node = values[key]
        if type(value) is not int or not minimum <= value <= INT32_MAX:
            need = "a positive whole number" if minimum > 0 else "a whole number"
            self.add(rule, f"`{key}` must be {need}, not {value!r}", node.start_mark)
            return default
        return value

    def _on_error(self, values: dict[str, tuple[Any, Any]]) -> str:
        if "on_error" not in values:
            return "block"
        value, node = values["on_error"]
        if value not in ON_ERROR or not isinstance(value, str):
            self.add("on-error-invalid",
                     f"`on_error` must be `block` or `allow`, not {value!r}", node.start_mark)
            return "block"
        return value

    def _when(self, values: dict[str, tuple[Any, Any]]) -> tuple[str | None, Place | None]:
        if "when" not in values:
            return None, None
        value, node = values["when"]
        if isinstance(value, bool):  # `when: true` is a constant, as Starlark writes it
            value = "True" if value else "False"
        elif not isinstance(value, str) or not value.strip():
            self.add("starlark-when", "`when` must be a Starlark expression (a string), "
                     f"not {value!r}", node.start_mark)
            return None, None
        return value, self._place(node)

    def _script(self, values: dict[str, tuple[Any, Any]]) -> tuple[str | None, Place | None]:
        if "script" not in values:
            self.add("starlark-script-missing",
                     "no `script:` (Starlark that defines handle(event, payload))")
            return None, None
        value, node = values["script"]
        if not isinstance(value, str) or not value.strip():
            self.add("starlark-script-missing", "`script` must be Starlark text that defines "
                     f"handle(event, payload), not {value!r}", node.start_mark)
            return None, None
        return value, self._place(node)

    def _place(self, node: Any) -> Place:
        """Where the scalar's text starts in the file (see `Place`)."""
        mark = node.start_mark
        if node.style in ("|", ">"):
            first = mark.line + 1
            indent = next(
                (len(line) - len(line.lstrip(" ")) for line in self.lines[first:] if line.strip()),
                0,
            )
            return Place(2 + first, 1 + indent, node.style == "|")
        quoted = 1 if node.style in ("'", '"') else 0
        return Place(2 + mark.line, 1 + mark.column + quoted, False)
