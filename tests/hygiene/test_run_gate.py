"""The long-run gate: token rules run only on texts with a long run of token characters.

Its soundness rests on two claims, each held here: every match of a gated pattern holds
RUN_LENGTH or more RUN_CHARS in a row (proved from the parsed pattern, not sampled), and
``long_runs`` / ``run_haystack`` find every such run. Also here: the assignment detector
reads the lowercased text when it can, which must give exactly what (?i) gives.
"""

from __future__ import annotations

import re
from re import _constants, _parser  # type: ignore[attr-defined]  # stdlib, no stub
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memrepo.hygiene._assign import ASSIGNMENT, assignment_spans
from memrepo.hygiene._context import _AWS_KEY_ID, _TWILIO_SID
from memrepo.hygiene._needs import (
    CASE_LOOKALIKES,
    RUN_CHARS,
    RUN_LEAD,
    RUN_LENGTH,
    long_runs,
    run_haystack,
)
from memrepo.hygiene._rules import DETECTORS, RULES, detectors_for

GATED_PATTERNS: list[re.Pattern[str]] = [
    *(rule.pattern for rule in RULES if rule.needs.run),
    _AWS_KEY_ID,
    _TWILIO_SID,
]


def _in_run(op: object, av: Any) -> bool:
    """Whether one character matched by (op, av) is always a RUN_CHAR."""
    if op is _constants.LITERAL:
        return chr(av) in RUN_CHARS
    if op is _constants.IN:
        for kind, value in av:
            if kind is _constants.LITERAL and chr(value) in RUN_CHARS:
                continue
            if kind is _constants.RANGE and all(
                chr(c) in RUN_CHARS for c in range(value[0], value[1] + 1)
            ):
                continue
            return False
        return True
    return False


def _guaranteed_run(items: list[tuple[object, Any]]) -> tuple[int, int, int]:
    """(run at the start, longest run anywhere, run at the end) that every string the
    parsed ``items`` match is sure to hold; -1 at the start means "all of it"."""
    best, current, leading = 0, 0, -1
    for op, av in items:
        if op in (_constants.ASSERT, _constants.ASSERT_NOT, _constants.AT):
            continue
        if _in_run(op, av):
            current += 1
        elif (
            op in (_constants.MAX_REPEAT, _constants.MIN_REPEAT)
            and len(av[2]) == 1
            and (_in_run(*av[2][0]))
        ):
            current += av[0]
            if av[0] == 0:
                leading, current = (current if leading == -1 else leading), 0
                continue
        elif op is _constants.SUBPATTERN:
            start, inner, end = _guaranteed_run(list(av[3]))
            best = max(best, inner)
            if start == -1:
                current += inner
                continue
            current += start
            best = max(best, current)
            leading = current if leading == -1 else leading
            current = end
            continue
        elif op is _constants.BRANCH:
            runs = [_guaranteed_run(list(branch)) for branch in av[1]]
            best = max(best, min(inner for _, inner, _ in runs))
            leading = current if leading == -1 else leading
            current = 0
            continue
        else:
            leading = current if leading == -1 else leading
            current = 0
            continue
        best = max(best, current)
    best = max(best, current)
    return leading, best, current


@pytest.mark.parametrize("pattern", GATED_PATTERNS, ids=lambda p: p.pattern[:40])
def test_every_match_of_a_gated_pattern_holds_a_long_run(pattern: re.Pattern[str]) -> None:
    assert not pattern.flags & re.IGNORECASE, "a gated pattern must be case-sensitive"
    _, longest, _ = _guaranteed_run(list(_parser.parse(pattern.pattern, pattern.flags)))
    assert longest >= RUN_LENGTH, pattern.pattern


def test_the_proof_counts_what_it_should() -> None:
    """The structural reader itself: a literal prefix joins the run after it, a branch
    counts its weakest alternative, a dot breaks a run."""

    def longest(source: str) -> int:
        return _guaranteed_run(list(_parser.parse(source, 0)))[1]

    assert longest(r"npm_[A-Za-z0-9]{12}") == 16
    assert longest(r"SG\.[a-z]{5}\.[a-z]{20}") == 20
    assert longest(r"(?:ab[0-9]{30}|c[0-9]{3})") == 4
    assert longest(r"x[a-z.]{40}") == 1


RUN_TEXT = st.text(
    alphabet=st.sampled_from([*"abcXYZ019_+/=-", " ", ".", ":", "é", "\u212a", "\n"]),
    max_size=120,
)


@pytest.mark.slow
@given(RUN_TEXT)
def test_long_runs_are_exactly_the_maximal_runs(text: str) -> None:
    expected = [
        match.span()
        for match in re.finditer("[" + re.escape("".join(sorted(RUN_CHARS))) + "]+", text)
        if match.end() - match.start() >= RUN_LENGTH
    ]
    assert long_runs(text) == expected
    haystack = run_haystack(text)
    for start, end in expected:
        assert text[max(0, start - RUN_LEAD) : end] in haystack


def test_prose_and_memory_lines_have_no_long_run() -> None:
    assert run_haystack("The team met on Tuesday to discuss the roadmap, 2025-01-17.") == ""
    assert run_haystack("[sources: memrepo://tasks/72; added: 2025-01-17; by: agent]") == ""


@pytest.mark.parametrize("detector", [d for d in DETECTORS if d.needs.run], ids=lambda d: d.kind)
def test_gated_detectors_skip_a_text_without_long_runs(detector: object) -> None:
    text = "CI token ghp_short and npm_abc and SG.x.y are not secrets here"
    assert detector not in set(detectors_for(text))


ASSIGNMENT_TEXT = st.lists(
    st.sampled_from(
        [
            "password",
            "PASSWORD",
            "Token",
            "apiKey",
            "api_key",
            "accessToken",
            "--password",
            "key",
            "auth",
            "sig",
            "secret",
            "=",
            ": ",
            " is ",
            " ",
            '"',
            "'",
            "x",
            "hunter2x",
            "Zx9kQ2mP7wFaKeZx9kQ2mP7w",
            "dXNlcjpwYXNzd29yZA==",
            "é",
            "\u212a",
            "ß",
            "\n",
            "monkey",
            "keyboard",
        ]
    ),
    max_size=10,
).map("".join)


@pytest.mark.slow
@given(ASSIGNMENT_TEXT)
def test_the_lowercased_reading_finds_what_case_insensitive_matching_finds(text: str) -> None:
    """On texts without CASE_LOOKALIKES, assignments are read off the lowercased text with
    a case-sensitive pattern; that must equal reading the text with the (?i) pattern."""
    if any(char in text for char in CASE_LOOKALIKES):
        return
    found = list(assignment_spans(text))
    candidates = [m.start() for m in ASSIGNMENT.finditer(text)]
    # A direct (?i) scan over the same positions, through the same value rules.
    from memrepo.hygiene import _assign

    def case_insensitive(text: str) -> list[tuple[int, int]]:
        spans: list[tuple[int, int]] = []
        position = 0
        while (match := ASSIGNMENT.search(text, position)) is not None:
            boundary = _assign._boundary(text, match.start())
            if boundary is None:
                position = match.start() + 1
                continue
            span = _assign.assignment_value(text, match, flag=boundary == "flag")
            if span is not None:
                spans.append(span)
                position = max(span[1], match.end("key"))
            else:
                position = match.end("key")
        return spans

    assert found == case_insensitive(text), candidates
