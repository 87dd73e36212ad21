"""One recall: search every lane, fuse, and shape the hits an agent puts in its prompt."""

from __future__ import annotations

import contextlib
import math
from collections.abc import Mapping, Sequence
from datetime import date
from typing import Any

from memrepo.errors import InvalidArgument, RecallFailed
from memrepo.hygiene import cut_at_word_boundary
from memrepo.index import PlainQuery, build_query
from memrepo.models.recall import Detail, Explanation, Provenance, RecallHit, RecallResult
from memrepo.recall.fusion import BLEND_DEPTH, Fused, blend, fuse
from memrepo.recall.lanes import (
    EXPLAIN_FIELD,
    SCORE_FIELD,
    CalibratedLane,
    Lane,
    LaneHit,
    is_calibrated,
    is_prepared,
)
from memrepo.recall.matching import matches
from memrepo.recall.visibility import Visibility

SNIPPET_CHARS = 200
#: How deep each lane searches, relative to the hits asked for. The index lanes share
#: one search of (hits asked for x index lanes); deeper searches cost a third more time
#: at 10,000 entries and changed no eval result.
LANE_DEPTH = 1

#: The most a hit's `content` holds (`detail="full"`, reference §8: "<= 4000
#: characters"): a person's hand-written line can be any length, a prompt cannot.
FULL_CONTENT_CHARS = 4000


def estimate_tokens(text: str) -> int:
    """A prompt-budget estimate: about four characters per token, at least one."""
    return max(1, math.ceil(len(text) / 4))


