"""The Hub's part of issue #32 in a real browser: the agent's writes that wait for a
person (Review's "Waiting for your approval", Settings' "Held for approval"), due dates
(set on a memory's edit form, shown on its page and in the list) and what the daily
maintenance pass removed (Review, with Undo).

Each test checks what the page shows and then the repo: its files, `git log`, the held
writes a second `MemoryRepo` sees. Screenshots go where test_browser.py sends them
($MEMREPO_HUB_SHOTS, else the test's temporary folder).
"""

# The browser fixtures are test_browser.py's, imported so pytest finds them here: each
# test naming one as an argument is what ruff calls a redefinition.
# ruff: noqa: F811

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from memrepo import MemoryRepo
from memrepo.models.recall import due_label

from .conftest import Serve
from .test_browser import browser, context, open_hub, seeded, shots  # noqa: F401
from .test_browser_first_hour import nav
from .test_pages_more import git

pytestmark = [pytest.mark.integration, pytest.mark.slow]

WORKSPACE = "Web shop"
SLUG = "web-shop"


def held_section(page: Page) -> str:
    return page.locator("ul.held").inner_text() if page.locator("ul.held").count() else ""


def test_held_writes_are_approved_and_rejected_from_review(
    serve: Serve, seeded: Path, context: BrowserContext, shots: Path
) -> None:
    with MemoryRepo.open(seeded) as repo:
        repo.set_workspace(WORKSPACE, approval="all")
        kept = repo.remember(
            "The shop's payments go through Stripe", by="agent", workspace=WORKSPACE,
            task_id="pay-3",
        )  # fmt: skip
        dropped = repo.remember(
            "The shop closes on Sundays", by="agent", workspace=WORKSPACE, task_id="pay-3"
        )
    assert kept.status == dropped.status == "held"
    head = git(seeded, "rev-parse", "HEAD").strip()
    page = open_hub(context, serve(seeded))
    nav(page, "Review")
    expect(page.get_by_role("heading", name="Waiting for your approval")).to_be_visible()
    waiting = held_section(page)
    assert "The shop's payments go through Stripe" in waiting
    assert "The shop closes on Sundays" in waiting
    assert f"workspace {WORKSPACE}" in waiting and "task pay-3" in waiting, waiting
    assert re.search(r"held \d{4}-\d\d-\d\d \d\d:\d\d", waiting), waiting
    expect(page.locator("li.held-write").get_by_role("button", name="Approve")).to_have_count(2)
    page.screenshot(path=str(shots / "hub-review-held.png"), full_page=True)
    assert git(seeded, "rev-parse", "HEAD").strip() == head  # nothing landed yet

    stripe = page.locator("li.held-write", has_text="Stripe")
    stripe.get_by_role("button", name="Approve").click()
    flash = page.locator(".flash")
    expect(flash).to_contain_text("landed as the agent's write in commit")
    assert "Stripe" not in held_section(page)
    log = git(seeded, "log", "-1", "--format=%B")
    assert "Memrepo-By: agent" in log and "Memrepo-Task: pay-3" in log, log
    assert "The shop's payments go through Stripe" in git(seeded, "show", "HEAD")

    page.locator("li.held-write", has_text="Sundays").get_by_role("button", name="Reject").click()
    expect(page.locator(".flash")).to_contain_text("nothing was written")
    expect(page.locator("li.held-write")).to_have_count(0)
    expect(page.locator("#held + p + p")).to_have_text("Nothing waiting.")
    assert "Sundays" not in git(seeded, "log", "-p", "--format=")
    with MemoryRepo.open(seeded) as repo:
        assert repo.held_writes() == []


def test_an_approved_write_links_to_the_memory_it_became(
    serve: Serve, seeded: Path, context: BrowserContext
) -> None:
    with MemoryRepo.open(seeded) as repo:
        repo.set_workspace(WORKSPACE, approval="all")
        repo.remember("Orders ship from Lisbon", by="agent", workspace=WORKSPACE)
    page = open_hub(context, serve(seeded))
    nav(page, "Review")
    page.locator("li.held-write").get_by_role("button", name="Approve").click()
    page.locator(".flash").get_by_role("link", name="Open the memory").click()
    expect(page.get_by_role("heading", name="One memory")).to_be_visible()
    expect(page.locator(".memory-text")).to_have_text("Orders ship from Lisbon")
    expect(page.locator("dl.meta")).to_contain_text("agent")


def test_settings_set_which_agent_writes_wait(
    serve: Serve, seeded: Path, context: BrowserContext, shots: Path
) -> None:
    page = open_hub(context, serve(seeded))
    nav(page, "Settings")
    form = page.get_by_role("form", name=f"Workspace {SLUG}")
    expect(form.get_by_label("Held for approval")).to_have_value("none")
    form.get_by_label("Held for approval").select_option("background")
    form.get_by_role("button", name=f"Save {SLUG}").click()
    expect(page.locator(".flash")).to_contain_text("agent writes held: background")
    form = page.get_by_role("form", name=f"Workspace {SLUG}")
    expect(form.get_by_label("Held for approval")).to_have_value("background")
    page.screenshot(path=str(shots / "hub-settings-approval.png"), full_page=True)
    with MemoryRepo.open(seeded) as repo:
        assert repo.config.workspace(SLUG).approval == "background"
        inferred = repo.remember("The shop's admin is at /admin", by="agent", workspace=WORKSPACE)
        stated = repo.remember("The shop sells tea", by="user", workspace=WORKSPACE)
    assert inferred.status == "held" and stated.status == "written"


