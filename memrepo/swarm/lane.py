"""How swarm notes enter the search index: their own lane, seen only inside the swarm.

The projection reads swarm note files like any memory file; this turns each document
into a swarm document: lane `swarm`, ref `swarm:<folder>:<file>#<id>`, and the audience
`swarm:<folder>`, which only a reader whose task belongs to that swarm is allowed.
"""

from __future__ import annotations

from dataclasses import replace

from memrepo.index import IndexDoc
from memrepo.swarm.paths import audience, note_ref, split_note_path

__all__ = ["split_note_path", "swarm_doc"]


def swarm_doc(doc: IndexDoc, name: str, file: str) -> IndexDoc:
    """`doc` (read from `swarms/<name>/<file>`) as a document of the swarm lane."""
    entry_id = doc.ref.rpartition("#")[2]
    return replace(doc, lane="swarm", ref=note_ref(name, file, entry_id), audience=audience(name))
