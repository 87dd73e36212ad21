"""The hub in a real browser (Debian's Chromium driven by Playwright), doing what a person
does: open the printed address, find a fact, edit it and see the commit in History,
forget it, review a dream, show private items, change a workspace, preview the context.
The refusals are tried from the browser too, with its session cookie at hand.

One browser for the module; each test gets its own repo, hub and browser context.
Screenshots go to the test's temporary folder, or to the folder $MEMREPO_HUB_SHOTS names
(`MEMREPO_HUB_SHOTS=docs` refreshes docs/hub-*.png). Nothing is downloaded: the browser
is launched by its path, and the tests skip when it is not installed (`.ci/run` installs
it).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from memrepo import MemoryRepo

from .conftest import Serve, Served
from .test_pages_more import SEED, git

CHROMIUM = Path("/usr/bin/chromium")
if not CHROMIUM.exists():
    pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is in the test extra")

from playwright.sync_api import Browser, BrowserContext, Page, expect  # noqa: E402

pytestmark = [pytest.mark.integration, pytest.mark.slow]

PROJECT = Path(__file__).resolve().parents[2]
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_api.sync_playwright() as driver:
        launched = driver.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    made = browser.new_context(viewport={"width": 1200, "height": 900})
    try:
        yield made
    finally:
        made.close()


def open_hub(context: BrowserContext, served: Served) -> Page:
    """A tab that opened the one-time address, as a person pastes it; forms that ask
    "Are you sure?" are answered yes."""
    page = context.new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    page.goto(served.hub.login_url)
    expect(page.get_by_role("heading", name="What it knows")).to_be_visible()
    assert "token" not in page.url  # the address bar lost the token
    return page


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    """Where screenshots go (see the module docstring)."""
    chosen = os.environ.get("MEMREPO_HUB_SHOTS")
    folder = PROJECT / chosen if chosen else tmp_path / "shots"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture
def seeded(root: Path) -> Path:
    with MemoryRepo.open(root) as repo:
        repo.remember("The user prefers pnpm over npm", by="user")
        repo.remember("Answers should be short, with the command first", by="user",
                      kind="preference")  # fmt: skip
        repo.remember("The CI runner has 2 cores", by="agent", task_id="build-7")
        repo.remember("The docs site moved to docs.example.org", by="agent", tainted=True)
        repo.remember("Deploys go out on Fridays", by="agent", workspace="Web shop")
        repo.remember("My blood type is 0+", private=True, by="user", kind="identity")
        repo.remember("Ana's phone ends in 55", contact_ref="mail:ana@example.com", by="user")
    return root


def test_find_edit_see_in_history_forget(
    serve: Serve, seeded: Path, context: BrowserContext, shots: Path
) -> None:
    page = open_hub(context, serve(seeded))
    page.screenshot(path=str(shots / "hub-knows.png"), full_page=True)
    page.get_by_label("Text").fill("deploys")
    page.get_by_role("button", name="Filter").click()
    expect(page.locator(".row")).to_have_count(1)
    page.get_by_role("link", name="Deploys go out on Fridays").click()
    expect(page.get_by_role("heading", name="One memory")).to_be_visible()
    page.get_by_label("New text").fill("Deploys go out on Tuesdays")
    page.get_by_role("button", name="Save as a new commit").click()
    expect(page.get_by_role("status")).to_contain_text("Edited in")
    with MemoryRepo.open(seeded) as repo:
        commit = repo.log(limit=1)[0].id
    page.get_by_role("navigation", name="Pages").get_by_role("link", name="History").click()
    newest = page.locator("table.history tbody tr").first
    expect(newest).to_contain_text(commit[:10])
    expect(newest).to_contain_text("workspaces/web-shop.md")
    page.go_back()
    page.get_by_role("button", name="Forget").click()
    expect(page.get_by_role("status")).to_contain_text("Forgot it in")
    expect(page.get_by_text("Deploys go out on Tuesdays")).to_have_count(0)
    with MemoryRepo.open(seeded) as repo:
        assert not any("Deploys" in e.text for e in repo.entries())


def test_accept_one_dream_operation_and_the_rest_waits(
    serve: Serve, root: Path, context: BrowserContext, shots: Path
) -> None:
    (root / "MEMORY.md").write_text(SEED, encoding="utf-8")
    git(root, "commit", "-qam", "seed by hand")
    with MemoryRepo.open(root) as repo:
        name = repo.dream().review
    assert name is not None
    page = open_hub(context, serve(root))
    page.get_by_role("link", name="Review", exact=True).click()
    page.get_by_role("link", name=name).click()
    expect(page.locator("li.op")).to_have_count(3)
    page.screenshot(path=str(shots / "hub-review.png"), full_page=True)
    page.get_by_label(re.compile(r"^\[3\] ")).check()
    page.get_by_role("button", name="Accept the ticked changes").click()
    expect(page.get_by_role("status")).to_contain_text("Accepted 1 change(s)")
    expect(page.get_by_role("status")).to_contain_text("2 still wait")
    with MemoryRepo.open(root) as repo:
        text = repo.read_text("MEMORY.md")
        assert [r.ops for r in repo.list_reviews()] == [2]
    assert "Friday" not in text and "Old person's note" in text
    page.get_by_role("link", name=name).click()
    expect(page.locator("li.op")).to_have_count(2)


def test_private_items_a_workspace_setting_and_the_context_preview(
    serve: Serve, seeded: Path, context: BrowserContext
) -> None:
    page = open_hub(context, serve(seeded))
    expect(page.get_by_text("My blood type is 0+")).to_have_count(0)
    page.get_by_role("button", name="Show private items").click()
    expect(page.get_by_text("My blood type is 0+")).to_be_visible()
    expect(page.get_by_text("Ana's phone ends in 55")).to_be_hidden()  # collapsed
    page.get_by_text("From other people").click()
    expect(page.get_by_text("Ana's phone ends in 55")).to_be_visible()

    page.get_by_role("link", name="Settings").click()
    form = page.get_by_role("form", name="Workspace web-shop")
    form.get_by_label("Memory").select_option("off")
    form.get_by_role("button", name="Save web-shop").click()
    expect(page.get_by_role("status")).to_contain_text("Workspace web-shop: memory off")
    with MemoryRepo.open(seeded) as repo:
        assert repo.config.workspace("web-shop").enabled is False

    page.get_by_role("link", name="What the agent sees").click()
    page.get_by_label("The user's message").fill("which package manager")
    page.get_by_role("button", name="Preview").click()
    expect(page.locator("pre.context-text")).to_contain_text("The user prefers pnpm over npm")
    expect(page.locator("table.gate")).to_contain_text("folder_l0")


def test_refusals_seen_from_the_browser(
    serve: Serve, seeded: Path, browser: Browser, context: BrowserContext
) -> None:
    served = serve(seeded)
    stranger = browser.new_context()
    try:
        page = stranger.new_page()
        page.goto(served.base + "/")
        expect(page.get_by_role("heading", name="Not signed in")).to_be_visible()
    finally:
        stranger.close()
    page = open_hub(context, served)
    # The session cookie is in this context, but a form without its token is refused.
    posted = context.request.post(
        served.base + "/session/private",
        form={"show": "1", "back": "/"},
        headers={"Origin": served.base},
        max_redirects=0,
    )
    assert posted.status == 403 and "CSRF" in posted.text()
    forged = context.request.get(served.base + "/", headers={"Host": "evil.example"})
    assert forged.status == 421
    page.reload()
    expect(page.get_by_text("Private items are hidden")).to_be_visible()


def test_keyboard_phone_width_and_dark_scheme(serve: Serve, seeded: Path, browser: Browser) -> None:
    served = serve(seeded)
    phone = browser.new_context(viewport={"width": 375, "height": 740}, color_scheme="dark")
    try:
        page = open_hub(phone, served)
        page.keyboard.press("Tab")
        focused = page.evaluate("document.activeElement.textContent")
        assert focused == "Skip to content"
        wide = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert wide <= 0, f"the page scrolls sideways by {wide}px at phone width"
        background = page.evaluate("getComputedStyle(document.body).backgroundColor")
        assert background == "rgb(13, 17, 23)"  # the dark palette
    finally:
        phone.close()


def test_the_text_box_asks_recall_and_finds_by_meaning_once_it_is_on(
    serve: Serve, seeded: Path, context: BrowserContext
) -> None:
    """Issue #29: the Text box ranks as recall does; with the meaning lane switched on
    beside the running hub, a question sharing no word with the memory finds it."""
    with MemoryRepo.open(seeded) as repo:
        repo.remember("Kate goes skiing in the Alps every January", by="user")
    page = open_hub(context, serve(seeded))
    page.get_by_label("Text").fill("which hobby involves snow and mountains?")
    page.get_by_role("button", name="Filter").click()
    expect(page.get_by_text("Nothing here with these filters")).to_be_visible()
    with MemoryRepo.open(seeded) as repo:
        repo.meaning_on()
    page.reload()
    expect(page.locator(".row").first).to_contain_text("Kate goes skiing in the Alps")
