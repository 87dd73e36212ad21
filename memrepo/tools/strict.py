"""A tool's input schema in the strict subset a function-calling API enforces.

With `strict: true` the API constrains the model's sampling to the schema, so the
arguments always parse and have the right types; in exchange it accepts only part of
JSON Schema, and a schema outside that part fails the whole request. Both dialects get:

- `$ref`s inlined and `$defs` dropped (OpenAI refuses a `$ref` with sibling keywords such
  as `description`; inlining is accepted everywhere). A recursive model cannot be inlined
  and is refused here rather than by the API.
- `additionalProperties: false` on every object; a free-form `dict` field is refused.
- Keywords outside the dialect's subset removed. A removed bound is still enforced when
  the call is validated, and it is written into the field's description so the model
  knows it: "At most 1000 characters".

OpenAI (Structured Outputs, "Supported schemas"): every property is listed in
`required`; an optional one becomes nullable (`anyOf` with `{"type": "null"}`) and the
model sends `null` for "not given", which `memrepo.tools.lenient` reads as omitted so the
default applies. Kept: `enum`, `const`, `anyOf`, `pattern`, `format` (the documented
formats), `minimum`/`maximum`/`exclusive*`/`multipleOf`, `minItems`/`maxItems`. Removed:
`default`, `minLength`/`maxLength`, `oneOf` (becomes `anyOf`), the rest.

Anthropic (strict tool use, "JSON Schema limitations", and the SDK's `transform_schema`):
optional properties stay optional, and the `null` branch of an optional field is dropped
because omitting it says the same without spending the request's union budget (below).
Kept: `enum`, `const`, `anyOf`, `format` (the documented formats), `minItems` of 0 or 1.
Removed: `default`, numeric bounds, string lengths, `pattern`, `maxItems`, the rest.
Anthropic also limits all strict tools of one request together (20 tools, 24 optional
parameters, 16 parameters with a union type); `check_anthropic_budget` says so before the
API does.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Literal

from memrepo.errors import InvalidArgument

Dialect = Literal["openai", "anthropic"]

#: Structured Outputs' documented string formats (both vendors publish the same list).
STRING_FORMATS = frozenset(
    {"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}
)
ANTHROPIC_STRING_FORMATS = STRING_FORMATS | {"uri"}

#: Keywords each dialect keeps as they are; the structural ones are rebuilt below.
_KEPT: dict[Dialect, frozenset[str]] = {
    "openai": frozenset(
        {
            "type",
            "description",
            "enum",
            "const",
            "pattern",
            "minimum",
            "maximum",
            "exclusiveMinimum",
            "exclusiveMaximum",
            "multipleOf",
            "minItems",
            "maxItems",
        }
    ),
    "anthropic": frozenset({"type", "description", "enum", "const"}),
}
#: Rebuilt by the transform, never copied.
_STRUCTURAL = frozenset(
    {"properties", "required", "additionalProperties", "items", "anyOf", "oneOf", "allOf"}
)
#: Annotations with no meaning for the model.
_SILENT = frozenset({"title", "$schema", "$id", "$comment", "examples", "discriminator"})

#: Anthropic's limits for all strict tools of one request together.
ANTHROPIC_MAX_STRICT_TOOLS = 20
ANTHROPIC_MAX_OPTIONAL = 24
ANTHROPIC_MAX_UNIONS = 16

NULL: dict[str, Any] = {"type": "null"}


def strict_schema(schema: Mapping[str, Any], dialect: Dialect) -> dict[str, Any]:
    """`schema` (an object schema, as `Tool.parameters()` gives it) in `dialect`'s strict
    subset. The input is not changed."""
    defs = schema.get("$defs", {})
    inlined = _inline({k: v for k, v in schema.items() if k != "$defs"}, defs, ())
    if inlined.get("type") != "object":
        raise InvalidArgument("a strict tool schema must be an object at its root")
    converted, notes = _convert(inlined, dialect)
    return _with_notes(converted, notes)


def check_anthropic_budget(schemas: Iterable[Mapping[str, Any]]) -> None:
    """InvalidArgument when strict schemas meant for one Anthropic request together pass
    the API's limits (the API would refuse the whole request)."""
    listed = list(schemas)
    optional = sum(_count(schema, _optional_here) for schema in listed)
    unions = sum(_count(schema, _unions_here) for schema in listed)
    over = [
        f"{label} {found} (at most {limit})"
        for label, found, limit in (
            ("strict tools", len(listed), ANTHROPIC_MAX_STRICT_TOOLS),
            ("optional parameters", optional, ANTHROPIC_MAX_OPTIONAL),
            ("parameters with a union type", unions, ANTHROPIC_MAX_UNIONS),
        )
        if found > limit
    ]
    if over:
        raise InvalidArgument(
            "too much for Anthropic strict tool use in one request: "
            + ", ".join(over)
            + "; make only the tools that need it strict: anthropic_tools(strict={...names})"
        )


