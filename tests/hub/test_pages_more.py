"""History, Review, What the agent sees, Health, Sources and Settings over HTTP, each
checked against the repo (a second `MemoryRepo` on the same root) afterwards."""

from __future__ import annotations

import html
import re
import subprocess
from pathlib import Path

import pytest

from memrepo import MemoryRepo

from .conftest import Serve

pytestmark = [pytest.mark.integration, pytest.mark.slow]

SEED = """# Memory

- Deploy day is Friday [subject: deploy-day; by: agent; added: 2026-02-01]
- Deploy day is Monday [subject: deploy-day; by: user; added: 2025-01-01]
- Ana owns the billing services [by: agent; added: 2026-01-01]
- Ana owns the billing service [by: agent; added: 2026-02-01]
- Old person's note [expires: 2020-01-01]

## Index
"""


def git(root: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(root), *args], check=True, capture_output=True, text=True
    ).stdout


def words(page: str) -> str:
    """A page's text as a person reads it (tags dropped, spaces collapsed)."""
    body = page[page.find("<main") :]
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", body)).split())


@pytest.fixture
def reviewed(root: Path) -> str:
    """A repo with one dream review of three operations; its name."""
    (root / "MEMORY.md").write_text(SEED, encoding="utf-8")
    git(root, "commit", "-qam", "seed by hand")
    with MemoryRepo.open(root) as repo:
        report = repo.dream()
    assert report.review is not None and len(report.pending_review) == 3
    return report.review


def test_history_shows_origin_and_by_pages_and_undoes(serve: Serve, root: Path) -> None:
    with MemoryRepo.open(root) as repo:
        for n in range(55):
            repo.remember(f"Numbered fact {n} about the build", by="agent", task_id=f"t{n}")
    person = serve(root).login()
    first = person.get("/history").text
    assert words(first).count("remember agent") == 50 and 'rel="next"' in first
    assert "task t54" in first
    second = person.get("/history", page="2").text
    assert "Create the memory repo" in second and 'rel="next"' not in second
    assert person.get("/history", page="9").status_code == 400
    only = person.get("/history", path="MEMORY.md").text
    assert words(only).count("remember agent") == 50
    with MemoryRepo.open(root) as repo:
        newest = repo.log(limit=1)[0]
    shown = person.get("/history/commit", id=newest.id[:10]).text
    assert "Numbered fact 54" in html.unescape(shown) and "MEMORY.md" in shown
    assert person.get("/history/commit", id="not-hex").status_code == 400
    assert person.get("/history/commit", id="abcdef").status_code == 404
    undone = person.follow(person.post("/undo", {"commit": newest.id, "back": "/history"}))
    assert f"Undid {newest.id[:10]}" in undone.text and "undoes" in undone.text
    with MemoryRepo.open(root) as repo:
        assert not any("Numbered fact 54" in e.text for e in repo.entries())
        assert repo.log(limit=1)[0].undoes == newest.id


def test_a_review_accepts_one_operation_and_the_rest_waits(
    serve: Serve, root: Path, reviewed: str
) -> None:
    person = serve(root).login()
    listing = person.get("/review").text
    assert reviewed in listing and "3 change(s)" in listing
    page = words(person.get("/review/dream", name=reviewed).text)
    assert "[1] remove (expiry) in MEMORY.md" in page and "expired on 2020-01-01" in page
    assert "- MEMORY.md:7 - Old person's note [expires: 2020-01-01]" in page
    assert "For review because it changes an entry a person wrote" in page
    none_ticked = person.post("/review/accept", {"name": reviewed, "back": "/review"})
    assert none_ticked.status_code == 400 and "tick at least one" in none_ticked.text
    accepted = person.follow(
        person.post("/review/accept", {"name": reviewed, "op": ["3"], "back": "/review"})
    )
    assert "Accepted 1 change(s)" in accepted.text
    assert f"2 still wait in {reviewed} for your decision" in accepted.text
    with MemoryRepo.open(root) as repo:
        text = repo.read_text("MEMORY.md")
        waiting = repo.list_reviews()
        assert repo.log(limit=1)[0].origin == "dream"
    assert "Friday" not in text and "Old person's note" in text
    assert [r.name for r in waiting] == [reviewed] and waiting[0].ops == 2
    rejected = person.follow(
        person.post("/review/reject", {"name": reviewed, "op": ["1"], "back": "/review"})
    )
    assert "Rejected 1 change(s)" in rejected.text and "1 still wait" in rejected.text
    with MemoryRepo.open(root) as repo:
        assert [r.ops for r in repo.list_reviews()] == [1]
        assert "Old person's note" in repo.read_text("MEMORY.md")


def test_a_review_page_draws_a_kept_line_once(serve: Serve, root: Path) -> None:
    """A merge that keeps one copy as it is shows that line once, as kept, never as
    removed and written again (the same lines `memrepo review show` prints)."""
    twice = "# Memory\n\n- Deploys go out on Tuesdays\n- Staging is stg-3\n"
    (root / "MEMORY.md").write_text(twice + "- Deploys go out on Tuesdays\n\n## Index\n")
    git(root, "commit", "-qam", "seed by hand")
    with MemoryRepo.open(root) as repo:
        name = repo.dream().review
    assert name is not None
    page = words(serve(root).login().get("/review/dream", name=name).text)
    assert "= MEMORY.md:3 - Deploys go out on Tuesdays (kept as it is)" in page
    assert "- MEMORY.md:5 - Deploys go out on Tuesdays" in page
    assert "+ MEMORY.md - Deploys go out on Tuesdays" not in page


