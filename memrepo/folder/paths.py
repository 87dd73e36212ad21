"""Where a write may land: always a markdown file strictly inside the memory root."""

from __future__ import annotations

import functools
import re
from pathlib import Path, PurePosixPath

from memrepo.errors import PathOutsideRoot

_SLUG_DROP = re.compile(r"[^\w-]+")


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
    current = root
    for part in parts:
        current = current / part
        if current.is_symlink():
            raise PathOutsideRoot(file, f"{current.relative_to(root)} is a symlink")
    return "/".join(parts)


def slugify(name: str) -> str:
    """A file-name-safe slug that keeps non-ASCII letters (people name things in any script)."""
    slug = _SLUG_DROP.sub("-", name.strip().casefold()).strip("-_")
    slug = re.sub(r"-{2,}", "-", slug)
    return slug[:60] or "workspace"


def link_target(path: str) -> str:
    """The Index spelling of a path: from the root, `.md` omitted for markdown."""
    return path[:-3] if path.endswith(".md") else path


@functools.lru_cache(maxsize=4096)
def resolve_link(target: str) -> str:
    """The file a `[[target]]` names (the inverse of link_target). Cached: a folder-wide
    pass resolves the same few hundred targets several times."""
    target = target.strip().lstrip("/")
    return target if "." in PurePosixPath(target).name else target + ".md"
