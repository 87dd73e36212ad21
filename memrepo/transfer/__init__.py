"""Moving memory in and out: encrypted export and restore, and imports from other agents.

`export` and `restore` (one-file archives: git bundle, memory_items rows, local config, in
authenticated chunks) and `importing` (other agents' memory through the normal write
pipeline, one commit). `MemoryRepo` delegates here; the readers of foreign formats are
pure and live in `memrepo.formats.importers`.
"""
