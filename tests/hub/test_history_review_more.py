"""The commit page's diff and the Review page's closed commitments, over HTTP, each
checked against the repo (a second `MemoryRepo` on the same root) afterwards."""

from __future__ import annotations

import html
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from memrepo import InvalidArgument, MemoryRepo
from memrepo.models.dream import RecentNote
from memrepo.models.items import candidate

from .conftest import Serve

pytestmark = [pytest.mark.integration, pytest.mark.slow]


def test_the_commit_page_shows_the_diff_escaped(serve: Serve, root: Path) -> None:
    with MemoryRepo.open(root) as repo:
        result = repo.remember("The <b>build</b> runs on Fridays & Mondays", by="agent")
        assert result.commit is not None
        (change,) = repo.show_commit(result.commit).files
        first_id = repo.log()[-1].id
    person = serve(root).login()
    page = person.get("/history/commit", id=result.commit[:12]).text
    assert (
        '<span class="diff-add">+- The &lt;b&gt;build&lt;/b&gt; runs on Fridays &amp; Mondays'
        in page
    )
    assert "<b>build</b>" not in page
    assert f"modified · +{change.additions} -0" in html.unescape(page)
    first = person.get("/history/commit", id=first_id).text
    assert "added" in first and '<span class="diff-add">+# Memory</span>' in first


def test_a_closed_commitment_is_listed_and_reopened_from_review(serve: Serve, root: Path) -> None:
    today = datetime.now(UTC)
    due = (today - timedelta(days=3)).date().isoformat()
    with MemoryRepo.open(root) as repo:
        ref = {"store": "task", "id": "report", "aliases": [{"store": "due", "id": due}]}
        ingested = repo._parts.items.ingest(
            candidate(content="Send the quarterly report to Ana", kind="commitment", source_ref=ref)
        )
        assert ingested.item is not None
        item_id = ingested.item.id
        note = RecentNote(text="Sent the quarterly report to Ana, done", when=today)
        report = repo.dream(recent_notes=[note])
        assert report.curation is not None
        (change,) = report.curation.expired
        assert repo.item(item_id).item.status == "archived"
    person = serve(root).login()
    listed = person.get("/review").text
    assert "Send the quarterly report to Ana" in listed
    assert f'name="id" value="{change.id}"' in listed
    reopened = person.follow(
        person.post("/review/curation/undo", {"id": str(change.id), "back": "/review"})
    )
    assert f"Reopened memory:{item_id}" in reopened.text and "reopened" in reopened.text
    assert f'name="id" value="{change.id}"' not in reopened.text  # no second Undo button
    again = person.post("/review/curation/undo", {"id": str(change.id), "back": "/review"})
    assert again.status_code == 400 and "already undone" in again.text
    assert person.post("/review/curation/undo", {"id": "x"}).status_code == 400
    assert person.post("/review/curation/undo", {"id": "999"}).status_code == 404
    forged = person.post("/review/curation/undo", {"id": str(change.id)}, csrf=False)
    assert forged.status_code == 403
    with MemoryRepo.open(root) as repo:
        assert repo.item(item_id).item.status == "active"
        (logged,) = repo.curation_log()
        assert logged.id == change.id and logged.undone_at is not None
        with pytest.raises(InvalidArgument, match="at least 1"):
            repo.curation_log(limit=0)
