"""The query builder: plain text only, one any-word query, stopwords at query time, a
prefix on the last word only when the index does not hold it."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from whoosh.query import NullQuery, Or

from memrepo.index import IndexDoc, IndexStore, build_query, distinctive_terms
from memrepo.index.query import MAX_TERMS, AnyWord

from .conftest import doc

pytestmark = pytest.mark.slow


def refs(store: IndexStore, text: str) -> list[str]:
    """The refs a query finds, with the prefix rule recall applies (`recall.lanes`)."""
    built = build_query(text)
    q = built.words
    if built.last_word and not store.known_terms("exact", [built.last_word]):
        q = built.with_prefix()
    return [hit.ref for hit in store.search(q, limit=10)]


@pytest.mark.parametrize(
    ("text", "terms"),
    [
        ('"postgres migration"', ("postgres", "migration")),
        ("postgres AND migration", ("postgres", "and", "migration")),
        ("postgres OR NOT migration", ("postgres", "or", "not", "migration")),
        ("postg*", ("postg",)),
        ("postgr?s", ("postgr", "s")),
        ("postgres~2 migration^5", ("postgres", "2", "migration", "5")),
        ("(postgres) [migration] {May}", ("postgres", "migration", "may")),
        ("exact:postgres path:MEMORY", ("exact", "postgres", "path", "memory")),
    ],
)
def test_operators_are_words_not_syntax(text: str, terms: tuple[str, ...]) -> None:
    assert build_query(text).terms == terms


def test_operator_words_must_match_as_words(store: IndexStore) -> None:
    # "NOT" is a word here (a stopword): as Whoosh syntax it would have excluded the café.
    assert set(refs(store, "postgres NOT cafe")) == {
        "folder:MEMORY.md#ship",
        "folder:MEMORY.md#cafe",
    }
    assert refs(store, "exact:cafe") == ["folder:MEMORY.md#cafe"]


def test_stopwords_are_dropped_from_the_query() -> None:
    built = build_query("when do we ship the postgres 16 migration")
    assert built.distinctive == ("ship", "postgres", "16", "migration")
    assert "when" in built.terms
    assert "when" not in str(built.words)


def test_a_query_of_only_stopwords_keeps_them() -> None:
    assert distinctive_terms("the and of") == ["the", "and", "of"]
    assert distinctive_terms("für die über") == ["fur", "die", "uber"]


@pytest.mark.parametrize("word", ["may", "us", "yet"])
def test_may_us_yet_are_not_stopwords(word: str, store: IndexStore) -> None:
    assert word in distinctive_terms(f"the {word}")


def test_may_is_found(store: IndexStore) -> None:
    assert refs(store, "May") == ["folder:MEMORY.md#ship"]
    assert refs(store, "what ships in may")[0] == "folder:MEMORY.md#ship"


def test_stopword_heavy_question_finds_by_its_words(store: IndexStore) -> None:
    question = "when do we ship the postgres 16 migration"
    assert refs(store, question)[0] == "folder:MEMORY.md#ship"


def test_the_last_word_matches_as_a_prefix(store: IndexStore) -> None:
    assert refs(store, "migr") == ["folder:MEMORY.md#ship"]
    assert refs(store, "migr cafe") == ["folder:MEMORY.md#cafe"]  # only the last word
    assert build_query("postgres m").last_word is None  # one character
    assert "Prefix" not in repr(build_query("postgres migr").words)


def test_a_last_word_the_index_holds_is_not_a_prefix(store: IndexStore) -> None:
    # "ship" is a word of the index: a prefix would add "shipping", "shipyard"... and
    # cost a posting list each, for a word that is already whole.
    store.replace([_doc("folder:x.md#ships", "shipyard visit on friday")])
    assert refs(store, "ship") == ["folder:MEMORY.md#ship"]
    assert set(refs(store, "shi")) == {"folder:MEMORY.md#ship", "folder:x.md#ships"}


def test_a_half_typed_compound_matches_as_a_prefix(store: IndexStore) -> None:
    assert refs(store, "v1.2") == ["folder:MEMORY.md#shoes"]


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("cafe muller", "folder:MEMORY.md#cafe"),
        ("CAFÉ", "folder:MEMORY.md#cafe"),
        ("ISTANBUL", "folder:MEMORY.md#cafe"),
        ("istanbul", "folder:MEMORY.md#cafe"),
        ("İstanbul", "folder:MEMORY.md#cafe"),
        ("東京", "folder:MEMORY.md#tokyo"),
        ("都", "folder:MEMORY.md#tokyo"),
        ("庁", "folder:MEMORY.md#tokyo"),
        ("東京都庁", "folder:MEMORY.md#tokyo"),
        ("москва", "team:core:MEMORY.md#ru"),
        ("yet", "team:core:MEMORY.md#ru"),
        ("v1.2.3", "folder:MEMORY.md#shoes"),
        ("aks-42", "folder:notes.md#aks"),
        ("AKS", "folder:notes.md#aks"),
        ("postgres-16", "folder:MEMORY.md#ship"),
        ("postgres 16", "folder:MEMORY.md#ship"),
    ],
)
def test_finds(store: IndexStore, text: str, ref: str) -> None:
    assert refs(store, text) == [ref]


def test_stem_finds_other_forms(store: IndexStore) -> None:
    assert refs(store, "runs") == ["folder:MEMORY.md#shoes"]
    assert refs(store, "ran") == ["folder:MEMORY.md#shoes"]  # irregular: lemma, then stem
    assert refs(store, "shoe") == ["folder:MEMORY.md#shoes"]
    assert refs(store, "buy") == ["folder:MEMORY.md#shoes"]  # "Bought running shoes"


def test_a_compound_written_whole_outscores_its_scattered_parts(store: IndexStore) -> None:
    store.replace([_doc("folder:x.md#scattered", "postgres upgrade takes 16 hours")])
    hits = store.search(build_query("postgres-16").words, limit=5)
    assert [h.ref for h in hits] == ["folder:MEMORY.md#ship", "folder:x.md#scattered"]


def _doc(ref: str, text: str) -> IndexDoc:
    return doc(ref, text, path="x.md")


HOSTILE = [
    "",
    "   ",
    "AND OR NOT",
    '*** ??? ~~~ ^^^ ::: ((( ))) """',
    "\x00\x01\x1b[31m\x7f",
    "\ud800\udfff lone \udc00 surrogates",
    r".*+?[](){}|\^$ (?P<x>a)\1",
    "'; DROP TABLE memory_items; --",
    "exact:foo OR stem:bar^3 AND ref:*",
    "word " * 2000,
    "x" * 10_000,
    "😀" * 5000,
]