def test_a_due_date_is_set_on_the_edit_form_and_shown(
    serve: Serve, seeded: Path, context: BrowserContext, shots: Path
) -> None:
    with MemoryRepo.open(seeded) as repo:
        repo.remember("Send the Q3 report to Ana", by="user")
    page = open_hub(context, serve(seeded))
    page.get_by_role("link", name="Send the Q3 report to Ana").click()
    expect(page.get_by_role("heading", name="One memory")).to_be_visible()
    expect(page.locator("#due")).to_have_count(0)

    head = git(seeded, "rev-parse", "HEAD").strip()
    page.get_by_label("Due date").fill("someday soon")
    page.get_by_role("button", name="Save as a new commit").click()
    expect(page.locator("main")).to_contain_text("due 'someday soon': give a date like")
    assert git(seeded, "rev-parse", "HEAD").strip() == head  # nothing written
    assert "due:" not in (seeded / "MEMORY.md").read_text()

    page.go_back()
    page.get_by_label("Due date").fill("in 2 weeks")
    page.get_by_role("button", name="Save as a new commit").click()
    day = (datetime.now(UTC).date() + timedelta(weeks=2)).isoformat()
    shown = f"due {due_label(day)}"
    expect(page.locator("#due")).to_have_text(shown)
    assert re.fullmatch(r"due [A-Z][a-z]+day \d{4}-\d\d-\d\d", shown)
    expect(page.get_by_label("Due date")).to_have_value(day)
    line = next(x for x in (seeded / "MEMORY.md").read_text().splitlines() if "Q3 report" in x)
    assert f"due: {day}" in line and "kind: commitment" in line, line  # what expiry reads
    assert git(seeded, "rev-parse", "HEAD").strip() != head
    page.screenshot(path=str(shots / "hub-memory-due.png"), full_page=True)

    nav(page, "What it knows")
    row = page.locator(".row", has_text="Send the Q3 report to Ana")
    expect(row.locator(".tag-due")).to_have_text(shown)
    page.screenshot(path=str(shots / "hub-knows-due.png"), full_page=True)

    page.get_by_role("link", name="Send the Q3 report to Ana").click()
    page.get_by_label("Due date").fill("")
    page.get_by_role("button", name="Save as a new commit").click()
    expect(page.locator("#due")).to_have_count(0)
    line = next(x for x in (seeded / "MEMORY.md").read_text().splitlines() if "Q3 report" in x)
    assert "due:" not in line, line


def test_an_items_due_date_is_set_and_cleared_on_its_page(
    serve: Serve, seeded: Path, context: BrowserContext, shots: Path
) -> None:
    """A private item's due date: set in words on its page, shown, the same revision
    (its text did not change) and a commitment since; then cleared."""
    with MemoryRepo.open(seeded) as repo:
        ref = repo.remember("Renew my passport", private=True, by="user").ref
    assert ref is not None
    page = open_hub(context, serve(seeded))
    page.get_by_role("button", name="Show private items").click()
    page.get_by_role("link", name="Renew my passport").click()
    page.get_by_label("Due date").fill("blorp")
    page.get_by_role("button", name="Save the due date").click()
    expect(page.locator("main")).to_contain_text("due 'blorp': give a date like")
    page.go_back()
    page.get_by_label("Due date").fill("in 2 weeks")
    page.get_by_role("button", name="Save the due date").click()
    day = (datetime.now(UTC).date() + timedelta(weeks=2)).isoformat()
    expect(page.get_by_role("status")).to_contain_text(f"Due {day}.")
    expect(page.locator("#due")).to_have_text(f"due {due_label(day)}")
    page.screenshot(path=str(shots / "hub-item-due.png"), full_page=True)
    with MemoryRepo.open(seeded) as repo:
        item = repo.item(ref).item
        assert (item.ref, item.kind) == (ref, "commitment")
        hit = repo.recall("passport", include_private=True).hits[0]
        assert hit.provenance.due == day
    page.get_by_label("Due date").fill("")
    page.get_by_role("button", name="Save the due date").click()
    expect(page.get_by_role("status")).to_contain_text("No due date any more.")
    expect(page.locator("#due")).to_have_count(0)


def test_what_maintenance_removed_is_listed_in_review_with_undo(
    serve: Serve, seeded: Path, context: BrowserContext, shots: Path
) -> None:
    yesterday = (date.today() - timedelta(days=2)).isoformat()
    with MemoryRepo.open(seeded) as repo:
        repo.remember("The beta banner is on until the launch", by="agent", expires=yesterday)
        report = repo.maintain()
    assert report.commit is not None
    assert "beta banner" not in (seeded / "MEMORY.md").read_text()
    page = open_hub(context, serve(seeded))
    nav(page, "Review")
    item = page.locator("li.maintenance")
    expect(item).to_have_count(1)
    expect(item).to_contain_text("The beta banner is on until the launch")
    expect(item).to_contain_text(report.commit[:10])
    page.screenshot(path=str(shots / "hub-review-maintenance.png"), full_page=True)

    item.get_by_role("button", name=re.compile(r"^Undo ")).click()
    expect(page.locator(".flash")).to_contain_text(f"Undid {report.commit[:10]}")
    assert "The beta banner is on until the launch" in (seeded / "MEMORY.md").read_text()
    assert f"Memrepo-Undoes: {report.commit}" in git(seeded, "log", "-1", "--format=%B")
    item = page.locator("li.maintenance")
    expect(item).to_contain_text("Undone in")
    expect(item.get_by_role("button")).to_have_count(0)


def test_review_says_when_nothing_waits(serve: Serve, seeded: Path, browser: Browser) -> None:
    made = browser.new_context()
    try:
        page = open_hub(made, serve(seeded))
        nav(page, "Review")
        expect(page.locator("#held + p + p")).to_have_text("Nothing waiting.")
        expect(page.locator("#maintained + p + p")).to_have_text("None.")
        expect(page.get_by_role("button", name="Approve")).to_have_count(0)
    finally:
        made.close()
