"""The score blend for calibrated lanes (issue #29, docs/architecture.md §6), and rank
fusion left exactly as it was when no such lane takes part."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest

from memrepo import MemoryRepo
from memrepo.index import PlainQuery, build_query
from memrepo.recall import LaneHit, Visibility, fuse
from memrepo.recall.fusion import BLEND_DEPTH, blend
from memrepo.recall.lanes import CALIBRATED_FIELD, SCORE_FIELD, is_calibrated
from memrepo.recall.service import LANE_DEPTH


def lexical(ref: str, text: str, rank: int, score: float) -> LaneHit:
    return LaneHit(ref, text, rank, {"lane": "folder", SCORE_FIELD: score})


def dense(ref: str, text: str, rank: int, cosine: float) -> LaneHit:
    return LaneHit(ref, text, rank, {"lane": "folder", CALIBRATED_FIELD: cosine})


def test_blend_adds_the_rescaled_score_to_the_lexical_relevance() -> None:
    ranked = fuse(
        {"folder": [lexical("a", "alpha", 1, 2.0), lexical("b", "beta", 2, 1.0)]},
        {"folder": 1.0},
    )
    asked: list[str] = []

    def rescore(lane: str, hits: Sequence[LaneHit]) -> list[float | None]:
        asked.extend(hit.ref for hit in hits)
        return [0.3 for _hit in hits]

    found = blend(
        ranked,
        {"meaning": [dense("c", "gamma", 1, 0.9), dense("b", "beta", 2, 0.5)]},
        {"meaning": 0.4},
        rescore=rescore,
    )
    assert asked == ["a"]  # the one candidate the calibrated lane did not return
    by_ref = {f.hit.ref: f for f in found}
    assert [f.hit.ref for f in found] == ["a", "b", "c"]
    assert by_ref["a"].score == pytest.approx(1.0)  # lowest cosine of the union adds 0
    assert by_ref["b"].score == pytest.approx(0.5 + 0.4 * (0.5 - 0.3) / (0.9 - 0.3))
    assert by_ref["c"].score == pytest.approx(0.4)
    assert by_ref["b"].lane_ranks == {"folder": 2, "meaning": 2}
    only_dense = by_ref["c"]
    assert only_dense.lane == "folder" and only_dense.lane_ranks == {"meaning": 1}
    parts = by_ref["b"].parts
    assert parts is not None and parts.lexical == pytest.approx(0.5)
    assert parts.calibrated == {"meaning": 0.5}


def test_a_strong_calibrated_score_lifts_a_weak_lexical_hit() -> None:
    ranked = fuse(
        {"folder": [lexical("top", "x", 1, 4.0), lexical("weak", "y", 2, 2.6)]}, {"folder": 1.0}
    )
    found = blend(
        ranked,
        {"meaning": [dense("weak", "y", 1, 0.8), dense("top", "x", 2, 0.1)]},
        {"meaning": 0.5},
        rescore=lambda _lane, hits: [None] * len(hits),
    )
    assert [f.hit.ref for f in found] == ["weak", "top"]


def test_a_document_the_lane_cannot_score_adds_nothing() -> None:
    ranked = fuse({"folder": [lexical("a", "alpha", 1, 1.0)]}, {"folder": 1.0})
    found = blend(
        ranked,
        {"meaning": [dense("c", "gamma", 1, 0.9), dense("d", "delta", 2, 0.2)]},
        {"meaning": 0.4},
        rescore=lambda _lane, hits: [None] * len(hits),
    )
    by_ref = {f.hit.ref: f for f in found}
    assert by_ref["a"].score == pytest.approx(1.0) and "meaning" not in by_ref["a"].contributions


# --- through recall, on a real repo --------------------------------------------------------


class Calibrated:
    """A host's calibrated lane: scores documents by the words a fixed table maps to
    them, as a meaning lane would score paraphrases (the seam a host plugs in)."""

    name = "meaning"
    weight = 0.5
    calibrated = True

    def __init__(self, table: Mapping[str, float]) -> None:
        self.table = dict(table)
        self.depths: list[int] = []

    def search(self, query: PlainQuery, visibility: Visibility, limit: int) -> list[LaneHit]:
        self.depths.append(limit)
        ranked = sorted(self.table.items(), key=lambda pair: -pair[1])[:limit]
        return [
            LaneHit(f"host:{text}", text, rank, {"lane": "folder", CALIBRATED_FIELD: value})
            for rank, (text, value) in enumerate(ranked, 1)
        ]

    def scores(
        self, query: PlainQuery, visibility: Visibility, hits: Sequence[LaneHit]
    ) -> list[float | None]:
        return [self.table.get(hit.text) for hit in hits]


class Ranked:
    """A host's lane ranked by its own order, the kind fused by rank since before #29."""

    name = "host"
    weight = 1.0

    def __init__(self) -> None:
        self.depths: list[int] = []

    def search(self, query: PlainQuery, visibility: Visibility, limit: int) -> list[LaneHit]:
        self.depths.append(limit)
        texts = ["Postgres replicas live in Frankfurt", "Kate's desk is by the window"]
        return [LaneHit(f"host:{n}", text, n, {}) for n, text in enumerate(texts[:limit], 1)]


