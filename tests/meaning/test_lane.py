"""The meaning lane through recall on real repos (issue #29): it finds what shares no word
with the question, it never scores what the reader may not see, and explain shows it."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

import pytest

from memrepo import MemoryRepo
from memrepo.index import IndexDoc
from memrepo.meaning.embed import update_vectors
from memrepo.meaning.lane import LANE, MeaningSearch
from memrepo.meaning.model import Embedder
from memrepo.meaning.vectors import VectorStore
from memrepo.recall.lanes import CALIBRATED_FIELD, SCORE_FIELD

QUESTION = "What does Kate do for fun?"
#: Kate's pastimes, in words the question does not use ("she" is a stopword).
HOBBIES = ["She went skiing in the Alps last winter", "She baked sourdough bread all Sunday"]
OTHERS = [
    "The office plants need water on Mondays",
    "Postgres connection limits are set to 200",
    "Invoices go out on the first of the month",
    "The wifi password changed in March",
    "Kate's desk is by the window on floor 3",
    "Kate asked for the quarterly report in PDF",
]


def index_documents(repo: MemoryRepo) -> list[Mapping[str, Any]]:
    """Every document the repo's index holds, with its stored fields."""
    repo.recall("warm up the index")
    store = repo._parts.searcher.store()
    found: list[Mapping[str, Any]] = store.scan(
        lambda searcher, _denied: [dict(fields) for fields in searcher.all_stored_fields()],
        filter_terms={},
    )
    return found


def embedded(repo: MemoryRepo, embedder: Embedder) -> VectorStore:
    """A vector store holding every document of the repo's index (its own words: the
    write path that keeps it current is not part of the lane)."""
    store = VectorStore(embedder.name, embedder.dim)
    docs: Iterable[IndexDoc] = (
        IndexDoc(ref=str(f["ref"]), lane=str(f["lane"]), text=str(f["text"]))
        for f in index_documents(repo)
    )
    update_vectors(store, docs, embedder, complete=True)
    return store


Plug = Callable[..., MeaningSearch]


@pytest.fixture
def plug(embedder: Embedder) -> Plug:
    def plugged(repo: MemoryRepo, **lane: Any) -> MeaningSearch:
        search = MeaningSearch(repo._parts.searcher.store, embedded(repo, embedder), embedder)
        repo.plug_lane(search.lane(**lane))
        return search

    return plugged


@pytest.fixture
def kate(memory_repo: MemoryRepo) -> MemoryRepo:
    for fact in [*OTHERS[:3], *HOBBIES, *OTHERS[3:]]:
        memory_repo.remember(fact)
    return memory_repo


@pytest.mark.slow
def test_finds_an_answer_that_shares_no_word_with_the_question(
    kate: MemoryRepo, plug: Plug
) -> None:
    before = [hit.text for hit in kate.recall(QUESTION, limit=4).hits]
    assert set(before) == {OTHERS[4], OTHERS[5]}  # lexically, "Kate" finds her desk, report
    plug(kate)
    after = [hit.text for hit in kate.recall(QUESTION, limit=4).hits]
    assert set(after) == {*HOBBIES, OTHERS[4], OTHERS[5]}


@pytest.mark.slow
def test_a_hit_both_lanes_find_is_one_hit_with_both_ranks(kate: MemoryRepo, plug: Plug) -> None:
    plug(kate)
    hits = kate.recall("skiing in winter", limit=10).hits
    skiing = [hit for hit in hits if "skiing" in hit.text]
    assert len(skiing) == 1 and set(skiing[0].lane_ranks) == {"folder", LANE}
    assert skiing[0].lane == "folder" and skiing[0].provenance.path == "MEMORY.md"
    assert len({hit.ref for hit in hits}) == len(hits)


@pytest.mark.slow
def test_lane_hits_carry_the_index_fields_and_their_cosine(kate: MemoryRepo, plug: Plug) -> None:
    search = plug(kate)
    plain = kate.recall(QUESTION).query
    from memrepo.index import build_query
    from memrepo.recall import Visibility

    hits = search.lane().search(build_query(plain), Visibility(), 3)
    assert [hit.rank for hit in hits] == [1, 2, 3]
    for hit in hits:
        assert hit.fields["ref"] == hit.ref and hit.fields["lane"] == "folder"
        assert hit.fields["path"] == "MEMORY.md" and hit.fields["norm_hash"]
        assert 0.0 < hit.fields[CALIBRATED_FIELD] <= 1.0 and SCORE_FIELD not in hit.fields
    cosines = [hit.fields[CALIBRATED_FIELD] for hit in hits]
    assert cosines == sorted(cosines, reverse=True)


