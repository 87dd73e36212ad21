"""Date words for the ``date`` field: when an entry is about, and what date a query names.

An entry's meaning often sits in its date, not its words: "Yep, I went hiking yesterday",
added on 2023-12-30, is the answer to "what did she do on 29 Dec 2023?" (50 of 1,194
missed evidence lines in ``../shared/research/recall.md``). Both sides reduce dates to
the same terms, so the index needs no date arithmetic at query time:

* a day gives its year (``2023``), month name (``december``), year-month (``2023-12``),
  month-day (``12-29``), ISO date (``2023-12-29``) and weekday (``friday``);
* a month gives year, month name and year-month; a year gives the year.

An entry's terms come from its ``added`` date and from the relative dates in its text
(``yesterday``, ``last month``, ``two weeks ago``, ``last Friday``, ``last October``),
resolved against ``added``. A query's terms come from the dates it names (``29 Dec 2023``,
``May 2023``, ``in October``, ``2024``) and its relative dates, resolved against today.
"May", "March" and the short month names count only when capitalised or beside a number:
"what may she like" names no month.
"""

from __future__ import annotations

import re
from datetime import date, timedelta

__all__ = ["due_day", "entry_date_terms", "parse_added", "query_date_terms"]

MONTHS = (
    "january", "february", "march", "april", "may", "june", "july", "august",
    "september", "october", "november", "december",
)  # fmt: skip
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_MONTH_NUMBER = {name: i for i, name in enumerate(MONTHS, 1)}
_MONTH_NUMBER.update({name[:3]: i for i, name in enumerate(MONTHS, 1)})
_MONTH_NUMBER["sept"] = 9
#: Month words that are also everyday words: a month only when capitalised or by a number.
_AMBIGUOUS = frozenset({"may", "march", "jan", "mar", "apr", "jun", "jul", "aug", "sep"})
_NUMBERS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
    "seven": 7, "eight": 8, "nine": 9, "ten": 10, "couple of": 2, "few": 3,
}  # fmt: skip
_UNIT_DAYS = {"day": 1, "week": 7}
_WEEKDAY = "|".join(WEEKDAYS)
_MONTH = "|".join(sorted(_MONTH_NUMBER, key=len, reverse=True))
_COUNT = r"\d{1,3}|" + "|".join(sorted(_NUMBERS, key=len, reverse=True))
_ADDED = re.compile(r"(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?")
_RELATIVE = re.compile(
    rf"\b(?:(?P<yesterday>yesterday|last night)|(?P<tomorrow>tomorrow)"
    rf"|(?P<count>{_COUNT}) (?P<unit>day|week|month|year)s? ago"
    rf"|(?P<dir>last|next|this past) (?P<span>week|month|year|{_WEEKDAY}|{_MONTH})\b)",
)
MAX_QUERY_DATES = 8
"""A query asks for at most this many dates (a pasted calendar stays a bounded query)."""
MAX_TEXT_CHARS = 4000
"""Relative dates are looked for in the first this many characters of an entry."""
_WORD = re.compile(r"[A-Za-z]+|\d{1,4}(?:st|nd|rd|th)?")


def day_terms(day: date) -> list[str]:
    """The terms of one calendar day (see the module docstring)."""
    return [
        *month_terms(day.year, day.month),
        f"{day.month:02d}-{day.day:02d}",
        day.isoformat(),
        WEEKDAYS[day.weekday()],
    ]


def month_terms(year: int, month: int) -> list[str]:
    return [str(year), MONTHS[month - 1], f"{year}-{month:02d}"]


def parse_added(added: str) -> tuple[date | None, list[str]]:
    """An ``added`` value (``YYYY-MM-DD``, ``YYYY-MM`` or ``YYYY``, a time after it is
    ignored): its day when it names one, and its terms. Unreadable values give none."""
    match = _ADDED.match(added.strip())
    if match is None:
        return None, []
    year, month, day = (int(g) if g else 0 for g in match.groups())
    try:
        if day:
            found = date(year, month, day)
            return found, day_terms(found)
        if month:
            date(year, month, 1)  # raises for a month or year out of range
            return None, month_terms(year, month)
    except ValueError:
        return None, []
    return None, [str(year)] if 1 <= year <= 9999 else []


