"""`memrepo demo`: a guided tour in a throwaway memory repo, made of the real commands.

Every step is a `memrepo` command run through the CLI's own `main`, shown as a person
would type it, followed by exactly what it printed: what the tour shows is what the
reader will see when they type the same line. It remembers a few facts, shows the files
and `memrepo log`, undoes the newest write, recalls, and ends with where a memory came
from and the prompt block an agent gets. Dates are today's (the real clock) and commits
carry the reader's own git identity, as every other write does.

The repo lives in a new temporary folder, removed at the end (also after an error or
Ctrl-C) unless `--keep`. The commands find it through `$MEMREPO_REPO`, set for the tour
only, so a memory the reader already has is never touched. Commands run in this process:
the tour costs one interpreter start, not one per step.
"""

from __future__ import annotations

import io
import os
import shlex
import shutil
import sys
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, redirect_stdout
from pathlib import Path
from typing import TextIO

from memrepo.cli import main
from memrepo.cli._common import ENV_REPO

WORKSPACE = "Web shop"

Step = tuple[str, tuple[tuple[str, ...], ...]]

#: The tour after `init`: a title, then the commands of that step (the repo is
#: `$MEMREPO_REPO`).
STEPS: tuple[Step, ...] = (
    (
        "Remember a few facts (each write is one git commit)",
        (
            ("remember", "The user prefers short answers with code first."),
            ("remember", "Deploys go through staging first.", "--workspace", WORKSPACE),
            ("remember", "Editor: vim", "--subject", "editor"),
            ("remember", "Editor: helix (switched in January)", "--subject", "editor"),
        ),
    ),
    (
        "The files a person reads and edits",
        (("show", "MEMORY.md"), ("show", "workspaces/web-shop.md")),
    ),
    ("The history", (("log",),)),
    ("Undo the newest write, entry by entry", (("undo",), ("log",), ("show", "MEMORY.md"))),
    (
        "Recall: one ranked answer over the folder and memory_items",
        (
            ("remember", "My dentist appointment is on Thursday at 10.", "--private"),
            ("recall", "which editor do I use"),
            ("recall", "deploys staging", "--workspace", WORKSPACE),
            ("recall", "dentist appointment"),
            ("recall", "dentist appointment", "--private"),
        ),
    ),
    (
        "Where a memory came from, and what an agent's prompt gets",
        (
            ("why", "folder:MEMORY.md#editor"),
            ("context", "which editor?", "--workspace", WORKSPACE),
        ),
    ),
)


def run_demo(
    *, keep: bool = False, out: TextIO | None = None, steps: Sequence[Step] = STEPS
) -> int:
    """Run the tour in a new temporary folder; removes it afterwards unless `keep`.

    Returns 0, or the exit code of the first command that failed (its error is on
    stderr, as it would be in a shell), after which the tour stops. `steps` is the tour
    after `init` (tests pass their own).
    """
    stream = out if out is not None else sys.stdout
    tmp = Path(tempfile.mkdtemp(prefix="memrepo-demo-"))
    root = tmp / "agent-memory"
    try:
        with _repo_in_env(root):
            code = _Tour(stream).run(root, steps)
    finally:
        if keep:
            _say(stream, f"\nKept the demo repo at {root}")
            _say(stream, f"Look around: cd {shlex.quote(str(root))} && memrepo log")
        else:
            shutil.rmtree(tmp, ignore_errors=True)
            _say(stream, f"\nRemoved {tmp} (run `memrepo demo --keep` to look around)")
    return code


class _Tour:
    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.number = 0

    def run(self, root: Path, steps: Sequence[Step]) -> int:
        self._section("A new memory repo")
        code = self._command("init", str(root))
        _say(self.out, f"$ export {ENV_REPO}={shlex.quote(str(root))}")
        for title, commands in steps:
            if code != 0:
                return code
            self._section(title)
            for argv in commands:
                code = self._command(*argv)
                if code != 0:
                    return code
        return code

    def _command(self, *argv: str) -> int:
        """Show the command, run it through the real CLI and show what it printed."""
        _say(self.out, f"$ {shlex.join(['memrepo', *argv])}")
        printed = io.StringIO()
        with redirect_stdout(printed):
            code = main(list(argv))
        self.out.write(printed.getvalue())
        self.out.flush()
        return code

    def _section(self, title: str) -> None:
        self.number += 1
        _say(self.out, f"\n== {self.number}. {title} ==")


@contextmanager
def _repo_in_env(root: Path) -> Iterator[None]:
    """`$MEMREPO_REPO` names the tour's repo while it runs, then is as it was."""
    before = os.environ.get(ENV_REPO)
    os.environ[ENV_REPO] = str(root)
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(ENV_REPO, None)
        else:
            os.environ[ENV_REPO] = before


def _say(out: TextIO, line: str) -> None:
    print(line, file=out, flush=True)


__all__ = ["run_demo"]
