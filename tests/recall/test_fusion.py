"""Weighted reciprocal-rank fusion: the arithmetic, coverage scaling and merging."""

from __future__ import annotations

import pytest

from memrepo.recall import LaneHit, fuse
from memrepo.recall.fusion import RRF_K, coverage


def hit(ref: str, text: str, rank: int) -> LaneHit:
    return LaneHit(ref, text, rank, {})


def test_single_lane_keeps_its_order_and_rrf_scores() -> None:
    fused = fuse({"folder": [hit("a", "alpha", 1), hit("b", "beta", 2)]}, {"folder": 1.0}, [])
    assert [f.hit.ref for f in fused] == ["a", "b"]
    assert fused[0].score == pytest.approx(1 / (RRF_K + 1))
    assert fused[1].score == pytest.approx(1 / (RRF_K + 2))


def test_lane_weights_scale_contributions() -> None:
    fused = fuse(
        {"folder": [hit("f", "folder fact", 1)], "team": [hit("t", "team fact", 1)]},
        {"folder": 1.0, "team": 0.8},
        [],
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
        [],
    )
    (only,) = fused
    assert only.lane == "memory" and only.hit.ref == "memory:1"
    assert only.lane_ranks == {"folder": 3, "memory": 1}
    assert only.score == pytest.approx(1 / (RRF_K + 3) + 1 / (RRF_K + 1))


def test_coverage_scales_when_two_or_more_distinctive_terms() -> None:
    terms = ["postgres", "migration"]
    full = hit("full", "the postgres migration ships", 2)
    half = hit("half", "postgres tuning notes", 1)
    fused = fuse({"folder": [half, full]}, {"folder": 1.0}, terms)
    assert [f.hit.ref for f in fused] == ["full", "half"]
    assert fused[0].score == pytest.approx(1 / (RRF_K + 2))
    assert fused[1].score == pytest.approx((0.4 + 0.6 * 0.5) / (RRF_K + 1))


def test_one_distinctive_term_means_no_scaling() -> None:
    fused = fuse({"folder": [hit("a", "unrelated", 1)]}, {"folder": 1.0}, ["postgres"])
    assert fused[0].score == pytest.approx(1 / (RRF_K + 1))


@pytest.mark.parametrize(
    ("text", "terms", "expected"),
    [
        ("Deploying the app", ["deploys", "app"], 1.0),
        ("Café opens early", ["cafe", "late"], 0.5),
        ("kubernetes upgrade", ["upgrade", "kuber"], 1.0),
        ("nothing here", ["postgres", "migration"], 0.0),
    ],
)
def test_coverage(text: str, terms: list[str], expected: float) -> None:
    assert coverage(text, terms) == pytest.approx(expected)