@pytest.mark.parametrize("text", HOSTILE, ids=range(len(HOSTILE)))
def test_hostile_queries_build_and_search(store: IndexStore, text: str) -> None:
    built = build_query(text)
    assert len(built.terms) <= MAX_TERMS
    for q in (built.words, built.words):
        hits = store.search(q, limit=5)
        assert all(hit.ref for hit in hits)


def test_an_empty_query_is_null_and_finds_nothing(store: IndexStore) -> None:
    built = build_query("*** ::: ()")
    assert built.is_empty
    assert built.words is NullQuery
    assert store.search(built.words, limit=5) == []


def test_long_queries_keep_the_first_distinctive_terms() -> None:
    text = " ".join(f"w{i}" for i in range(500))
    terms = distinctive_terms(text)
    assert terms == [f"w{i}" for i in range(MAX_TERMS)]


@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(text=st.text())
def test_any_text_builds_a_query_that_searches(store: IndexStore, text: str) -> None:
    built = build_query(text)
    assert set(built.distinctive) <= set(built.terms)
    for q in (built.words, built.words):
        for hit in store.search(q, limit=3):
            assert hit.rank >= 1


SMALL_INDEX_QUERIES = [
    "postgres migration window",
    "who deploys on friday",
    "the the the",
    "staging deploy postgres friday window migration hours",
]


@pytest.mark.parametrize("text", SMALL_INDEX_QUERIES)
def test_any_word_ranks_as_stock_whoosh_or(store: IndexStore, text: str) -> None:
    """`AnyWord` only changes how Whoosh matches the clauses on a small index (a tree of
    unions that can skip blocks, not preloaded arrays): the same hits, in the same order,
    with the same scores as Whoosh's own `Or` over the same clauses."""
    words = build_query(text).words
    assert isinstance(words, AnyWord)
    stock = Or(list(words.subqueries))
    ours = [(h.ref, round(h.score, 9)) for h in store.search(words, limit=10)]
    theirs = [(h.ref, round(h.score, 9)) for h in store.search(stock, limit=10)]
    assert ours == theirs
    assert ours  # the corpus answers each of them
    if len(words.subqueries) > 1:  # as a search asks: no need of the current match

        def matcher_of(q: Or) -> str:
            return str(store._read(lambda s: type(q.matcher(s, s.context(needs_current=False)))))

        assert "ArrayUnionMatcher" in matcher_of(stock)
        assert "ArrayUnionMatcher" not in matcher_of(words)
