"""Expiry in the index: what has expired is not projected, and the index looks again
when something it holds expires.

An item whose `expires_at` has passed, or a folder entry whose `expires:` date is before
today, may stay in memory_items or the file until retention or a dream removes it; recall
and L1 must not serve it meanwhile. The projection leaves such documents out, and
remembers, in the index's own state (`EXPIRY_KEY`), when each document it did project
expires: the first sync after that moment re-projects that file or item, which leaves it
out. A remembered moment is only a reason to look again, so a stale one (the entry was
edited since) costs a re-read and is never wrong.

A folder entry `expires: D` is live through day D of the clock's time zone (as in L0);
an item lives until its `expires_at` instant.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from datetime import date, datetime, time, timedelta

EXPIRY_KEY = "expiry"
PATH = "path:"
ITEM = "item:"
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


class ExpiryWatch:
    """The moment of one sync, and the expiries seen while projecting in it."""

    def __init__(self, now: datetime) -> None:
        self.now = now
        self.today = now.date().isoformat()
        #: target ("path:<path>" or "item:<id>") -> expiry instant (ISO, aware).
        self.seen: dict[str, str] = {}

    def entry_expired(self, path: str, metadata: Mapping[str, str]) -> bool:
        """True when a folder entry's `expires:` date is past; a future one is noted."""
        expires = metadata.get("expires", "")
        if not _DATE.match(expires):
            return False
        if expires < self.today:
            return True
        try:
            day = date.fromisoformat(expires)
        except ValueError:
            return False
        moment = datetime.combine(day + timedelta(days=1), time(), tzinfo=self.now.tzinfo)
        self._note(PATH + path, moment)
        return False

    def item_expired(self, item_id: str, expires_at: datetime | None) -> bool:
        """True when an item's expiry has come; a future one is noted."""
        if expires_at is None:
            return False
        if expires_at <= self.now:
            return True
        self._note(ITEM + item_id, expires_at)
        return False

    def _note(self, target: str, moment: datetime) -> None:
        stamp = moment.isoformat()
        known = self.seen.get(target)
        if known is None or datetime.fromisoformat(stamp) < datetime.fromisoformat(known):
            self.seen[target] = stamp


def load(raw: str | None) -> dict[str, str]:
    """The remembered expiries (an unreadable record is an empty one: nothing is lost,
    the next full projection writes it again)."""
    if not raw:
        return {}
    try:
        data = json.loads(raw)
    except ValueError:
        return {}
    if not isinstance(data, dict):
        return {}
    return {str(k): str(v) for k, v in data.items() if isinstance(v, str)}


def dump(due: Mapping[str, str]) -> str:
    return json.dumps(dict(sorted(due.items())), separators=(",", ":"))


def split_due(due: Mapping[str, str], now: datetime) -> tuple[dict[str, str], list[str]]:
    """(still pending, targets whose moment has come)."""
    pending: dict[str, str] = {}
    come: list[str] = []
    for target, stamp in due.items():
        try:
            moment = datetime.fromisoformat(stamp)
        except ValueError:
            continue
        if moment.tzinfo is None or moment <= now:
            come.append(target)
        else:
            pending[target] = stamp
    return pending, come
