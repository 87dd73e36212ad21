"""`python -m memrepo.cli`: how git hooks and the merge driver run memrepo (with the
interpreter that installed them, so a virtualenv works without memrepo on PATH)."""

from __future__ import annotations

import sys

from memrepo.cli import main

sys.exit(main())
