"""Memory files no reader can reach: linked from MEMORY.md's Index.

A file is reachable when a chain of `[[links]]` (Index links and links inside entries)
leads to it from MEMORY.md, the same walk `lint` does. Links a rename fix is about to
repair count as already pointing at the new path.
"""

from __future__ import annotations

from collections.abc import Mapping

from memrepo.dreaming.ops import make_op
from memrepo.dreaming.snapshot import ENTRY_POINT, Snapshot
from memrepo.folder.lint import reachable
from memrepo.folder.paths import resolve_link
from memrepo.models.dream import Op


def find_unlisted(snap: Snapshot, moved: Mapping[str, str]) -> list[Op]:
    """One link op per markdown file outside swarm folders that MEMORY.md cannot reach."""
    if ENTRY_POINT not in snap.docs:
        return []
    links: dict[str, list[str]] = {}
    linking = snap.links_by_path()
    for path, doc in snap.docs.items():
        targets = [resolve_link(t) for f in linking.get(path, ()) for t in f.links]
        targets += [resolve_link(link.target) for link in doc.index_links]
        links[path] = [moved.get(t, t) for t in targets]
    seen = reachable(links)
    return [
        make_op(
            "link",
            "unlisted",
            ENTRY_POINT,
            f"{path} is not reachable from MEMORY.md's Index",
            dest=path,
        )
        for path in snap.docs
        if path not in seen
    ]
