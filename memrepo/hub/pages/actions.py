"""Sync and Dream from the hub, with their progress (issue #31).

Each button posts one form (the gate checks its session, origin and CSRF token like any
other) and starts one `memrepo.hub.jobs.Job` calling the same verb the CLI does:
`sync()` (`memrepo sync`) or `dream(model=...)` (`memrepo dream`). The job's page says
what it is doing while it runs and what it did once done.

A dream uses the model `memrepo dream --model` would: the OpenAI-compatible endpoint
named by $MEMREPO_DREAM_URL (with $MEMREPO_DREAM_MODEL and $MEMREPO_DREAM_API_KEY) in
the hub's environment. Without one it runs its offline passes only, and the Review
page says so next to the button.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from memrepo.dreaming.openai import OpenAIModel
from memrepo.engine import MemoryRepo
from memrepo.errors import DreamError
from memrepo.hub.forms import BadForm
from memrepo.hub.handling import Endpoint, hub_of, query_of
from memrepo.hub.jobs import Job, Outcome, Work
from memrepo.hub.render import link, short
from memrepo.models.dream import DreamReport
from memrepo.models.sync import SyncReport

#: What a job's id looks like (`secrets.token_urlsafe(9)`): checked before the lookup.
JOB_ID_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


def dream_model() -> OpenAIModel | None:
    """The model a dream started here uses, None when the environment names none."""
    try:
        return OpenAIModel.from_env()
    except DreamError:
        return None


def _sync(repo: MemoryRepo, job: Job) -> Outcome:
    return sync_outcome(repo.sync(progress=job.say))


def sync_outcome(report: SyncReport) -> Outcome:
    """A sync report in a person's words."""
    done = {
        "up_to_date": "already up to date",
        "ahead": "nothing new on the remote",
        "fast_forward": "brought the remote's commits",
        "merged": "merged the remote's changes entry by entry",
        "first_push": "first push",
        "no_remote": "no remote is set",
    }[report.integration]
    pushed = "; pushed main" if report.pushed else ""
    text = f"Synced with {report.remote or 'no remote'}: {done}{pushed} ({report.seconds:.1f} s)."
    links: list[tuple[str, str]] = [("History", "/history")]
    if report.conflicts:
        text += (
            f" {len(report.conflicts)} path(s) could not be merged: main kept one side, "
            f"the other waits on {report.conflict_branch}."
        )
        links.insert(0, ("Sync conflicts", "/review"))
    failed = [team for team in report.teams if team.error]
    text += "".join(f" Team {team.name}: {team.error}." for team in failed)
    text += "".join(f" Warning: {warning}." for warning in report.warnings)
    return Outcome(text, None, tuple(links))


def _dream(model: OpenAIModel | None) -> Work:
    def work(repo: MemoryRepo, job: Job) -> Outcome:
        return dream_outcome(repo.dream(model=model))

    return work


def dream_outcome(report: DreamReport) -> Outcome:
    """A dream report in a person's words."""
    where = f" in commit {short(report.commit)}" if report.commit else ""
    text = (
        f"Dream done ({report.model}): {len(report.safe)} safe change(s){where}, "
        f"{len(report.pending_review)} for your review"
    )
    if report.broken_links:
        text += f", {len(report.broken_links)} broken link(s) found"
    links: list[tuple[str, str]] = []
    if report.review:
        links.append((f"Review {report.review}", link("/review/dream", name=report.review)))
    if report.commit:
        links.append(("Its commit", link("/history/commit", id=report.commit)))
    return Outcome(text + ".", report.commit, tuple(links))


async def sync(request: Request) -> Response:
    hub = hub_of(request)
    job = hub.jobs.start("Sync", _sync, hub.workers, hub.log)
    return RedirectResponse(link("/job", id=job.id), status_code=303)


async def dream(request: Request) -> Response:
    hub = hub_of(request)
    job = hub.jobs.start("Dream", _dream(dream_model()), hub.workers, hub.log)
    return RedirectResponse(link("/job", id=job.id), status_code=303)


async def job(request: Request) -> Response:
    hub = hub_of(request)
    job_id = query_of(request).get("id") or ""
    if not job_id or len(job_id) > 40 or not set(job_id) <= JOB_ID_CHARS:
        raise BadForm(f"{job_id!r} is not a job of this hub")
    found = hub.jobs.get(job_id)
    if found is None:
        raise BadForm("no such job: it ended before this hub last started, or long ago")
    return hub.templates.page(request, "job.html", {"job": found})


ROUTES: list[tuple[str, Endpoint, str]] = [
    ("/sync", sync, "POST"),
    ("/dream", dream, "POST"),
    ("/job", job, "GET"),
]
