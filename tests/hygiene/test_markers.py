"""The <no-memory> opt-out tag."""

from __future__ import annotations

import pytest

from memrepo.hygiene import has_no_memory_marker


@pytest.mark.parametrize(
    "text",
    [
        "<no-memory>",
        "please <NO-MEMORY> remember nothing",
        "< no-memory >",
        "<no - memory>",
        "<no memory>",
        "<no_memory/>",
        "<No-Memory\n>",
        "x" * 10_000 + "<no-memory>",
    ],
)
def test_marker_found(text: str) -> None:
    assert has_no_memory_marker(text)


@pytest.mark.parametrize(
    "text",
    [None, "", "no memory of that", "no-memory", "<memory>", "<no-memoryless>", "<nomem>"],
)
def test_marker_not_found(text: str | None) -> None:
    assert not has_no_memory_marker(text)
