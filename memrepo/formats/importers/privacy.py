"""Whether an imported row is private, about someone else, or unreadable as to either.

The folder syncs to a remote and teams may read it, so an import must honour every way
an exporter marks a row as not for sharing, not only memrepo's own `"private": true`.
The rule is written for families of spellings rather than for samples:

* Keys are compared folded: case, `_`, `-` and spaces ignored (`is_private`,
  `isPrivate`, `IS-PRIVATE` are one key).
* Flag keys (`private`, `is_private`, `personal`, `sensitive`, `confidential`, `secret`,
  `pii`, `contains_pii`, `has_pii`, `third_party`, ...) hold a boolean in any spelling:
  `true`, `"true"`, `"Yes"`, `"on"`, `"y"`, `1`, `"1"` and their opposites. `public`,
  `is_public`, `shared` and `shareable` are the same flags turned over (`false` is private).
* Level keys (`privacy`, `visibility`, `sensitivity`) hold a word: `private`,
  `personal`, `restricted`, `confidential`, `sensitive`, `secret`, `internal`, `high`,
  ... mark the row private; `public`, `shared`, `normal`, `none`, `low`, ... do not.
  `access_level`, `classification` and `confidentiality` count only with such a word:
  they often name something else (`classification: preference`).
  `scope: private` (or `personal`) is one too; memrepo's own scopes pass through.
* Person keys (`contact_id`, `contact`, `contact_ref`, `person_id`, `person`, `about`,
  `about_person`) name who the row is about: anyone but the user (`user`, `me`, `self`,
  the row's own `user_id`) makes it a contact fact. A `subject` is memrepo's key of a
  single-valued fact, unless it is an object describing a person or contact.
* Tags (`tags`, `categories`, `category`, `labels`, `topics`; strings or `{name: ...}`
  objects, as OpenMemory writes categories) name a private area: `private`, `personal`,
  `personal_details` and `family` (mem0's default categories), `health`, `medical`,
  `finance`, `legal`, ...; a tag `privacy:private` is read as that key and value.
* All of this at any level an exporter nests its extras: the row, `metadata`,
  `metadata_`, `meta`, `attributes`, `properties`, `extra`, and those inside each other.

A privacy key whose value is neither clearly private nor clearly public (`"maybe"`,
`{"x": 1}`, `2`) makes the row unreadable: the import holds it back and reports it,
unless another key already says private (then it goes to memory_items, which is safe).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace

from memrepo.formats.importers.model import Fact, Rejected

_FOLD = re.compile(r"[\s_\-.]+")


def fold(key: str) -> str:
    """A key or word as compared here: lower case without separators."""
    return _FOLD.sub("", key).lower()


def is_privacy_key(key: str) -> bool:
    """Whether a metadata key speaks of privacy or a person (never kept as metadata)."""
    folded = fold(key)
    return folded in _ALL_KEYS


_FLAGS = frozenset(
    fold(k)
    for k in (
        "private", "is_private", "personal", "is_personal", "sensitive", "is_sensitive",
        "confidential", "is_confidential", "secret", "is_secret", "restricted",
        "is_restricted", "pii", "contains_pii", "has_pii", "is_pii", "phi", "contains_phi",
        "third_party", "is_third_party", "do_not_share", "dont_share", "no_share",
        "exclude_from_sync", "local_only",
    )
)  # fmt: skip
_PUBLIC_FLAGS = frozenset(fold(k) for k in ("public", "is_public", "shared", "shareable"))
_LEVELS = frozenset(
    fold(k) for k in ("privacy", "privacy_level", "visibility", "sensitivity", "sensitivity_level")
)
#: Level keys that often name something else (`classification: preference`,
#: `access_level: admin`): a privacy word there counts, any other word is not privacy.
_SOFT_LEVELS = frozenset(
    fold(k) for k in ("access_level", "classification", "data_classification", "confidentiality")
)
_PERSONS = frozenset(
    fold(k)
    for k in (
        "contact", "contact_id", "contact_ref", "person", "person_id", "about",
        "about_person", "about_contact", "subject_person",
    )
)  # fmt: skip
_TAGS = frozenset(fold(k) for k in ("tags", "categories", "category", "labels", "topics"))
_NESTS = frozenset(
    fold(k) for k in ("metadata", "metadata_", "meta", "attributes", "properties", "extra")
)
_LEVEL_IN_OBJECT = frozenset(fold(k) for k in ("level", "value", "mode", "setting", "type"))

_TRUE = frozenset({"true", "yes", "y", "t", "on", "1"})
_FALSE = frozenset({"false", "no", "n", "f", "off", "0", ""})
PRIVATE_WORDS = frozenset(
    fold(w)
    for w in (
        "private", "personal", "restricted", "confidential", "sensitive", "secret",
        "internal", "high", "critical", "highly_confidential", "strictly_confidential",
        "pii", "phi", "only_me", "me_only", "owner", "owner_only",
    )
)  # fmt: skip
PUBLIC_WORDS = frozenset(
    fold(w) for w in ("public", "shared", "normal", "none", "low", "open", "everyone", "default")
)
#: `scope` values that mean private (memrepo's own scopes are global, workspace, ...).
PRIVATE_SCOPES = frozenset({"private", "personal"})
PRIVATE_TAGS = frozenset(
    fold(w)
    for w in (
        "private", "personal", "personal_details", "personal_info", "personal_information",
        "family", "health", "medical", "medication", "mental_health", "finance", "financial",
        "finances", "banking", "money", "legal", "sensitive", "confidential", "secret", "pii",
        "phi", "intimate", "sexuality", "religion", "political", "relationships",
    )
)  # fmt: skip
_SELVES = frozenset(fold(w) for w in ("user", "me", "self", "myself", "the_user", "i", "owner"))
_PERSON_TYPES = frozenset(fold(w) for w in ("person", "contact", "human", "people", "member"))
_ALL_KEYS = _FLAGS | _PUBLIC_FLAGS | _LEVELS | _SOFT_LEVELS | _PERSONS | {"scope", "subject"}
_MAX_DEPTH = 3
_SHOWN = 40


@dataclass(frozen=True, slots=True)
class Privacy:
    """What a row says about who may see it.

    `private`: some key marks it private. `contact`: the third party it is about (its
    id or name), if one is named. `unreadable`: why a privacy key could not be read
    (`key` is its path, as `metadata.private`), when one could not.
    """

    private: bool = False
    contact: str | None = None
    unreadable: str | None = None

    @property
    def held_back(self) -> bool:
        """Whether the import must hold the row back: unreadable, and nothing private."""
        return self.unreadable is not None and not self.private and self.contact is None


def read_privacy(row: Mapping[str, object]) -> Privacy:
    """The privacy of one imported row (see the module docstring)."""
    private, contact, unreadable = False, None, None
    user = row.get("user_id")
    for where, key, value in _fields(row, "", 0):
        verdict = _judge(key, value, user)
        if verdict is None:
            continue
        is_private, person, problem = verdict
        private = private or is_private
        contact = contact or person
        if problem is not None and unreadable is None:
            unreadable = f"`{where}` is {_shown(value)} ({problem})"
    return Privacy(private, contact, unreadable)


def marked(
    found: list[Fact | Rejected], settings: Mapping[str, object], path: str
) -> list[Fact | Rejected]:
    """The facts of one file or block whose own settings (frontmatter, a Letta block's
    fields) may mark it private or about someone: each fact marked as they say, or the
    whole of it held back when they cannot be read."""
    privacy = read_privacy(settings)
    if privacy.held_back:
        return [
            Rejected(
                path,
                None,
                "privacy_unreadable",
                f"its privacy cannot be read: {privacy.unreadable}; held back, not imported "
                "(fix the value to true/false or private/public and import again)",
            )
        ]
    if not privacy.private and privacy.contact is None:
        return found
    return [
        replace(
            item,
            private=item.private or privacy.private,
            contact=item.contact or privacy.contact,
        )
        if isinstance(item, Fact)
        else item
        for item in found
    ]


def _fields(
    row: Mapping[str, object], prefix: str, depth: int
) -> Iterator[tuple[str, str, object]]:
    """(dotted path, folded key, value) of every field of the row and its nests."""
    for raw_key, value in row.items():
        key = fold(str(raw_key))
        where = f"{prefix}{raw_key}"
        if key in _NESTS and isinstance(value, Mapping) and depth < _MAX_DEPTH:
            yield from _fields(value, f"{where}.", depth + 1)
        else:
            yield where, key, value


Verdict = tuple[bool, str | None, str | None]


def _judge(key: str, value: object, user: object) -> Verdict | None:
    """(private, person, problem) for a field that speaks of privacy, else None."""
    if value is None:
        return None
    if key in _FLAGS or key in _PUBLIC_FLAGS:
        flag = as_bool(value)
        if flag is None:
            return False, None, "neither true nor false"
        return (flag if key in _FLAGS else not flag), None, None
    if key in _LEVELS:
        return _level(value)
    if key in _SOFT_LEVELS:
        private, _, problem = _level(value)
        return private, None, None if problem is None or isinstance(value, str) else problem
    if key == "scope":
        return (isinstance(value, str) and fold(value) in PRIVATE_SCOPES), None, None
    if key in _PERSONS:
        return _person(value, user)
    if key == "subject" and isinstance(value, Mapping):
        return _person(value, user)
    if key in _TAGS:
        return _tags(value), None, None
    return None


def as_bool(value: object) -> bool | None:
    """A boolean in any spelling an exporter writes, else None."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    if isinstance(value, str):
        word = value.strip().lower()
        if word in _TRUE:
            return True
        if word in _FALSE:
            return False
    return None