def _inline(node: Any, defs: Mapping[str, Any], seen: tuple[str, ...]) -> Any:
    """`node` with every local `$ref` replaced by its definition (siblings win)."""
    if isinstance(node, list):
        return [_inline(item, defs, seen) for item in node]
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    ref = node.get("$ref")
    if isinstance(ref, str):
        name = ref.removeprefix("#/$defs/")
        if name == ref or name not in defs:
            raise InvalidArgument(f"a tool schema refers to {ref!r}, which it does not define")
        if name in seen:
            raise InvalidArgument(
                f"a tool schema is recursive through {name!r}; strict mode cannot inline it"
            )
        out.update(_inline(defs[name], defs, (*seen, name)))
    for key, value in node.items():
        if key == "$ref":
            continue
        if key == "properties" and isinstance(value, dict):
            out[key] = {name: _inline(prop, defs, seen) for name, prop in value.items()}
        else:
            out[key] = _inline(value, defs, seen)
    return out


def _convert(node: Mapping[str, Any], dialect: Dialect) -> tuple[dict[str, Any], list[str]]:
    """One schema node in `dialect`, and the notes on what was removed from it (the
    caller writes them into the description of the property they belong to)."""
    node = _merge_single_all_of(node)
    out: dict[str, Any] = {}
    notes: list[str] = []
    for key, value in node.items():
        if _keeps(key, value, dialect):
            out[key] = value
        elif key not in _STRUCTURAL and key not in _SILENT:
            notes.append(_note(key, value, node, dialect))
    branches = node.get("anyOf", node.get("oneOf"))
    if isinstance(branches, list):
        converted = [_convert(branch, dialect) for branch in branches]
        out["anyOf"] = [branch for branch, _ in converted]
        notes.extend(note for _, branch_notes in converted for note in branch_notes)
    if "allOf" in node:
        raise InvalidArgument("strict mode cannot express `allOf` with several schemas")
    items = node.get("items")
    if isinstance(items, dict):
        item, item_notes = _convert(items, dialect)
        out["items"] = _with_notes(item, [f"Each item: {n[0].lower()}{n[1:]}" for n in item_notes])
    if node.get("type") == "object" or "properties" in node:
        out.update(_convert_object(node, dialect))
    return out, [note for note in dict.fromkeys(notes) if note]


def _convert_object(node: Mapping[str, Any], dialect: Dialect) -> dict[str, Any]:
    """`properties`, `required` and a closed `additionalProperties` for one object."""
    extra = node.get("additionalProperties", False)
    if extra is not False:
        raise InvalidArgument(
            "strict mode needs every object closed; a free-form mapping (a dict field) "
            "cannot be made strict"
        )
    properties: Mapping[str, Any] = node.get("properties", {})
    required = set(node.get("required", ()))
    converted: dict[str, Any] = {}
    for name, prop in properties.items():
        schema, notes = _convert(prop, dialect)
        if name not in required:
            schema = _nullable(schema) if dialect == "openai" else _without_null(schema)
        converted[name] = _with_notes(schema, notes)
    listed = list(properties) if dialect == "openai" else [n for n in properties if n in required]
    return {"properties": converted, "required": listed, "additionalProperties": False}


def _merge_single_all_of(node: Mapping[str, Any]) -> Mapping[str, Any]:
    """`{"allOf": [X], ...}` (an older pydantic's way to describe a `$ref`) as X + siblings."""
    all_of = node.get("allOf")
    if isinstance(all_of, list) and len(all_of) == 1 and isinstance(all_of[0], dict):
        return {**all_of[0], **{k: v for k, v in node.items() if k != "allOf"}}
    return node


