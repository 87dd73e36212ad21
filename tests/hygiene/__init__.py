"""Tests for memrepo.hygiene: the screening every producer shares."""
