"""The one-line entry grammar: ``- text [key: value; key: value]``.

Only the last bracket group of a line is metadata, and only when

* it ends the line (trailing whitespace allowed) and is not the end of a ``[[link]]``,
* it holds no other bracket and is not blank,
* every ``;``-separated part is ``key: value``: the key matches ``[A-Za-z][A-Za-z0-9_-]*``,
  the colon is followed by whitespace or ends the part (so ``[http://x]`` stays text).
  Values may be empty (``[key:]``); whitespace around keys and values is not kept.

Anything else leaves the whole body as text. These checks use ``rfind``/``split`` rather
than one big regex, so a 10 MB line costs linear time.

Values never hold ``;``, ``[`` or ``]``: they are written ``%3B``, ``%5B``, ``%5D``. A ``%``
is written ``%25`` only where it is followed by one of the four codes (``3B``, ``5B``,
``5D``, ``25``, any case), which is all decoding needs to stay unambiguous; every other
``%`` is written as it is, so a ``source`` URL with ``%20`` reads the same in any reader of
the format. Decoding turns exactly those four codes back (case-insensitive) and leaves any
other ``%`` sequence alone, so hand-written values such as ``50%`` survive, and files
written when every ``%`` was ``%25`` decode to the same values.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from memrepo.formats.lines import LINE_BREAKS, one_line

__all__ = [
    "KEY_PATTERN",
    "decode_group",
    "escape_value",
    "format_entry",
    "parse_metadata",
    "split_group",
    "split_groups",
    "split_metadata",
    "unescape_value",
]

#: Grammar of a metadata key.
KEY_PATTERN = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")

_ESCAPE = str.maketrans({";": "%3B", "[": "%5B", "]": "%5D", **dict.fromkeys(LINE_BREAKS, " ")})
_CODE = re.compile(r"%(25|3[Bb]|5[Bb]|5[Dd])")
#: A ``%`` that decoding would read as the start of a code.
_AMBIGUOUS_PERCENT = re.compile(r"%(?=25|3[Bb]|5[Bb]|5[Dd])")
_DECODED = {"25": "%", "3B": ";", "5B": "[", "5D": "]"}

#: How a ``key: value`` part as `parse_metadata` accepts it starts: its key, the colon,
#: then whitespace or the part's end (``\s`` is exactly what ``str.isspace``/``str.strip``
#: treat as whitespace). Possessive, so it never backtracks.
_HEAD = r"\s*+[A-Za-z][A-Za-z0-9_-]*+\s*+:(?:\s|;|\Z)"
_FIRST_HEAD = re.compile(_HEAD)
_BAD_HEAD = re.compile(f";(?!{_HEAD})")

PART_NOT_KEY_VALUE = "metadata-like group has a part that is not key: value"
REPEATED_KEY = "metadata group repeats a key; the last value wins"
_KEYS_SEEN: set[str] = set()


def escape_value(value: str) -> str:
    """Encode ``;``, ``[``, ``]`` and a ``%`` that starts a code; line breaks become spaces.

    The ``%`` is escaped first, on the value as given: the codes the other three become
    start with ``%``, so they can never make a raw ``%`` before them look like a code.
    """
    if "%" in value:
        value = _AMBIGUOUS_PERCENT.sub("%25", value)
    return value.translate(_ESCAPE)


def unescape_value(value: str) -> str:
    """Decode ``%25``, ``%3B``, ``%5B``, ``%5D`` (any case) and nothing else."""
    if "%" not in value:
        return value
    return _CODE.sub(lambda m: _DECODED[m.group(1).upper()], value)


def _is_key(key: str) -> bool:
    """Whether ``key`` matches the key grammar; the few keys in use are remembered."""
    if key in _KEYS_SEEN:
        return True
    if not KEY_PATTERN.fullmatch(key):
        return False
    if len(_KEYS_SEEN) < 1024:  # bounded: keys are open, but a memory uses a handful
        _KEYS_SEEN.add(key)
    return True


def parse_metadata(body: str) -> tuple[str, dict[str, str], str | None]:
    """Split ``body`` into text, metadata and a problem message (or ``None``).

    The problem names a trailing group that looks like metadata but breaks the grammar,
    or a key given twice; the line still reads (as text, or with the last value winning).
    This runs once per bullet of every file read, hence the plain string methods.
    """
    stripped = body.rstrip()
    start = stripped.rfind("[") if stripped.endswith("]") else -1
    if start < 0:
        return stripped.lstrip(), {}, None
    inner = stripped[start + 1 : -1]
    if "]" in inner or not inner.strip() or (start and stripped[start - 1] == "["):
        return stripped.lstrip(), {}, None  # nested, blank, or the end of a "[[link]]"
    metadata: dict[str, str] = {}
    bad = repeated = False
    for part in inner.split(";"):
        key, colon, rest = part.partition(":")
        key = key.strip()
        if not colon or (rest and not rest[0].isspace()) or not _is_key(key):
            bad = True
            continue
        value = rest.strip()
        repeated = repeated or key in metadata
        metadata[key] = unescape_value(value) if "%" in value else value
    if bad:
        return stripped.lstrip(), {}, PART_NOT_KEY_VALUE if metadata else None
    return stripped[:start].strip(), metadata, REPEATED_KEY if repeated else None


def split_metadata(body: str) -> tuple[str, dict[str, str]]:
    """Split the text of a bullet (after its marker) into ``(text, metadata)``.

    ``metadata`` is ``{}`` when the line has no metadata group; values are decoded.
    """
    text, metadata, _ = parse_metadata(body)
    return text, metadata


def split_group(body: str) -> tuple[str, str | None]:
    """The text of a bullet and its metadata group still encoded (None without one).

    The same text `parse_metadata` gives, for a fraction of its cost: the group is
    checked by regular expressions and not decoded. A folder-wide pass that needs
    every entry's text but few entries' metadata (a dream) decodes only those, with
    `decode_group`.
    """
    stripped = body.rstrip()
    start = stripped.rfind("[") if stripped.endswith("]") else -1
    if start < 0:
        return stripped.lstrip(), None
    inner = stripped[start + 1 : -1]
    if (start and stripped[start - 1] == "[") or not _is_group(inner):
        return stripped.lstrip(), None
    return stripped[:start].strip(), inner


def split_groups(bodies: Sequence[str]) -> tuple[list[str], list[str | None]]:
    """`split_group` of every body, for the bullets of a whole file at once: the texts
    and the groups, as two lists in the order of `bodies`.

    A dream splits every bullet of the folder, and checking each group was half of that
    cost. `_is_group` decides part by part, so the candidate groups joined by ``;`` pass
    exactly when each does: one check per file instead of one per bullet. When it fails
    (a file with a bracketed remark that is not metadata) every bullet is split alone.
    """
    texts: list[str] = []
    groups: list[str | None] = []
    for body in bodies:
        # The last "[" of the body is the last of `body.rstrip()`, where split_group looks.
        head, bracket, tail = body.rpartition("[")
        if tail[-1:] != "]":
            tail = tail.rstrip()  # whitespace after the group (rare), or no group at all
        if bracket and tail[-1:] == "]" and head[-1:] != "[":
            texts.append(head.strip())
            groups.append(tail[:-1])
        else:
            texts.append(body.strip())
            groups.append(None)
    # filter(None) drops the empty groups with the Nones: an empty group is never one.
    found = ";".join(filter(None, groups))
    if "" in groups or (found and not _is_group(found)):
        split = [split_group(body) for body in bodies]
        return [text for text, _ in split], [group for _, group in split]
    return texts, groups


def _is_group(inner: str) -> bool:
    """Whether the text between a bullet's last ``[`` and its closing ``]`` is a metadata
    group: ``key: value`` parts separated by ``;``.

    A value holds anything but ``;`` and ``]``, so once ``]`` is ruled out a part is
    well formed exactly when it starts like one. Checking only the starts (the first, and
    each one after a ``;``, which the search jumps between) costs far less than matching
    every part whole, and needs no pattern that repeats a group.
    """
    return (
        "]" not in inner
        and _FIRST_HEAD.match(inner) is not None
        and _BAD_HEAD.search(inner) is None
    )


def decode_group(group: str) -> dict[str, str]:
    """The metadata of a group `split_group` returned (a repeated key: the last wins)."""
    metadata: dict[str, str] = {}
    for part in group.split(";"):
        key, _, rest = part.partition(":")
        value = rest.strip()
        metadata[key.strip()] = unescape_value(value) if "%" in value else value
    return metadata


def format_entry(text: str, metadata: Mapping[str, str]) -> str:
    """Write one entry line (without its ending): ``- text [k: v; k2: v2]``.

    Text and values are made one line (every line-break character becomes a space) and
    stripped; that is the only change a read gives back. ``metadata`` must not be empty:
    every machine-written line carries a group, so text a caller supplies can never be
    read back as metadata. Raises ``ValueError`` for an empty mapping or a bad key.
    """
    if not metadata:
        raise ValueError("an entry written by memrepo needs at least one metadata key")
    parts = []
    for key, value in metadata.items():
        if not KEY_PATTERN.fullmatch(key):
            raise ValueError(f"metadata key {key!r} does not match [A-Za-z][A-Za-z0-9_-]*")
        escaped = escape_value(value).strip()
        parts.append(f"{key}: {escaped}" if escaped else f"{key}:")
    body = one_line(text)
    group = "[" + "; ".join(parts) + "]"
    return f"- {body} {group}" if body else f"- {group}"
