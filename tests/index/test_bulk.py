"""A rebuild writes the index Whoosh's own writer would write (memrepo.index._bulk).

The rebuild path adds documents without Whoosh's per-posting costs (issue #28, "Index
build"); what a search can see must not change: the same terms with the same postings
and weights, the same field lengths (BM25F's length normalisation) and stored fields,
whether the postings fit in memory or were spilled to disk in sorted runs.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from whoosh import index as whoosh_index

from memrepo.index import IndexDoc, IndexStore
from memrepo.index.schema import build_schema
from memrepo.index.store import stored_fields

from .conftest import CORPUS, doc


def _docs(count: int) -> list[IndexDoc]:
    words = ["postgres", "café", "東京", "deploy", "v1.2.3", "alice@example.com", "runs"]
    return [
        doc(
            f"folder:notes/f{n % 7}.md#{n}",
            f"Fact {n} " + " ".join(words[(n + k) % len(words)] for k in range(n % 5 + 1)),
            path=f"notes/f{n % 7}.md",
            line=n + 1,
            added=f"2026-0{n % 9 + 1}-1{n % 10}",
            workspace="ws1" if n % 3 == 0 else "",
            subject="deploys" if n % 4 == 0 else "",
            context=((f"neighbour of {n}", 0.25), ("Section heading", 0.2)),
            label="Ana" if n % 6 == 0 else "",
            tainted=n % 11 == 0,
        )
        for n in range(count)
    ] + list(CORPUS)


def _contents(directory: Path) -> tuple[list[Any], list[Any]]:
    """Every posting (field, term, doc, weight) and every document's stored fields and
    scored field lengths."""
    ix = whoosh_index.open_dir(str(directory))
    with ix.searcher() as searcher:
        reader = searcher.reader()
        postings = []
        for fieldname, text in reader.all_terms():
            matcher = reader.postings(fieldname, text)
            while matcher.is_active():
                postings.append((fieldname, text, matcher.id(), matcher.weight()))
                matcher.next()
        docs = [
            (
                sorted(reader.stored_fields(n).items()),
                [reader.doc_field_length(n, name) for name in ("exact", "stem", "date")],
            )
            for n in range(reader.doc_count_all())
        ]
    ix.close()
    return postings, docs


def _whoosh_built(directory: Path, docs: list[IndexDoc], limitmb: int) -> Path:
    directory.mkdir()
    ix = whoosh_index.create_in(str(directory), build_schema())
    writer = ix.writer(limitmb=limitmb)
    for one in docs:
        writer.add_document(**stored_fields(one))  # what the store writes (#28)
    writer.commit()
    ix.close()
    return directory


@pytest.mark.parametrize("limitmb", [24, 1], ids=["in-memory", "spilled-runs"])
@pytest.mark.slow
def test_a_rebuild_writes_what_whoosh_writes(tmp_path: Path, limitmb: int) -> None:
    docs = _docs(400)  # at 1 MB the pool spills several sorted runs
    expected = _contents(_whoosh_built(tmp_path / "whoosh", docs, limitmb))

    def fill(store: IndexStore) -> None:
        assert store.bulk_load(docs, limitmb=limitmb) == len(docs)

    store = IndexStore.open(tmp_path / "state" / "index", rebuild=fill)
    store.close()
    got = _contents(tmp_path / "state" / "index")
    assert got[1] == expected[1]
    assert got[0] == expected[0]
    assert len(got[0]) > 10 * len(docs)
