"""Where a write may land: always a file strictly inside the memory root, under a name
git, the file system and the Index format can all hold.

`check_path` is the one rule set. Every writer applies it to every path before its crash
journal is written (a path the file system refuses would otherwise fail half-way and
leave a journal that cannot be applied), and recovery applies it to a journal's paths
before trusting them.
"""

from __future__ import annotations

import functools
import os
import re
from pathlib import Path, PurePosixPath

from memrepo.errors import PathOutsideRoot, SecretInName
from memrepo.hygiene import find_secrets
from memrepo.layout import SWARM_DIR, slugify, workspace_of

__all__ = [
    "MAX_DEPTH",
    "MAX_NAME_BYTES",
    "MAX_PATH_BYTES",
    "check_path",
    "link_target",
    "normalize_target",
    "resolve_link",
    "secret_in_path",
    "slugify",  # the layout's (memrepo.layout), re-exported for the folder's callers
    "visible_to",
    "workspace_of",
]

#: Bytes per path component: the limit of ext4, APFS, NTFS and most others.
MAX_NAME_BYTES = 255
#: Bytes of a root-relative path; also kept this far below PATH_MAX with the root in
#: front (the temp names of a write and git's own lock files need the room).
MAX_PATH_BYTES = 4096
_PATH_MAX = 4096
_PATH_MARGIN = 256
#: Folders below the root. Deeper trees are no memory layout anyone reads, and each
#: level costs a `mkdir` and a tree object per write.
MAX_DEPTH = 32
#: Control characters (C0 and DEL): a newline in a path breaks commit messages, the
#: Index and `git status -z`-less tools; NUL ends a C string.
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def normalize_target(root: Path, file: str) -> str:
    """Turn a caller's `file=` into a safe root-relative posix path ending in `.md`.

    Rejects absolute paths, `..`, anything in `.git`, and any existing path component that
    is a symlink (a symlink could point outside the root or at another tracked file).
    """
    if not file or not file.strip():
        raise PathOutsideRoot(file, "empty path")
    if "\x00" in file or "\\" in file:
        raise PathOutsideRoot(file, "backslashes and NUL bytes are not allowed in paths")
    pure = PurePosixPath(file.strip())
    if pure.is_absolute():
        raise PathOutsideRoot(file, "absolute paths are not allowed")
    parts = [p for p in pure.parts if p not in ("", ".")]
    if not parts:
        raise PathOutsideRoot(file, "empty path")
    if ".." in parts:
        raise PathOutsideRoot(file, "'..' would leave the memory root")
    if parts[0].lower() == ".git":
        raise PathOutsideRoot(file, "nothing under .git is memory")
    if not parts[-1].endswith(".md"):
        parts[-1] += ".md"
    check_path("/".join(parts), root)
    current = root
    for part in parts:
        current = current / part
        if current.is_symlink():
            raise PathOutsideRoot(file, f"{current.relative_to(root)} is a symlink")
    return "/".join(parts)


def check_path(path: str, root: Path | None = None) -> None:
    """Raise PathOutsideRoot unless `path` is a root-relative posix path that git, the
    file system (with `root` in front, when given) and the Index format can all hold;
    SecretInName when it holds a secret."""
    if not path or path.startswith("/"):
        raise PathOutsideRoot(path, "an empty or absolute path is not allowed")
    if "\\" in path or "[[" in path or "]]" in path:
        raise PathOutsideRoot(path, "backslashes, '[[' and ']]' are not allowed in paths")
    try:
        size = len(path.encode("utf-8"))
    except UnicodeEncodeError:
        raise PathOutsideRoot(path, "the path is not valid UTF-8") from None
    parts = path.split("/")
    if len(parts) > MAX_DEPTH + 1:
        raise PathOutsideRoot(path, f"more than {MAX_DEPTH} folders deep")
    if size > MAX_PATH_BYTES:
        raise PathOutsideRoot(
            path, f"the path is too long ({size} bytes, at most {MAX_PATH_BYTES})"
        )
    if root is not None and len(os.fsencode(root)) + 1 + size > _PATH_MAX - _PATH_MARGIN:
        raise PathOutsideRoot(path, "the path is too long with the memory root in front of it")
    for part in parts:
        _check_part(path, part)
    kind = secret_in_path(path)
    if kind:
        # Whoever derived the path (a workspace, a kind, a file name) screened it or not:
        # a path is in every tree and the Index for good, so it never carries a secret.
        raise SecretInName("path", kind)


@functools.lru_cache(maxsize=4096)
def secret_in_path(path: str) -> str | None:
    """The kind of the first secret in a path (cached: a write checks the same few paths
    each time, and the detector costs ~18 us a call even on a short text)."""
    found = find_secrets(path)
    return found[0].kind if found else None


def _check_part(path: str, part: str) -> None:
    if part in ("", ".", ".."):
        raise PathOutsideRoot(path, "empty, '.' and '..' path components are not allowed")
    if _CONTROL.search(part):
        raise PathOutsideRoot(path, "control characters (newline, tab, NUL) are not allowed")
    if len(part.encode("utf-8")) > MAX_NAME_BYTES:
        raise PathOutsideRoot(path, f"a file or folder name is longer than {MAX_NAME_BYTES} bytes")
    if part.endswith((".", " ")):
        # Windows drops them, so "notes." and "notes" would be one file there.
        raise PathOutsideRoot(path, "a name may not end with a dot or a space")
    folded = part.casefold()
    if folded == ".git" or folded == "git~1":
        # git~1 is .git's 8.3 short name on Windows; git refuses both at any depth.
        raise PathOutsideRoot(path, "nothing under .git is memory")


def visible_to(path: str, workspace: str | None) -> bool:
    """Whether a task working in `workspace` may see the file `path` (root-relative):
    never a swarm folder (read through its own lane), another workspace's file only
    by a task in that workspace. One rule for every reader that lists files."""
    if path == SWARM_DIR.rstrip("/") or path.startswith(SWARM_DIR):
        return False
    owner = workspace_of(path)
    if not owner:
        return True
    return bool(workspace and workspace.strip()) and owner == slugify(workspace or "")


def link_target(path: str) -> str:
    """The Index spelling of a path: from the root, `.md` omitted for markdown, unless
    the name without it still holds a dot (`v1.2.md`, `notes.txt.md`): `resolve_link`
    adds `.md` only to a name without one, and the link must lead back here."""
    if path.endswith(".md") and "." not in PurePosixPath(path[:-3]).name:
        return path[:-3]
    return path


@functools.lru_cache(maxsize=4096)
def resolve_link(target: str) -> str:
    """The file a `[[target]]` names (the inverse of link_target). Cached: a folder-wide
    pass resolves the same few hundred targets several times."""
    target = target.strip().lstrip("/")
    return target if "." in PurePosixPath(target).name else target + ".md"