@pytest.mark.slow
def test_explain_shows_the_lexical_and_the_meaning_part(kate: MemoryRepo, plug: Plug) -> None:
    plug(kate)
    hits = kate.recall(QUESTION, limit=5, explain=True).hits
    by_text = {hit.text: hit.explain for hit in hits}
    skiing = by_text[HOBBIES[0]]
    assert skiing is not None and skiing.lexical == 0.0  # no word of the question
    assert skiing.calibrated[LANE] > 0.2 and skiing.lanes[LANE] > 0.0
    desk = by_text[OTHERS[4]]
    assert desk is not None and desk.lexical is not None and desk.lexical > 0.0
    assert LANE in desk.calibrated and desk.index_score is not None


@pytest.mark.slow
def test_cli_explain_prints_both_parts(kate: MemoryRepo, plug: Plug, capsys: Any) -> None:
    plug(kate)
    hit = kate.recall(QUESTION, limit=1, explain=True).hits[0]
    from memrepo.cli.recall import _explain_lines

    assert hit.explain is not None
    line = _explain_lines(hit.explain)
    assert "folder" in line and "meaning" in line


# --- visibility ------------------------------------------------------------------------------

SECRETS = {
    "workspace": "Kate skis at the clinic retreat every winter",
    "private": "Kate secretly bakes cakes for fun at night",
    "task": "Kate plans a ski weekend for the refund task",
    "contact": "Kate loves baking with Ana on weekends",
}


@pytest.fixture
def guarded(memory_repo: MemoryRepo) -> MemoryRepo:
    memory_repo.remember(OTHERS[0])
    memory_repo.remember(SECRETS["workspace"], workspace="Clinic")
    memory_repo.remember(SECRETS["private"], private=True, by="user")
    memory_repo.remember(SECRETS["task"], scope="task", task_id="t1")
    memory_repo.remember(SECRETS["contact"], contact_ref="mail:ana")
    return memory_repo


def texts(repo: MemoryRepo, **reader: Any) -> set[str]:
    return {hit.text for hit in repo.recall(QUESTION, limit=20, **reader).hits}


@pytest.mark.slow
def test_never_returns_what_the_reader_may_not_see(guarded: MemoryRepo, plug: Plug) -> None:
    plug(guarded)
    everything = set(SECRETS.values())
    assert texts(guarded) & everything == set()
    assert texts(guarded, workspace="Clinic") & everything == {SECRETS["workspace"]}
    assert texts(guarded, workspace="Shop") & everything == set()
    assert texts(guarded, include_private=True) & everything == {SECRETS["private"]}
    assert texts(guarded, task_id="t1") & everything == {SECRETS["task"]}
    assert texts(guarded, contact_ref="mail:ana") & everything == {SECRETS["contact"]}


@pytest.mark.slow
def test_a_shut_lane_is_shut_for_meaning_too(guarded: MemoryRepo, plug: Plug) -> None:
    plug(guarded, lanes=("memory",))  # folder documents are not this lane's to find
    reader = {"workspace": "Clinic", "contact_ref": "mail:ana"}
    found = guarded.recall(QUESTION, limit=20, lanes=[LANE], **reader).hits  # type: ignore[arg-type]
    assert {hit.text for hit in found} == {SECRETS["contact"]}
    assert {hit.lane for hit in found} == {"memory"}


@pytest.mark.slow
def test_a_document_forgotten_after_embedding_is_not_returned(kate: MemoryRepo, plug: Plug) -> None:
    plug(kate)
    skiing = next(h for h in kate.recall(QUESTION, limit=3).hits if h.text == HOBBIES[0])
    kate.forget(skiing.ref)
    assert HOBBIES[0] not in {hit.text for hit in kate.recall(QUESTION, limit=10).hits}
