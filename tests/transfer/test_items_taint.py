"""An export carries each item's taint, and a restore gives it back."""

from __future__ import annotations

from pathlib import Path

import pytest

from memrepo import MemoryRepo
from memrepo.models.items import ItemFilters

pytestmark = pytest.mark.slow

ALL_ITEMS = ItemFilters(status="any", include_private=True)


def test_taint_survives_export_and_restore(rich_repo: MemoryRepo, tmp_path: Path) -> None:
    written = rich_repo.remember(
        "Bo's desk moved to floor 9", contact_ref="mail:bo@example.com", tainted=True
    )
    assert written.store == "items"
    before = sorted((i.model_dump() for i in rich_repo.list_items(ALL_ITEMS)), key=str)
    result = rich_repo.export(tmp_path / "plain.mrx")
    assert result.items == 6
    MemoryRepo.restore(tmp_path / "plain.mrx", tmp_path / "back")
    with MemoryRepo.open(tmp_path / "back") as restored:
        after = restored.list_items(ALL_ITEMS)
        tainted = [(i.content, i.tainted) for i in after if i.tainted]
        assert tainted == [("Bo's desk moved to floor 9", True)]
        hits = restored.recall("Bo desk floor", contact_ref="mail:bo@example.com").hits
        assert hits[0].ref == written.ref and hits[0].tainted is True
    public = [d for d in before if d["privacy"] != "private"]
    assert sorted((i.model_dump() for i in after), key=str) == public
