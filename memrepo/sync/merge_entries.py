"""Entries and index links as merge units, and what each becomes on main.

Identity follows docs/architecture.md §2 (and ``folder/linediff``): an entry is its
``subject`` when it has one, else a hash of its normalized text; an index link is its
target. The n-th occurrence of an id in a file is its own unit, so a duplicated bullet
stays duplicated.

Per key, three-way: a side that left it as in base takes the other side's version, so an
addition, a removal or an edit on one side wins. When both sides changed the same key:

* both removed it, or made the same change: taken once;
* one removed it, the other edited it: the removal is honoured (the user or a forget
  asked for it), the edit goes to the loser and is reported (``delete_modify``);
* both edited (or both added) it: the version ``by: user`` wins over agent, dream and
  import; at equal trust the newer ``added`` date wins; then ours. When the two say the
  same thing (same normalized text: only metadata, case or spacing differ) this is silent;
  a ``subject`` with two different values is a ``subject`` conflict, the loser kept.

Line endings do not count as a change of an entry: a last line that gained a newline
because the other side appended after it is the same entry.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Mapping
from dataclasses import dataclass

from memrepo.formats import Document, Entry, normalize_text
from memrepo.sync.merge_diff3 import Unit
from memrepo.sync.merge_model import MergeConflict
from memrepo.sync.merge_weave import Decision

__all__ = ["Keyed", "decide_all", "document_units"]

#: ``by`` values that are the user's own word; a bullet without ``by`` was hand-written.
USER_BY = frozenset({"", "user"})
_SHOWN = 60


@dataclass(frozen=True, slots=True)
class Keyed:
    """A keyed unit's line and, for an entry, the decoded entry (None for a link)."""

    content: bytes
    entry: Entry | None


def document_units(doc: Document) -> tuple[list[Unit], dict[Hashable, Keyed]]:
    """The file's lines as units, and its entries and links by key."""
    entries = {entry.line_no: entry for entry in doc.entries}
    links = {link.line_no: link.target for link in doc.index_links}
    seen: Counter[Hashable] = Counter()
    units: list[Unit] = []
    keyed: dict[Hashable, Keyed] = {}
    for line_no, line in enumerate(doc.lines):
        content = (line.text + line.ending).encode("utf-8", "surrogatepass")
        entry = entries.get(line_no)
        if entry is not None:
            ident: Hashable = ("entry", entry.id)
        elif line_no in links:
            ident = ("link", links[line_no])
        else:
            units.append(Unit(("line", content), content))
            continue
        key = (ident, seen[ident])
        seen[ident] += 1
        units.append(Unit(key, content, keyed=True))
        keyed[key] = Keyed(content, entry)
    return units, keyed


def decide_all(
    path: str,
    base: Mapping[Hashable, Keyed],
    ours: Mapping[Hashable, Keyed],
    theirs: Mapping[Hashable, Keyed],
) -> dict[Hashable, Decision]:
    """A decision for every key any side has."""
    keys = dict.fromkeys([*base, *ours, *theirs])
    return {k: _decide(path, base.get(k), ours.get(k), theirs.get(k)) for k in keys}


def _text(side: Keyed | None) -> bytes | None:
    return None if side is None else side.content.rstrip(b"\r\n")


def _decide(path: str, base: Keyed | None, ours: Keyed | None, theirs: Keyed | None) -> Decision:
    b, o, t = _text(base), _text(ours), _text(theirs)
    if o == t or t == b:
        return _taken(ours)
    if o == b:
        return _taken(theirs)
    if ours is None or theirs is None:
        edited = theirs if ours is None else ours
        assert edited is not None
        remover, editor = ("ours", "theirs") if ours is None else ("theirs", "ours")
        detail = (
            f"{_describe(edited)} was removed by {remover} and changed by {editor}; "
            "the removal is kept, the change is in the loser"
        )
        return Decision(None, edited.content, MergeConflict(path, "delete_modify", detail))
    return _clash(path, ours, theirs)


def _taken(side: Keyed | None) -> Decision:
    content = None if side is None else side.content
    return Decision(content, content)


def _clash(path: str, ours: Keyed, theirs: Keyed) -> Decision:
    """Both sides changed (or both added) the same key differently."""
    if ours.entry is None or theirs.entry is None:
        detail = f"{_describe(ours)} changed differently on both sides; kept ours"
        return Decision(ours.content, theirs.content, MergeConflict(path, "lines", detail))
    ours_wins, why = _prefer(ours.entry, theirs.entry)
    winner, loser = (ours, theirs) if ours_wins else (theirs, ours)
    same_fact = normalize_text(ours.entry.text) == normalize_text(theirs.entry.text)
    if same_fact:
        return Decision(winner.content, winner.content)
    side = "ours" if ours_wins else "theirs"
    detail = (
        f"subject {ours.entry.metadata.get('subject', '')!r} changed on both sides: "
        f"kept {side} {_shown(winner.entry)!r} ({why}); "
        f"{_shown(loser.entry)!r} is in the loser"
    )
    return Decision(winner.content, loser.content, MergeConflict(path, "subject", detail))


def _prefer(ours: Entry, theirs: Entry) -> tuple[bool, str]:
    """Whether ours wins, and why: trust first, then the newer ``added``, then ours."""
    ours_by, theirs_by = ours.metadata.get("by", ""), theirs.metadata.get("by", "")
    ours_user, theirs_user = ours_by in USER_BY, theirs_by in USER_BY
    if ours_user != theirs_user:
        loser_by = theirs_by if ours_user else ours_by
        return ours_user, f"by: user outranks by: {loser_by}"
    ours_added, theirs_added = ours.metadata.get("added", ""), theirs.metadata.get("added", "")
    if ours_added != theirs_added:
        newer = max(ours_added, theirs_added)
        return ours_added == newer, f"newer, added {newer}"
    return True, "same trust and date: ours kept"


def _shown(entry: Entry | None) -> str:
    text = entry.text if entry is not None else ""
    return text if len(text) <= _SHOWN else text[: _SHOWN - 1] + "…"


def _describe(side: Keyed) -> str:
    if side.entry is None:
        return "index link " + repr(side.content.decode("utf-8", "replace").strip())
    subject = side.entry.metadata.get("subject")
    return f"subject {subject!r}" if subject else f"entry {_shown(side.entry)!r}"
