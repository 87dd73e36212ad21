"""`memrepo demo`: a guided tour in a throwaway memory repo.

It remembers a few facts, shows the files a person would read and the git history, undoes
the newest write and shows both again. A stepping clock starting at a fixed moment makes
the dates (and so the commit ids) the same on every run.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TextIO

from memrepo.clock import Identity
from memrepo.engine import MemoryRepo
from memrepo.models import WriteResult

DEMO_START = datetime(2025, 1, 6, 9, 0, tzinfo=UTC)
DEMO_IDENTITY = Identity("memrepo demo", "demo@memrepo.invalid")
WORKSPACE = "Web shop"


@dataclass(slots=True)
class StepClock:
    """A clock that moves one minute forward each time it is read."""

    start: datetime
    step: timedelta = timedelta(minutes=1)
    _ticks: int = field(default=0, init=False)

    def now(self) -> datetime:
        moment = self.start + self._ticks * self.step
        self._ticks += 1
        return moment


def run_demo(*, keep: bool = False, out: TextIO | None = None) -> int:
    """Run the tour in a new temporary folder; removes it afterwards unless `keep`."""
    stream = out if out is not None else sys.stdout
    tmp = Path(tempfile.mkdtemp(prefix="memrepo-demo-"))
    try:
        _Tour(tmp / "agent-memory", stream).run()
    finally:
        if keep:
            print(f"\nKept the demo repo at {tmp / 'agent-memory'}", file=stream)
        else:
            shutil.rmtree(tmp, ignore_errors=True)
            print(f"\nRemoved {tmp} (run `memrepo demo --keep` to look around)", file=stream)
    return 0


class _Tour:
    def __init__(self, root: Path, out: TextIO) -> None:
        self.out = out
        self.repo = MemoryRepo.init(root, identity=DEMO_IDENTITY, clock=StepClock(DEMO_START))
        self.workspace_file = ""

    def run(self) -> None:
        self._section("1. A new memory repo")
        self._say(f"$ memrepo init {self.repo.root}")
        self._say(f"memory repo ready at {self.repo.root}")
        self._say(f"$ export MEMREPO_REPO={self.repo.root}")

        self._section("2. Remember a few facts")
        self._remember("The user prefers short answers with code first.")
        ws = self._remember("Deploys go through staging first.", workspace=WORKSPACE)
        self.workspace_file = ws.path or ""
        self._remember("Editor: vim", subject="editor")
        self._remember("Editor: helix (switched in January)", subject="editor")

        self._section("3. MEMORY.md")
        self._show("MEMORY.md")
        self._section(f"4. {self.workspace_file}")
        self._show(self.workspace_file)

        self._section("5. git log --oneline")
        self._git_log()

        self._section("6. Undo the newest write")
        result = self.repo.undo()
        self._say("$ memrepo undo")
        self._say(
            f"undid {result.undone[:10]} (commit {result.commit[:10]}): "
            f"{result.entries_removed} {'entry' if result.entries_removed == 1 else 'entries'} "
            f"removed, {result.entries_restored} restored in {', '.join(result.paths)}"
        )

        self._section("7. git log --oneline, after undo")
        self._git_log()
        self._section("8. MEMORY.md, after undo")
        self._show("MEMORY.md")

        self._section("9. Recall: one ranked answer over the folder and memory_items")
        private = "My dentist appointment is on Thursday at 10."
        self._say(f'$ memrepo remember "{private}" --private')
        written = self.repo.remember(private, private=True, by="user")
        self._say(f"{written.action} {written.ref} (memory_items, not in git)")
        self._recall("which editor do I use")
        self._recall("deploys staging", workspace=WORKSPACE)
        self._recall("dentist appointment")
        self._recall("dentist appointment", private=True)

        self._section("10. Why it is there, and what an agent's prompt gets")
        self._say("$ memrepo why 'folder:MEMORY.md#editor'")
        why = self.repo.why("folder:MEMORY.md#editor")
        self._say(why.explanation)
        self._say(f'$ memrepo context "which editor?" --workspace "{WORKSPACE}"')
        from memrepo.models.context import ContextRequest

        request = ContextRequest(query="which editor?", workspace=WORKSPACE, preview=True)
        self._say(self.repo.context(request).text)
        self.repo.close()

    def _recall(self, query: str, *, workspace: str | None = None, private: bool = False) -> None:
        command = f'$ memrepo recall "{query}"'
        if workspace:
            command += f' --workspace "{workspace}"'
        if private:
            command += " --private"
        self._say(command)
        result = self.repo.recall(query, workspace=workspace, include_private=private, limit=3)
        if not result.hits:
            self._say("nothing found" + ("" if private else "  (private facts need --private)"))
        for number, hit in enumerate(result.hits, start=1):
            self._say(f"{number:>2}. {hit.text}  [{hit.ref}, relevance {hit.relevance:.2f}]")

    def _remember(
        self, text: str, *, workspace: str | None = None, subject: str | None = None
    ) -> WriteResult:
        command = f'$ memrepo remember "{text}"'
        if workspace:
            command += f' --workspace "{workspace}"'
        if subject:
            command += f" --subject {subject}"
        self._say(command)
        result = self.repo.remember(text, workspace=workspace, subject=subject, by="user")
        commit = f"commit {result.commit[:10]}" if result.commit else "no new commit"
        self._say(f"{result.action} {result.ref} ({commit})")
        return result

    def _show(self, path: str) -> None:
        self.out.write((self.repo.root / path).read_text(encoding="utf-8"))

    def _git_log(self) -> None:
        """The real `git log` when git is installed: memrepo's history is plain git."""
        try:
            done = subprocess.run(
                ["git", "-C", str(self.repo.root), "log", "--oneline", "--no-decorate"],
                check=True,
                capture_output=True,
                text=True,
            )
        except (OSError, subprocess.CalledProcessError):
            self._say("(git is not available; memrepo's own log instead)")
            for commit in self.repo.log():
                self._say(f"{commit.id[:7]} {commit.summary}")
            return
        self.out.write(done.stdout)

    def _section(self, title: str) -> None:
        self._say(f"\n== {title} ==")

    def _say(self, line: str) -> None:
        print(line, file=self.out)
