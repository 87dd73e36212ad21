"""Refs a person can type (issue #31): a unique prefix of an entry's id works wherever a
ref is taken, as git takes a short commit id.

`folder:MEMORY.md#5879` names the entry of MEMORY.md whose id starts `5879`; a bare
prefix of at least six hex digits (`587981`) names the one entry or memory item whose
id starts so. A prefix that fits several is an error listing them; one that fits
nothing is left as typed, so the verb says "not found" in its own words (and a ref
whose file the reader may not see is still "not found" after it is made whole).
"""

from __future__ import annotations

import re

from memrepo.errors import InvalidArgument
from memrepo.folder.repo import MemoryFolder, make_ref, parse_ref
from memrepo.items.store import ItemStore
from memrepo.layout import ITEM_REF_PREFIX

#: The shortest id prefix taken inside a named file, and the shortest taken alone.
MIN_IN_FILE = 4
MIN_BARE = 6
_BARE = re.compile(rf"[0-9a-f]{{{MIN_BARE},}}")


def resolve_ref(ref: str, folder: MemoryFolder, items: ItemStore | None) -> str:
    """`ref` made whole (see the module docstring)."""
    typed = ref.strip()
    if "#" in typed and not typed.startswith(("team:", "swarm:", ITEM_REF_PREFIX)):
        return _in_file(typed, folder)
    if _BARE.fullmatch(typed):
        return _anywhere(typed, folder, items)
    return ref


def _in_file(ref: str, folder: MemoryFolder) -> str:
    path, wanted = parse_ref(ref)
    try:
        ids = [entry.id for entry in folder.entries(path)]
    except (OSError, ValueError):
        return ref
    if wanted in ids or len(wanted) < MIN_IN_FILE:
        return ref
    return _one(ref, [make_ref(path, i) for i in ids if i.startswith(wanted)])


def _anywhere(prefix: str, folder: MemoryFolder, items: ItemStore | None) -> str:
    found = [entry.ref for entry in folder.entries() if entry.id.startswith(prefix)]
    if items is not None:
        found += [ITEM_REF_PREFIX + i for i in items.ids_starting(prefix, limit=3)]
    return _one(prefix, found)


def _one(typed: str, found: list[str]) -> str:
    """The one ref found. Several is an error that counts them without naming them: a
    reader must not learn the refs of files it may not see from a guess."""
    if len(found) > 1:
        raise InvalidArgument(
            f"{typed} is ambiguous: it starts {len(found)} ids; give more characters"
        )
    return found[0] if found else typed
