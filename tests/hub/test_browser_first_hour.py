"""The Hub points of issue #31 in a real browser, as a person meets them in their first
hour: a commit's diff line by line, counts as whole numbers, Confirm only where there is
something to confirm, what stands in every prompt, Sync and Dream with their progress
page, when an item was last used, the files that link to a file, and a bookmark that
still opens the hub (until the hub restarts).

Each test checks what the page shows (text, line breaks, buttons present or absent) and
the repo afterwards, with plain `git` where a commit is involved. Screenshots go where
test_browser.py sends them ($MEMREPO_HUB_SHOTS, else the test's temporary folder).
"""

# The browser fixtures are test_browser.py's, imported so pytest finds them here: each
# test naming one as an argument is what ruff calls a redefinition.
# ruff: noqa: F811

from __future__ import annotations

import re
import subprocess
import time
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from memrepo import MemoryRepo
from memrepo.models import ContextRequest, ItemFilters

from .conftest import Serve
from .test_browser import browser, context, open_hub, seeded, shots  # noqa: F401
from .test_pages_more import git

pytestmark = [pytest.mark.integration, pytest.mark.slow]

#: How long a job may take before the test gives up (a guard, not a measurement).
PATIENCE_MS = 60_000


def nav(page: Page, name: str) -> None:
    page.get_by_role("navigation", name="Pages").get_by_role("link", name=name).click()


def test_a_commit_diff_reads_one_line_per_diff_line(
    serve: Serve, seeded: Path, context: BrowserContext, shots: Path
) -> None:
    with MemoryRepo.open(seeded) as repo:
        result = repo.remember("Releases are tagged vX.Y.Z", by="user")
    assert result.commit is not None
    shown_by_git = git(seeded, "show", "--format=", result.commit).splitlines()
    added = [line for line in shown_by_git if line.startswith("+") and not line.startswith("+++")]
    page = open_hub(context, serve(seeded))
    nav(page, "History")
    page.locator("table.history tbody tr").first.get_by_role("link").first.click()
    expect(page.get_by_role("heading", name=re.compile(r"^Commit "))).to_be_visible()
    diff = page.locator("pre.diff").first.inner_text().splitlines()
    assert len(diff) > 1, diff  # not one run-on paragraph
    assert added and all(line in diff for line in added), (added, diff)
    body = shown_by_git[shown_by_git.index(next(x for x in shown_by_git if x.startswith("@@"))) :]
    assert [line for line in diff if not line.startswith(("---", "+++"))] == body
    page.screenshot(path=str(shots / "hub-commit.png"), full_page=True)


def test_counts_read_as_whole_numbers(
    serve: Serve, seeded: Path, context: BrowserContext, shots: Path
) -> None:
    page = open_hub(context, serve(seeded))
    nav(page, "Health")
    expect(page.get_by_role("heading", name=re.compile(r"^Health"))).to_be_visible()
    text = page.locator("main").inner_text()
    assert re.search(r"\b\d+ entries\b", text), text
    assert not re.search(r"\b\d+\.0\b", text), re.findall(r".{20}\b\d+\.0\b.{10}", text)
    page.screenshot(path=str(shots / "hub-health.png"), full_page=True)
    nav(page, "Sources")
    sources = page.locator("main").inner_text()
    assert "Memory folder (" in sources and not re.search(r"\b\d+\.0\b", sources)


def test_confirm_is_offered_only_where_there_is_something_to_confirm(
    serve: Serve, seeded: Path, context: BrowserContext, shots: Path
) -> None:
    page = open_hub(context, serve(seeded))
    confirm = page.get_by_role("button", name="Confirm it is right")
    page.get_by_role("link", name="The user prefers pnpm over npm").click()
    expect(page.get_by_role("button", name="Save as a new commit")).to_be_visible()
    expect(confirm).to_have_count(0)  # the person's own line
    page.go_back()
    page.get_by_role("link", name="The docs site moved to docs.example.org").click()
    expect(page.get_by_text("Written after the agent read untrusted text")).to_be_visible()
    expect(confirm).to_have_count(1)  # tainted
    page.go_back()
    page.get_by_role("link", name="The CI runner has 2 cores").click()
    expect(page.get_by_text("The agent saved this on its own")).to_be_visible()
    page.screenshot(path=str(shots / "hub-memory-confirm.png"), full_page=True)
    confirm.click()
    expect(page.get_by_role("status")).to_contain_text("Confirmed in")
    expect(page.get_by_role("heading", name="One memory")).to_be_visible()  # back on it
    expect(confirm).to_have_count(0)  # now the person's word: nothing left to confirm
    assert "confirm" in git(seeded, "log", "-1", "--format=%B")
    nav(page, "What it knows")
    page.get_by_role("button", name="Show private items").click()
    page.get_by_role("link", name="My blood type is 0+").click()
    expect(page.get_by_role("button", name="Save as your revision")).to_be_visible()
    expect(confirm).to_have_count(0)  # an item the user stated


