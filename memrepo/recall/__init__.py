"""Recall: keep the index in step with git and memory_items, search lanes, fuse; and
the prompt context built from it (docs/architecture.md §6, §7).

* :mod:`~memrepo.recall.searcher` is what the engine holds: recall, expand, reindex.
* :mod:`~memrepo.recall.documents` turns folder entries, swarm notes and active items
  into index documents; :mod:`~memrepo.recall.projection` keeps the index reflecting
  HEAD, uncommitted edits and the item store; :mod:`~memrepo.recall.teams` the team
  lane, over the `TeamClones` the engine plugs in.
* :mod:`~memrepo.recall.visibility` is the one place the visibility rules live.
* :mod:`~memrepo.recall.lanes` defines the ``Lane`` protocol a host can implement
  (`MemoryRepo.plug_lane`) and the index lanes (folder, memory, team, swarm).
* :mod:`~memrepo.recall.fusion` merges the lanes' rankings.
* :mod:`~memrepo.recall.context_builder` builds a prompt's memory blocks behind the gate
  (:mod:`~memrepo.recall.gate`); a `ContextSource` (:mod:`~memrepo.recall.context_lines`)
  adds a layer (`MemoryRepo.plug_context_source`).
"""

from memrepo.recall.fusion import Fused, fuse
from memrepo.recall.lanes import IndexLane, Lane, LaneHit
from memrepo.recall.visibility import Visibility

__all__ = ["Fused", "IndexLane", "Lane", "LaneHit", "Visibility", "fuse"]
