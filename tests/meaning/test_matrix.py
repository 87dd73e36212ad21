"""The entry matrix's search (issue #29, Budgets): the top rows in exactly the order a full
sort gives, the nearest `depth` kept for fusion, and products computed ahead of time never
answer for rows that changed since."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from memrepo.meaning.vectors import VectorStore

DIM = 16


def unit(rng: np.random.Generator, n: int) -> npt.NDArray[np.float32]:
    rows = rng.standard_normal((n, DIM)).astype(np.float32)
    unit_rows: npt.NDArray[np.float32] = rows / np.linalg.norm(rows, axis=1, keepdims=True)
    return unit_rows


def store_of(vectors: npt.NDArray[np.float32]) -> VectorStore:
    """One entry per line vector, `e0` ... in row order."""
    store = VectorStore("m", DIM)
    keys = [f"{i:016x}" for i in range(len(vectors))]
    store.add_lines(keys, vectors)
    for i, key in enumerate(keys):
        store.set_entry(f"e{i}", ((key, 1.0),))
    return store


def full_sort(
    store: VectorStore,
    vectors: npt.NDArray[np.float32],
    query: npt.NDArray[np.float32],
    mask: npt.NDArray[np.bool_],
) -> list[tuple[str, float]]:
    """Every visible entry by cosine, best first: what the search must agree with (the
    int8 lines as stored, each entry its one line scaled to length 1)."""
    vectors = store.line_vectors(np.arange(len(vectors)))
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    scored = [
        (ref, float(vectors[int(ref[1:])] @ query))
        for row, ref in enumerate(store.rows())
        if ref and mask[row]
    ]
    return sorted(scored, key=lambda pair: -pair[1])


def test_the_top_rows_and_the_kept_depth_are_a_full_sorts() -> None:
    """3,000 entries over three chunks, a mask hiding a run and scattered rows: the ten
    answered are the full sort's ten, and exactly its 200 nearest keep a cosine."""
    rng = np.random.default_rng(5)
    vectors = unit(rng, 3000)
    store = store_of(vectors)
    mask = rng.random(3000) > 0.3
    mask[1024:2048] = False
    query = unit(rng, 1)[0]
    expected = full_sort(store, vectors, query, mask)
    found = store.nearest(query, 10, 200, mask)
    assert [ref for ref, _c in found.top] == [ref for ref, _c in expected[:10]]
    assert np.allclose([c for _r, c in found.top], [c for _r, c in expected[:10]], atol=1e-5)
    rows = {ref: row for row, ref in enumerate(store.rows())}
    kept = {ref for ref in rows if found.cosine(rows[ref]) is not None}
    assert kept == {ref for ref, _c in expected[:200]}
    assert store.search(query, 10, mask) == found.top


def test_fewer_visible_rows_than_asked_for_are_all_answered() -> None:
    rng = np.random.default_rng(6)
    store = store_of(unit(rng, 50))
    rows = {ref: row for row, ref in enumerate(store.rows())}
    found = store.nearest(unit(rng, 1)[0], 10, 1000, store.mask_for(["e3", "e7", "e11"]))
    assert sorted(ref for ref, _c in found.top) == ["e11", "e3", "e7"]
    seen = [found.cosine(rows[ref]) is not None for ref in ("e3", "e4", "e7", "e11")]
    assert seen == [True, False, True, True]


def test_products_taken_before_a_change_do_not_answer_after_it() -> None:
    """A question multiplied ahead (on a worker thread, during the lexical search), then
    an entry rewritten and another forgotten: the answer is the rows' as they are now."""
    rng = np.random.default_rng(7)
    vectors = unit(rng, 40)
    store = store_of(vectors)
    query = vectors[5]
    view = store.view()
    ahead = (view, view.products(query))
    assert store.nearest(query, 1, 10, products=ahead).top[0][0] == "e5"
    store.add_lines(["f" * 16], query[None, :])
    store.set_entry("e9", (("f" * 16, 1.0),))  # e9 now reads as the question does
    store.forget(["e5"])
    top = [ref for ref, _c in store.nearest(query, 2, 10, products=ahead).top]
    assert top[0] == "e9" and "e5" not in top
