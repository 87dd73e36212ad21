"""Broken `[[links]]`: pointed at the file's new name when git saw it renamed, else reported.

Every link of an entry and of the Index is checked against main's tree. The paths that
are gone are handed to git's rename detection (through the folder layer); a line whose
links all resolve again is rewritten, with labels (`[[old|label]]`) kept.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping

from memrepo.dreaming.ops import make_op
from memrepo.dreaming.snapshot import Snapshot
from memrepo.folder.paths import link_target, resolve_link
from memrepo.models.dream import BrokenLink, LineRef, Op

#: Given missing paths, where git says each one went (only those it could place).
RenameFinder = Callable[[Iterable[str]], Mapping[str, str]]

_LINK = re.compile(r"\[\[([^\[\]]+)\]\]")


def find_broken_links(
    snap: Snapshot, claimed: set[tuple[str, int]], renames: RenameFinder
) -> tuple[list[Op], list[BrokenLink], dict[str, str]]:
    """Rewrite ops for links git can place, the rest as BrokenLink reports, and the
    renames found (old path -> new path)."""
    lines = _broken_lines(snap)
    if not lines:
        return [], [], {}
    missing = {resolve_link(t) for _path, _no, _raw, targets in lines for t in targets}
    moved = dict(renames(sorted(missing)))
    ops: list[Op] = []
    broken: list[BrokenLink] = []
    for path, line_no, raw, targets in lines:
        unplaced = [t for t in targets if resolve_link(t) not in moved]
        broken.extend(BrokenLink(path=path, line=line_no + 1, target=t) for t in unplaced)
        if unplaced or (path, line_no) in claimed:
            continue
        claimed.add((path, line_no))
        fixed = _LINK.sub(lambda m: _relink(m, moved), raw)
        where = ", ".join(f"{t} -> {link_target(moved[resolve_link(t)])}" for t in targets)
        ops.append(
            make_op(
                "rewrite",
                "links",
                path,
                f"git detected the rename of the linked file ({where})",
                targets=[LineRef(path=path, line=line_no, raw=raw)],
                text=fixed,
            )
        )
    return ops, broken, moved


def _broken_lines(snap: Snapshot) -> list[tuple[str, int, str, list[str]]]:
    """(path, line, raw, broken targets) of every line with a link to a missing file."""
    paths = snap.paths
    linking = snap.links_by_path()
    found: list[tuple[str, int, str, list[str]]] = []
    for path, doc in snap.docs.items():
        located = [(f.line_no, f.raw, f.links) for f in linking.get(path, ())]
        located += [(link.line_no, link.raw, (link.target,)) for link in doc.index_links]
        for line_no, raw, targets in sorted(located):
            bad = [t for t in dict.fromkeys(targets) if resolve_link(t) not in paths]
            if bad:
                found.append((path, line_no, raw, bad))
    return found


def _relink(match: re.Match[str], moved: Mapping[str, str]) -> str:
    target, bar, label = match.group(1).partition("|")
    new = moved.get(resolve_link(target.strip()))
    if new is None:
        return match.group(0)
    return f"[[{link_target(new)}{bar}{label}]]"
