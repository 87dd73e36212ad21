"""The exported tools as each API's official SDK types them (offline), the strict schemas
checked against the strict rules by a checker of our own, and the round trip: whatever a
model sends under a strict schema validates."""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator
from pydantic import Field, TypeAdapter, create_model

from memrepo.errors import InvalidArgument, ToolInputError
from memrepo.tools import (
    MEMORY_RECALL,
    Tool,
    ToolEnv,
    ToolInput,
    ToolOutput,
    ToolRegistry,
    anthropic_tools,
    default_registry,
    openai_responses_tools,
    openai_tools,
)

anthropic_types = pytest.importorskip("anthropic.types")
chat_types = pytest.importorskip("openai.types.chat")
responses_types = pytest.importorskip("openai.types.responses")

#: OpenAI's documented rule for function names.
FUNCTION_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")

#: The keywords each API's strict mode accepts, written from their documentation
#: independently of memrepo.tools.strict (OpenAI "Supported schemas"; Anthropic "JSON
#: Schema limitations").
OPENAI_STRICT_KEYWORDS = {
    "type",
    "description",
    "enum",
    "const",
    "anyOf",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "pattern",
    "format",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minItems",
    "maxItems",
}
ANTHROPIC_STRICT_KEYWORDS = {
    "type",
    "description",
    "enum",
    "const",
    "anyOf",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "format",
    "minItems",
}


class Tag(ToolInput):
    name: str = Field(min_length=1, max_length=40, description="The tag.")
    weight: int = Field(default=1, ge=1, le=9, description="How much it counts.")
    note: str | None = Field(default=None, description="Why.")


class TagInput(ToolInput):
    """Tags for things: nested models, which pydantic describes with definitions."""

    main: Tag = Field(description="The main tag.")
    tags: list[Tag] = Field(default_factory=list, max_length=3, description="More tags.")
    backup: Tag | None = Field(default=None, description="A spare tag.")
    mode: str = Field(default="add", pattern="^(add|drop)$", description="add or drop.")


class TagOutput(ToolOutput):
    count: int


def tag(env: ToolEnv, args: TagInput) -> TagOutput:
    return TagOutput(count=1 + len(args.tags) + (args.backup is not None))


def nothing(env: ToolEnv, args: ToolInput) -> TagOutput:
    return TagOutput(count=0)


TAG = Tool(name="tag_things", description="Tag things.", input_model=TagInput, handler=tag)


def registry_with_tag() -> ToolRegistry:
    registry = default_registry()
    registry.register(TAG)
    return registry


def anthropic_each(registry: ToolRegistry, *, strict: bool) -> list[dict[str, Any]]:
    """Each tool as Anthropic gets it, one request per tool: all the built-in tools strict
    at once pass Anthropic's per-request budget (tested below)."""
    return [anthropic_tools(ToolRegistry([tool]), strict=strict)[0] for tool in registry]


def strict_violations(schema: dict[str, Any], dialect: str, path: str = "") -> list[str]:
    """Every place `schema` breaks the dialect's strict rules (empty when it keeps them)."""
    allowed = OPENAI_STRICT_KEYWORDS if dialect == "openai" else ANTHROPIC_STRICT_KEYWORDS
    found = [f"{path or '/'}: {key} is not allowed" for key in set(schema) - allowed]
    if schema.get("type") == "object" or "properties" in schema:
        properties = schema.get("properties", {})
        if schema.get("additionalProperties") is not False:
            found.append(f"{path or '/'}: object without additionalProperties: false")
        required = schema.get("required", [])
        if dialect == "openai" and required != list(properties):
            found.append(f"{path or '/'}: required {required} is not every property")
        if not set(required) <= set(properties):
            found.append(f"{path or '/'}: requires a property it does not define")
        for name, prop in properties.items():
            found += strict_violations(prop, dialect, f"{path}/{name}")
    if dialect == "anthropic" and schema.get("minItems", 0) not in (0, 1):
        found.append(f"{path or '/'}: minItems other than 0 or 1")
    if isinstance(schema.get("items"), dict):
        found += strict_violations(schema["items"], dialect, f"{path}/items")
    for i, branch in enumerate(schema.get("anyOf", [])):
        found += strict_violations(branch, dialect, f"{path}/anyOf/{i}")
    return found


