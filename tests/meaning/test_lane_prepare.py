"""The meaning lane's head start (issue #29, Budgets): the question is embedded on a
worker thread while the index lanes search, recall answers what it answered without
one, and a recall by words alone starts no thread."""

from __future__ import annotations

import subprocess
import sys
import threading
from collections.abc import Sequence
from pathlib import Path

import pytest

from memrepo import MemoryRepo
from memrepo.index import IndexDoc, PlainQuery, build_query
from memrepo.meaning.embed import update_vectors
from memrepo.meaning.lane import MeaningSearch
from memrepo.meaning.model import Embedder, Vectors
from memrepo.meaning.vectors import VectorStore
from memrepo.recall import Visibility
from memrepo.recall.lanes import LaneHit

QUESTION = "What does Kate do for fun?"
FACTS = [
    "The office plants need water on Mondays",
    "She went skiing in the Alps last winter",
    "Postgres connection limits are set to 200",
    "She baked sourdough bread all Sunday",
    "Kate's desk is by the window on floor 3",
    "Kate asked for the quarterly report in PDF",
]


class Watched:
    """The packaged model, noting the thread each question was embedded on."""

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner
        self.threads: list[str] = []

    @property
    def name(self) -> str:
        return self.inner.name

    @property
    def dim(self) -> int:
        return self.inner.dim

    def embed(self, texts: Sequence[str]) -> Vectors:
        self.threads.append(threading.current_thread().name)
        return self.inner.embed(texts)


@pytest.fixture
def kate(memory_repo: MemoryRepo) -> MemoryRepo:
    for fact in FACTS:
        memory_repo.remember(fact)
    return memory_repo


def searched(repo: MemoryRepo, embedder: Embedder) -> MeaningSearch:
    """A lane's state over vectors of every document the repo's index holds."""
    repo.recall("warm up the index")
    fields = repo._parts.searcher.store().scan(
        lambda searcher, _denied: list(searcher.all_stored_fields()), filter_terms={}
    )
    store = VectorStore(embedder.name, embedder.dim)
    docs = [IndexDoc(ref=str(f["ref"]), lane=str(f["lane"]), text=str(f["text"])) for f in fields]
    update_vectors(store, docs, embedder, complete=True)
    return MeaningSearch(repo._parts.searcher.store, store, embedder)


@pytest.mark.slow
def test_recall_embeds_the_question_beside_the_lexical_search(
    kate: MemoryRepo, embedder: Embedder
) -> None:
    watched = Watched(embedder)
    search = searched(kate, embedder)
    search.embedder = watched
    kate.plug_lane(search.lane())
    interval = sys.getswitchinterval()
    found = [hit.text for hit in kate.recall(QUESTION, limit=4).hits]
    assert set(found) >= {FACTS[1], FACTS[3]}  # both pastimes, sharing no word with it
    assert len(watched.threads) == 1 and watched.threads[0].startswith("memrepo-meaning")
    assert sys.getswitchinterval() == interval  # lowered for the job only


@pytest.mark.slow
def test_the_head_start_answers_as_the_lane_alone_does(
    kate: MemoryRepo, embedder: Embedder
) -> None:
    """The same hits, ranks and cosines, and the same cosines for fusion, with the
    question embedded ahead (and the rows multiplied ahead) or not."""
    search = searched(kate, embedder)
    query, visibility = build_query(QUESTION), Visibility()
    alone = search.lane().search(query, visibility, 5)
    lane = MeaningSearch(kate._parts.searcher.store, search.vectors, embedder).lane()
    lane.prepare(query)
    ahead = lane.search(query, visibility, 5)
    assert [(h.ref, h.rank, h.fields["_calibrated"]) for h in ahead] == [
        (h.ref, h.rank, h.fields["_calibrated"]) for h in alone
    ]
    assert lane.scores(query, visibility, alone) == [h.fields["_calibrated"] for h in alone]


class HostLane:
    """A host's lane with a head start that fails: recall must still search it."""

    name = "host"
    weight = 1.0

    def __init__(self) -> None:
        self.calls: list[str] = []

    def prepare(self, query: PlainQuery) -> None:
        self.calls.append("prepare")
        raise RuntimeError("no head start today")

    def search(self, query: PlainQuery, visibility: Visibility, limit: int) -> list[LaneHit]:
        self.calls.append("search")
        return [LaneHit("host:1", "Kate paints watercolours", 1, {"lane": "host"})]


@pytest.mark.slow
def test_a_failed_head_start_is_no_failure(kate: MemoryRepo) -> None:
    host = HostLane()
    kate.plug_lane(host)
    result = kate.recall(QUESTION, limit=10)
    assert host.calls == ["prepare", "search"]
    assert "Kate paints watercolours" in {hit.text for hit in result.hits}
    assert result.lane_errors == {}


@pytest.mark.slow
def test_a_recall_by_words_alone_starts_no_thread(tmp_path: Path) -> None:
    script = (
        "import sys, threading\n"
        "from memrepo import MemoryRepo\n"
        "repo = MemoryRepo.init(sys.argv[1])\n"
        "repo.remember('Kate went skiing in the Alps')\n"
        "hits = repo.recall('where did Kate go skiing').hits\n"
        "print(len(hits), threading.active_count(), 'memrepo.meaning' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(tmp_path / "repo")],
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.split() == ["1", "1", "False"]
