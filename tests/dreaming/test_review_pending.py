"""What a person sees of a review they decide in parts (issue #31): the rest stays
pending, a diff draws only what changes, and `health` stops suggesting a dream for a
duplicate whose merge they rejected. Through the CLI, read with git."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from memrepo import MemoryRepo

from .helpers import Commit, git, memory

Run = Callable[..., tuple[int, str, str]]
TWICE = memory(
    "- Deploys go out on Tuesdays",
    "- The staging host is stg-3",
    "- Deploys go out on Tuesdays",
)


@pytest.fixture
def run(cli_in: Callable[..., Run], repo: MemoryRepo) -> Run:
    return cli_in(repo.root)


def _dream(run: Run) -> str:
    code, out, err = run("dream", "--json")
    assert code == 0, err
    name: str = json.loads(out)["review"]
    return name


def _duplicates(run: Run) -> dict[str, str]:
    _, out, _ = run("health", "--json")
    checks = json.loads(out)["checks"]
    found: dict[str, str] = next(c for c in checks if c["name"] == "folder_duplicates")
    return found


def test_a_merge_that_keeps_a_line_as_it_is_draws_it_once(
    run: Run, repo: MemoryRepo, commit: Commit
) -> None:
    commit({"MEMORY.md": TWICE})
    name = _dream(run)

    code, out, _ = run("review", "show", name)

    assert code == 0
    drawn = [line for line in out.splitlines() if line.startswith(("  -", "  +", "  ="))]
    assert drawn == [
        "  = MEMORY.md:3  - Deploys go out on Tuesdays  (kept as it is)",
        "  - MEMORY.md:5  - Deploys go out on Tuesdays",
    ]
    # ... which is what git itself shows between main and the review branch.
    diff = git(repo.root, "diff", "--unified=0", "main", name, "--", "MEMORY.md")
    assert [x for x in diff.splitlines() if x[:1] in "+-" and x[:4] not in ("--- ", "+++ ")] == [
        "-- Deploys go out on Tuesdays"
    ]


def test_health_stops_suggesting_a_dream_for_a_rejected_merge(
    run: Run, repo: MemoryRepo, commit: Commit
) -> None:
    commit({"MEMORY.md": TWICE})
    before = _duplicates(run)
    assert before["status"] == "WARN" and before["fix"].startswith("memrepo dream")
    name = _dream(run)

    assert run("review", "reject", name)[0] == 0

    after = _duplicates(run)
    assert (after["status"], after["fix"]) == ("PASS", "")
    assert after["detail"] == (
        "0 of 3 entries repeat another; kept on purpose (a dream merge you rejected): MEMORY.md:5"
    )
    assert run("dream", "--json")[0] == 0 and repo.list_reviews() == []  # not proposed again
    # A third copy is news: health and dream speak of it again.
    commit({"MEMORY.md": TWICE.replace("## Index", "- Deploys go out on Tuesdays\n\n## Index")})
    again = _duplicates(run)
    assert again["status"] == "WARN" and again["fix"].startswith("memrepo dream")


def test_reject_one_operation_from_the_cli_leaves_the_other_pending(
    run: Run, repo: MemoryRepo, commit: Commit
) -> None:
    commit(
        {
            "MEMORY.md": memory(
                "- Deploys go out on Tuesdays",
                "- Deploys go out on Tuesdays",
                "- Old person's note [expires: 2020-01-01]",
            )
        }
    )
    name = _dream(run)
    code, out, _ = run("review", "show", name, "--json")
    by_kind = {op["kind"]: op["fingerprint"] for op in json.loads(out)["ops"]}
    merge, expiry = by_kind["merge"], by_kind["remove"]

    code, out, _ = run("review", "reject", name, "--op", merge)

    assert code == 0
    assert out == (
        f"rejected {name}: 1 change(s) never proposed again; 1 still pending "
        f"(memrepo review show {name})\n"
    )
    code, out, _ = run("review", "show", name, "--json")
    assert [op["fingerprint"] for op in json.loads(out)["ops"]] == [expiry]
    code, out, _ = run("review", "accept", name)
    assert out.startswith(f"accepted 1 change(s) of {name}: commit ")
    assert out.rstrip().endswith("; nothing left to review")
    assert git(repo.root, "branch", "--list", "dream/*") == ""
    text = (repo.root / "MEMORY.md").read_text("utf-8")
    assert text.count("Deploys go out on Tuesdays") == 2 and "Old person's note" not in text
