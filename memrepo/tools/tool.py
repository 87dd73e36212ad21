"""What a tool is: a name, a description that tells a model when to use it, a pydantic
input model (the one source of its JSON schema and its validation) and a handler.

Handlers receive a `ToolEnv`: the repo, the per-task context and the host's approval
callback. They never see raw model output: `Tool.run` validates first, so a malformed call
raises ToolInputError before anything is read or written.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from pydantic import BaseModel, ValidationError

from memrepo.errors import SenderRefused, ToolInputError
from memrepo.tools.approval import ForgetApproval, deny_all
from memrepo.tools.lenient import loosen
from memrepo.tools.models import ToolInput
from memrepo.tools.tool_context import ToolContext

if TYPE_CHECKING:
    from memrepo.engine import MemoryRepo

InputT = TypeVar("InputT", bound=ToolInput)

#: Control characters no memory, path, ref or name has a use for: NUL and the C0/C1
#: controls (tab, newline and carriage return are whitespace and stay). The folder layer
#: would turn a NUL into a space; refusing it tells the model its call was wrong instead
#: of storing something it did not write.
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
#: Problems listed per call, at most; the rest are summed up in one line.
_MAX_PROBLEMS = 10


@dataclass(frozen=True, slots=True)
class ToolEnv:
    """What a handler runs against: one repo, one task's context, the host's approval."""

    repo: MemoryRepo
    context: ToolContext = field(default_factory=ToolContext)
    approval: ForgetApproval = deny_all


@dataclass(frozen=True, slots=True)
class ToolHints:
    """What a host may assume about a tool before calling it (MCP tool annotations).

    A host uses them to decide what needs the person's confirmation: a read-only tool can
    run unasked, a destructive one should not. `open_world` is False for every memory
    tool: they touch this memory repo only, never the internet.
    """

    read_only: bool = False
    destructive: bool = False
    idempotent: bool = False
    open_world: bool = False

    def as_annotations(self) -> dict[str, bool]:
        """The hints under MCP's annotation names."""
        return {
            "readOnlyHint": self.read_only,
            "destructiveHint": self.destructive,
            "idempotentHint": self.idempotent,
            "openWorldHint": self.open_world,
        }


READ_ONLY = ToolHints(read_only=True, idempotent=True)
#: Changing tools that apply the channel-sender rule themselves: remember stores what a
#: sender says as a fact about them; swarm_note is the task's working note, not the
#: owner's memory; the file tool lets such a turn view, never write.
SENDER_AWARE = frozenset({"memory_remember", "swarm_note", "memory"})
"""The hints of a tool that only reads memory."""


@dataclass(frozen=True, slots=True)
class Tool(Generic[InputT]):
    """One agent tool. `description` is for the model: say what it does and when to call.

    `output_model` is what `handler` returns: its schema is the tool's published output
    schema, so a host can check the structured result against it.
    """

    name: str
    description: str
    input_model: type[InputT]
    handler: Callable[[ToolEnv, InputT], BaseModel]
    title: str = ""
    output_model: type[BaseModel] | None = None
    hints: ToolHints = ToolHints()

    def parameters(self) -> dict[str, Any]:
        """The input's JSON schema, as function-calling APIs and MCP expect it: with no
        `$defs`/`$ref`, which several hosts' form builders and validators cannot follow
        (Copilot CLI, Kiro, opencode, the Inspector's form; issue #28)."""
        return inline_refs(clean_schema(self.input_model.model_json_schema()))

    def output_schema(self) -> dict[str, Any] | None:
        """The JSON schema of the result (`mode="serialization"`: what `run` returns), in
        its lean form (`lean_schema`): an MCP client checks every result against it."""
        if self.output_model is None:
            return None
        schema = clean_schema(self.output_model.model_json_schema(mode="serialization"))
        return lean_schema(schema)

    def validate(self, arguments: Mapping[str, Any]) -> InputT:
        """The arguments as the input model; ToolInputError (model-readable) otherwise.

        `null` for an optional field and an integral float for an integer are read as
        the model meant them first (`memrepo.tools.lenient`), so what a strict-mode
        schema has a model send always validates.
        """
        controls = control_characters(arguments)
        if controls:
            raise ToolInputError(self.name, controls)
        try:
            return self.input_model.model_validate(loosen(self.input_model, arguments))
        except ValidationError as exc:
            raise ToolInputError(self.name, describe(exc)) from exc

    def run(self, env: ToolEnv, arguments: Mapping[str, Any]) -> dict[str, Any]:
        """Validate, apply, and return the result as a JSON-serializable dict.

        A turn that handles someone else's message (`ToolContext.sender`) may read and
        remember (as a fact about the sender), never change the owner's memory: a tool
        whose hints do not say read-only is refused unless it sorts that out itself
        (`SENDER_AWARE`)."""
        args = self.validate(arguments)
        changes = not self.hints.read_only and self.name not in SENDER_AWARE
        if changes and not env.context.from_owner:
            raise SenderRefused(self.name, env.context.sender or "")
        result = self.handler(env, args)
        return result.model_dump(mode="json")


