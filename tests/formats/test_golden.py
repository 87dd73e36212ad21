"""Golden files: each ``fixtures/formats/NN-name.md`` with its ``.expected.json``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from memrepo.formats import Document, parse, serialize

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "formats"
CASES = sorted(FIXTURES.glob("*.md"))


def _observed(doc: Document) -> dict[str, Any]:
    fm = doc.frontmatter
    return {
        "path": doc.path,
        "entries": [
            {"line_no": e.line_no, "text": e.text, "metadata": e.metadata, "links": list(e.links)}
            for e in doc.entries
        ],
        "index_heading": doc.index_heading,
        "index_links": [{"line_no": x.line_no, "target": x.target} for x in doc.index_links],
        "frontmatter": None
        if fm is None
        else {
            "line_count": fm.line_count,
            "description": fm.data.get("description"),
            "error": fm.error is not None,
        },
        "problems": [{"line_no": p.line_no, "message": p.message} for p in doc.problems],
    }


def test_there_are_enough_golden_cases() -> None:
    assert len(CASES) >= 30
    for case in CASES:
        assert case.with_suffix(".expected.json").exists(), case.name


@pytest.mark.parametrize("case", CASES, ids=[c.stem for c in CASES])
def test_golden(case: Path) -> None:
    expected = json.loads(case.with_suffix(".expected.json").read_text(encoding="utf-8"))
    data = case.read_bytes()
    doc = parse(data, expected["path"])
    assert _observed(doc) == expected
    assert serialize(doc) == data
    for entry in doc.entries:
        assert doc.lines[entry.line_no].text == entry.raw


def test_golden_bytes_are_kept_exactly() -> None:
    # The fixtures exist for their bytes; make sure no editor normalized them.
    assert (FIXTURES / "02-crlf.md").read_bytes().count(b"\r\n") == 7
    assert (FIXTURES / "05-bom.md").read_bytes().startswith(b"\xef\xbb\xbf")
    assert not (FIXTURES / "04-no-final-newline.md").read_bytes().endswith(b"\n")
    assert b"old mac line\r- last" in (FIXTURES / "03-mixed-endings.md").read_bytes()
