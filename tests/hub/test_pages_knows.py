"""What it knows and One memory over HTTP: the list, its filters and pages, private
items, what other people said, and the actions, each checked in the repo afterwards
(a second `MemoryRepo` on the same root, and the git CLI)."""

from __future__ import annotations

import html
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

from memrepo import MemoryRepo
from memrepo.models.prompt_context import ContextRequest

from .conftest import Serve

pytestmark = [pytest.mark.integration, pytest.mark.slow]


@dataclass(frozen=True)
class Seed:
    user: str
    agent: str
    contact: str
    private: str
    task: str


@pytest.fixture
def seeded(root: Path) -> Seed:
    with MemoryRepo.open(root) as repo:
        user = repo.remember("The user prefers pnpm over npm", by="user", kind="preference")
        agent = repo.remember("Deploys go out on Fridays", by="agent", workspace="Web shop")
        contact = repo.remember(
            "Ana's phone number ends in 55", contact_ref="mail:ana@example.com", by="user"
        )
        private = repo.remember("My blood type is 0+", private=True, by="user")
        task = repo.remember("The flaky test is test_sync", scope="task", task_id="t-42")
    refs = [r.ref for r in (user, agent, contact, private, task)]
    assert all(refs)
    return Seed(*[str(ref) for ref in refs])


def git(root: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(root), *args], check=True, capture_output=True, text=True
    ).stdout


def texts(page: str) -> list[str]:
    """The memory texts a list page shows, in order."""
    return [html.unescape(t) for t in re.findall(r'class="row-text"><a [^>]+>([^<]+)</a>', page)]


def others_section(page: str) -> str:
    found = re.search(r'<details class="others">.*?</details>', page, re.S)
    return found.group(0) if found else ""


def test_the_list_shows_folder_entries_and_items_private_hidden_others_apart(
    serve: Serve, root: Path, seeded: Seed
) -> None:
    person = serve(root).login()
    page = person.get("/").text
    shown = texts(page)
    assert "The user prefers pnpm over npm" in shown and "The flaky test is test_sync" in shown
    assert "My blood type is 0+" not in page
    assert "<details" in page and "open" not in others_section(page).split(">")[0]
    assert texts(others_section(page)) == ["Ana's phone number ends in 55"]
    assert "Ana's phone" not in " ".join(texts(page.replace(others_section(page), "")))
    person.follow(person.post("/session/private", {"show": "1", "back": "/"}))
    assert "My blood type is 0+" in texts(person.get("/").text)
    other = serve(root).login()  # another session has not turned them on
    assert "My blood type is 0+" not in other.get("/").text


def test_filters_narrow_the_list(serve: Serve, root: Path, seeded: Seed) -> None:
    person = serve(root).login()
    assert texts(person.get("/", q="PNPM").text) == ["The user prefers pnpm over npm"]
    assert texts(person.get("/", workspace="web-shop").text) == ["Deploys go out on Fridays"]
    assert texts(person.get("/", file="MEMORY.md").text) == ["The user prefers pnpm over npm"]
    assert texts(person.get("/", scope="task").text) == ["The flaky test is test_sync"]
    assert texts(person.get("/", trust="by:agent").text) == ["Deploys go out on Fridays"]
    assert texts(person.get("/", kind="preference").text) == ["The user prefers pnpm over npm"]
    assert texts(person.get("/", pinned="1").text) == []
    assert "Nothing here with these filters" in person.get("/", q="no such words").text


def test_the_list_pages_by_200(serve: Serve, root: Path) -> None:
    lines = "".join(f"- Bulk fact number {n:03d} [by: user]\n" for n in range(450))
    (root / "bulk.md").write_text(f"# Bulk\n\n{lines}", encoding="utf-8")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "bulk facts by hand")
    person = serve(root).login()
    first = person.get("/", file="bulk.md").text
    assert len(texts(first)) == 200 and "page 1 of 3" in first
    assert texts(first)[0] == "Bulk fact number 000"
    third = person.get("/", file="bulk.md", page="3").text
    assert texts(third) == [f"Bulk fact number {n:03d}" for n in range(400, 450)]
    assert 'rel="prev"' in third and 'rel="next"' not in third


def test_one_memory_shows_text_metadata_and_history(serve: Serve, root: Path, seeded: Seed) -> None:
    person = serve(root).login()
    page = person.get("/memory", ref=seeded.agent).text
    assert "Deploys go out on Fridays" in page and "workspaces/web-shop.md:3" in page
    assert (
        "<dt>by</dt><dd>agent</dd>" in page and "Added to workspaces/web-shop.md by agent" in page
    )
    item = person.get("/memory", ref=seeded.contact).text
    assert "contact: mail:ana@example.com" in item and "Stated by the user" in item
    assert "Save as your revision" in item and 'name="pinned" value="yes"' in item
    assert person.get("/memory", ref="folder:MEMORY.md#0000000000").status_code == 404
    assert person.get("/memory", ref="rm -rf /").status_code == 400
    assert person.get("/memory").status_code == 400
    assert person.get("/memory", ref="memory:ffffffffffff").status_code == 404