def test_the_list_marks_what_stands_in_every_prompt(
    serve: Serve, seeded: Path, context: BrowserContext, shots: Path
) -> None:
    with MemoryRepo.open(seeded) as repo:
        repo.remember("Prices in the web shop include VAT", by="user", workspace="Web shop")
        l0 = repo.context(ContextRequest(preview=True)).block("l0")
    assert l0 is not None
    page = open_hub(context, serve(seeded))
    pnpm = page.locator(".row", has_text="The user prefers pnpm over npm")
    expect(pnpm).to_contain_text("in every prompt")
    expect(page.locator(".row", has_text="The CI runner has 2 cores")).not_to_contain_text(
        "in every prompt"
    )
    expect(page.locator(".row", has_text="Prices in the web shop include VAT")).to_contain_text(
        "in every prompt of web-shop"
    )
    page.get_by_label("In every prompt").check()
    page.get_by_role("button", name="Filter").click()
    expect(page.locator("#count")).to_contain_text("match")
    texts = page.locator("ol.rows .row-text").all_inner_texts()
    facts = {line.text for line in l0.lines if line.section == "fact"}  # not the Index's
    assert set(texts) == facts | {"Prices in the web shop include VAT"}
    assert "The CI runner has 2 cores" not in texts and "Deploys go out on Fridays" not in texts
    page.screenshot(path=str(shots / "hub-knows-every-prompt.png"), full_page=True)


def test_sync_runs_from_the_sources_page_and_shows_what_it_did(
    serve: Serve, seeded: Path, context: BrowserContext, shots: Path, tmp_path: Path
) -> None:
    remote = tmp_path / "remote.git"
    subprocess.run(["git", "init", "-q", "--bare", str(remote)], check=True)
    with MemoryRepo.open(seeded) as repo:
        repo.set_remote(str(remote), confirm_private=True)
    page = open_hub(context, serve(seeded))
    nav(page, "Sources")
    page.screenshot(path=str(shots / "hub-sources-sync.png"), full_page=True)
    page.get_by_role("button", name="Sync now").click()
    expect(page.get_by_role("heading", name="Sync done")).to_be_visible(timeout=PATIENCE_MS)
    expect(page.get_by_role("status")).to_contain_text("Synced with")
    expect(page.get_by_role("status")).to_contain_text("pushed main")
    expect(page.locator("ol.steps")).to_contain_text("pushing main to")
    page.screenshot(path=str(shots / "hub-job-sync.png"), full_page=True)
    head = git(seeded, "rev-parse", "main").strip()
    assert git(remote, "rev-parse", "main").strip() == head


def test_no_remote_means_no_sync_button(
    serve: Serve, seeded: Path, context: BrowserContext
) -> None:
    page = open_hub(context, serve(seeded))
    nav(page, "Sources")
    expect(page.get_by_text("nothing to sync with")).to_be_visible()
    expect(page.get_by_role("button", name="Sync now")).to_have_count(0)