def snippet(text: str, terms: Sequence[str]) -> str:
    """The text, or a window of it around the first query term, with ellipses."""
    if len(text) <= SNIPPET_CHARS:
        return text
    folded = text.casefold()
    starts = [folded.find(term) for term in terms if folded.find(term) >= 0]
    start = max(0, min(starts) - SNIPPET_CHARS // 4) if starts else 0
    window = text[start : start + SNIPPET_CHARS].strip()
    return ("…" if start > 0 else "") + window + ("…" if start + SNIPPET_CHARS < len(text) else "")


def run_recall(
    query: str,
    lanes: Sequence[Lane],
    visibility: Visibility,
    *,
    limit: int,
    detail: Detail,
    today: date | None = None,
    explain: bool = False,
) -> RecallResult:
    """Search every lane, fuse, cut to `limit`; raises RecallFailed when every lane fails.
    `today` resolves the relative dates a query names ("last month"); `explain` puts an
    `Explanation` on every hit."""
    if limit < 1:
        raise InvalidArgument(f"limit={limit}: must be at least 1")
    if detail not in ("snippet", "full"):
        raise InvalidArgument(f"detail={detail!r}: use snippet or full")
    plain = build_query(query, today)
    if plain.is_empty or not lanes:
        return RecallResult(query=query)
    calibrated = {lane.name: lane for lane in lanes if is_calibrated(lane)}
    depth = max(limit * LANE_DEPTH, BLEND_DEPTH) if calibrated else limit * LANE_DEPTH
    _prepare(plain, lanes)
    results, errors = _search_lanes(plain, lanes, visibility, depth)
    if errors and not results:
        raise RecallFailed(errors)
    fused = _fuse(results, lanes, calibrated, plain, visibility, errors)[:limit]
    best = fused[0].score if fused else 1.0
    scored = [f.hit.fields.get(SCORE_FIELD) for f in fused]
    best_scored = max((float(v) for v in scored if isinstance(v, float)), default=0.0)
    hits = tuple(_to_hit(f, best, plain, detail, best_scored) for f in fused)
    if explain:
        hits = tuple(
            hit.model_copy(update={"explain": explanation(f, plain, visibility)})
            for hit, f in zip(hits, fused, strict=True)
        )
    return RecallResult(query=query, hits=hits, lane_errors=errors)


def _fuse(
    results: Mapping[str, list[LaneHit]],
    lanes: Sequence[Lane],
    calibrated: Mapping[str, CalibratedLane],
    plain: PlainQuery,
    visibility: Visibility,
    errors: dict[str, str],
) -> list[Fused]:
    """The ranked lanes fused by rank, then blended with the calibrated lanes' hits
    (`fusion.blend`), if any answered. A calibrated lane that fails to score the other
    lanes' candidates adds nothing to them and its failure joins `errors`: recall
    answers with what it has, as when a lane fails outright."""
    weights = {lane.name: lane.weight for lane in lanes}
    boosted = {lane.name for lane in lanes if getattr(lane, "ranked_by_score", False)}
    ranked = {name: hits for name, hits in results.items() if name not in calibrated}
    fused = fuse(ranked, weights, boost=visibility.context_boost, boosted=boosted)
    scored = {name: results[name] for name in calibrated if name in results}
    if not scored:
        return fused

    def rescore(name: str, hits: Sequence[LaneHit]) -> Sequence[float | None]:
        try:
            found = list(calibrated[name].scores(plain, visibility, hits))
            if len(found) != len(hits):
                raise ValueError(f"{len(found)} scores for {len(hits)} hits")
        except Exception as exc:  # a host's lane may fail: reported, as in _search_lanes
            errors[name] = f"{type(exc).__name__}: {exc}"
            return [None] * len(hits)
        return found

    return blend(fused, scored, weights, rescore=rescore, boost=visibility.context_boost)


def _prepare(plain: PlainQuery, lanes: Sequence[Lane]) -> None:
    """Give each lane that has one (`PreparedLane`) its head start before any lane
    searches: the meaning lane embeds the question on a worker thread while the index
    lanes search (issue #29, Budgets). Lanes without it start nothing, no thread."""
    for lane in lanes:
        if is_prepared(lane):
            # A failed head start is no failure: the lane's search does the work again
            # and reports why it fails, as any lane's failure is reported.
            with contextlib.suppress(Exception):
                lane.prepare(plain)


def _search_lanes(
    plain: PlainQuery, lanes: Sequence[Lane], visibility: Visibility, depth: int
) -> tuple[dict[str, list[LaneHit]], dict[str, str]]:
    results: dict[str, list[LaneHit]] = {}
    errors: dict[str, str] = {}
    for lane in lanes:
        try:
            results[lane.name] = list(lane.search(plain, visibility, depth))
        except Exception as exc:
            # A lane may be a host's code: its failure is the caller's to see on the
            # result (and every lane failing raises), not a reason to lose the others.
            errors[lane.name] = f"{type(exc).__name__}: {exc}"
    return results, errors


def full_hit(ref: str, fields: Mapping[str, object]) -> RecallHit:
    """A hit for `expand`: one stored document with its whole text, no ranking."""
    lane = str(fields.get("lane", ""))
    hit = LaneHit(ref, str(fields.get("text", "")), 1, fields)
    return _to_hit(Fused(hit, lane, 1.0, 1.0, {lane: 1}), 1.0, build_query(""), "full")


def _to_hit(
    fused: Fused, best: float, plain: PlainQuery, detail: Detail, best_scored: float = 0.0
) -> RecallHit:
    """`relevance` of an index hit is its score over the best index hit's (BM25F is
    comparable across the shared lanes); a host lane's is its fused rank score over the
    best one's; a blended hit's (a calibrated lane took part) its blended score over the
    best one's, so relevance falls as the list goes down."""
    fields: Mapping[str, object] = fused.hit.fields
    text = fused.hit.text
    own = fields.get(SCORE_FIELD)
    if fused.parts is not None:
        relevance = round(min(1.0, fused.score / best), 6) if best > 0 else 0.0
    elif isinstance(own, float) and best_scored > 0:
        relevance = round(min(1.0, own / best_scored), 6)
    else:
        relevance = round(fused.score / best, 6) if best else 0.0

    def text_field(name: str) -> str | None:
        value = fields.get(name)
        return str(value) if value not in (None, "") else None

    line = fields.get("line")
    return RecallHit(
        ref=fused.hit.ref,
        lane=fused.lane,
        text=text,
        snippet=snippet(text, plain.distinctive),
        relevance=relevance,
        score=fused.score,
        provenance=Provenance(
            repo=text_field("repo") or fused.lane,
            path=text_field("path"),
            line=int(line) if isinstance(line, int) and line > 0 else None,
            commit=text_field("commit"),
            by=text_field("by"),
            added=text_field("added"),
            source=text_field("source"),
            trust=text_field("trust"),
            uncommitted=bool(fields.get("uncommitted", False)),
            due=text_field("due"),
        ),
        tainted=bool(fields.get("tainted", False)),
        tokens=estimate_tokens(text),
        lane_ranks=dict(fused.lane_ranks),
        content=cut_at_word_boundary(text, FULL_CONTENT_CHARS) if detail == "full" else None,
    )


def explanation(fused: Fused, plain: PlainQuery, visibility: Visibility) -> Explanation:
    """Why `fused` came up: the words that matched where, and the parts of its score."""
    fields = fused.hit.fields
    raw = fields.get(EXPLAIN_FIELD)
    scored: Mapping[str, Any] = raw if isinstance(raw, Mapping) else {}
    terms: dict[str, float] = dict(scored.get("terms", {}))
    lanes = {lane: round(value, 6) for lane, value in fused.contributions.items()}
    index_score = scored.get("index_score")
    parts = fused.parts
    return Explanation(
        matched=matches(plain, fields, terms.keys()).as_dict(),
        index_score=round(float(index_score), 4) if index_score is not None else None,
        term_scores=terms,
        label_boost=float(scored.get("label_boost", 1.0)),
        lanes=lanes,
        reader_boost=visibility.context_boost(fields),
        score=fused.score,
        lexical=round(parts.lexical, 6) if parts is not None else None,
        calibrated={k: round(v, 6) for k, v in parts.calibrated.items()} if parts else {},
    )
