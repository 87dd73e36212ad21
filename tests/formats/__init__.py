"""Tests of memrepo.formats: golden files and properties of the file format."""