def _shift_months(day: date, months: int) -> tuple[int, int]:
    index = day.year * 12 + day.month - 1 + months
    return index // 12, index % 12 + 1


def _relative_terms(text: str, base: date) -> list[str]:
    """Terms of the relative dates in ``text``, resolved against ``base``."""
    terms: list[str] = []
    for match in _RELATIVE.finditer(text[:MAX_TEXT_CHARS].casefold()):
        try:
            terms.extend(_resolve(match, base))
        except (ValueError, OverflowError):
            continue  # a date out of range names nothing
    return terms


def _resolve(match: re.Match[str], base: date) -> list[str]:
    if match["yesterday"]:
        return day_terms(base - timedelta(days=1))
    if match["tomorrow"]:
        return day_terms(base + timedelta(days=1))
    if match["count"]:
        count = _NUMBERS.get(match["count"]) or int(match["count"])
        unit = match["unit"]
        if unit in _UNIT_DAYS:
            return day_terms(base - timedelta(days=count * _UNIT_DAYS[unit]))
        if unit == "month":
            return month_terms(*_shift_months(base, -count))
        return [str(base.year - count)]
    step = 1 if match["dir"] == "next" else -1
    span = match["span"]
    if span == "week":
        return month_terms(*_shift_months(base + timedelta(days=7 * step), 0))
    if span == "month":
        return month_terms(*_shift_months(base, step))
    if span == "year":
        return [str(base.year + step)]
    if span in WEEKDAYS:
        offset = (base.weekday() - WEEKDAYS.index(span)) % 7 or 7
        return day_terms(base + timedelta(days=offset if step > 0 else -offset))
    month = _MONTH_NUMBER[span]
    year = base.year - (month >= base.month) if step < 0 else base.year + (month <= base.month)
    return month_terms(year, month)


def entry_date_terms(added: str, text: str) -> list[str]:
    """The date terms of an entry: its ``added`` date and the relative dates in its text."""
    day, terms = parse_added(added)
    if day is not None:
        terms.extend(_relative_terms(text, day))
    return list(dict.fromkeys(terms))


def query_date_terms(text: str, today: date | None) -> list[str]:
    """The date terms a query names: absolute dates by their most specific term (a day,
    else a month of a year, else a month or a year), relative dates against ``today``
    (none without it)."""
    words = _WORD.findall(text[:MAX_TEXT_CHARS])
    terms: list[str] = []
    for i, word in enumerate(words):
        month = _month_of(word, words, i)
        if month is None:
            continue
        day = _number_beside(words, i, 1, 31)
        year = _number_beside(words, i, 1000, 2999, reach=3)
        if day and year:
            try:
                terms.append(date(year, month, day).isoformat())
            except ValueError:
                terms.append(f"{year}-{month:02d}")
        elif day:
            terms.append(f"{month:02d}-{day:02d}")
        elif year:
            terms.append(f"{year}-{month:02d}")
        else:
            terms.append(MONTHS[month - 1])
    if not terms:
        terms.extend(w for w in words if len(w) == 4 and w.isdigit() and 1000 <= int(w) <= 2999)
    terms.extend(w.casefold() for w in words if w.casefold() in WEEKDAYS)
    if today is not None:
        for match in _RELATIVE.finditer(text[:MAX_TEXT_CHARS].casefold()):
            try:
                terms.append(_most_specific(_resolve(match, today)))
            except (ValueError, OverflowError):
                continue
    return list(dict.fromkeys(terms))[:MAX_QUERY_DATES]


def _most_specific(terms: list[str]) -> str:
    """The ISO day of a day's terms, else the year-month, else the year."""
    return max(terms, key=lambda t: (t[:1].isdigit(), len(t) if t[:1].isdigit() else 0))


