"""Weave three versions of a file into the merged lines and the losing lines.

Entries and index links (keyed units) are decided once per key for the whole file (see
:mod:`memrepo.sync.merge_entries`); the weave only decides *where* each surviving unit
goes. Other lines follow git's line merge: a run changed on one side takes that side, a
run changed the same way on both is taken once, and a run changed differently on both
keeps ours on main and theirs in the loser.

In a run where both sides changed, ours' order is kept and each of theirs' new units is
placed after the unit that precedes it in theirs (or before the one that follows it), so
two machines appending entries at the same spot both keep their entries, ours first.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from difflib import SequenceMatcher

from memrepo.sync.merge_diff3 import Region, Unit, regions, same
from memrepo.sync.merge_model import MergeConflict

__all__ = ["Decision", "Woven", "weave"]


@dataclass(frozen=True, slots=True)
class Decision:
    """What one entry or link becomes: its line on main and in the loser (None: gone)."""

    main: bytes | None
    loser: bytes | None
    conflict: MergeConflict | None = None


@dataclass(slots=True)
class Woven:
    """The merged and losing lines, and the conflicts met on the way."""

    main: list[bytes] = field(default_factory=list)
    loser: list[bytes] = field(default_factory=list)
    conflicts: list[MergeConflict] = field(default_factory=list)


# One slot of the output: a keyed unit (looked up in the decisions when written out), or a
# plain line given as (main bytes, loser bytes).
_Slot = tuple[Hashable, None] | tuple[None, tuple[bytes | None, bytes | None]]


def weave(
    path: str,
    base: Sequence[Unit],
    ours: Sequence[Unit],
    theirs: Sequence[Unit],
    decisions: Mapping[Hashable, Decision],
) -> Woven:
    """Merge the three unit sequences; ``decisions`` covers every keyed unit's key."""
    main_slots: list[_Slot] = []
    loser_slots: list[_Slot] = []
    woven = Woven()
    for region in regions(base, ours, theirs):
        if region.stable:
            slots = [_stable_slot(path, b, o, t, woven) for b, o, t in _triples(region)]
            main_slots += slots
            loser_slots += slots
            continue
        main, loser = _unstable(path, region, woven)
        main_slots += main
        loser_slots += loser
    woven.main = _write(main_slots, decisions, loser=False)
    woven.loser = _write(loser_slots, decisions, loser=True)
    woven.conflicts[:0] = [d.conflict for d in decisions.values() if d.conflict is not None]
    return woven


def _triples(region: Region) -> zip[tuple[Unit, Unit, Unit]]:
    return zip(region.base, region.ours, region.theirs, strict=True)


def _stable_slot(path: str, base: Unit, ours: Unit, theirs: Unit, woven: Woven) -> _Slot:
    """A line all three have: keyed units are decided elsewhere; a plain line can still
    differ in its ending, which is merged like any other change."""
    if ours.keyed:
        return (ours.key, None)
    if ours.content == theirs.content or theirs.content == base.content:
        return (None, (ours.content, ours.content))
    if ours.content == base.content:
        return (None, (theirs.content, theirs.content))
    woven.conflicts.append(
        MergeConflict(path, "lines", "a line ending changed on both sides; kept ours")
    )
    return (None, (ours.content, theirs.content))


def _plain(units: Sequence[Unit]) -> list[_Slot]:
    return [(u.key, None) if u.keyed else (None, (u.content, u.content)) for u in units]


def _unstable(path: str, region: Region, woven: Woven) -> tuple[list[_Slot], list[_Slot]]:
    """Main's and the loser's slots for a run that at least one side changed."""
    if same(region.ours, region.base):
        slots = _plain(region.theirs)
        return slots, slots
    if same(region.theirs, region.base) or same(region.ours, region.theirs):
        slots = _plain(region.ours)
        return slots, slots
    plain = [[u for u in side if not u.keyed] for side in (region.base, region.ours, region.theirs)]
    base_plain, ours_plain, theirs_plain = plain
    if same(ours_plain, base_plain) and not same(theirs_plain, base_plain):
        slots = _interleave(region.ours, region.theirs, take_theirs_lines=True)
        return slots, slots
    if same(theirs_plain, base_plain) or same(ours_plain, theirs_plain):
        slots = _interleave(region.ours, region.theirs, take_theirs_lines=False)
        return slots, slots
    first, last = region.base_line + 1, region.base_line + len(region.base)
    where = f"line {first}" if last <= first else f"lines {first}-{last}"
    woven.conflicts.append(
        MergeConflict(
            path,
            "lines",
            f"{where} (not entries) changed differently on both sides; kept ours, "
            "theirs is in the loser",
        )
    )
    main = _interleave(region.ours, region.theirs, take_theirs_lines=False)
    return main, _interleave(region.theirs, region.ours, take_theirs_lines=False)


