"""Sync and Dream jobs: what the progress channel says reaches the job's page while the
job runs, a failure is shown rather than lost, and their forms pass the same gate as
every other button (session, Origin, CSRF)."""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path

import pytest

from memrepo import MemoryRepo, progress
from memrepo.errors import SyncError
from memrepo.hub.handling import Hub
from memrepo.hub.jobs import Job, Outcome
from memrepo.hub.render import Templates
from memrepo.hub.sessions import Sessions

from .conftest import Serve

pytestmark = [pytest.mark.integration]

PATIENCE = 30.0


async def _until(check: object, what: str) -> None:
    deadline = time.monotonic() + PATIENCE
    while not callable(check) or not check():
        assert time.monotonic() < deadline, f"waited too long for {what}"
        await asyncio.sleep(0.01)


def test_a_job_reports_the_progress_channel_while_it_runs(root: Path) -> None:
    lines: list[str] = []
    go_on = threading.Event()

    def work(repo: MemoryRepo, job: Job) -> Outcome:
        with progress.task("indexing documents", 4) as bar:
            bar.advance(3)
            assert go_on.wait(PATIENCE)
        return Outcome(f"{len(repo.entries())} entries", "abc123")

    def fails(repo: MemoryRepo, job: Job) -> Outcome:
        raise SyncError("the remote is unreachable")

    async def run(hub: Hub) -> tuple[Job, Job, Job]:
        job = hub.jobs.start("Sync", work, hub.workers, lines.append)
        await _until(lambda: job.count == 3, "three steps")
        assert (job.state, job.doing, job.total) == ("running", "indexing documents", 4)
        second = hub.jobs.start("Dream", work, hub.workers, lines.append)
        go_on.set()
        await _until(lambda: job.state != "running", "the job to end")
        failed = hub.jobs.start("Sync", fails, hub.workers, lines.append)
        await _until(lambda: failed.state != "running", "the failing job to end")
        return job, second, failed

    with MemoryRepo.open(root) as repo:
        hub = Hub(repo, Sessions(), Templates(), 0)
        try:
            job, second, failed = asyncio.run(run(hub))
        finally:
            hub.workers.close()
    assert second is job  # one job at a time: a second click shows the running one
    assert job.state == "done" and job.outcome == Outcome("0 entries", "abc123")
    assert job.steps == ("indexing documents",) and job.doing == ""
    assert failed.state == "failed" and failed.error == "the remote is unreachable"
    assert hub.jobs.get(job.id) is job and hub.jobs.running() is None


@pytest.mark.slow
def test_sync_and_dream_forms_pass_the_gate(serve: Serve, root: Path) -> None:
    served = serve(root)
    person = served.login()
    for action in ("/sync", "/dream"):
        assert person.post(action, {"back": "/"}, csrf=False).status_code == 403
        no_origin = person.http.post(action, data={"csrf": person.csrf()})
        assert no_origin.status_code == 403
        assert person.get(action).status_code == 405
        assert served.client().post(action, headers=served.origin).status_code == 401
    assert person.get("/job", id="../x").status_code == 400
    assert "no such job" in person.get("/job", id="abc").text
    started = person.post("/dream", {"back": "/"})
    assert started.status_code == 303 and started.headers["location"].startswith("/job?id=")
    deadline = time.monotonic() + PATIENCE
    while "Dream running" in (page := person.follow(started).text):
        assert time.monotonic() < deadline
        time.sleep(0.1)
    assert "Dream done (offline)" in page