def the_strict_schemas(registry: ToolRegistry) -> list[tuple[str, str, dict[str, Any]]]:
    return [
        *(
            ("openai", t["function"]["name"], t["function"]["parameters"])
            for t in openai_tools(registry, strict=True)
        ),
        *(
            ("openai", t["name"], t["parameters"])
            for t in openai_responses_tools(registry, strict=True)
        ),
        *(
            ("anthropic", t["name"], t["input_schema"])
            for t in anthropic_each(registry, strict=True)
        ),
    ]


@pytest.mark.parametrize("strict", [False, True])
def test_every_export_is_what_the_official_sdks_type(strict: bool) -> None:
    registry = registry_with_tag()
    shapes: list[tuple[Any, list[dict[str, Any]]]] = [
        (chat_types.ChatCompletionFunctionToolParam, openai_tools(registry, strict=strict)),
        (chat_types.ChatCompletionToolUnionParam, openai_tools(registry, strict=strict)),
        (responses_types.FunctionToolParam, openai_responses_tools(registry, strict=strict)),
        (responses_types.ToolParam, openai_responses_tools(registry, strict=strict)),
        (anthropic_types.ToolParam, anthropic_each(registry, strict=strict)),
        (anthropic_types.ToolUnionParam, anthropic_each(registry, strict=strict)),
    ]
    for sdk_type, tools in shapes:
        adapter: TypeAdapter[Any] = TypeAdapter(sdk_type)
        assert len(tools) == len(registry)
        for exported in tools:
            # A TypedDict drops keys it does not know, so equality also proves that
            # every key we send is one the SDK defines.
            assert adapter.validate_python(exported) == exported, (sdk_type, exported)


def test_names_follow_the_function_name_rule() -> None:
    for tool in registry_with_tag():
        assert FUNCTION_NAME.match(tool.name), tool.name


def test_the_strict_schemas_keep_the_strict_rules() -> None:
    for dialect, name, schema in the_strict_schemas(registry_with_tag()):
        assert schema["type"] == "object" and "anyOf" not in schema
        assert strict_violations(schema, dialect) == [], (dialect, name)
        assert "$ref" not in repr(schema) and "$defs" not in schema


def test_the_checker_catches_what_the_plain_schemas_break() -> None:
    """The plain schemas use default, minLength, optional properties: the checker sees it."""
    plain = {t["name"]: t["input_schema"] for t in anthropic_tools(registry_with_tag())}
    assert any(
        "default is not allowed" in v for v in strict_violations(plain["memory_recall"], "openai")
    )
    assert any(
        "not every property" in v for v in strict_violations(plain["memory_recall"], "openai")
    )
    assert any("maxLength" in v for v in strict_violations(plain["memory_forget"], "anthropic"))
    # Since issue #28 no plain schema holds a $ref (hosts cannot follow one): the
    # checker has none to report, where it reported the nested model's before.
    assert not any("$ref" in v for v in strict_violations(plain["tag_things"], "openai"))
    assert "$defs" in registry_with_tag().get("tag_things").input_model.model_json_schema()


def test_the_plain_shapes_are_unchanged_and_say_strict_only_where_asked() -> None:
    for tool, chat, responses, anthropic in zip(
        default_registry(),
        openai_tools(),
        openai_responses_tools(),
        anthropic_tools(),
        strict=True,
    ):
        assert chat == {
            "type": "function",
            "function": {
                "name": tool.name,
                "description": tool.description,
                "parameters": tool.parameters(),
            },
        }
        # Responses makes a schema strict itself when `strict` is left out: say false.
        assert responses == {
            "type": "function",
            "name": tool.name,
            "description": tool.description,
            "parameters": tool.parameters(),
            "strict": False,
        }
        assert anthropic == {
            "name": tool.name,
            "description": tool.description,
            "input_schema": tool.parameters(),
        }
    assert all(t["function"]["strict"] is True for t in openai_tools(strict=True))
    assert all(t["strict"] is True for t in openai_responses_tools(strict=True))
    assert all(t["strict"] is True for t in anthropic_each(default_registry(), strict=True))


def test_strict_can_name_the_tools_it_applies_to() -> None:
    chosen = {"memory_remember", "memory_forget"}
    registry = default_registry()
    for exported in (
        [t["function"] for t in openai_tools(strict=chosen)],
        openai_responses_tools(strict=chosen),
        anthropic_tools(strict=chosen),
    ):
        assert {t["name"] for t in exported if t.get("strict")} == chosen
        for t in exported:
            schema = t.get("parameters", t.get("input_schema"))
            plain = registry.get(t["name"]).parameters()
            assert (schema == plain) is (t["name"] not in chosen), t["name"]
    with pytest.raises(InvalidArgument, match="not registered: memory_remeber; the tools are"):
        openai_tools(strict={"memory_remeber"})


