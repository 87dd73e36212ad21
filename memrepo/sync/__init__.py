"""Sync with the user's own remote, team memory repos, and the entry-aware merge they use.

Its public surface (what the engine's sync verbs call; docs/architecture.md §9):

* :mod:`~memrepo.sync.api`: sync, remote, status, team and conflict functions over one
  memory folder, the rules of which live in the modules below.
* :mod:`~memrepo.sync.settings`: the confirmed private remote, credentials, `origin`.
* :mod:`~memrepo.sync.service`: one sync run (commit pending edits, fetch, merge entry by
  entry, push main, fetch the teams).
* :mod:`~memrepo.sync.teams`: read-only team clones (fetch, read, `LocalTeamClones` for
  recall's team lane); :mod:`~memrepo.sync.team_context` their L0 layer.
* :mod:`~memrepo.sync.integration` and :mod:`~memrepo.sync.unsafe`: merging the
  remote's main (sync and clone), refusing symlinks, submodules and other non-files.
* :mod:`~memrepo.sync.conflicts`: conflict branches, shown and settled.
* :mod:`~memrepo.sync.hooks` and :mod:`~memrepo.sync.driver`: a plain `git pull` merges
  like sync (merge driver) and hand commits are checked (pre-commit).
* ``merge*``, :mod:`~memrepo.sync.treemerge`: the three-way, entry-aware merge itself.
"""
