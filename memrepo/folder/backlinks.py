"""Which lines of the folder link to a file: the `[[links]]` the formats layer parsed,
read the other way round (issue #31: a file's page in the Hub lists them).

Read as the folder is on disk, as `MemoryFolder.entries` reads it (a person's uncommitted
edit counts): the entries whose text holds a `[[link]]` to the file, then MEMORY.md's
Index lines that list it. A line linking to its own file is not a backlink.
"""

from __future__ import annotations

from memrepo.errors import FormatError
from memrepo.folder.paths import resolve_link
from memrepo.folder.repo import MemoryFolder
from memrepo.formats import parse
from memrepo.layout import ENTRY_POINT
from memrepo.models.backlinks import Backlink


def backlinks(folder: MemoryFolder, path: str) -> list[Backlink]:
    """The lines of other files that link to `path` (a path from the memory root), in
    file and line order, MEMORY.md's Index last."""
    found = [
        Backlink(path=entry.path, line=entry.line, text=entry.text, ref=entry.ref)
        for entry in folder.entries()
        if entry.path != path and any(resolve_link(target) == path for target in entry.links)
    ]
    if path == ENTRY_POINT:
        return found
    data = folder.store.read_worktree(ENTRY_POINT)
    try:
        index = parse(data, ENTRY_POINT).index_links if data is not None else []
    except FormatError:  # an unreadable MEMORY.md lists nothing (lint reports it)
        index = []
    found += [
        Backlink(path=ENTRY_POINT, line=link.line_no + 1, text=link.raw.strip())
        for link in index
        if resolve_link(link.target) == path
    ]
    return found