def test_strict_openai_makes_optional_fields_nullable_and_required() -> None:
    (recall,) = [t for t in openai_responses_tools(strict=True) if t["name"] == "memory_recall"]
    props = recall["parameters"]["properties"]
    assert recall["parameters"]["required"] == ["query", "limit", "scope", "detail", "ids"]
    assert props["query"]["type"] == "string"  # required: stays non-null
    assert {"type": "null"} in props["limit"]["anyOf"]
    # OpenAI enforces numeric and array bounds in strict mode: they stay.
    (limit,) = [b for b in props["limit"]["anyOf"] if b != {"type": "null"}]
    assert limit == {"type": "integer", "minimum": 1, "maximum": 50}
    # What it cannot carry, the model still reads.
    assert "At most 1000 characters." in props["query"]["description"]
    assert "Send null for the default, 8." in props["limit"]["description"]


def test_strict_anthropic_keeps_optional_fields_optional_and_moves_bounds() -> None:
    (recall,) = anthropic_tools(ToolRegistry([MEMORY_RECALL]), strict=True)
    schema = recall["input_schema"]
    assert schema["required"] == ["query"]
    limit = schema["properties"]["limit"]
    assert limit["type"] == "integer" and "minimum" not in limit
    assert "From 1 to 50." in limit["description"]
    # An optional field drops its null branch: omitting it says the same, and unions
    # count against the request's budget.
    assert schema["properties"]["ids"]["type"] == "array"
    assert "At most 20 items." in schema["properties"]["ids"]["description"]


def test_nested_models_are_inlined_and_closed() -> None:
    [openai] = openai_responses_tools(ToolRegistry([TAG]), strict=True)
    props = openai["parameters"]["properties"]
    main = props["main"]
    assert main["description"] == "The main tag."
    assert main["required"] == ["name", "weight", "note"]
    assert main["additionalProperties"] is False
    item = props["tags"]["anyOf"][0]["items"]
    assert item["properties"]["weight"]["anyOf"][0] == {
        "type": "integer",
        "minimum": 1,
        "maximum": 9,
    }
    assert props["mode"]["anyOf"][0]["pattern"] == "^(add|drop)$"

    [anthropic] = anthropic_tools(ToolRegistry([TAG]), strict=True)
    mode = anthropic["input_schema"]["properties"]["mode"]
    assert "pattern" not in mode and 'Matches the pattern "^(add|drop)$".' in mode["description"]


def test_the_tool_schema_itself_is_left_alone() -> None:
    before = TAG.parameters()
    openai_tools(registry_with_tag(), strict=True)
    anthropic_tools(registry_with_tag(), strict={"tag_things"})
    assert TAG.parameters() == before and "properties" in before["properties"]["tags"]["items"]


class Node(ToolInput):
    label: str
    children: list[Node] = Field(default_factory=list)


class MapInput(ToolInput):
    counts: dict[str, int] = Field(default_factory=dict)


def one_tool(model: type[ToolInput]) -> ToolRegistry:
    return ToolRegistry([Tool(name="t", description="d", input_model=model, handler=nothing)])


@pytest.mark.parametrize(
    ("model", "says"),
    [(Node, "recursive through 'Node'"), (MapInput, "free-form mapping")],
)
def test_what_strict_mode_cannot_express_is_refused_here(model: type[ToolInput], says: str) -> None:
    for export in (openai_tools, openai_responses_tools, anthropic_tools):
        with pytest.raises(InvalidArgument, match=says):
            export(one_tool(model), strict=True)
        assert export(one_tool(model))  # the plain shape is fine


def wide_input(n: int) -> type[ToolInput]:
    fields: dict[str, Any] = {f"f{i}": (int, Field(default=0, description="x")) for i in range(n)}
    return create_model(f"Wide{n}", __base__=ToolInput, **fields)


