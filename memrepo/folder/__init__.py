"""The memory folder: the only writer of the memory repo's tree, commits and branch
(docs/architecture.md §1-§4).

Nothing is re-exported here: importing a submodule runs this file first, and most
callers need one module, not libgit2's whole write path. What other layers may use:

- `repo`: `MemoryFolder` (open, init, write an entry, forget, undo, log, why, entries)
  and `EntryWrite`, the one-entry write the engine builds; its verbs live in `opening`,
  `writes`, `reads` and `following`, and entry refs (`folder:<path>#<id>`) in
  `entry_refs`;
- `transaction`: the one write transaction every commit goes through (§3), for the
  writers that hold the lock over several steps (dreams, sync, swarm notes);
- `paths`: where a write may land (`check_path`, `normalize_target`, `slugify`);
- `messages`: commit messages and their `Memrepo-*` trailers;
- `trees`: reading trees and blobs of the object database;
- `lint`, `lint_fix`, `lint_checks`: what a person should fix, and what is fixed for them;
- `undo`, `edits`, `confirm`, `history`, `authorship`: one entry's changes and story;
- `branches`, `integrate`, `refs`, `renames`: review branches, sync's merges, ref views,
  git's rename detection;
- `bulk`, `swarm_writes`: many entries in one commit, and the swarm folders' writes.

The rest (`gitstore` and its parts `publish`, `working_branch`, `worktree`, `blob_ids`;
`atomic`, `bulkwrite`, `journal`, `lock`, `objects`, `packs`, `statcache`, `entries`,
`linediff`, `reinforcements`) are the transaction's own parts.
"""
