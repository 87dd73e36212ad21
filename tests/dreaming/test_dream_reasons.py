"""`memrepo dream` prints each change's reason on one line, shortened between words.

The reasons come from a real dream over a folder a person committed: near duplicates
whose reason quotes both long lines, so it runs past one line's worth of text.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable

import pytest

from memrepo import MemoryRepo
from memrepo.cli.dream import ELLIPSIS, REASON_CHARS, shorten

from .helpers import Commit, memory

Run = Callable[..., tuple[int, str, str]]

LONG = memory(
    "- The staging deploy runs every weekday at nine in the morning after the nightly "
    "integration suite passes [by: user; added: 2026-01-05]",
    "- The staging deploy runs every weekday at nine in the morning after the nightly "
    "integration suite passes on main [by: agent; added: 2026-02-05]",
    "- Promo code SPRING is valid until the end of the campaign [expires: 2020-01-01; by: agent]",
)
OP_LINE = re.compile(r"^  (safe|review) +(\w+) \((\w+)\) (\S+): (.*)$")


@pytest.fixture
def run(cli_in: Callable[..., Run], repo: MemoryRepo) -> Run:
    return cli_in(repo.root)


def _shown_reasons(out: str) -> list[str]:
    return [m.group(5) for line in out.splitlines() if (m := OP_LINE.match(line))]


@pytest.mark.parametrize("dry_run", [True, False], ids=["dry-run", "dream"])
def test_long_reasons_end_between_words_with_an_ellipsis(
    run: Run, commit: Commit, dry_run: bool
) -> None:
    commit({"MEMORY.md": LONG})
    flag = ["--dry-run"] if dry_run else []
    full = json.loads(run("dream", "--dry-run", "--json")[1])
    reasons = [op["reason"] for op in full["safe"] + full["pending_review"]]
    assert any(len(r) > REASON_CHARS for r in reasons), reasons  # the case under test
    code, out, err = run("dream", *flag)
    assert (code, err) == (0, "")
    shown = _shown_reasons(out)
    assert len(shown) == len(reasons), out
    for reason, line in zip(reasons, shown, strict=True):
        if len(reason) <= REASON_CHARS:
            assert line == reason
            continue
        assert line.endswith(ELLIPSIS) and len(line) <= REASON_CHARS, line
        kept = line.removesuffix(ELLIPSIS)
        assert reason.startswith(kept), (reason, line)
        rest = reason[len(kept) :]
        # The cut falls where a word ends: at a space, or after punctuation dropped there.
        assert re.match(r"[,;:]?\s", rest), (reason, line)


def test_shorten_keeps_short_text_and_collapses_whitespace() -> None:
    assert shorten("kept  'a'\n(by user)", 100) == "kept 'a' (by user)"
    assert shorten("", 10) == ""


def test_shorten_cuts_between_words_and_drops_dangling_punctuation() -> None:
    text = "nearly the same text as 'Deploys go through staging', kept the first one"
    assert shorten(text, 40) == "nearly the same text as 'Deploys go" + ELLIPSIS
    assert shorten("alpha beta, gamma delta", 12) == "alpha beta" + ELLIPSIS
    assert len(shorten(text, 40)) <= 40


def test_a_first_word_longer_than_the_line_stays_whole() -> None:
    url = "https://example.com/" + "a" * 120
    assert shorten(f"{url} is broken", 100) == url + ELLIPSIS