def _keeps(key: str, value: Any, dialect: Dialect) -> bool:
    """Whether `dialect`'s strict mode takes the keyword `key: value` as it is."""
    if key == "format":
        return value in (STRING_FORMATS if dialect == "openai" else ANTHROPIC_STRING_FORMATS)
    if key == "minItems" and dialect == "anthropic":
        return value in (0, 1)
    return key in _KEPT[dialect]


def _allows_null(schema: Mapping[str, Any]) -> bool:
    kind = schema.get("type")
    if kind == "null" or (isinstance(kind, list) and "null" in kind):
        return True
    return any(_allows_null(branch) for branch in schema.get("anyOf", ()))


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    """`schema` or null, with the description left outside the union."""
    if _allows_null(schema):
        return schema
    if "anyOf" in schema:
        return {**schema, "anyOf": [*schema["anyOf"], NULL]}
    core = {k: v for k, v in schema.items() if k != "description"}
    wrapped: dict[str, Any] = {"anyOf": [core, NULL]}
    if "description" in schema:
        wrapped["description"] = schema["description"]
    return wrapped


def _without_null(schema: dict[str, Any]) -> dict[str, Any]:
    """An optional field's schema without its null branch: omitting it says "none"."""
    kind = schema.get("type")
    if isinstance(kind, list) and "null" in kind:
        rest = [k for k in kind if k != "null"]
        return {**schema, "type": rest[0] if len(rest) == 1 else rest}
    branches = schema.get("anyOf")
    if not isinstance(branches, list):
        return schema
    kept = [b for b in branches if b != NULL]
    if len(kept) == len(branches):
        return schema
    outer = {k: v for k, v in schema.items() if k != "anyOf"}
    if len(kept) == 1:
        return {**kept[0], **outer}
    return {**outer, "anyOf": kept}


def _with_notes(schema: dict[str, Any], notes: list[str]) -> dict[str, Any]:
    if not notes:
        return schema
    told = " ".join(f"{note}." for note in notes)
    description = schema.get("description")
    return {**schema, "description": f"{description} {told}" if description else told}


def _note(key: str, value: Any, node: Mapping[str, Any], dialect: Dialect) -> str:
    """The removed keyword `key` in words, or "" when it goes without a word."""
    shown = json.dumps(value, ensure_ascii=False)
    if key == "default":
        if value is None:
            return ""
        if dialect == "openai":
            return f"Send null for the default, {shown}"
        return f"Omit it for the default, {shown}"
    if key in ("minLength", "maxLength"):
        return _range(node.get("minLength"), node.get("maxLength"), "character")
    if key in ("minItems", "maxItems"):
        return _range(node.get("minItems"), node.get("maxItems"), "item")
    if key in ("minimum", "maximum"):
        return _range(node.get("minimum"), node.get("maximum"), "")
    words = {
        "exclusiveMinimum": "Greater than",
        "exclusiveMaximum": "Less than",
        "multipleOf": "A multiple of",
        "pattern": "Matches the pattern",
        "format": "Format",
    }
    return f"{words.get(key, key)} {shown}"


def _range(low: Any, high: Any, unit: str) -> str:
    """ "From 1 to 50 items", "At most 1000 characters", "At least 1"."""

    def counted(n: Any) -> str:
        return f"{n} {unit}{'' if n == 1 else 's'}" if unit else f"{n}"

    if low is not None and high is not None:
        return f"From {low} to {counted(high)}"
    if high is not None:
        return f"At most {counted(high)}"
    return f"At least {counted(low)}"


def _count(schema: Mapping[str, Any], here: Callable[[Mapping[str, Any]], int]) -> int:
    """How many properties, through every nesting level, `here(object_node)` counts."""
    total = 0
    if isinstance(schema.get("properties"), dict):
        total += here(schema)
    for prop in schema.get("properties", {}).values():
        total += _count(prop, here)
    for branch in schema.get("anyOf", ()):
        total += _count(branch, here)
    if isinstance(schema.get("items"), dict):
        total += _count(schema["items"], here)
    return total


def _optional_here(node: Mapping[str, Any]) -> int:
    required = set(node.get("required", ()))
    return sum(1 for name in node["properties"] if name not in required)


def _unions_here(node: Mapping[str, Any]) -> int:
    return sum(
        1
        for prop in node["properties"].values()
        if "anyOf" in prop or isinstance(prop.get("type"), list)
    )
