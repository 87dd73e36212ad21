"""The search index: a projection of the memory, never a source of truth.

One Whoosh index (``<root>/.git/memrepo/index``) holds one document per folder, team and
swarm entry and per active memory item. Everything in it is derived: it can always be
rebuilt from git (HEAD of the memory repo and of each team repo, plus uncommitted working
tree files) and from ``memory_items``. So a missing, stale or corrupt index is rebuilt
with an :class:`IndexRebuiltWarning`, never read as "nothing remembered".

This package is the lowest layer of search and the only code that writes the index:

* :mod:`~memrepo.index.analysis` turns text into terms (Unicode words, casefold, Latin
  accent folding, CJK unigrams + bigrams; an unstemmed ``exact`` and an English ``stem``
  field; no stopwords dropped at index time).
* :mod:`~memrepo.index.schema` is the Whoosh schema, ``SCHEMA_VERSION`` and ``IndexDoc``.
* :mod:`~memrepo.index.query` builds all-terms / any-term queries from plain text (user
  text is never parsed as Whoosh syntax).
* :mod:`~memrepo.index.whoosh_door` is the one module that imports Whoosh (pinned; what
  stands on its internals is listed there and checked against it by a property test).
* :mod:`~memrepo.index.store` is ``IndexStore``: open-or-rebuild, one-commit updates,
  bulk loads, filtered search, and the commit each repo's documents reflect; its layers
  are ``_home`` (files, lock, metadata, rebuild), ``_reads`` and ``_writes``.

What to index and when (tree diffs, item changes), recall lanes and fusion live above.
"""

from memrepo.index.errors import IndexLocked, IndexRebuiltWarning, IndexUnavailable
from memrepo.index.query import PlainQuery, SearchQuery, build_query, distinctive_terms
from memrepo.index.schema import SCHEMA_VERSION, IndexDoc
from memrepo.index.store import IndexHit, IndexListener, IndexStore

__all__ = [
    "SCHEMA_VERSION",
    "IndexDoc",
    "IndexHit",
    "IndexListener",
    "IndexLocked",
    "IndexRebuiltWarning",
    "IndexStore",
    "IndexUnavailable",
    "PlainQuery",
    "SearchQuery",
    "build_query",
    "distinctive_terms",
]
