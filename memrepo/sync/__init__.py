"""Sync with the user's own remote, team memory repos, and the entry-aware merge they use."""