def _level(value: object) -> Verdict:
    if isinstance(value, bool):
        return value, None, None  # `"privacy": true`
    if isinstance(value, str):
        word = fold(value)
        if word in PRIVATE_WORDS:
            return True, None, None
        if word in PUBLIC_WORDS:
            return False, None, None
        return False, None, "not a privacy level memrepo knows"
    if isinstance(value, Mapping):
        levels = [v for k, v in value.items() if fold(str(k)) in _LEVEL_IN_OBJECT]
        if len(levels) == 1 and isinstance(levels[0], str | bool):
            return _level(levels[0])
    if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        verdicts = [_level(v) for v in value]
        if any(v[0] for v in verdicts):
            return True, None, None
        if all(v[2] is None for v in verdicts):
            return False, None, None
    return False, None, "not a privacy level memrepo knows"


def _person(value: object, user: object) -> Verdict | None:
    """A person key: the person it names, unless that is the user themself."""
    if isinstance(value, Mapping):
        kind = value.get("type", value.get("kind"))
        if isinstance(kind, str) and fold(kind) in _SELVES:
            return False, None, None
        if isinstance(kind, str) and fold(kind) not in _PERSON_TYPES:
            return None  # a subject object of another kind: not a person
        for name in ("id", "email", "ref", "name"):
            named = value.get(name)
            if isinstance(named, str | int) and not isinstance(named, bool):
                return _person(named, user)
        return False, None, "names nobody memrepo can file it under"
    if isinstance(value, bool):
        return value, None, None  # `about_contact: true`: someone, unnamed: private
    if isinstance(value, str | int):
        text = " ".join(str(value).split())
        if not text:
            return False, None, None
        if fold(text) in _SELVES or (user is not None and text == str(user)):
            return False, None, None
        return False, text, None  # a contact fact: memory_items by its scope, not private
    if isinstance(value, list):
        names = [v for v in value if isinstance(v, str | int) and not isinstance(v, bool)]
        if len(names) == 1:
            return _person(names[0], user)
        if names:
            return True, None, None  # several people: private, filed under none of them
    return False, None, "names nobody memrepo can file it under"


def _tags(value: object) -> bool:
    """Whether a tag list (or one tag) names a private area."""
    values = value if isinstance(value, list) else [value]
    for tag in values:
        if isinstance(tag, Mapping):
            tag = tag.get("name", tag.get("label"))
        if not isinstance(tag, str):
            continue
        key, _, word = tag.partition(":") if ":" in tag else tag.partition("=")
        if word and (fold(key) in _LEVELS or fold(key) in _FLAGS):
            verdict = _judge(fold(key), word, None)
            if verdict is not None and verdict[0]:
                return True
        if fold(tag) in PRIVATE_TAGS:
            return True
    return False


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= _SHOWN else text[: _SHOWN - 3] + "..."
