"""No secret is stored in the index, whatever the document's source.

Documents come from files people edit (a hand edit memrepo refused to commit is still
indexed from the working tree, so recall sees it), from commits people made with plain
git, from team repos and from memory_items. The index is the one writer of its files,
so it screens every stored or indexed string here, once, instead of trusting each
producer: a token never reaches a segment file (a deleted document stays in its segment
until a merge, so deleting the line later would not remove it from disk).

The detector skips the rules a text cannot match (``memrepo.hygiene``'s prefilter), so
ordinary prose costs a few substring checks. Short values repeat across documents (a
path, a workspace, a kind, a date), so they are screened once per process.
"""

from __future__ import annotations

import functools

from memrepo.hygiene import redact_secrets

#: Values at most this long are cached: paths, names, dates, vocabulary.
_CACHED_CHARS = 160


def screen_value(value: str) -> str:
    """``value`` with every secret replaced by its ``[redacted <kind>]`` marker."""
    if not value:
        return value
    if len(value) <= _CACHED_CHARS:
        return _screen_short(value)
    return redact_secrets(value)[0]


@functools.lru_cache(maxsize=8192)
def _screen_short(value: str) -> str:
    return redact_secrets(value)[0]
