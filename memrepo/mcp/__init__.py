"""The memory tools over the Model Context Protocol (stdio), for MCP hosts.

Needs the optional extra: `pip install 'memrepo[mcp]'`. Importing this package does not
import the SDK; `memrepo.mcp.server` does.
"""
