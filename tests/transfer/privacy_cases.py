"""Generated import rows that say "private", "public", "about someone else" or nothing
readable, in every spelling the exporters we read write (issue #27).

The cases come from definitions, not from samples: each signal is a base key written in
five key styles (snake, camel, Pascal, kebab, upper), crossed with the value spellings
of its kind, at each nesting level an exporter uses (the row itself, `metadata`, `meta`,
`attributes`, and `attributes` inside `metadata`). Where the definitions come from:

- mem0 keeps a caller's flags in `metadata` and tags every memory with `categories`
  (its defaults include `personal_details`, `family` and `health`; docs.mem0.ai, Custom
  Categories); OpenMemory's export adds `app`, `state` and category objects.
- Record-style exporters write `private`/`is_private`/`isPrivate`, `privacy`,
  `visibility` or `sensitivity` levels, PII flags, and ids of the person a fact is about
  (`contact_id`, `person_id`, `about`, `subject` as an object).
- Booleans come as JSON booleans, strings in any case (`"true"`, `"Yes"`, `"on"`) and
  numbers (`1`, `"1"`).

Each case gets a stable id, and the cases split in two halves by a hash of that id: the
tuning half is what the rule was built against, the held-out half is never tuned on.
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

Expect = Literal["items", "held", "folder"]

#: Keys whose boolean says the row is private (or carries personal data).
FLAG_KEYS = ("private", "is_private", "pii", "contains_pii", "is_sensitive", "confidential")
#: Keys whose word says how far the row may travel.
LEVEL_KEYS = ("privacy", "visibility", "sensitivity", "access_level", "classification")
#: Level keys that often name something else: a word that is no privacy level leaves
#: the row public there (`classification: preference`), other values hold it back.
SOFT_LEVEL_KEYS = ("access_level", "classification")
#: Keys naming the person a row is about (someone other than the user).
PERSON_KEYS = ("contact_id", "person_id", "about", "contact")
#: Keys holding tags or categories.
TAG_KEYS = ("tags", "categories", "labels", "category")

TRUE_VALUES: tuple[object, ...] = (True, "true", "True", "TRUE", "yes", "Yes", 1, "1", "on", "Y")
FALSE_VALUES: tuple[object, ...] = (False, "false", "False", "no", "No", 0, "0", "off")
PRIVATE_LEVELS = ("private", "personal", "restricted", "confidential", "sensitive")
PUBLIC_LEVELS = ("public", "Public", "PUBLIC", "shared", "normal")
PEOPLE: tuple[object, ...] = ("c-17", 42, "ana@example.com", "Ana Lima", "person/ana")
SELVES = ("user", "me", "self", "User", "myself")
PRIVATE_TAGS = ("private", "personal", "health", "finance", "personal_details", "Family")
PUBLIC_TAGS = ("technology", "travel", "user_preferences", "Work")
UNREADABLE: tuple[object, ...] = ("maybe", "sometimes", {"x": 1}, [1, 2], 2, 0.5, "purple")

NESTINGS: tuple[tuple[str, ...], ...] = (
    (),
    ("metadata",),
    ("meta",),
    ("attributes",),
    ("metadata", "attributes"),
)


@dataclass(frozen=True, slots=True)
class Case:
    """One row to import, what must become of it, and the words that must not reach
    git when it is private or held back."""

    id: str
    row: dict[str, object]
    expect: Expect
    marker: str

    @property
    def half(self) -> Literal["tuning", "held-out"]:
        digest = hashlib.sha256(self.id.encode()).digest()
        return "tuning" if digest[0] % 2 == 0 else "held-out"


def spellings(key: str) -> tuple[str, ...]:
    """A snake_case key as exporters write it: snake, camel, Pascal, kebab, upper."""
    words = key.split("_")
    camel = words[0] + "".join(w.title() for w in words[1:])
    return (key, camel, camel[:1].upper() + camel[1:], "-".join(words), key.upper())


def _signals() -> Iterator[tuple[str, str, object, Expect]]:
    """(family, key, value, expected route) before nesting."""
    for key in FLAG_KEYS:
        for spelled in spellings(key):
            for value in TRUE_VALUES:
                yield "flag", spelled, value, "items"
            for value in FALSE_VALUES:
                yield "flag-off", spelled, value, "folder"
            for value in UNREADABLE:
                yield "flag-unreadable", spelled, value, "held"
    for key in LEVEL_KEYS:
        for spelled in spellings(key):
            for word in PRIVATE_LEVELS:
                yield "level", spelled, word, "items"
                yield "level", spelled, word.upper(), "items"
            for word in PUBLIC_LEVELS:
                yield "level-public", spelled, word, "folder"
            for value in UNREADABLE:
                soft = key in SOFT_LEVEL_KEYS and isinstance(value, str)
                yield "level-unreadable", spelled, value, "folder" if soft else "held"
    for spelled in spellings("scope"):
        for word in ("private", "Personal", "PRIVATE"):
            yield "scope", spelled, word, "items"
    for key in PERSON_KEYS:
        for spelled in spellings(key):
            for person in PEOPLE:
                yield "person", spelled, person, "items"
    for spelled in spellings("about"):
        for self_word in SELVES:
            yield "person-self", spelled, self_word, "folder"
    for spelled in ("subject", "Subject"):
        yield "person", spelled, {"type": "person", "name": "Ana Lima"}, "items"
        yield "person", spelled, {"kind": "contact", "id": "c-9"}, "items"
    for key in TAG_KEYS:
        for spelled in spellings(key):
            for tag in PRIVATE_TAGS:
                yield "tag", spelled, [tag] if key != "category" else tag, "items"
                yield "tag", spelled, ["misc", tag.upper()], "items"
            for tag in PUBLIC_TAGS:
                yield "tag-public", spelled, [tag] if key != "category" else tag, "folder"


def _nest(path: tuple[str, ...], key: str, value: object) -> dict[str, object]:
    inner: dict[str, object] = {key: value}
    for name in reversed(path):
        inner = {name: inner}
    return inner


def cases() -> list[Case]:
    """Every generated case, in a stable order."""
    found: dict[str, Case] = {}
    for (family, key, value, expect), path in itertools.product(list(_signals()), NESTINGS):
        ident = f"{family}|{'.'.join(path)}|{key}|{value!r}"
        if ident in found:
            continue
        marker = f"zq{len(found):05d}x"
        row: dict[str, object] = {"memory": f"Fact {marker} door code 4471"}
        row.update(_nest(path, key, value))
        found[ident] = Case(ident, row, expect, marker)
    return list(found.values())


def half(name: Literal["tuning", "held-out"]) -> list[Case]:
    """The cases of one half."""
    return [case for case in cases() if case.half == name]
