"""Names inside a swarm folder, and the checks that keep them inside `swarms/`.

Task ids end up in folder names, refs and `source:` links, so they are held to a small
alphabet: a host that uses UUIDs or `task-123` never notices, and `../x` or `a/b` can
never reach a path. The slug comes from the root task's title, which a person may have
written in any script, so letters of every script are kept and everything else goes.
"""

from __future__ import annotations

import re

from memrepo.errors import InvalidArgument, SecretInName
from memrepo.hygiene import find_secrets, redact_secrets
from memrepo.layout import SWARM_DIR, SWARM_NOTE_FILES, split_note_path
from memrepo.layout import swarm_audience as audience
from memrepo.layout import swarm_note_ref as note_ref

__all__ = [
    "README",
    "audience",
    "check_task_id",
    "file_for",
    "folder_name",
    "folder_path",
    "note_ref",
    "split_note_path",
    "swarm_slug",
]

README = "README.md"
FINDINGS, QUESTIONS = SWARM_NOTE_FILES
#: Used when a root title has no letter or digit left after slugging ("...", "..", "!!").
FALLBACK_SLUG = "swarm"
SLUG_CHARS = 48
ROOT_CHARS = 8

_TASK_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,127}")
_SLUG_DROP = re.compile(r"[^\w]+")


def check_task_id(task_id: str) -> str:
    """The task id itself when it is safe in a path and a link; InvalidArgument if not.

    An id goes into the folder name, `source:` links, README members and commit
    trailers, so one that holds a secret is refused (SecretInName, without the value).
    """
    if not isinstance(task_id, str) or not _TASK_ID.fullmatch(task_id):
        raise InvalidArgument(
            f"task id {task_id!r}: use 1-128 letters, digits, '.', '_' or '-', starting "
            "with a letter or digit (no '/', no spaces)"
        )
    found = find_secrets(task_id)
    if found:
        raise SecretInName("task id", found[0].kind)
    return task_id


def swarm_slug(title: str) -> str:
    """A folder-safe slug of a title; never empty, never `.` or `..`. A secret in the
    title is replaced by its marker first (the slug is a path in every clone)."""
    slug = _SLUG_DROP.sub("-", redact_secrets(title)[0].casefold()).replace("_", "-")
    slug = re.sub(r"-{2,}", "-", slug).strip("-")[:SLUG_CHARS].rstrip("-")
    return slug or FALLBACK_SLUG


def folder_name(root_title: str, root_id: str) -> str:
    """`<slug of the root title>-<first 8 characters of the root id>`."""
    return f"{swarm_slug(root_title)}-{check_task_id(root_id)[:ROOT_CHARS]}"


def folder_path(name: str) -> str:
    return f"{SWARM_DIR}{name}"


def file_for(kind: str) -> str:
    """Findings and ruled-out paths go to findings.md; questions and answers together."""
    return QUESTIONS if kind in ("question", "answer") else FINDINGS
