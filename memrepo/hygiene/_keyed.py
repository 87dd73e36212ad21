"""Vendor credentials known by a keyword in the name they are assigned to (issue #27)."""

from __future__ import annotations

import re

from ._base import Detector, Finder

#: This module's detectors, most specific first.
DETECTORS: tuple[Detector, ...] = ()

#: Each finder's expressions: every match a finder reports is a match of one of them
#: (tests/hygiene/test_prefilter.py reads the needs off them; test_package bounds them).
PATTERNS_OF: dict[Finder, tuple[re.Pattern[str], ...]] = {}