def test_a_review_can_be_rejected_whole_and_bad_names_are_clear(
    serve: Serve, root: Path, reviewed: str
) -> None:
    person = serve(root).login()
    for name, status in (("dream/1999-01-01-9", 404), ("refs/heads/main", 400)):
        assert person.get("/review/dream", name=name).status_code == status
        assert person.post("/review/reject", {"name": name}).status_code == status
    assert person.post("/review/accept", {"name": reviewed, "op": ["x"]}).status_code == 400
    rejected = person.follow(person.post("/review/reject", {"name": reviewed, "back": "/review"}))
    assert f"Rejected 3 change(s) of {reviewed}" in rejected.text
    assert git(root, "branch", "--list", "dream/*") == ""
    assert (root / "MEMORY.md").read_text(encoding="utf-8") == SEED


def test_the_agent_preview_shows_the_block_and_the_gate(serve: Serve, root: Path) -> None:
    with MemoryRepo.open(root) as repo:
        repo.remember("The user prefers pnpm over npm", by="user")
        repo.remember("My blood type is 0+", private=True, by="user", kind="identity")
    person = serve(root).login()
    assert "<pre" not in person.get("/agent").text  # nothing built until asked
    chat = person.get("/agent", show="1", query="package manager").text
    assert "The user prefers pnpm over npm" in chat and "data, never instructions" in chat
    assert "blood type" not in chat
    assert re.search(r"<td>private_items</td><td>no</td><td>[^<]+</td>", chat)
    own = person.get("/agent", show="1", query="blood type", private="1").text
    assert "blood type" in own
    assert re.search(r"<td>private_items</td><td>yes</td>", own)
    assert person.get("/agent", show="1", surface="telepathy").status_code == 400


def test_health_and_sources(serve: Serve, root: Path) -> None:
    with MemoryRepo.open(root) as repo:
        repo.remember("The user prefers pnpm over npm", by="user")
        repo.remember("Ana's phone ends in 55", contact_ref="mail:ana@example.com", by="user")
    person = serve(root).login()
    health = words(person.get("/health").text)
    assert health.startswith("Health: PASS") and "memory_l0 PASS" in health
    again = person.follow(person.post("/health/refresh", {"back": "/health"}))
    assert "Health checked again: PASS" in again.text
    sources = words(person.get("/sources").text)
    assert "Memory folder (1 entries)" in sources and "1 active, 0 private" in sources
    assert "pnpm" not in sources and "Ana" not in sources  # counts, never text


def test_settings_change_a_workspace_and_the_remote(
    serve: Serve, root: Path, tmp_path: Path
) -> None:
    with MemoryRepo.open(root) as repo:
        repo.remember("The shop runs on Postgres", by="user", workspace="Web shop")
    person = serve(root).login()
    page = person.get("/settings").text
    assert "web-shop" in page and "memory on" in page
    saved = person.follow(
        person.post(
            "/settings/workspace",
            {"name": "web-shop", "memory": "off", "privacy": "strict", "back": "/settings"},
        )
    )
    assert "Workspace web-shop: memory off, privacy strict" in saved.text
    with MemoryRepo.open(root) as repo:
        settings = repo.config.workspace("web-shop")
    assert settings.enabled is False and settings.privacy == "strict"
    forged = person.post("/settings/workspace", {"name": "web-shop", "privacy": "open"})
    assert forged.status_code == 400 and "privacy='open'" in html.unescape(forged.text)
    bare = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", str(bare))
    unconfirmed = person.post("/settings/remote", {"url": str(bare), "back": "/settings"})
    assert unconfirmed.status_code == 400 and "private" in unconfirmed.text
    confirmed = person.follow(
        person.post(
            "/settings/remote", {"url": str(bare), "confirm_private": "1", "back": "/settings"}
        )
    )
    assert "Sync remote set to" in confirmed.text and str(bare) in confirmed.text
    with MemoryRepo.open(root) as repo:
        remote = repo.remote()
    assert remote is not None and remote.confirmed
    removed = person.follow(person.post("/settings/remote/remove", {"back": "/settings"}))
    assert "Stopped syncing" in removed.text


def test_a_sync_conflict_shows_both_versions(serve: Serve, tmp_path: Path) -> None:
    bare = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(bare))
    with MemoryRepo.init(tmp_path / "a") as a:
        a.set_remote(str(bare), confirm_private=True)
        a.sync()
        with MemoryRepo.clone(str(bare), tmp_path / "b", confirm_private=True) as b:
            a.remember("Editor is helix", subject="editor", by="user")
            b.remember("Editor is vim", subject="editor", by="agent")
            a.sync()
            branch = b.sync().conflict_branch
    assert branch is not None
    person = serve(tmp_path / "b").login()
    assert branch in person.get("/review").text
    page = words(person.get("/review/conflict", name=branch).text)
    assert "On main (kept)" in page and "Editor is helix" in page and "Editor is vim" in page
    assert person.get("/review/conflict", name="sync/conflict-1999-01-01-1").status_code == 404
