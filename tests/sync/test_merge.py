"""merge_file on the cases a user meets when two machines wrote the same memory."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from memrepo.formats import parse
from memrepo.sync.merge import FileMerge, merge_file

HEAD = "# Memory\n\n"
INDEX = "\n## Index\n\n- [[tools]]\n"


def memory(*entries: str, links: tuple[str, ...] = ()) -> bytes:
    body = "".join(f"- {e}\n" for e in entries)
    extra = "".join(f"- [[{link}]]\n" for link in links)
    return (HEAD + body + INDEX + extra).encode()


@dataclass(frozen=True)
class Case:
    name: str
    path: str
    base: bytes | None
    ours: bytes | None
    theirs: bytes | None
    merged: bytes | None
    kinds: tuple[str, ...] = ()
    loser: bytes | None = None


VIM_AGENT = "editor vim [subject: editor; by: agent; added: 2024-01-01]"
EMACS_AGENT_NEW = "editor emacs [subject: editor; by: agent; added: 2024-03-01]"
HELIX_AGENT_MID = "editor helix [subject: editor; by: agent; added: 2024-02-01]"
HELIX_USER_OLD = "editor helix [subject: editor; by: user; added: 2024-01-05]"

CASES = [
    Case(
        "both sides add entries at the end: both kept, ours first",
        "MEMORY.md",
        memory("a", "b"),
        memory("a", "b", "from ours"),
        memory("a", "b", "from theirs"),
        memory("a", "b", "from ours", "from theirs"),
    ),
    Case(
        "both sides add index links to new files",
        "MEMORY.md",
        memory("a"),
        memory("a", links=("workspaces/one",)),
        memory("a", links=("workspaces/two",)),
        memory("a", links=("workspaces/one", "workspaces/two")),
    ),
    Case(
        "theirs inserts in the middle: placed after its preceding entry",
        "MEMORY.md",
        memory("a", "b", "c"),
        memory("a", "b", "c", "o"),
        memory("a", "t", "b", "c"),
        memory("a", "t", "b", "c", "o"),
    ),
    Case(
        "one side removes an entry, the other edits another one",
        "MEMORY.md",
        memory("a", "b [subject: s]"),
        memory("b [subject: s]"),
        memory("a", "B changed [subject: s]"),
        memory("B changed [subject: s]"),
    ),
    Case(
        "one side removes an entry, the other appends right after it",
        "MEMORY.md",
        memory("a", "b"),
        memory("a"),
        memory("a", "b", "t"),
        memory("a", "t"),
    ),
    Case(
        "both remove the same entry",
        "MEMORY.md",
        memory("a", "b", "c"),
        memory("a", "c"),
        memory("a", "c", "t"),
        memory("a", "c", "t"),
    ),
    Case(
        "subject on both sides: by user beats a newer agent value",
        "MEMORY.md",
        memory(VIM_AGENT),
        memory(EMACS_AGENT_NEW),
        memory(HELIX_USER_OLD),
        memory(HELIX_USER_OLD),
        ("subject",),
        memory(EMACS_AGENT_NEW),
    ),
    Case(
        "subject on both sides at equal trust: the newer added date wins",
        "MEMORY.md",
        memory(VIM_AGENT, "x"),
        memory(HELIX_AGENT_MID, "x"),
        memory(EMACS_AGENT_NEW, "x", "y"),
        memory(EMACS_AGENT_NEW, "x", "y"),
        ("subject",),
        memory(HELIX_AGENT_MID, "x", "y"),
    ),
    Case(
        "subject added on both sides with the same date: ours",
        "notes.md",
        b"- a\n",
        b"- a\n- ours [subject: s; added: 2024-01-01]\n",
        b"- a\n- theirs [subject: s; added: 2024-01-01]\n",
        b"- a\n- ours [subject: s; added: 2024-01-01]\n",
        ("subject",),
        b"- a\n- theirs [subject: s; added: 2024-01-01]\n",
    ),
    Case(
        "the identical entry added on both sides is kept once",
        "MEMORY.md",
        memory("a"),
        memory("a", "Prefers pnpm [by: agent; added: 2024-05-01]"),
        memory("a", "Prefers pnpm [by: agent; added: 2024-05-01]"),
        memory("a", "Prefers pnpm [by: agent; added: 2024-05-01]"),
    ),
    Case(
        "the same fact learned on both machines on different days: once, newer, no conflict",
        "MEMORY.md",
        memory("a"),
        memory("a", "Prefers  pnpm [by: agent; added: 2024-05-01]", "o"),
        memory("a", "prefers pnpm [by: agent; added: 2024-05-02]"),
        memory("a", "prefers pnpm [by: agent; added: 2024-05-02]", "o"),
    ),
    Case(
        "a removal honoured against an edit of the same subject, the edit reported",
        "MEMORY.md",
        memory("a", VIM_AGENT),
        memory("a"),
        memory("a", HELIX_AGENT_MID),
        memory("a"),
        ("delete_modify",),
        memory("a", HELIX_AGENT_MID),
    ),
    Case(
        "CRLF file: untouched lines keep CRLF, both additions kept",
        "notes.md",
        b"# T\r\n\r\n- a\r\n- b\r\n",
        b"# T\r\n\r\n- a\r\n- b\r\n- o\r\n",
        b"# T\r\n\r\n- a\r\n- b\r\n- t\r\n",
        b"# T\r\n\r\n- a\r\n- b\r\n- o\r\n- t\r\n",
    ),
    Case(
        "no final newline: both append after the last line",
        "notes.md",
        b"- a",
        b"- a\n- o",
        b"- a\n- t",
        b"- a\n- o\n- t",
    ),
    Case(
        "frontmatter edited on one side, entries added on the other",
        "topic.md",
        b"---\ndescription: old\n---\n\n- a\n",
        b"---\ndescription: new\n---\n\n- a\n",
        b"---\ndescription: old\n---\n\n- a\n- t\n",
        b"---\ndescription: new\n---\n\n- a\n- t\n",
    ),
    Case(
        "frontmatter changed differently on both sides: ours kept, entries still merged",
        "topic.md",
        b"---\ndescription: old\n---\n\n- a\n",
        b"---\ndescription: ours\n---\n\n- a\n- o\n",
        b"---\ndescription: theirs\n---\n\n- a\n- t\n",
        b"---\ndescription: ours\n---\n\n- a\n- o\n- t\n",
        ("lines",),
        b"---\ndescription: theirs\n---\n\n- a\n- o\n- t\n",
    ),
    Case(
        "invalid UTF-8 markdown: separate changes merged, reported, theirs the loser",
        "bad.md",
        b"l1 \xff\nl2\nl3\nl4\n",
        b"L1 \xff\nl2\nl3\nl4\n",
        b"l1 \xff\nl2\nl3\nL4\n",
        b"L1 \xff\nl2\nl3\nL4\n",
        ("encoding",),
        b"l1 \xff\nl2\nl3\nL4\n",
    ),
    Case(
        "invalid UTF-8 markdown: both sides' appended entries kept, odd bytes unchanged",
        "bad.md",
        b"- a \xff\n",
        b"- a \xff\n- o \xe9\n",
        b"- a \xff\n- t \xc3\n",
        b"- a \xff\n- o \xe9\n- t \xc3\n",
        ("encoding",),
        b"- a \xff\n- t \xc3\n",
    ),
    Case(
        "invalid UTF-8 markdown with its own subject conflict: the loser holds the losers",
        "bad.md",
        b"- x \xff [subject: s; by: agent; added: 2026-01-01]\n",
        b"- o \xff [subject: s; by: agent; added: 2026-01-03]\n",
        b"- t \xff [subject: s; by: agent; added: 2026-01-02]\n",
        b"- o \xff [subject: s; by: agent; added: 2026-01-03]\n",
        ("encoding", "subject"),
        b"- t \xff [subject: s; by: agent; added: 2026-01-02]\n",
    ),
    Case(
        "a NUL byte (binary to git) in markdown: still merged entry by entry",
        "MEMORY.md",
        b"- a \x00\n\n## Index\n",
        b"- a \x00\n- o\n\n## Index\n",
        b"- a \x00\n- t\n\n## Index\n",
        b"- a \x00\n- o\n- t\n\n## Index\n",
    ),
    Case(
        "markdown already using the stand-in code points and bad UTF-8: line merge",
        "bad.md",
        "- a \U0010ffaa\n".encode() + b"\xff\n",
        "- a \U0010ffaa\n".encode() + b"\xff\n- o\n",
        "- a \U0010ffaa\n".encode() + b"\xff\n- t\n",
        "- a \U0010ffaa\n".encode() + b"\xff\n- o\n",
        ("lines",),
        "- a \U0010ffaa\n".encode() + b"\xff\n- t\n",
    ),
    Case(
        "a file deleted on one side and changed on the other is kept as changed",
        "topic.md",
        b"- a\n",
        None,
        b"- a\n- t\n",
        b"- a\n- t\n",
        ("delete_modify",),
        None,
    ),
    Case(
        "a file deleted on both sides stays deleted",
        "topic.md",
        b"- a\n",
        None,
        None,
        None,
    ),
    Case(
        "binary changed on both sides: ours kept, theirs the loser",
        "image.png",
        b"\x89PNG\x00base",
        b"\x89PNG\x00ours",
        b"\x89PNG\x00theirs",
        b"\x89PNG\x00ours",
        ("binary",),
        b"\x89PNG\x00theirs",
    ),
    Case(
        "text file, separate changes: git's line merge",
        "notes.txt",
        b"a\nb\nc\nd\n",
        b"A\nb\nc\nd\n",
        b"a\nb\nc\nD\n",
        b"A\nb\nc\nD\n",
    ),
    Case(
        "text file, the same line changed differently: ours, theirs the loser",
        "notes.txt",
        b"a\nb\n",
        b"ours\nb\n",
        b"theirs\nb\n",
        b"ours\nb\n",
        ("lines",),
        b"theirs\nb\n",
    ),
    Case(
        "both sides create the file: entries of both kept",
        "workspaces/shop.md",
        None,
        b"# Shop\n\n- o\n",
        b"# Shop\n\n- t\n",
        b"# Shop\n\n- o\n- t\n",
    ),
    Case(
        "a byte order mark survives",
        "notes.md",
        b"\xef\xbb\xbf- a\n",
        b"\xef\xbb\xbf- a\n- o\n",
        b"\xef\xbb\xbf- a\n- t\n",
        b"\xef\xbb\xbf- a\n- o\n- t\n",
    ),
    Case(
        "a duplicated bullet stays duplicated",
        "notes.md",
        b"- a\n- x\n- a\n",
        b"- a\n- x\n- a\n- o\n",
        b"- a\n- x\n- a\n- t\n",
        b"- a\n- x\n- a\n- o\n- t\n",
    ),
    Case(
        "bullets inside a code fence are lines, not entries",
        "notes.md",
        b"```\n- a\n```\n",
        b"```\n- o\n```\n",
        b"```\n- t\n```\n",
        b"```\n- o\n```\n",
        ("lines",),
        b"```\n- t\n```\n",
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_merge_table(case: Case) -> None:
    result = merge_file(case.path, case.base, case.ours, case.theirs)
    assert result.merged == case.merged
    assert tuple(c.kind for c in result.conflicts) == case.kinds
    assert all(c.path == case.path for c in result.conflicts)
    assert result.loser == case.loser


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_swapping_sides_keeps_every_entry(case: Case) -> None:
    """Who is ours only decides order and ties, never which entries survive."""
    forward = merge_file(case.path, case.base, case.ours, case.theirs)
    backward = merge_file(case.path, case.base, case.theirs, case.ours)
    if case.kinds or forward.merged is None or backward.merged is None:
        return
    assert sorted(_lines(forward)) == sorted(_lines(backward))


def _lines(result: FileMerge) -> list[bytes]:
    assert result.merged is not None
    return result.merged.replace(b"\r\n", b"\n").rstrip(b"\n").split(b"\n")


def test_conflict_details_say_who_won_and_why() -> None:
    result = merge_file(
        "MEMORY.md", memory(VIM_AGENT), memory(EMACS_AGENT_NEW), memory(HELIX_USER_OLD)
    )
    (conflict,) = result.conflicts
    assert "'editor'" in conflict.detail
    assert "kept theirs 'editor helix'" in conflict.detail
    assert "by: user outranks by: agent" in conflict.detail
    assert "'editor emacs' is in the loser" in conflict.detail


def test_a_hand_written_bullet_counts_as_the_users_word() -> None:
    result = merge_file(
        "MEMORY.md",
        memory(VIM_AGENT),
        memory(EMACS_AGENT_NEW),
        memory("editor nano [subject: editor]"),
    )
    assert result.merged == memory("editor nano [subject: editor]")


def test_merged_markdown_parses_with_both_sides_entries() -> None:
    result = merge_file(
        "MEMORY.md",
        memory("a"),
        memory("a", "o [by: agent]", links=("x",)),
        memory("a", "t [by: user]", links=("y",)),
    )
    assert result.merged is not None
    doc = parse(result.merged, "MEMORY.md")
    assert [e.text for e in doc.entries] == ["a", "o", "t"]
    assert [link.target for link in doc.index_links] == ["tools", "x", "y"]
    assert doc.problems == []
