"""`memrepo mcp --http` against the official MCP conformance suite
(npm `@modelcontextprotocol/conformance`), every server scenario that applies to it.

`.ci/run` installs the suite pinned into `.ci/conformance/` (0.1.10: the newest, 0.1.16, needs
Node.js 22's `fs.globSync`, and CI has Debian's Node.js 20); one on PATH works too.
Without Node.js or the registry the test skips and says so.

The suite's other server scenarios test its own reference server: they call tools,
resources and prompts named `test_*` (`tools-call-*`, `resources-read-*`,
`resources-templates-read`, `prompts-get-*`, `json-schema-2020-12`,
`elicitation-*`), or methods of capabilities memrepo does not declare (`logging/setLevel`,
`completion/complete`, `resources/subscribe`; the suite calls them regardless), and
`server-sse-polling` holds no check. memrepo answers each of those with the protocol's
own error (-32602 for an unknown name, -32601 for a method it does not serve).

The suite speaks HTTP only (`server --url`), so stdio is not run through it; the SDK
client tests (tests/test_mcp_surface.py) and the Inspector's cover stdio.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("mcp", reason="the MCP SDK is the optional extra memrepo[mcp]")

from memrepo import MemoryRepo

pytestmark = [pytest.mark.integration, pytest.mark.slow]

PROJECT = Path(__file__).resolve().parents[1]
PINNED = PROJECT / ".ci" / "conformance" / "node_modules" / ".bin" / "conformance"
#: The scenarios any server is held to (the rest: see the module docstring).
#: `server-sse-multiple-streams` sends concurrent POSTs on one session: many agents on
#: one memory (issue #28).
APPLY = (
    "server-initialize", "ping", "tools-list", "resources-list", "prompts-list",
    "server-sse-multiple-streams",
)  # fmt: skip


def suite() -> str:
    found = str(PINNED) if PINNED.exists() else shutil.which("conformance")
    if found is None or shutil.which("node") is None:
        pytest.skip("the MCP conformance suite is not installed (.ci/run installs it with npm)")
    return found


@pytest.fixture
def served(tmp_path: Path) -> Iterator[str]:
    """A `memrepo mcp --http` process on a free loopback port; its URL."""
    root = tmp_path / "mem"
    with MemoryRepo.init(root) as repo:
        repo.remember("The conformance suite checks MCP servers", by="user")
    launch = [sys.executable, "-m", "memrepo.cli", "--repo", str(root), "mcp", "--http"]
    env = {**os.environ, "PYTHONPATH": str(PROJECT)}
    env.pop("MEMREPO_MCP_TOKEN", None)
    process = subprocess.Popen(
        [*launch, "--port", "0"], stderr=subprocess.PIPE, stdout=subprocess.DEVNULL,
        stdin=subprocess.DEVNULL, text=True, env=env, start_new_session=True,
    )  # fmt: skip
    assert process.stderr is not None
    try:
        line = process.stderr.readline()
        assert "serving http://" in line, line
        yield line.split("serving ", 1)[1].split()[0]
    finally:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=30)
        process.stderr.close()


@pytest.mark.parametrize("scenario", APPLY)
def test_every_scenario_that_applies_passes(served: str, scenario: str) -> None:
    done = subprocess.run(
        [suite(), "server", "--url", served, "--scenario", scenario],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    said = done.stdout + done.stderr
    assert done.returncode == 0 and "0 failed" in said and "Passed: 0/" not in said, said[-3000:]