def _month_of(word: str, words: list[str], i: int) -> int | None:
    folded = word.casefold()
    month = _MONTH_NUMBER.get(folded)
    if month is None:
        return None
    beside = _number_beside(words, i, 1, 31) or _number_beside(words, i, 1000, 2999, reach=1)
    if folded in _AMBIGUOUS and not word[0].isupper() and not beside:
        return None
    if folded == "may" and word[0].isupper() and i == 0:
        return None  # "May I ...": a question opening with the modal
    return month


def _number_beside(words: list[str], i: int, low: int, high: int, *, reach: int = 2) -> int:
    """The first number in [low, high] within ``reach`` words of ``words[i]`` (0: none)."""
    for j in (*range(i + 1, i + 1 + reach), *range(i - 1, i - 1 - reach, -1)):
        if 0 <= j < len(words):
            digits = words[j].rstrip("stndrh")
            if digits.isdigit() and low <= int(digits) <= high:
                if low == 1 and len(digits) > 2:
                    continue
                return int(digits)
    return 0


_DUE_IN = re.compile(rf"^in\s+({_COUNT})\s+(day|week|month|year)s?$")
_DUE_DAY_MONTH = re.compile(rf"^(\d{{1,2}})(?:st|nd|rd|th)?\s+({_MONTH})\.?(?:,?\s+(\d{{4}}))?$")
_DUE_MONTH_DAY = re.compile(rf"^({_MONTH})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?(?:,?\s+(\d{{4}}))?$")
DUE_FORMS = "a date like 2026-12-11, 11 December, tomorrow, friday, in 2 weeks"


def due_day(text: str, today: date) -> date | None:
    """The day a due date names, looking forward from `today` (issue #32): an ISO day,
    `today`, `tomorrow`, a weekday (`friday`, `next friday`, `on friday`: the next one
    after today), `in N days|weeks|months|years`, `11 December [2027]` or `December 11`
    (the next one when the year is left out). None when it names none of those."""
    said = " ".join(text.casefold().split())
    said = said.removeprefix("on ").removeprefix("by ").removeprefix("next ")
    try:
        return date.fromisoformat(said)
    except ValueError:
        pass
    if said in ("today", "tomorrow"):
        return today + timedelta(days=0 if said == "today" else 1)
    if said in WEEKDAYS:
        ahead = (WEEKDAYS.index(said) - today.weekday() - 1) % 7 + 1
        return today + timedelta(days=ahead)
    match = _DUE_IN.match(said)
    if match:
        count = int(match.group(1)) if match.group(1).isdigit() else _NUMBERS[match.group(1)]
        unit = match.group(2)
        if unit in _UNIT_DAYS:
            return today + timedelta(days=count * _UNIT_DAYS[unit])
        months = count * (12 if unit == "year" else 1)
        year, month = _shift_months(today, months)
        return _clamped(year, month, today.day)
    for pattern, day_group, month_group in ((_DUE_DAY_MONTH, 1, 2), (_DUE_MONTH_DAY, 2, 1)):
        match = pattern.match(said)
        if match:
            month = _MONTH_NUMBER[match.group(month_group)]
            day = int(match.group(day_group))
            if match.group(3):
                return _valid(int(match.group(3)), month, day)
            found = _valid(today.year, month, day)
            if found is not None and found < today:
                found = _valid(today.year + 1, month, day)
            return found
    return None


def _valid(year: int, month: int, day: int) -> date | None:
    try:
        return date(year, month, day)
    except ValueError:
        return None


def _clamped(year: int, month: int, day: int) -> date:
    """`day` of the month, or its last day (31 January + 1 month is 28/29 February)."""
    for last in (day, 30, 29, 28):
        found = _valid(year, month, min(day, last))
        if found is not None:
            return found
    raise AssertionError("unreachable")  # pragma: no cover
