"""Date terms: an entry's date and its relative dates, a query's named dates, one vocabulary."""

from __future__ import annotations

from datetime import date

import pytest

from memrepo.index.dates import MAX_QUERY_DATES, entry_date_terms, parse_added, query_date_terms

TODAY = date(2024, 1, 15)


def test_an_added_day_gives_year_month_day_and_weekday() -> None:
    assert entry_date_terms("2023-12-29", "made pasta") == [
        "2023", "december", "2023-12", "12-29", "2023-12-29", "friday",
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("text", "term"),
    [
        ("I made pasta yesterday", "2023-12-29"),
        ("what a night last night", "2023-12-29"),
        ("see you tomorrow", "2023-12-31"),
        ("two weeks ago we skied", "2023-12-16"),
        ("3 days ago", "2023-12-27"),
        ("last month was busy", "2023-11"),
        ("next month I move", "2024-01"),
        ("last year in Bali", "2022"),
        ("last Friday at the zoo", "2023-12-29"),
        ("last October in Rome", "2023-10"),
        ("last december", "2022-12"),
    ],
)
def test_relative_dates_resolve_against_added(text: str, term: str) -> None:
    assert term in entry_date_terms("2023-12-30", text)


def test_partial_and_unreadable_added_values() -> None:
    assert parse_added("2023-05") == (None, ["2023", "may", "2023-05"])
    assert parse_added("2023") == (None, ["2023"])
    assert parse_added("2023-05-01T10:00:00Z")[0] == date(2023, 5, 1)
    for bad in ("", "soon", "2023-13-01", "2023-02-30", "0000-00-00"):
        assert entry_date_terms(bad, "yesterday") == []


@pytest.mark.parametrize(
    ("query", "terms"),
    [
        ("What kind of pasta did Kate make on 29 Dec 2023?", ["2023-12-29"]),
        ("Where was Elise on December 31st, 2023", ["2023-12-31"]),
        ("what did she do in May 2023", ["2023-05"]),
        ("Which events in January?", ["january"]),
        ("Dec 29th", ["12-29"]),
        ("Anything from 2022?", ["2022"]),
        ("what did we do on Friday", ["friday"]),
        ("What happened last month?", ["2023-12"]),
        ("What did Elise do yesterday", ["2024-01-14"]),
    ],
)
def test_a_query_asks_for_the_most_specific_term(query: str, terms: list[str]) -> None:
    assert query_date_terms(query, TODAY) == terms


@pytest.mark.parametrize(
    "query", ["what may she like", "May I ask about postgres", "we march on", "jan's bike"]
)
def test_everyday_words_are_not_months(query: str) -> None:
    assert query_date_terms(query, TODAY) == []


def test_relative_query_dates_need_a_today() -> None:
    assert query_date_terms("what happened yesterday", None) == []
    assert query_date_terms("on 29 Dec 2023", None) == ["2023-12-29"]


def test_hostile_text_is_bounded_and_never_raises() -> None:
    # Repeats collapse to one set of terms; the query side keeps at most MAX_QUERY_DATES.
    once = entry_date_terms("2023-12-30", "yesterday")
    assert entry_date_terms("2023-12-30", "yesterday " * 5000) == once
    assert entry_date_terms("9999-12-31", "tomorrow") == entry_date_terms("9999-12-31", "")
    assert entry_date_terms("0001-01-01", "yesterday") == entry_date_terms("0001-01-01", "")
    calendar = " ".join(f"{day} Dec 2023," for day in range(1, 32))  # 31 distinct days
    assert len(query_date_terms(calendar, TODAY)) == MAX_QUERY_DATES
    for text in ("last " * 5000, "\x00" * 100, "29 Dec 2023 " * 2000, "Dec " * 5000, calendar):
        for today in (date.max, date.min, TODAY):
            terms = query_date_terms(text, today)
            assert len(terms) <= MAX_QUERY_DATES
            assert all(isinstance(term, str) and term for term in terms)