def control_characters(arguments: Mapping[str, Any]) -> list[str]:
    """One line per string argument (nested ones too) holding a control character, named
    by its place (`metadata.0.value`); never the value itself."""
    found: list[str] = []

    def walk(value: Any, where: str) -> None:
        if len(found) > _MAX_PROBLEMS:
            return
        if isinstance(value, str):
            match = _CONTROL.search(value)
            if match is not None:
                code = f"U+{ord(match.group()):04X}"
                found.append(f"{where}: contains a control character ({code}); remove it")
        elif isinstance(value, Mapping):
            for key, item in value.items():
                walk(item, f"{where}.{key}" if where else str(key))
        elif isinstance(value, (list, tuple)):
            for n, item in enumerate(value):
                walk(item, f"{where}.{n}")

    walk(arguments, "")
    return found[:_MAX_PROBLEMS]


def describe(exc: ValidationError) -> list[str]:
    """One line per problem, naming the field and what was wrong, without echoing long
    input back (a model reads this and retries). The input is looked at, never quoted,
    except a float, which is short."""
    problems: list[str] = []
    for error in exc.errors(include_url=False, include_context=False):
        where = ".".join(str(part) for part in error["loc"]) or "arguments"
        kind = error["type"]
        given = error.get("input")
        if kind == "extra_forbidden":
            problems.append(f"{where}: unknown field (remove it)")
        elif kind == "missing":
            problems.append(f"{where}: required field is missing")
        elif given is None and error["loc"]:
            # lenient already dropped the nulls of optional fields: this one is required
            problems.append(f"{where}: must not be null (give a value)")
        elif kind == "int_type" and type(given) is float:
            exact = math.isfinite(given) and given.is_integer()  # then it is just too large
            problems.append(
                f"{where}: {given!r} is too large to be an exact whole number"
                if exact
                else f"{where}: must be a whole number, not {given!r}"
            )
        else:
            problems.append(f"{where}: {error['msg']}")
    return problems


def clean_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """Drop pydantic's `title` keywords (noise in a model's context); keep everything else.

    Property names are not keywords, so a field named `title` survives.
    """

    def walk(node: Any, in_properties: bool = False) -> Any:
        if isinstance(node, dict):
            out: dict[str, Any] = {}
            for key, value in node.items():
                if key == "title" and not in_properties and isinstance(value, str):
                    continue
                out[key] = walk(value, in_properties=key in ("properties", "$defs"))
            return out
        if isinstance(node, list):
            return [walk(item) for item in node]
        return node

    cleaned: dict[str, Any] = walk(schema)
    return cleaned


#: Keywords that constrain one JSON type only (or annotate), so `{"type": [T, "null"],
#: ...}` with them accepts exactly what `anyOf: [{"type": T, ...}, {"type": "null"}]` does.
_TYPE_KEYWORDS = frozenset(
    {
        "type", "format", "pattern", "minLength", "maxLength", "minimum", "maximum",
        "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "items", "minItems",
        "maxItems", "properties", "required", "additionalProperties", "description",
    }
)  # fmt: skip


def lean_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """`schema` accepting exactly the same values, cheaper to check: local `$ref`s
    inlined (a recursive one keeps the schema as it is) and every optional field's
    `anyOf: [{"type": T}, {"type": "null"}]` written `{"type": [T, "null"]}`.

    Why: the MCP SDK's client validates each tool result against the output schema with
    jsonschema, and a `null` checked against `anyOf` first fails its `T` branch, which
    builds an error object; a recall result has dozens of such fields. Flat, the check
    costs half as much (benchmarks/bench_mcp.py measures the round trip it is part of).
    """
    inlined = inline_refs(schema)
    if inlined is schema:  # recursive: left as it is, whole
        return schema
    lean: dict[str, Any] = _collapse_nullable(inlined)
    return lean


def inline_refs(schema: dict[str, Any]) -> dict[str, Any]:
    """`schema` with every local `$ref` replaced by its definition and `$defs` dropped;
    a recursive or dangling one keeps the schema as it is, the very object (nothing
    else can say it)."""
    defs = schema.get("$defs", {})

    def inline(node: Any, seen: tuple[str, ...]) -> Any:
        if isinstance(node, list):
            return [inline(item, seen) for item in node]
        if not isinstance(node, dict):
            return node
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/"):
            name = ref.removeprefix("#/$defs/")
            if name in seen or name not in defs:
                raise _Recursive(name)
            target = inline(defs[name], (*seen, name))
            return {**target, **{k: inline(v, seen) for k, v in node.items() if k != "$ref"}}
        return {k: inline(v, seen) for k, v in node.items() if k != "$defs"}

    try:
        inlined: dict[str, Any] = inline(schema, ())
    except _Recursive:
        return schema
    return inlined


class _Recursive(Exception):
    """A `$ref` that cannot be inlined (recursive or dangling)."""


def _collapse_nullable(node: Any) -> Any:
    if isinstance(node, list):
        return [_collapse_nullable(item) for item in node]
    if not isinstance(node, dict):
        return node
    node = {key: _collapse_nullable(value) for key, value in node.items()}
    branches = node.get("anyOf")
    if isinstance(branches, list) and len(branches) == 2 and {"type": "null"} in branches:
        (other,) = [branch for branch in branches if branch != {"type": "null"}]
        kind = other.get("type") if isinstance(other, dict) else None
        if isinstance(kind, str) and set(other) <= _TYPE_KEYWORDS and not set(other) & set(node):
            collapsed = {key: value for key, value in node.items() if key != "anyOf"}
            return {**collapsed, **other, "type": [kind, "null"]}
    return node