def test_anthropic_budget_is_checked_before_the_api_refuses() -> None:
    optional = sum(
        len(set(t.parameters()["properties"]) - set(t.parameters().get("required", [])))
        for t in default_registry()
    )
    # The top-level count is a floor: nested optional fields count too.
    assert optional > 24  # the built-in tools together pass the budget: name the strict ones
    with pytest.raises(InvalidArgument, match=r"optional parameters \d+ \(at most 24\)"):
        anthropic_tools(strict=True)
    assert anthropic_tools(strict={"memory_recall", "memory_remember", "memory_forget"})
    wide = Tool(name="wide", description="d", input_model=wide_input(25), handler=nothing)
    registry = ToolRegistry([wide])
    with pytest.raises(InvalidArgument, match=r"optional parameters 25 \(at most 24\)"):
        anthropic_tools(registry, strict=True)
    assert anthropic_tools(registry)  # not strict: no limit
    assert openai_tools(registry, strict=True)  # OpenAI has no such limit
    many = ToolRegistry(
        Tool(name=f"t{i}", description="d", input_model=wide_input(0), handler=nothing)
        for i in range(21)
    )
    with pytest.raises(InvalidArgument, match=r"strict tools 21 \(at most 20\)"):
        anthropic_tools(many, strict=True)


def sample(schema: dict[str, Any], defs: dict[str, Any]) -> Any:
    """The smallest value valid for a plain (pydantic) schema, in the shape an OpenAI
    strict-mode model sends it: null for every optional property of a nested object."""
    if "$ref" in schema:
        return sample(defs[schema["$ref"].removeprefix("#/$defs/")], defs)
    if "enum" in schema:
        return schema["enum"][0]
    if "anyOf" in schema:
        return sample(next(b for b in schema["anyOf"] if b != {"type": "null"}), defs)
    kind = schema["type"]
    if kind == "object":
        required = schema.get("required", [])
        return {
            name: sample(prop, defs) if name in required else None
            for name, prop in schema["properties"].items()
        }
    if kind == "array":
        return [sample(schema["items"], defs) for _ in range(max(1, schema.get("minItems", 1)))]
    if kind == "string":
        return "add" if "pattern" in schema else "x" * schema.get("minLength", 1)
    if kind == "integer":
        return schema.get("minimum", 1)
    return {"boolean": False, "number": 1.0}[kind]


def strict_call(tool: Tool[Any], chosen: set[str]) -> dict[str, Any]:
    """What an OpenAI strict-mode model sends: every property, a value for the required
    ones and those in `chosen`, null for the rest."""
    plain = tool.parameters()
    defs = plain.get("$defs", {})
    required = set(plain.get("required", []))
    return {
        name: sample(prop, defs) if name in required or name in chosen else None
        for name, prop in plain["properties"].items()
    }


def without_nulls(value: Any) -> Any:
    """The same call as an Anthropic strict-mode model sends it: optional fields left out."""
    if isinstance(value, dict):
        return {k: without_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [without_nulls(v) for v in value]
    return value


def outcome(tool: Tool[Any], arguments: dict[str, Any]) -> Any:
    """The validated input, or the problems the model is told."""
    try:
        return tool.validate(arguments)
    except ToolInputError as exc:
        return exc.problems


REGISTRY = registry_with_tag()
OPENAI_STRICT = {
    t["name"]: Draft202012Validator(t["parameters"])
    for t in openai_responses_tools(REGISTRY, strict=True)
}
ANTHROPIC_STRICT = {
    t["name"]: Draft202012Validator(t["input_schema"])
    for t in anthropic_each(REGISTRY, strict=True)
}
#: Tools whose smallest call is valid (the others need one of several optional fields).
VALID_WHEN_SMALLEST = {"memory_recall", "memory_remember", "memory_forget", "tag_things"}


@settings(max_examples=40, deadline=None)
@given(data=st.data())
@pytest.mark.slow
def test_whatever_a_strict_model_sends_validates(data: st.DataObject) -> None:
    """Nulls for the optional fields never make a call fail: a strict call validates
    exactly as the same call without them (the one a plain or Anthropic model sends)."""
    for tool in REGISTRY:
        plain = tool.parameters()
        optional = sorted(set(plain["properties"]) - set(plain.get("required", [])))
        chosen = (
            set(data.draw(st.lists(st.sampled_from(optional), unique=True))) if optional else set()
        )
        call = strict_call(tool, chosen)
        omitted = without_nulls(call)
        # Both are calls the strict schemas allow, so a strict model may send them ...
        OPENAI_STRICT[tool.name].validate(call)
        ANTHROPIC_STRICT[tool.name].validate(omitted)
        # ... and the nulls change nothing: the defaults apply.
        assert outcome(tool, call) == outcome(tool, omitted), tool.name
        if tool.name in VALID_WHEN_SMALLEST and not chosen:
            validated = tool.validate(call)
            for name in optional:
                field = type(validated).model_fields[name]
                assert getattr(validated, name) == field.get_default(call_default_factory=True)
