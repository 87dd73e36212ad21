"""Where things live in a memory repo and how refs name them: the one owner of those rules.

The layout of docs/architecture.md §2 (MEMORY.md as the entry point, one file per
workspace under `workspaces/`, swarm folders under `swarms/`) and the ref prefixes of
the stores (`memory:` items, `team:` team entries, `swarm:` notes) are read by every
layer: the folder writes by them, recall filters by them, the faces parse them, dreaming
leaves swarm folders alone by them. Spelled once here, so a change of layout is one
change. Pure (no I/O, no state), so the lowest layers may import it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import PurePosixPath

__all__ = [
    "ENTRY_POINT",
    "ITEM_REF_PREFIX",
    "SWARM_DIR",
    "SWARM_NOTE_FILES",
    "SWARM_REF_PREFIX",
    "TEAM_REF_PREFIX",
    "WORKSPACE_DIR",
    "item_ids",
    "slugify",
    "split_note_path",
    "swarm_audience",
    "swarm_note_ref",
    "team_ref",
    "workspace_file",
    "workspace_of",
    "workspace_slug",
    "workspace_title",
]

#: The entry point every memory repo has, and the file a fact goes to by default.
ENTRY_POINT = "MEMORY.md"
#: One file per workspace: `workspaces/<slug>.md` (its entries are that workspace's).
WORKSPACE_DIR = "workspaces/"
#: What dreaming remembers between runs, in the state folder (`memrepo.dreaming.state`);
#: an export carries it so a restore does not propose what a person already rejected.
DREAM_STATE = "dream.json"
#: Swarm folders (docs/architecture.md §10): written by swarm notes only.
SWARM_DIR = "swarms/"
#: The note files of a swarm folder (its README.md describes it, and is no note).
SWARM_NOTE_FILES = ("findings.md", "questions.md")

#: How recall and `forget` name an item: `memory:<id>` (docs/architecture.md §2).
ITEM_REF_PREFIX = "memory:"
#: How refs of team repo entries begin (`team:<name>:<path>#<id>`); nothing writes them.
TEAM_REF_PREFIX = "team:"
#: How refs of swarm notes begin in recall's answers.
SWARM_REF_PREFIX = "swarm:"

_SLUG_DROP = re.compile(r"[^\w-]+")
_DASHES = re.compile(r"-{2,}")


def slugify(name: str) -> str:
    """A file-name-safe slug that keeps non-ASCII letters (people name things in any script)."""
    slug = _SLUG_DROP.sub("-", name.strip().casefold()).strip("-_")
    slug = _DASHES.sub("-", slug)
    return slug[:60] or "workspace"


def workspace_slug(name: str | None) -> str | None:
    """The key a workspace is stored and looked up by; None for no workspace (global)."""
    return slugify(name) if name and name.strip() else None


def workspace_file(slug: str) -> str:
    """The memory file of a workspace, from its slug."""
    return f"{WORKSPACE_DIR}{slug}.md"


def workspace_title(name: str) -> str:
    """The heading a new workspace file gets: the name as the person wrote it."""
    return f"Workspace: {' '.join(name.split())}"


def workspace_of(path: str) -> str:
    """The workspace slug a file belongs to (`workspaces/<slug>.md`), "" for global files:
    what decides who may see its entries (recall's visibility, the tools' reads)."""
    parts = PurePosixPath(path).parts
    if len(parts) == 2 and parts[0] == WORKSPACE_DIR.rstrip("/") and parts[1].endswith(".md"):
        return parts[1][:-3]
    return ""


def item_ids(refs: Iterable[str]) -> list[str]:
    """The memory_items ids among `refs`, in order (folder, team and swarm refs left out)."""
    return [ref.removeprefix(ITEM_REF_PREFIX) for ref in refs if ref.startswith(ITEM_REF_PREFIX)]


def team_ref(team: str, path: str, entry_id: str) -> str:
    """`team:<name>:<path>#<id>`: a team entry, with provenance a person can check."""
    return f"{TEAM_REF_PREFIX}{team}:{path}#{entry_id}"


def split_note_path(path: str) -> tuple[str, str] | None:
    """(folder name, file) for a swarm note file `swarms/<name>/<file>`, else None."""
    if not path.startswith(SWARM_DIR):
        return None
    parts = path[len(SWARM_DIR) :].split("/")
    if len(parts) != 2 or parts[1] not in SWARM_NOTE_FILES:
        return None
    return parts[0], parts[1]


def swarm_note_ref(name: str, file: str, entry_id: str) -> str:
    """`swarm:<folder>:<file>#<id>` (docs/architecture.md §2, entry identity)."""
    return f"{SWARM_REF_PREFIX}{name}:{file}#{entry_id}"


def swarm_audience(name: str) -> str:
    """The index audience of a swarm's notes: only readers inside that swarm match it."""
    return f"{SWARM_REF_PREFIX}{name}"
