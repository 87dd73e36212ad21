"""A line headed for a prompt carries no secret, however it was written (issue #15).

Writes screen what they store, but a person's hand edit (refused by every write, still
read by L0 and recall) and commits made with plain git reach the prompt through
`sanitize_line` too, so it redacts as well.
"""

from __future__ import annotations

from memrepo.recall.sanitize import sanitize_line

# Built at runtime so the test file itself holds no credential-shaped string.
TOKEN = "ghp_" + "1a2B3c4D5e6F7g8H9i0J1k2L3m4N5o6P7q8R"
MARKER = "[redacted github_token]"


def test_a_secret_in_a_line_is_redacted() -> None:
    assert sanitize_line(f"CI pulls with {TOKEN} daily") == f"CI pulls with {MARKER} daily"


def test_a_token_split_by_an_invisible_character_is_redacted_once_joined() -> None:
    split = TOKEN[:10] + "\u200b" + TOKEN[10:]
    line = sanitize_line(f"CI pulls with {split}")
    assert TOKEN not in line and MARKER in line


def test_a_token_at_the_cut_is_never_half_kept() -> None:
    line = sanitize_line(f"key {TOKEN} tail", max_chars=20)
    assert line.startswith("key") and TOKEN[:8] not in line


def test_a_clean_line_is_unchanged() -> None:
    assert sanitize_line("Deploys go through staging") == "Deploys go through staging"
