"""Where add_entry puts a new bullet: the layout a person would have typed."""

from __future__ import annotations

import pytest

from memrepo.formats import parse, serialize

LINE = "- new [by: agent]"


@pytest.mark.parametrize(
    ("path", "before", "after"),
    [
        ("MEMORY.md", b"# Memory\n\n## Index\n", b"# Memory\n\n- new [by: agent]\n\n## Index\n"),
        ("MEMORY.md", b"# Memory\n## Index\n", b"# Memory\n\n- new [by: agent]\n\n## Index\n"),
        (
            "MEMORY.md",
            b"# Memory\n\n- a\n## Index\n- [[x]]\n",
            b"# Memory\n\n- a\n- new [by: agent]\n\n## Index\n- [[x]]\n",
        ),
        ("t.md", b"# Title\n", b"# Title\n\n- new [by: agent]\n"),
        ("t.md", b"# Title\n\n", b"# Title\n\n- new [by: agent]\n"),
        ("t.md", b"- a\n", b"- a\n- new [by: agent]\n"),
        ("t.md", b"", b"- new [by: agent]\n"),
        ("t.md", b"Some paragraph", b"Some paragraph\n\n- new [by: agent]\n"),
    ],
)
def test_new_entry_lands_where_a_person_would_put_it(
    path: str, before: bytes, after: bytes
) -> None:
    doc = parse(before, path)
    doc.add_entry(LINE)
    assert serialize(doc) == after
    assert [e.text for e in parse(after, path).entries][-1] == "new"
