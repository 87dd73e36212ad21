"""Weighted reciprocal-rank fusion: the arithmetic, merging and the reader's boost."""

from __future__ import annotations

import pytest

from memrepo.recall import LaneHit, fuse
from memrepo.recall.fusion import RRF_K


def hit(ref: str, text: str, rank: int) -> LaneHit:
    return LaneHit(ref, text, rank, {})


def test_single_lane_keeps_its_order_and_rrf_scores() -> None:
    fused = fuse({"folder": [hit("a", "alpha", 1), hit("b", "beta", 2)]}, {"folder": 1.0})
    assert [f.hit.ref for f in fused] == ["a", "b"]
    assert fused[0].score == pytest.approx(1 / (RRF_K + 1))
    assert fused[1].score == pytest.approx(1 / (RRF_K + 2))


def test_lane_weights_scale_contributions() -> None:
    fused = fuse(
        {"folder": [hit("f", "folder fact", 1)], "team": [hit("t", "team fact", 1)]},
        {"folder": 1.0, "team": 0.8},
    )
    assert [f.hit.ref for f in fused] == ["f", "t"]
    assert fused[1].score == pytest.approx(0.8 / (RRF_K + 1))


def test_same_normalized_text_merges_and_keeps_every_rank() -> None:
    fused = fuse(
        {
            "folder": [hit("folder:x", "Deploys go  through staging", 3)],
            "memory": [hit("memory:1", "deploys go through STAGING", 1)],
        },
        {"folder": 1.0, "memory": 1.0},
    )
    (only,) = fused
    assert only.lane == "memory" and only.hit.ref == "memory:1"
    assert only.lane_ranks == {"folder": 3, "memory": 1}
    assert only.score == pytest.approx(1 / (RRF_K + 3) + 1 / (RRF_K + 1))


def test_rank_order_is_kept_whatever_the_hit_text_holds() -> None:
    # No rescaling by the query words a hit's own line holds: a hit found through its
    # context keeps the rank BM25F gave it.
    terms_in_text = hit("full", "the postgres migration ships", 2)
    found_by_context = hit("ctx", "yes, that one", 1)
    fused = fuse({"folder": [found_by_context, terms_in_text]}, {"folder": 1.0})
    assert [f.hit.ref for f in fused] == ["ctx", "full"]


def test_boost_scales_a_hit_and_can_reorder() -> None:
    hits = [hit("global", "export rules", 1), hit("own", "export format", 2)]
    hits[1] = LaneHit("own", "export format", 2, {"audience": "task:t1"})
    fused = fuse(
        {"memory": hits},
        {"memory": 1.0},
        boost=lambda fields: 1.25 if fields.get("audience") == "task:t1" else 1.0,
    )
    assert [f.hit.ref for f in fused] == ["own", "global"]
    assert fused[0].score == pytest.approx(1.25 / (RRF_K + 2))


def test_visibility_boosts_only_the_readers_own_context() -> None:
    from memrepo.recall import Visibility

    reader = Visibility(workspace="shop", task_id="t1", contact_ref="ana")
    assert reader.context_boost({"audience": "task:t1"}) > 1.0
    assert reader.context_boost({"audience": "contact:ana"}) > 1.0
    assert reader.context_boost({"audience": "all", "workspace": "shop"}) > 1.0
    assert reader.context_boost({"audience": "all", "workspace": ""}) == 1.0
    assert Visibility().context_boost({"audience": "all", "workspace": ""}) == 1.0
