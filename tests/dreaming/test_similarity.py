"""The near-duplicate rule, justified on a small labelled eval.

Each pair is labelled by hand: True when merging the two lines loses nothing (a rewording,
an inflection, one line adding detail), False when they state different facts. The rule
must make no false merge at its threshold, and the threshold is the one with the most
true merges among those that make none.
"""

from __future__ import annotations

import pytest

from memrepo.dreaming import similarity

SAME = [
    ("Use pnpm for installs", "use pnpm for installs."),
    ("Deploys happen on Fridays", "Deploys happen on Friday"),
    ("On Fridays deploys happen", "Deploys happen on Fridays"),
    ("The staging database is Postgres 16", "Staging database: Postgres 16"),
    ("Run the linter before every commit", "Run the linter before every single commit"),
    ("Ana owns the billing service", "Ana owns the billing services"),
    ("Prefer short answers in chat", "Prefers short answers in chat"),
    ("The API base URL is https://api.example.com", "API base URL is https://api.example.com"),
    ("Tests run with pytest -q", "Tests run with pytest -q."),
    ("Release notes go in CHANGELOG.md", "Release notes go in the CHANGELOG.md"),
]
DIFFERENT = [
    ("Use pnpm not npm", "Use npm not pnpm"),
    ("The API is stable", "The API is not stable"),
    ("Deploy on port 8080", "Deploy on port 8081"),
    ("The team deploys the web shop every Friday", "The team deploys the web shop every Thursday"),
    ("Ana owns the billing service", "Bob owns the billing service"),
    ("Staging runs Postgres 16", "Production runs Postgres 16"),
    ("Prefers dark mode in the editor", "Prefers light mode in the editor"),
    ("Backups run at 02:00", "Backups run at 03:00"),
    ("Use tabs in Go files", "Use spaces in Python files"),
    ("The release is on March 3", "The release is on March 13"),
    ("Never push to main directly", "Always push to main directly"),
    ("Ana reviews frontend changes", "Ana reviews frontend changes and backend changes"),
]


def decide(threshold: float, a: str, b: str) -> bool:
    return similarity.similarity(a, b) >= threshold


def merges(threshold: float) -> tuple[int, int]:
    true = sum(decide(threshold, a, b) for a, b in SAME)
    false = sum(decide(threshold, a, b) for a, b in DIFFERENT)
    return true, false


def test_near_is_the_lowest_threshold_without_a_false_merge() -> None:
    true, false = merges(similarity.NEAR)
    assert false == 0
    assert true >= 8, f"only {true} of {len(SAME)} rewordings found"
    grid = [round(t / 20, 2) for t in range(1, 21)]
    safe = [t for t in grid if merges(t)[1] == 0]
    assert min(safe) == similarity.NEAR
    assert true == max(merges(t)[0] for t in safe)
    assert merges(similarity.NEAR - 0.05)[1] > 0  # one step lower loses a fact


@pytest.mark.parametrize(("a", "b"), DIFFERENT)
def test_different_facts_are_never_the_same_fact(a: str, b: str) -> None:
    assert not similarity.same_fact(a, b)


@pytest.mark.parametrize(("a", "b"), DIFFERENT[1:11])
def test_guards_hold_even_under_one_subject(a: str, b: str) -> None:
    """Other numbers, negations or a swapped word are never a rewording."""
    assert similarity.similarity(a, b) == 0.0
    assert not similarity.same_fact(a, b, same_subject=True)


def test_word_order_matters_through_bigrams() -> None:
    assert similarity.similarity("Use pnpm not npm", "Use npm not pnpm") < similarity.NEAR
    assert similarity.similarity("deploys happen on fridays", "on fridays deploys happen") > 0.6


def test_a_shared_subject_lowers_the_bar_for_a_rewording() -> None:
    a, b = "Prefers pnpm", "Prefers pnpm for every project"
    assert not similarity.same_fact(a, b)
    assert similarity.same_fact(a, b, same_subject=True) is (
        similarity.similarity(a, b) >= similarity.SAME_SUBJECT
    )
