"""Long actions started from a page (Sync, Dream) and what they report while they run.

A sync talks to a remote and a dream reads the whole folder: either may take longer than
a person waits for a page. So the button's POST starts a `Job` and redirects at once to
the job's page, which shows what the job says it is doing and reloads itself every
second until it is done (a `<meta>` refresh: no script needed), then says what it did.

The job runs as the hub's one write at a time (`RepoWorkers.write`, the same queue every
button uses), so it never races another write. What it reports comes from the engine's
progress channel (`memrepo.progress`: the index, the meaning lane), heard in the writer
thread while the job runs, and from the verb's own step callback where it has one
(`sync(progress=...)`). One job runs at a time: a second click shows the running one.
"""

from __future__ import annotations

import asyncio
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from memrepo import progress
from memrepo.engine import MemoryRepo
from memrepo.errors import MemrepoError
from memrepo.serving import RepoWorkers

JobState = Literal["running", "done", "failed"]
#: Finished jobs a hub keeps for their pages (the oldest goes first).
KEPT = 20
#: Steps a job's page lists (the newest ones).
STEPS_SHOWN = 30


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a finished job did, in the page's words: a line, the commit to undo it with,
    and where to look next (label, local path)."""

    text: str
    undo: str | None = None
    links: tuple[tuple[str, str], ...] = ()


@dataclass
class Job:
    """One long action and what it has said so far (written by the worker thread, read
    by pages: each field is replaced whole, so a page never sees half an update)."""

    id: str
    title: str
    started: float = field(default_factory=time.monotonic)
    state: JobState = "running"
    #: The open progress task, innermost: its label, steps done and total when known.
    doing: str = ""
    count: int = 0
    total: int | None = None
    steps: tuple[str, ...] = ()
    outcome: Outcome | None = None
    error: str = ""
    ended: float | None = None

    @property
    def seconds(self) -> float:
        return (self.ended or time.monotonic()) - self.started

    def say(self, step: str) -> None:
        """A step the verb reports (`sync(progress=job.say)`)."""
        self.steps = (*self.steps, step)[-STEPS_SHOWN:]


class _Heard:
    """The `memrepo.progress` sink of one job: the innermost open task is what the job's
    page shows; each task begun is a step."""

    def __init__(self, job: Job) -> None:
        self.job = job
        self.open: list[tuple[str, int | None, int]] = []

    def start(self, label: str, total: int | None) -> None:
        self.open.append((label, total, 0))
        self.job.say(label)
        self._show()

    def advance(self, n: int = 1) -> None:
        if self.open:
            label, total, count = self.open[-1]
            self.open[-1] = (label, total, count + n)
            self._show()

    def done(self) -> None:
        if self.open:
            self.open.pop()
        self._show()

    def _show(self) -> None:
        label, total, count = self.open[-1] if self.open else ("", None, 0)
        self.job.doing, self.job.total, self.job.count = label, total, count


Work = Callable[[MemoryRepo, Job], Outcome]
Log = Callable[[str], None]


class Jobs:
    """The jobs one hub started: the running one (at most one) and the last finished."""

    def __init__(self) -> None:
        self._jobs: OrderedDict[str, Job] = OrderedDict()
        self._tasks: set[asyncio.Task[None]] = set()
        self._lock = threading.Lock()

    def get(self, job_id: str) -> Job | None:
        with self._lock:
            return self._jobs.get(job_id)

    def running(self) -> Job | None:
        with self._lock:
            return next((job for job in self._jobs.values() if job.state == "running"), None)

    def start(self, title: str, work: Work, workers: RepoWorkers[MemoryRepo], log: Log) -> Job:
        """Start `work` as the next write (call it on the event loop), or give the job
        that is running already."""
        with self._lock:
            busy = next((job for job in self._jobs.values() if job.state == "running"), None)
            if busy is not None:
                return busy
            job = Job(secrets.token_urlsafe(9), title)
            self._jobs[job.id] = job
            while len(self._jobs) > KEPT:
                oldest = next(iter(self._jobs))
                if self._jobs[oldest].state == "running":
                    break
                self._jobs.pop(oldest)
        task = asyncio.get_running_loop().create_task(self._run(job, work, workers, log))
        self._tasks.add(task)  # the loop keeps only a weak reference
        task.add_done_callback(self._tasks.discard)
        return job

    async def _run(self, job: Job, work: Work, workers: RepoWorkers[MemoryRepo], log: Log) -> None:
        def heard(repo: MemoryRepo) -> Outcome:
            with progress.listening(_Heard(job)):
                return work(repo, job)

        try:
            job.outcome = await workers.write(heard, job.title.lower())
            job.state = "done"
        except MemrepoError as exc:
            job.error, job.state = str(exc), "failed"
        except Exception as exc:  # shown on the job's page and logged, never lost
            log(f"{job.title} failed: {exc!r}")
            job.error = (
                f"An internal error ({type(exc).__name__}) stopped it; the terminal running "
                "memrepo hub has one line about it. Check History before trying again."
            )
            job.state = "failed"
        finally:
            job.ended = time.monotonic()
            job.doing = ""
