"""Models of the git wiring: what `install-git-hooks` set up."""

from __future__ import annotations

from typing import Literal

from memrepo.models._base import Frozen

HookState = Literal["installed", "unchanged", "kept_existing"]


class HookInstall(Frozen):
    """One git hook: written, already ours, or a hook of the user's own left alone."""

    name: str
    path: str
    state: HookState
    #: For ``kept_existing``: the line to add to the user's hook to run memrepo's check.
    note: str = ""


class GitHooksReport(Frozen):
    """What `install-git-hooks` set up; running it again changes nothing (`changed` false)."""

    #: The merge driver command written to `.git/config` as `merge.memrepo.driver`.
    driver: str
    #: The attributes file that routes `*.md` to the driver (`.git/info/attributes`).
    attributes_file: str
    hooks: tuple[HookInstall, ...]
    changed: bool
