"""Taint through the whole repo: `remember(tainted=True)` of an item, the CLI, dumps."""

from __future__ import annotations

import json

import pytest

from memrepo import MemoryRepo
from memrepo.cli import main
from memrepo.items import ItemStore, ItemWriter
from memrepo.items._rows import COLUMNS
from memrepo.items.dump import dump_rows, load_rows
from memrepo.models.items import ItemFilters

from .conftest import cand


def test_remember_keeps_the_taint_of_an_item(memory_repo: MemoryRepo) -> None:
    written = memory_repo.remember(
        "Ana's new number is 555-0100", contact_ref="mail:ana", tainted=True
    )
    assert written.store == "items" and written.ref is not None
    (item,) = memory_repo.list_items(ItemFilters(scope="contact"))
    assert item.ref == written.ref and item.tainted is True
    private = memory_repo.remember("My blood type is AB", private=True)
    (kept,) = memory_repo.list_items(ItemFilters(scope="global", include_private=True))
    assert private.store == "items" and kept.tainted is False


def test_items_list_show_and_why_say_tainted(
    memory_repo: MemoryRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    memory_repo.remember("Bo likes tea", contact_ref="bo")
    ref = memory_repo.remember("Ana's new number is 555-0100", contact_ref="ana", tainted=True).ref
    assert ref is not None

    def run(*argv: str) -> str:
        assert main(["--repo", str(memory_repo.root), *argv]) == 0
        return capsys.readouterr().out

    listed = {line.split("]  ")[-1]: line for line in run("items", "list").splitlines()}
    assert "tainted" in listed["Ana's new number is 555-0100"]
    assert listed["Ana's new number is 555-0100"].startswith(ref[: len("memory:") + 10])
    assert "tainted" not in listed["Bo likes tea"]
    assert "tainted" in run("items", "show", ref).splitlines()[0]
    assert "untrusted content" in run("items", "why", ref)
    flags = {i["content"]: i["tainted"] for i in json.loads(run("items", "list", "--json"))}
    assert flags == {"Ana's new number is 555-0100": True, "Bo likes tea": False}


def test_rows_dumped_before_the_taint_column_load_clean(
    writer: ItemWriter, store: ItemStore, tmp_path_factory: pytest.TempPathFactory
) -> None:
    writer.ingest(cand("Standup at 9", tainted=True))
    columns, rows = dump_rows(store, include_private=True)
    assert "tainted" in columns and rows[0][columns.index("tainted")] == 1
    # An export from before schema version 4 has no tainted column.
    at = columns.index("tainted")
    old_columns = [c for c in columns if c != "tainted"]
    old_rows = [[v for i, v in enumerate(row) if i != at] for row in rows]
    with ItemStore(tmp_path_factory.mktemp("old") / "items.sqlite3") as fresh:
        assert load_rows(fresh, old_columns, old_rows) == 1
        (item,) = fresh.list()
        assert (item.content, item.tainted) == ("Standup at 9", False)
    with ItemStore(tmp_path_factory.mktemp("new") / "items.sqlite3") as fresh:
        assert load_rows(fresh, columns, rows) == 1
        assert [i.tainted for i in fresh.list()] == [True]


@pytest.mark.parametrize(
    "change",
    ["drop_id", "duplicate", "unknown", "bad_value"],
)
def test_bad_columns_or_taint_values_load_nothing(store: ItemStore, change: str) -> None:
    columns = list(COLUMNS)
    row: list[object] = [
        "x", None, "global", None, "fact", "s", "kept", "h", "inferred", None, 0.7, 0,
        "normal", None, "active", None, 0, 0, 0, None, None, 0,
    ]  # fmt: skip
    if change == "drop_id":
        at = columns.index("id")
        del columns[at], row[at]
    elif change == "duplicate":
        columns[columns.index("tainted")] = "pinned"
    elif change == "unknown":
        columns[columns.index("tainted")] = "trusted"
    else:
        row[columns.index("tainted")] = "yes"
    with pytest.raises(ValueError):
        load_rows(store, columns, [row])
    assert store.count(ItemFilters(status="any", include_private=True)) == 0
