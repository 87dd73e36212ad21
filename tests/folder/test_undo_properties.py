"""Property: after any sequence of writes, undoing the newest gives back the bytes before it,
and undoing that undo gives back the bytes after it."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memrepo import MemoryRepo

pytestmark = pytest.mark.slow

WORDS = st.sampled_from(["alpha", "beta", "gamma", "delta", "deploy", "build", "café", "東京"])
TEXT = st.lists(WORDS, min_size=2, max_size=4).map(" ".join)
OP = st.one_of(
    st.tuples(st.just("remember"), TEXT, st.sampled_from([None, "topic.md", "a/b.md"])),
    st.tuples(st.just("subject"), TEXT, st.sampled_from(["editor", "tz"])),
    st.tuples(st.just("forget"), st.integers(min_value=0, max_value=20), st.none()),
)


def snapshot(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and ".git" not in p.relative_to(root).parts
    }


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(ops=st.lists(OP, min_size=1, max_size=6))
def test_undo_then_redo_is_exact(ops: list[tuple[str, object, object]]) -> None:
    work = Path(tempfile.mkdtemp(prefix="memrepo-undo-prop-"))
    try:
        repo = MemoryRepo.init(work / "m")
        before_last_commit: dict[str, bytes] | None = None
        for kind, a, b in ops:
            before = snapshot(repo.root)
            if kind == "remember":
                commit = repo.remember(str(a), file=b if isinstance(b, str) else None).commit
            elif kind == "subject":
                commit = repo.remember(str(a), subject=str(b)).commit
            else:
                entries = repo.entries()
                if not entries:
                    continue
                commit = repo.forget(entries[int(str(a)) % len(entries)].ref).commit
            if commit is not None:
                before_last_commit = before
        if before_last_commit is None:
            return
        after = snapshot(repo.root)
        undo = repo.undo()
        assert snapshot(repo.root) == before_last_commit
        repo.undo(undo.commit)
        assert snapshot(repo.root) == after
        assert repo.status().clean
    finally:
        shutil.rmtree(work, ignore_errors=True)
