"""Recall: keep the index in step with git and memory_items, search lanes, fuse.

* :mod:`~memrepo.recall.projection` turns folder entries and active items into index
  documents and keeps the index reflecting HEAD, uncommitted edits and the item store.
* :mod:`~memrepo.recall.visibility` is the one place the visibility rules live.
* :mod:`~memrepo.recall.lanes` defines the ``Lane`` protocol a host can implement and the
  built-in index lanes (folder, memory).
* :mod:`~memrepo.recall.fusion` merges the lanes by weighted reciprocal rank.
"""

from memrepo.recall.fusion import Fused, fuse
from memrepo.recall.lanes import IndexLane, Lane, LaneHit
from memrepo.recall.visibility import Visibility

__all__ = ["Fused", "IndexLane", "Lane", "LaneHit", "Visibility", "fuse"]
