"""The Memory Hub: a local web page where a person sees, fixes and reviews what their
agent knows (issue #19; reference design §5a, §5b).

It is a face like the CLI and the MCP server: every page asks `MemoryRepo` and shows
the answer, every button calls one `MemoryRepo` verb; no rule of memory lives here
(`tests/hub/test_hub_layering.py` keeps it so).

- `gate`, `sessions`, `forms`: the gate in front of every request (loopback, Host,
  Origin, the one-time login token and its session cookie, CSRF, body limits, security
  headers).
- `app`: the Starlette app and its routes; `pages/` one module per page.
- `serve`: `memrepo hub` binds 127.0.0.1, prints the login URL and serves (the worker
  thread, the socket and the uvicorn server are `memrepo.serving`'s, shared with
  `memrepo mcp --http`).

Needs the optional extra `memrepo[hub]` (Starlette, Jinja2, uvicorn); nothing is loaded
from the internet: the few lines of script and the style sheet ship in `static/`.
"""
