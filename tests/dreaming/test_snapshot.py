"""A dream's snapshot: every entry a `Fact` that reads exactly as the parser reads it.

The snapshot splits, normalizes and indexes entries a file at a time for speed; the
parser's own `Document.entries` (decoded line by line) is the reference it must match.
"""

from __future__ import annotations

import importlib.util
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memrepo import MemoryRepo
from memrepo.dreaming.snapshot import GLOBAL, WORKSPACE_PREFIX, Snapshot, build_snapshot
from memrepo.folder import branches
from memrepo.formats import normalize_text

from .helpers import memory

TODAY = date(2026, 3, 1)
FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "dream" / "generate.py"

#: Entries in several scripts, with casefolding that changes length (ß, İ, ǅ, ﬁ), final
#: sigmas, CJK, combining marks, a zero-width joiner, odd whitespace, links, and groups
#: that are metadata next to bracketed text that is not.
UNICODE_ENTRIES = (
    "- Die Straße ist gesperrt [by: user; added: 2026-01-02]",
    "- die  STRASSE ist gesperrt [source: t1; by: agent]",
    "- İstanbul ofisi kapal\u0131 [subject: office; by: agent]",
    "- ΟΔΟΣ ΚΛΕΙΣΤΗ [expires: 2026-01-01; by: agent]",
    "- οδος κλειστη, σίγουρα [by: agent]",
    "- 東京の\u3000オフィス [source: t2]",
    "- café vs cafe\u0301 [k: v]",
    "- tabs\tand\u00a0nbsp\u2028separators [k: v]   ",
    "- see [[topics/a]] and [[b|label]] [by: agent]",
    "- remark [not metadata]",
    "- empty []",
    "- half link [[k: v]",
    "- ǅemal ﬁle ς [subject: names; expires: 2027-05-05]",
    "- Emoji 👩\u200d💻 works [by: agent]",
    "- no group at all",
    "- [subject: only-meta]",
    "- expires soon, says the text [by: agent]",
)


def _snap(files: dict[str, str]) -> Snapshot:
    return build_snapshot("c0", {p: t.encode() for p, t in files.items()}, TODAY)


def _as_parsed(snap: Snapshot) -> list[tuple[Any, ...]]:
    """What every fact must hold, from the parser's entries and `normalize_text`."""
    rows: list[tuple[Any, ...]] = []
    for path, doc in snap.docs.items():
        group = path if path.startswith(WORKSPACE_PREFIX) else GLOBAL
        for entry in doc.entries:
            subject = entry.metadata.get("subject", "")
            norm = normalize_text(entry.text)
            rows.append(
                (path, entry.line_no, entry.raw, entry.text, entry.metadata, len(rows),
                 group, subject, norm, entry.links)
            )  # fmt: skip
    return rows


def _as_built(snap: Snapshot) -> list[tuple[Any, ...]]:
    return [
        (f.path, f.line_no, f.raw, f.text, f.metadata, f.order, f.group, f.subject, f.norm,
         f.links)
        for f in snap.facts
    ]  # fmt: skip


def _check(snap: Snapshot) -> None:
    assert _as_built(snap) == _as_parsed(snap)
    facts = snap.facts
    assert snap.with_expiry == tuple(f for f in facts if "expires" in f.metadata)
    assert snap.with_subject == tuple(f for f in facts if f.subject)
    assert snap.with_links == tuple(f for f in facts if f.links)
    assert list(snap.by_key) == [f.key for f in facts] and len(snap.by_key) == len(facts)
    for fact in facts:
        assert snap.by_key[fact.key] is fact and snap.find(fact.handle) is fact


