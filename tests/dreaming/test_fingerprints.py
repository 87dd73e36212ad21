"""Fingerprints never change: they are stored in users' repos and in dream state.

A rejected or undone change is remembered by its fingerprint only, so a fingerprint
computed differently by a newer memrepo would propose it again. The values pinned here
were computed by the first release of the passes; the formula test restates the
documented formula (`json.dumps` of the parts, sha256) independently of ops.py.
"""

from __future__ import annotations

import hashlib
import json
from datetime import date

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memrepo.dreaming.duplicates import find_exact, find_near
from memrepo.dreaming.expiry import find_expired
from memrepo.dreaming.links import find_broken_links
from memrepo.dreaming.ops import fingerprint
from memrepo.dreaming.overflow import find_overflow
from memrepo.dreaming.snapshot import Snapshot, build_snapshot
from memrepo.dreaming.subjects import find_contradictions
from memrepo.dreaming.unlisted import find_unlisted
from memrepo.formats import normalize_text
from memrepo.formats.metadata import split_group
from memrepo.models.dream import LineRef, Op, OpKind

from .helpers import memory

ODD_FOLDER = {
    "MEMORY.md": memory(
        '- Use "pnpm" \\ not npm — café 🚀 [source: t1; by: agent; added: 2026-01-02]',
        '-   use  "PNPM" \\ not NPM — Café 🚀   [source: t2; by: agent; added: 2025-12-01]',
        "* Bell \x07 rings at 02:00 [by: agent; expires: 2026-01-01]",
        "+ Straße öffnet um 8 Uhr [subject: öffnung; by: agent; added: 2026-01-01]",
        "+ Strasse öffnet um 9 Uhr [subject: öffnung; by: user]",
        "- Ana owns the billing services [by: agent; added: 2026-01-01]",
        "- Ana owns the billing service [by: agent; added: 2026-02-01]",
        "- See [[notes/old|the notes]] [by: agent]",
        "- Keep answers short [by: agent; kind: style]",
        index=("notes/old", "topics/a"),
    ),
    "topics/a.md": '# A\n\n- Use "pnpm" \\ not npm — café 🚀 [source: t3; by: import]\n',
    "lost/b.md": "# B\n\n- nothing links here\n",
}
PINNED = [
    ("expiry", "39c276b13ab10f36"),
    ("duplicates", "280e906bf859130b"),
    ("near_duplicates", "68bc841dafe655cd"),
    ("subjects", "10080f35a67f49f8"),
    ("links", "82b4878522d686fc"),
    ("links", "1daf0ec32b45c75f"),
    ("unlisted", "e05e7f8a58a248d0"),
    ("overflow", "901c014a7a0a95b5"),
]
ODD_LINES = [
    "- plain",
    "-  spaced   out   ",
    "   - indented by three [by: agent]",
    "* star [by: agent]",
    "+ plus [kind: x]   ",
    "- [only: metadata]",
    "- text [not a group",
    "- text [[a link]]",
    "- two groups [a: b] [c: d]",
    "- tab\tinside [by: agent]",
    "- Ünïcödé ẞ ﬁ [by: user]",
    '- quotes " and \\ backslash \x07 bell',
]


def snap(files: dict[str, str]) -> Snapshot:
    return build_snapshot("c0", {p: t.encode() for p, t in files.items()}, date(2026, 3, 1))


def every_pass(s: Snapshot) -> list[Op]:
    claimed: set[tuple[str, int]] = set()
    ops = find_expired(s, claimed)
    ops += find_exact(s, claimed)
    ops += find_near(s, claimed)
    ops += find_contradictions(s, claimed)
    link_ops, _broken, moved = find_broken_links(
        s, claimed, lambda paths: {p: "notes/new.md" for p in paths if "old" in p}
    )
    ops += link_ops
    ops += find_unlisted(s, moved)
    ops += find_overflow(s, claimed, budget=20)
    return ops


def test_every_pass_gives_the_fingerprints_it_always_gave() -> None:
    assert [(op.found_by, op.fingerprint) for op in every_pass(snap(ODD_FOLDER))] == PINNED


def test_a_fact_and_its_line_have_one_fingerprint() -> None:
    s = snap({f"odd{n}.md": f"# Odd\n\n{line}\n" for n, line in enumerate(ODD_LINES)})
    assert len(s.facts) == len(ODD_LINES)
    changes: list[tuple[OpKind, str | None]] = [("remove", None), ("rewrite", "- new [by: dream]")]
    for fact in s.facts:
        for kind, text in changes:
            from_fact = fingerprint(kind, fact.path, [fact], text, None)
            assert from_fact == fingerprint(kind, fact.path, [fact.ref], text, None), fact.raw


def _norm_line(raw: str) -> str:
    body = raw.strip()
    body = body[1:] if body[:1] in "-*+" else body
    return normalize_text(split_group(body)[0])


def _documented(
    kind: str, path: str, targets: list[LineRef], text: str | None, dest: str | None
) -> str:
    parts = [
        kind,
        path,
        sorted(f"{t.path}\x00{_norm_line(t.raw)}" for t in targets),
        _norm_line(text) if text is not None else None,
        dest,
    ]
    payload = json.dumps(parts, ensure_ascii=False).encode("utf-8", "surrogatepass")
    return hashlib.sha256(payload).hexdigest()[:16]


ANY_TEXT = st.text(max_size=40)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(
    path=ANY_TEXT,
    raws=st.lists(st.tuples(ANY_TEXT, ANY_TEXT), max_size=3),
    text=st.none() | ANY_TEXT,
    dest=st.none() | ANY_TEXT,
)
def test_the_fingerprint_is_the_documented_hash(
    path: str, raws: list[tuple[str, str]], text: str | None, dest: str | None
) -> None:
    targets = [LineRef(path=p, line=n, raw=raw) for n, (p, raw) in enumerate(raws)]
    expected = _documented("merge", path, targets, text, dest)
    assert fingerprint("merge", path, targets, text, dest) == expected