FACTS = [
    "We ship the postgres 16 migration on March 3",
    "The postgres backups run nightly at 2am",
    "Kate goes skiing in the Alps every winter",
    "Kate bakes sourdough bread on Sundays",
    "Postgres connection limits are set to 200",
    "The office plants need water on Mondays",
]


@pytest.fixture
def repo(memory_repo: MemoryRepo) -> MemoryRepo:
    for fact in FACTS:
        memory_repo.remember(fact)
    return memory_repo


def test_the_test_lane_is_calibrated() -> None:
    assert is_calibrated(Calibrated({}))


@pytest.mark.parametrize(
    "query", ["postgres", "when do we ship postgres", "Kate", "water plants Mondays"]
)
@pytest.mark.slow
def test_without_a_calibrated_lane_recall_fuses_by_rank_as_before(
    repo: MemoryRepo, query: str
) -> None:
    # Before issue #29: each lane searched `limit x LANE_DEPTH` deep, fused by rank, cut.
    limit = 3
    host = Ranked()
    repo.plug_lane(host)
    searcher = repo._parts.searcher
    searcher.recall("warm", Visibility(), limit=1, lanes=None, detail="snippet")
    lanes = searcher.lanes(None, Visibility())
    plain = build_query(query, repo.folder.clock.now().date())
    results = {
        lane.name: list(lane.search(plain, Visibility(), limit * LANE_DEPTH)) for lane in lanes
    }
    weights = {lane.name: lane.weight for lane in lanes}
    boosted = {lane.name for lane in lanes if getattr(lane, "ranked_by_score", False)}
    before = fuse(results, weights, boost=Visibility().context_boost, boosted=boosted)[:limit]
    host.depths.clear()
    hits = repo.recall(query, limit=limit).hits
    assert host.depths == [limit * LANE_DEPTH]
    assert [h.ref for h in hits] == [f.hit.ref for f in before]
    assert [h.score for h in hits] == [f.score for f in before]
    assert all(h.explain is None for h in hits)


@pytest.mark.slow
def test_a_calibrated_lane_finds_what_shares_no_word_and_explains_both_parts(
    repo: MemoryRepo,
) -> None:
    question = "What does Kate do for fun?"
    lexical_only = [hit.text for hit in repo.recall(question, limit=2).hits]
    lane = Calibrated(
        {
            "Kate goes skiing in the Alps every winter": 0.62,
            "Kate bakes sourdough bread on Sundays": 0.55,
            "The office plants need water on Mondays": 0.1,
        }
    )
    repo.plug_lane(lane)
    found = repo.recall(question, limit=2, explain=True)
    assert lane.depths == [BLEND_DEPTH]  # the blend looks deeper than the 2 asked for
    assert [hit.text for hit in found.hits] == [
        "Kate goes skiing in the Alps every winter",
        "Kate bakes sourdough bread on Sundays",
    ]
    assert lexical_only != [hit.text for hit in found.hits]
    top = found.hits[0]
    assert top.lane == "folder" and top.relevance == 1.0
    why = top.explain
    assert why is not None and why.lexical is not None
    assert why.calibrated == {"meaning": 0.62}
    assert why.lanes["meaning"] == pytest.approx(0.5)  # the highest cosine adds the weight
    assert why.score == pytest.approx(
        why.lexical + sum(v for k, v in why.lanes.items() if k == "meaning")
    )