def test_facts_read_every_entry_as_the_parser_does() -> None:
    snap = _snap({
        "MEMORY.md": memory(*UNICODE_ENTRIES, index=("topics/a",)),
        "topics/a.md": "# A\n\n" + "\n".join(reversed(UNICODE_ENTRIES)) + "\n",
        "workspaces/w.md": "# W\n\n- ΟΔΟΣ ΚΛΕΙΣΤΗ [by: agent]\n- plain\n",
        "swarms/s/notes.md": "# S\n\n- never read [by: agent]\n",
        "notes.txt": "- not a memory file [by: agent]\n",
    })  # fmt: skip
    _check(snap)
    assert list(snap.docs) == ["MEMORY.md", "topics/a.md", "workspaces/w.md"]
    by_text = {f.text: f for f in snap.facts if f.path == "MEMORY.md"}
    assert by_text["Die Straße ist gesperrt"].norm == "die strasse ist gesperrt"
    assert by_text["die  STRASSE ist gesperrt"].norm == "die strasse ist gesperrt"
    assert by_text["ΟΔΟΣ ΚΛΕΙΣΤΗ"].norm == "οδοσ κλειστη"
    assert by_text["remark [not metadata]"].meta == ""
    assert by_text["half link [[k: v]"].meta == ""
    assert by_text[""].subject == "only-meta"
    assert [f.text for f in snap.with_expiry if f.path == "MEMORY.md"] == [
        "ΟΔΟΣ ΚΛΕΙΣΤΗ",
        "ǅemal ﬁle ς",
    ]
    assert {f.group for f in snap.facts} == {GLOBAL, "workspaces/w.md"}


def test_lookups_miss_lines_and_files_without_an_entry() -> None:
    snap = _snap({"MEMORY.md": memory("- a [by: user]", "- b"), "topics/t.md": "# T\n"})
    assert snap.find("MEMORY.md:1") is None  # the heading
    found = snap.find("MEMORY.md:3")
    assert found is not None and found.text == "a"
    assert snap.find("MEMORY.md:99") is None
    assert snap.find("topics/t.md:1") is None and snap.find("nope.md:3") is None
    assert snap.find("MEMORY.md:x") is None
    assert ("MEMORY.md", 2) in snap.by_key and ("MEMORY.md", 1) not in snap.by_key
    with pytest.raises(KeyError):
        snap.by_key["MEMORY.md", 0]
    assert snap.by_key == {f.key: f for f in snap.facts}


#: Entry bodies that sit on the edges of the entry grammar, in several scripts.
bodies = st.lists(
    st.sampled_from(
        [*"[];: ab", "\t", "\u00a0", "k: v", "by: agent", "subject: s", "expires: 2026-01-01",
         "[[", "]]", "ß", "İ", "Σ", "日本", "e\u0301", "%3B"]
    ),
    max_size=12,
).map("".join)  # fmt: skip
files = st.lists(
    st.one_of(bodies.map(lambda body: "- " + body), st.sampled_from(["", "# h", "para"])),
    max_size=12,
).map(lambda lines: "# T\n\n" + "\n".join(lines) + "\n")


@pytest.mark.slow
@given(st.dictionaries(st.sampled_from(["MEMORY.md", "t/a.md", "workspaces/b.md"]), files))
def test_any_files_give_the_facts_the_parser_reads(texts: dict[str, str]) -> None:
    _check(_snap(texts))


def test_the_seeded_dream_fixture_reads_as_the_parser_does(tmp_path: Path) -> None:
    """The benchmark's repo, read from git the way a dream reads it."""
    spec = importlib.util.spec_from_file_location("dream_fixture", FIXTURE)
    assert spec is not None and spec.loader is not None
    generator = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(generator)
    generator.build(tmp_path / "fixture", 300, 7)
    with MemoryRepo.open(tmp_path / "fixture") as repo:
        base = branches.main_id(repo.folder)
        found, paths = branches.files_at(repo.folder, base, unread="swarms/")
    snap = build_snapshot(base, found, TODAY, paths)
    _check(snap)
    assert len(snap.facts) >= 300 and snap.with_expiry and snap.with_subject