def test_edit_confirm_pin_forget_and_undo_go_through_memory_repo(
    serve: Serve, root: Path, seeded: Seed
) -> None:
    person = serve(root).login()
    edited = person.post(
        "/memory/edit", {"ref": seeded.agent, "text": "Deploys go out on Tuesdays", "back": "/"}
    )
    page = person.follow(edited).text
    assert "Edited in" in page and "Deploys go out on Tuesdays" in page
    with MemoryRepo.open(root) as repo:
        head = repo.log(limit=1)[0]
        assert head.by == "user" and head.paths == ("workspaces/web-shop.md",)
        (entry,) = repo.entries("workspaces/web-shop.md")
    assert entry.text == "Deploys go out on Tuesdays"
    confirmed = person.follow(person.post("/memory/confirm", {"ref": entry.ref, "back": "/"}))
    assert "Confirmed in" in confirmed.text
    with MemoryRepo.open(root) as repo:
        (entry,) = repo.entries("workspaces/web-shop.md")
    assert entry.metadata["by"] == "user"
    pinned = person.follow(person.post("/memory/pin", {"ref": entry.ref, "back": "/"}))
    assert "Moved to MEMORY.md" in pinned.text
    with MemoryRepo.open(root) as repo:
        assert repo.entries("workspaces/web-shop.md") == []
        moved = [e for e in repo.entries("MEMORY.md") if "Tuesdays" in e.text]
    forgot = person.follow(person.post("/memory/forget", {"ref": moved[0].ref, "back": "/"}))
    assert "Forgot it in" in forgot.text and "Tuesdays" not in " ".join(texts(forgot.text))
    undo_commit = re.search(r'name="commit" value="([0-9a-f]+)"', forgot.text)
    assert undo_commit is not None
    undone = person.follow(person.post("/undo", {"commit": undo_commit.group(1), "back": "/"}))
    assert "Undid" in undone.text and "Deploys go out on Tuesdays" in texts(undone.text)
    assert git(root, "status", "--porcelain") == ""


def test_an_edit_sets_and_removes_metadata_keys(serve: Serve, root: Path, seeded: Seed) -> None:
    person = serve(root).login()
    with MemoryRepo.open(root) as repo:
        repo.remember("Release notes are due", by="user", expires="2030-01-01")
        (entry,) = [e for e in repo.entries("MEMORY.md") if "Release" in e.text]
    fields = {"ref": entry.ref, "text": entry.text, "set_key": "kind", "set_value": "rule",
              "unset_key": "expires", "back": "/"}  # fmt: skip
    person.follow(person.post("/memory/edit", fields))
    with MemoryRepo.open(root) as repo:
        (after,) = [e for e in repo.entries("MEMORY.md") if "Release" in e.text]
    assert after.metadata["kind"] == "rule" and "expires" not in after.metadata
    bad = person.post("/memory/edit", {**fields, "ref": after.ref, "set_key": "a;b"})
    assert bad.status_code == 400 and "Traceback" not in bad.text
    no_value = person.post("/memory/edit", {"ref": after.ref, "text": "x y z", "set_key": "k"})
    assert no_value.status_code == 400 and "set_value" in html.unescape(no_value.text)


def test_forgetting_an_item_scrubs_it(serve: Serve, root: Path, seeded: Seed) -> None:
    person = serve(root).login()
    page = person.follow(person.post("/memory/forget", {"ref": seeded.task, "back": "/"})).text
    assert "Forgot memory:" in page and "test_sync" not in " ".join(texts(page))
    with MemoryRepo.open(root) as repo:
        assert repo.item(seeded.task).item.status == "deleted"


def test_bad_actions_are_clear_pages(serve: Serve, root: Path, seeded: Seed) -> None:
    person = serve(root).login()
    cases = [
        ("/memory/edit", {"ref": seeded.contact, "text": "ok"}, 400, "memory item"),
        ("/memory/edit", {"ref": seeded.user}, 400, "'text' is missing"),
        ("/memory/forget", {"ref": "folder:MEMORY.md#nothere00"}, 404, "not"),
        ("/undo", {"commit": "HEAD~1; rm"}, 400, "not a commit id"),
        ("/undo", {"commit": "abcdef1234"}, 404, "no such commit"),
        ("/memory/pin", {"ref": seeded.contact}, 400, "pinning a memory item"),
    ]
    for path, data, status, words in cases:
        response = person.post(path, {**data, "back": "/"})
        assert response.status_code == status, (path, response.text)
        assert words in html.unescape(response.text) and "Traceback" not in response.text
    file_page = person.get("/file", path="MEMORY.md").text
    assert 'id="L3"' in file_page and "pnpm" in file_page
    assert person.get("/file", path="../../etc/passwd").status_code == 400
    assert person.get("/file", path="nothere.md").status_code == 404


def test_the_list_and_a_memory_say_which_agent_last_used_it(
    serve: Serve, root: Path, seeded: Seed
) -> None:
    """A prompt built for claude-code carries the person's pnpm line (L0): the list and
    the memory's page say when and by which agent; a line no prompt carried says so."""
    with MemoryRepo.open(root) as repo:
        turn = ContextRequest(query="which package manager", agent="claude-code")
        assert seeded.user in repo.context(turn).refs
    person = serve(root).login()
    listing = person.get("/").text
    row = re.search(r'<li class="row">(?:(?!</li>).)*pnpm over npm.*?</li>', listing, re.S)
    assert row is not None and re.search(r"last used [^<]* by claude-code", row.group(0))
    page = html.unescape(re.sub(r"<[^>]+>", " ", person.get("/memory", ref=seeded.user).text))
    assert re.search(r"Last used\s+\S[^\n]* by claude-code", page)
    other = html.unescape(re.sub(r"<[^>]+>", " ", person.get("/memory", ref=seeded.task).text))
    assert "not in the last 90 days" in other