def _interleave(
    ours: Sequence[Unit], theirs: Sequence[Unit], *, take_theirs_lines: bool
) -> list[_Slot]:
    """Ours' units in ours' order, with theirs' new units placed after their predecessor
    (and after ours' own new units that follow it).

    Plain lines of the two sides are paired by a line diff. With ``take_theirs_lines``
    (ours left the plain lines as in base) theirs' line changes apply: ours' lines theirs
    dropped go, theirs' new lines come in. Otherwise theirs' plain lines are ignored.
    Keyed units come from both sides; which of them survive is decided per key later.
    """
    tokens: list[Hashable] = [u.key if u.keyed else ("ours", i) for i, u in enumerate(ours)]
    theirs_tokens: list[Hashable] = [
        u.key if u.keyed else ("theirs", i) for i, u in enumerate(theirs)
    ]
    dropped = _pair_plain_lines(ours, theirs, tokens, theirs_tokens)
    by_token: dict[Hashable, Unit] = dict(zip(tokens, ours, strict=True))
    out = [t for t in tokens if not (take_theirs_lines and t in dropped)]
    present = set(out)
    theirs_set = set(theirs_tokens)
    anchor = next((out.index(t) for t in theirs_tokens if t in present), len(out))
    for token, unit in zip(theirs_tokens, theirs, strict=True):
        if token in present:
            anchor = out.index(token) + 1
            # Ours' own new units after the same predecessor come first.
            while anchor < len(out) and out[anchor] not in theirs_set:
                anchor += 1
            continue
        if not unit.keyed and not take_theirs_lines:
            continue
        out.insert(anchor, token)
        present.add(token)
        by_token[token] = unit
        anchor += 1
    return _plain([by_token[t] for t in out])


def _pair_plain_lines(
    ours: Sequence[Unit],
    theirs: Sequence[Unit],
    tokens: list[Hashable],
    theirs_tokens: list[Hashable],
) -> set[Hashable]:
    """Give paired plain lines the same token; return ours' plain lines theirs lacks."""
    ours_at = [i for i, u in enumerate(ours) if not u.keyed]
    theirs_at = [i for i, u in enumerate(theirs) if not u.keyed]
    matcher = SequenceMatcher(
        None,
        [ours[i].content for i in ours_at],
        [theirs[i].content for i in theirs_at],
        autojunk=False,
    )
    paired: set[int] = set()
    for a, b, n in matcher.get_matching_blocks():
        for k in range(n):
            theirs_tokens[theirs_at[b + k]] = tokens[ours_at[a + k]]
            paired.add(ours_at[a + k])
    return {tokens[i] for i in ours_at if i not in paired}


def _write(
    slots: Sequence[_Slot], decisions: Mapping[Hashable, Decision], *, loser: bool
) -> list[bytes]:
    """The lines of one variant; every keyed unit appears once, where it is first met."""
    lines: list[bytes] = []
    written: set[Hashable] = set()
    for key, plain in slots:
        if plain is not None:
            line = plain[1] if loser else plain[0]
        else:
            if key in written:
                continue
            written.add(key)
            decision = decisions[key]
            line = decision.loser if loser and decision.conflict else decision.main
        if line is not None:
            lines.append(line)
    # A unit that survives but sat only in runs that were dropped still belongs somewhere.
    for key, decision in decisions.items():
        line = decision.loser if loser and decision.conflict else decision.main
        if key not in written and line is not None:
            lines.append(line)
    return lines