def test_dream_runs_from_the_review_page_and_says_it_has_no_model(
    serve: Serve,
    root: Path,
    context: BrowserContext,
    shots: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("MEMREPO_DREAM_URL", raising=False)
    from .test_pages_more import SEED

    (root / "MEMORY.md").write_text(SEED, encoding="utf-8")
    git(root, "commit", "-qam", "seed by hand")
    page = open_hub(context, serve(root))
    page.get_by_role("link", name="Review", exact=True).click()
    expect(page.get_by_text("No dream model is configured")).to_be_visible()
    page.screenshot(path=str(shots / "hub-review-dream.png"), full_page=True)
    page.get_by_role("button", name="Dream now (offline passes)").click()
    expect(page.get_by_role("heading", name="Dream done")).to_be_visible(timeout=PATIENCE_MS)
    expect(page.get_by_role("status")).to_contain_text("Dream done (offline)")
    page.screenshot(path=str(shots / "hub-job-dream.png"), full_page=True)
    page.get_by_role("link", name=re.compile(r"^Review dream")).click()
    expect(page.locator("li.op")).to_have_count(3)
    assert re.search(r"^dream/", git(root, "branch", "--list", "dream/*").strip(" *\n"))


def test_a_memory_shows_when_and_by_which_agent_a_prompt_last_carried_it(
    serve: Serve, seeded: Path, context: BrowserContext, shots: Path
) -> None:
    with MemoryRepo.open(seeded) as repo:
        # A real turn of claude-code marks what its prompt carried: items and lines.
        turn = ContextRequest(include_private=True, agent="claude-code")
        carried = repo.context(turn).refs
        items = repo.list_items(ItemFilters(include_private=True))
        item = next(i for i in items if i.content == "My blood type is 0+")
        untouched = next(e for e in repo.entries() if e.ref not in carried)
    assert item.last_used_at is not None
    day = item.last_used_at.strftime("%Y-%m-%d")
    page = open_hub(context, serve(seeded))
    page.get_by_role("button", name="Show private items").click()
    row = page.locator(".row", has_text="My blood type is 0+")
    expect(row).to_contain_text(f"last used {day}")
    expect(row).to_contain_text("by claude-code")
    expect(page.locator(".row", has_text="The user prefers pnpm over npm")).to_contain_text(
        "by claude-code"
    )  # a folder line in every prompt is used too
    page.screenshot(path=str(shots / "hub-knows-last-used.png"), full_page=True)
    expect(page.locator(".row", has_text=untouched.text)).not_to_contain_text("last used")
    row.get_by_role("link", name="My blood type is 0+").click()
    used = page.locator("dl.meta dt", has_text="Last used").locator(
        "xpath=following-sibling::dd[1]"
    )
    expect(used).to_contain_text(day)
    expect(used).to_contain_text("by claude-code")


def test_a_file_page_lists_the_files_that_link_to_it(
    serve: Serve, root: Path, context: BrowserContext, shots: Path
) -> None:
    (root / "topics").mkdir()
    (root / "topics" / "build.md").write_text("# Build\n\n- The build uses make\n")
    (root / "topics" / "release.md").write_text(
        "# Release\n\n- Tag after [[topics/build]] passes\n- Ship on Tuesdays\n"
    )
    memory = (root / "MEMORY.md").read_text()
    (root / "MEMORY.md").write_text(memory.rstrip("\n") + "\n\n## Index\n- [[topics/build]]\n")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "two topics by hand")
    page = open_hub(context, serve(root))
    page.goto(page.url.rstrip("/") + "/file?path=topics/build.md")
    section = page.get_by_role("region", name=re.compile(r"^Linked from"))
    expect(section.get_by_role("heading")).to_have_text("Linked from (2)")
    expect(section).to_contain_text("topics/release.md:3: Tag after [[topics/build]] passes")
    expect(section).to_contain_text("MEMORY.md")
    page.screenshot(path=str(shots / "hub-file-backlinks.png"), full_page=True)
    section.get_by_role("link", name="Tag after [[topics/build]] passes").click()
    expect(page.get_by_role("heading", name="One memory")).to_be_visible()
    page.goto(page.url.split("/memory", 1)[0] + "/file?path=topics/release.md")
    expect(page.get_by_role("region", name=re.compile(r"^Linked from"))).to_contain_text(
        "No other file links here."
    )


def test_a_bookmark_opens_the_hub_until_it_restarts(
    serve: Serve, seeded: Path, browser: Browser, context: BrowserContext
) -> None:
    served = serve(seeded)
    page = open_hub(context, served)
    (cookie,) = context.cookies()
    assert cookie["expires"] > time.time() + 29 * 24 * 3600  # kept across browser restarts
    state = context.storage_state()
    bookmark = served.base + "/history"
    page.close()
    reopened = browser.new_context(storage_state=state)  # the browser started again
    try:
        again = reopened.new_page()
        again.goto(bookmark)
        expect(again.get_by_role("heading", name="History")).to_be_visible()
        port = served.port
        served.stop()
        restarted = serve(seeded, port)  # the same address, a new hub process state
        again.goto(bookmark)
        expect(again.get_by_role("heading", name="Not signed in")).to_be_visible()
        again.goto(restarted.hub.login_url)
        expect(again.get_by_role("heading", name="What it knows")).to_be_visible()
    finally:
        reopened.close()
