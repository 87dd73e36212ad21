"""Conflict markers: git's marker lines, never a setext underline or a longer run."""

from __future__ import annotations

from memrepo.formats.conflicts import conflict_markers


def test_a_diff3_block_is_found_line_by_line() -> None:
    texts = ["- a", "<<<<<<< ours", "- x", "||||||| base", "- y", "=======", "- z", ">>>>>>> b"]
    assert [n for n, _ in conflict_markers(texts)] == [1, 3, 5, 7]


def test_lookalikes_are_not_markers() -> None:
    texts = ["Title", "=======", "<<<<<<<< eight", ">>>>>>>x", "- <<<<<<< in a bullet"]
    assert conflict_markers(texts) == []


def test_a_lone_open_or_close_marker_is_found() -> None:
    assert conflict_markers(["<<<<<<<", "- a"]) == [(0, "<<<<<<<")]
    assert conflict_markers(["- a", ">>>>>>> theirs  "]) == [(1, ">>>>>>>")]
