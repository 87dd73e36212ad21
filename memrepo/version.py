"""The package version: one place, read by the packaging metadata (pyproject's dynamic
version), `memrepo --version` and the MCP server's `serverInfo`, without importing the
package root (whose names load the whole API on first use)."""

__version__ = "0.1.0"
