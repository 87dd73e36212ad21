"""Sloppy but honest arguments are read as the model meant them (null for an optional
field, an integral float for an integer); everything else stays a ToolInputError with one
readable line per problem."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import Field

from memrepo import MemoryRepo
from memrepo.errors import ToolInputError
from memrepo.tools import MEMORY_RECALL, MEMORY_REMEMBER, Tool, ToolEnv, ToolInput, ToolOutput
from memrepo.tools.lenient import loosen
from memrepo.tools.models import RecallInput

from .helpers import ToolsFor, snapshot


class Part(ToolInput):
    name: str
    count: int = 1
    note: str | None = None


class Order(ToolInput):
    parts: list[Part] = Field(default_factory=list)
    main: Part | None = None
    sizes: list[int] = Field(default_factory=list)
    stock: dict[str, int] = Field(default_factory=dict)
    total: int = 0
    price: float | int = 0


class Done(ToolOutput):
    ok: bool = True


def done(env: ToolEnv, args: Order) -> Done:
    return Done()


ORDER = Tool(name="order", description="Order parts.", input_model=Order, handler=done)


def problems(tool: Tool[Any], arguments: dict[str, Any]) -> list[str]:
    with pytest.raises(ToolInputError) as caught:
        tool.validate(arguments)
    message = str(caught.value)
    assert message.startswith(f"{tool.name}: invalid arguments: ") and len(message) < 600
    return caught.value.problems


def test_an_integral_float_is_an_integer() -> None:
    validated = MEMORY_RECALL.validate({"query": "tea", "limit": 5.0})
    assert validated.limit == 5 and type(validated.limit) is int


def test_null_for_an_optional_field_means_not_given() -> None:
    validated = MEMORY_RECALL.validate(
        {"query": "tea", "limit": None, "scope": None, "detail": None, "ids": None}
    )
    assert validated == RecallInput(query="tea")
    assert (validated.limit, validated.scope, validated.detail) == (8, "all", "snippet")
    remembered = MEMORY_REMEMBER.validate({"text": "Tea", "pin": None, "kind": None})
    assert remembered.pin is False and remembered.kind is None


def test_the_pass_follows_nested_models_lists_and_dicts() -> None:
    arguments = {
        "parts": [{"name": "bolt", "count": 3.0, "note": None}, {"name": "nut"}],
        "main": {"name": "gear", "count": None},
        "sizes": [1.0, 2.0],
        "stock": {"bolt": 7.0},
        "total": None,
        "price": 2.5,  # a float where floats are taken stays a float
    }
    before = json.dumps(arguments)
    order = ORDER.validate(arguments)
    assert json.dumps(arguments) == before  # the caller's arguments are not changed
    assert [(p.name, p.count, p.note) for p in order.parts] == [("bolt", 3, None), ("nut", 1, None)]
    assert order.main == Part(name="gear")
    assert order.sizes == [1, 2] and order.stock == {"bolt": 7} and order.total == 0
    assert order.price == 2.5 and type(order.price) is float


BAD: list[tuple[dict[str, Any], list[str]]] = [
    ({"query": "tea", "limit": 5.5}, ["limit: must be a whole number, not 5.5"]),
    ({"query": "tea", "limit": math.nan}, ["limit: must be a whole number, not nan"]),
    ({"query": "tea", "limit": math.inf}, ["limit: must be a whole number, not inf"]),
    ({"query": "tea", "limit": -math.inf}, ["limit: must be a whole number, not -inf"]),
    ({"query": "tea", "limit": 1e300}, ["limit: 1e+300 is too large to be an exact whole number"]),
    ({"query": "tea", "limit": 10**100}, ["limit: Input should be less than or equal to 50"]),
    ({"query": "tea", "limit": True}, ["limit: Input should be a valid integer"]),
    ({"query": "tea", "limit": "5"}, ["limit: Input should be a valid integer"]),
    ({"query": None}, ["query: must not be null (give a value)"]),
    ({"limit": 5}, ["query: required field is missing"]),
    ({"query": "tea", "bogus": None}, ["bogus: unknown field (remove it)"]),
    (
        {"query": 3, "scope": 2.0},
        ["query: Input should be a valid string", "scope: Input should be"],
    ),
    (
        {"query": None, "limit": 0.5, "detail": "all", "ids": None, "extra": 1},
        [
            "query: must not be null (give a value)",
            "limit: must be a whole number, not 0.5",
            "detail: Input should be 'snippet' or 'full'",
            "extra: unknown field (remove it)",
        ],
    ),
]


@pytest.mark.parametrize(("arguments", "says"), BAD)
def test_wrong_input_is_one_line_per_problem(arguments: dict[str, Any], says: list[str]) -> None:
    found = problems(MEMORY_RECALL, arguments)
    assert len(found) == len(says)
    for line, expected in zip(found, says, strict=True):
        assert line.startswith(expected), (line, expected)


def test_a_bool_never_becomes_an_integer_nor_an_integer_a_bool() -> None:
    assert problems(ORDER, {"total": False}) == ["total: Input should be a valid integer"]
    assert problems(MEMORY_REMEMBER, {"text": "Tea", "pin": 1.0}) == [
        "pin: Input should be a valid boolean"
    ]


def test_the_exact_float_range_is_the_limit() -> None:
    assert ORDER.validate({"total": float(2**53)}).total == 2**53
    assert problems(ORDER, {"total": float(2**54)}) == [
        "total: 1.8014398509481984e+16 is too large to be an exact whole number"
    ]


def test_problems_deep_inside_name_their_place() -> None:
    found = problems(
        ORDER,
        {"parts": [{"name": "bolt"}, {"name": None, "count": 1.5, "size": 3}], "sizes": [1, None]},
    )
    assert found == [
        "parts.1.name: must not be null (give a value)",
        "parts.1.count: must be a whole number, not 1.5",
        "parts.1.size: unknown field (remove it)",
        "sizes.1: must not be null (give a value)",
    ]


def test_ten_megabytes_are_refused_without_being_echoed() -> None:
    text = "x" * 10_000_000
    (line,) = problems(MEMORY_RECALL, {"query": text})
    assert line == "query: String should have at most 1000 characters"


@given(st.integers(min_value=1, max_value=50))
@pytest.mark.slow
def test_any_integral_float_in_range_is_that_integer(n: int) -> None:
    assert MEMORY_RECALL.validate({"query": "tea", "limit": float(n)}).limit == n


@given(st.floats(allow_nan=True, allow_infinity=True).filter(lambda f: not f.is_integer()))
@pytest.mark.slow
def test_no_other_float_is_an_integer(value: float) -> None:
    (line,) = problems(MEMORY_RECALL, {"query": "tea", "limit": value})
    assert line.startswith("limit: must be a whole number")


@given(st.dictionaries(st.sampled_from(["limit", "scope", "detail", "ids"]), st.none()))
def test_any_set_of_nulls_for_optional_fields_is_the_defaults(nulls: dict[str, None]) -> None:
    assert MEMORY_RECALL.validate({"query": "tea", **nulls}) == RecallInput(query="tea")


def test_loosen_leaves_what_it_does_not_know_to_pydantic() -> None:
    odd = {"query": "tea", "unknown": None, "limit": "5.0"}
    assert loosen(RecallInput, odd) == odd


@pytest.mark.slow
def test_a_sloppy_json_call_works_end_to_end(repo: MemoryRepo, tools_for: ToolsFor) -> None:
    tools = tools_for(task_id="t1")
    written = tools.dispatch(
        "memory_remember",
        '{"text": "Deploys go through staging first", "kind": null, "scope": null,'
        ' "subject": null, "pin": null, "user_asked": null, "file": null}',
    )
    assert written["status"] == "written"
    found = tools.dispatch(
        "memory_recall",
        '{"query": "staging", "limit": 2.0, "scope": null, "detail": null, "ids": null}',
    )
    assert [hit["text"] for hit in found["hits"]] == ["Deploys go through staging first"]


def test_a_bad_json_call_writes_nothing(repo: MemoryRepo, tools_for: ToolsFor) -> None:
    tools = tools_for(task_id="t1")
    before = snapshot(repo)
    with pytest.raises(ToolInputError, match="text: must not be null"):
        tools.dispatch("memory_remember", '{"text": null, "pin": NaN}')
    with pytest.raises(ToolInputError, match="limit: must be a whole number, not nan"):
        tools.dispatch("memory_recall", '{"query": "tea", "limit": NaN}')
    assert snapshot(repo) == before
