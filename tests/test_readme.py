"""Every command and Python block of README.md runs, the way a new user would run it.

What counts as a README command: every line of a ```sh or ```bash block (a line ending in
`\\` goes on on the next; comment-only lines are comments), and every code span naming
`memrepo` in the CLI column of a table. Every fenced block must say its language, so
nothing escapes by being unmarked; ```json blocks (host configuration) are parsed and
their server commands started, ```text blocks are output samples and layouts.

Each `## ` section runs in a sandbox of its own, through `bash` as typed:

* an empty home (`HOME`, so `~/agent-memory` is the sandbox's), a temporary folder, and a
  git configuration of its own (a fixed identity, nothing of this machine's);
* this interpreter's `memrepo` and `python` first on `PATH`;
* the README's remotes, `git@github.com:me/agent-memory.git` and
  `https://git.example.com/acme/platform-memory.git`, rewritten by git's own
  `url.<base>.insteadOf` to bare repositories on disk, so `remote set`, `sync`, `clone`,
  `team add` and `git pull` run exactly as written against real remotes;
* the sections after the first start from `memrepo init ~/agent-memory`.

A command must exit 0 (a server, `memrepo mcp`, must answer an MCP `initialize`). The
README's notation is turned into shell by one small table (`NOTATION`): a `[...]` group
is optional and is run included; `COMMIT`, `REF`, `ID`, `QUERY`, `memory:ID` and a
review branch name stand for values the sandbox holds at that moment. What a command
needs first that no earlier README line makes (a folder to tidy, another machine, the
import fixtures) is made by `BEFORE` and `SECTION_SETUP`; what is not run at all is in
`NOT_RUN`, each with the reason. A hook, a notation or an exemption that no longer
matches the README fails the test, so none of them can go stale.

Python blocks run the same way, each in its own sandbox as a fresh `python` process
after the README's first block (which defines `root` and `repo`), so each must be
complete with that alone; `CLAIMS` checks that a block did what its comments say.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import Any

import pytest

from memrepo.mcp.http import DEFAULT_PORT

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
FIXTURES = ROOT / "fixtures" / "imports"
BIN = Path(sys.executable).parent
TIMEOUT = 300.0
LANGUAGES = {"sh", "bash", "python", "json", "text"}
SHELLS = {"sh", "bash"}
OWN_REMOTE = "git@github.com:me/agent-memory.git"
TEAM_REMOTE = "https://git.example.com/acme/platform-memory.git"
PASSPHRASE = "correct horse battery staple"
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "readme-test", "version": "1"},
    },
}

#: README commands this test does not run, and why.
NOT_RUN = {
    "python3 -m venv .venv && . .venv/bin/activate && pip install -e '.[test]' "
    "&& python -m pytest -q -n auto": "the whole suite, which this test is part of: "
    "`.ci/run` makes a fresh venv, installs '.[test]' and ends with exactly "
    "`python -m pytest -q -n auto` (test_the_test_command_is_what_the_gate_runs)",
    "python3 -m venv .venv && . .venv/bin/activate && pip install . && memrepo demo": "run "
    "verbatim in a copy of this tree by test_the_first_command_works_in_a_fresh_venv "
    "(slow: a real pip install)",
    "pip install '.[meaning]'": "the test extra installs the meaning extra, so this suite "
    "runs with it; the model it ships is the one `memrepo meaning on` loads below",
    "claude mcp add --scope user memrepo -- memrepo --repo ~/agent-memory mcp --workspace "
    '"Web shop"': "Claude Code's own CLI (not installed here); the memrepo command it "
    "registers, after `--`, is started and must answer an MCP initialize",
    "claude mcp add --transport http --scope user memrepo http://127.0.0.1:8765/mcp "
    '--header "Authorization: Bearer $(cat ~/.memrepo-token)"': "Claude Code's own CLI "
    "(not installed here); the address and header it registers are the ones "
    "`memrepo mcp --http` is checked to serve and require",
}


# --- the README as data ---------------------------------------------------------------


@dataclass(frozen=True)
class Block:
    lang: str
    line: int
    text: str
    section: str


@dataclass(frozen=True)
class Command:
    text: str
    line: int
    section: str


def _block_id(block: Block) -> str:
    return f"README.md:{block.line}"


def readme_text() -> str:
    return README.read_text(encoding="utf-8")


def _section_at(text: str, offset: int) -> str:
    heads = list(re.finditer(r"^## (.+)$", text[:offset], re.MULTILINE))
    return heads[-1].group(1) if heads else "(top)"


def blocks() -> list[Block]:
    text = readme_text()
    found = []
    for m in re.finditer(r"^```(\S*)\n(.*?)^```$", text, re.MULTILINE | re.DOTALL):
        line = text[: m.start()].count("\n") + 1
        found.append(Block(m.group(1), line, m.group(2), _section_at(text, m.start())))
    return found


def _block_commands(block: Block) -> Iterator[Command]:
    pending, start = "", 0
    for number, raw in enumerate(block.text.splitlines(), start=block.line + 1):
        line = raw.strip()
        if not pending and (not line or line.startswith("#")):
            continue
        start = start or number
        if line.endswith("\\"):
            pending += line[:-1].rstrip() + " "
            continue
        yield Command(pending + line, start, block.section)
        pending, start = "", 0


def _table_commands(text: str) -> Iterator[Command]:
    column = None
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.startswith("|"):
            column = None
            continue
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
        if column is None:
            column = cells.index("CLI") if "CLI" in cells else -1
            continue
        if column < 0 or column >= len(cells) or set(cells[0]) <= {"-"}:
            continue
        offset = len("\n".join(text.splitlines()[: number - 1]))
        for span in re.findall(r"`([^`]+)`", cells[column]):
            if re.search(r"(^|\| )memrepo ", span.replace("\\|", "|")):
                yield Command(span.replace("\\|", "|"), number, _section_at(text, offset))


def commands() -> list[Command]:
    """Every README command in document order (blocks and tables interleaved)."""
    text = readme_text()
    found = list(_table_commands(text))
    for block in blocks():
        if block.lang in SHELLS:
            found.extend(_block_commands(block))
    return sorted(found, key=lambda c: c.line)


def _shell_comment(command: str) -> str:
    """The command without a trailing `# comment` (bash drops it too; hooks match on it)."""
    return re.sub(r"\s+#\s.*$", "", command).strip()


# --- real remotes and a model ---------------------------------------------------------


def _git(*args: str, cwd: Path | None = None, env: dict[str, str] | None = None) -> str:
    return subprocess.run(
        ["git", *args], cwd=cwd, env=env, check=True, capture_output=True, text=True
    ).stdout


#: What the stand-in Claude does with the README's memory tool: one file, then a word.
CLAUDE_CREATES = {
    "command": "create",
    "path": "/memories/deploys.md",
    "file_text": "- The user deploys on Fridays\n",
}
CLAUDE_SAYS = "Noted: you deploy on Fridays."


def _claude_turn(request: dict[str, Any], results: list[dict[str, Any]]) -> dict[str, Any]:
    """The Messages API's answer: a memory tool call first, then text once the runner
    sent its result back (which `results` keeps)."""
    last = request["messages"][-1]["content"]
    sent = [b for b in last if isinstance(b, dict) and b.get("type") == "tool_result"]
    results.extend(sent)
    content: list[dict[str, Any]] = (
        [{"type": "text", "text": CLAUDE_SAYS}]
        if sent
        else [{"type": "tool_use", "id": "toolu_1", "name": "memory", "input": CLAUDE_CREATES}]
    )
    return {
        "id": "msg_1", "type": "message", "role": "assistant", "model": request["model"],
        "content": content, "stop_reason": "end_turn" if sent else "tool_use",
        "stop_sequence": None, "usage": {"input_tokens": 1, "output_tokens": 1},
    }  # fmt: skip


class ModelStub:
    """An OpenAI-compatible chat completions endpoint that proposes nothing, and, at
    `/v1/messages`, a Claude that uses the memory tool once (`_claude_turn`)."""

    def __init__(self) -> None:
        self.requests = 0
        self.tool_results: list[dict[str, Any]] = []
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers["Content-Length"]))
                stub.requests += 1
                if self.path.startswith("/v1/messages"):
                    self._answer(json.dumps(_claude_turn(json.loads(raw), stub.tool_results)))
                    return
                content = json.dumps({"ops": []})
                self._answer(
                    json.dumps(
                        {
                            "id": "x",
                            "object": "chat.completion",
                            "choices": [
                                {
                                    "index": 0,
                                    "message": {"role": "assistant", "content": content},
                                    "finish_reason": "stop",
                                }
                            ],
                        }
                    )
                )

            def _answer(self, text: str) -> None:
                body = text.encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format: str, *args: Any) -> None:
                return

        self.server = HTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        self.url = f"http://127.0.0.1:{self.server.server_port}/v1"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join()


# --- the sandbox ----------------------------------------------------------------------


@dataclass
class Sandbox:
    """One user's machines: homes, a temporary folder, the remotes, the last outputs."""

    base: Path
    model: ModelStub
    home: Path = field(init=False)
    cwd: Path = field(init=False)
    outputs: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.remotes = self.base / "remotes"
        self.remotes.mkdir()
        self.tmp = self.base / "tmp"
        self.tmp.mkdir()
        _git("init", "-q", "--bare", "-b", "main", str(self.remotes / "agent-memory.git"))
        self._publish_team()
        self.machine("desktop")

    def machine(self, name: str) -> None:
        """Switch to another machine of the same user: its own home, the same remotes."""
        self.home = self.base / name
        self.home.mkdir(exist_ok=True)
        config = self.home / ".gitconfig"
        config.write_text(
            "[user]\n\tname = Ana Example\n\temail = ana@example.com\n"
            "[init]\n\tdefaultBranch = main\n"
            f'[url "{self.remotes / "agent-memory.git"}"]\n\tinsteadOf = {OWN_REMOTE}\n'
            f'[url "{self.remotes / "platform-memory.git"}"]\n\tinsteadOf = {TEAM_REMOTE}\n'
        )
        self.cwd = self.home

    def env(self) -> dict[str, str]:
        return {
            "HOME": str(self.home),
            "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}",
            "TMPDIR": str(self.tmp),
            "GIT_CONFIG_GLOBAL": str(self.home / ".gitconfig"),
            "GIT_CONFIG_NOSYSTEM": "1",
            "GIT_TERMINAL_PROMPT": "0",
            "GIT_EDITOR": "true",
            "LANG": "C.UTF-8",
            # The passphrase a person would type at the prompt (there is no terminal here).
            "MEMREPO_PASSPHRASE": PASSPHRASE,
            "MEMREPO_DREAM_MODEL": "readme-test-model",
            # The Anthropic SDK of "Claude's memory tool" talks to the stand-in.
            "ANTHROPIC_BASE_URL": self.model.url.removesuffix("/v1"),
            "ANTHROPIC_API_KEY": "readme-test-key",
        }

    @property
    def memory(self) -> Path:
        return self.home / "agent-memory"

    def _publish_team(self) -> None:
        """What the platform team did: a memory repo pushed to their remote's main."""
        bare = self.remotes / "platform-memory.git"
        _git("init", "-q", "--bare", "-b", "main", str(bare))
        work = self.base / "teammate"
        work.mkdir()
        who = {"NAME": "Teammate", "EMAIL": "teammate@example.com"}
        env = dict(os.environ)
        env.update(
            {f"GIT_{role}_{k}": v for role in ("AUTHOR", "COMMITTER") for k, v in who.items()}
        )
        _git("init", "-q", "-b", "main", str(work), env=env)
        (work / "MEMORY.md").write_text(
            "# Memory\n\n- The platform team deploys on Tuesdays [by: user]\n\n## Index\n"
        )
        _git("add", "-A", cwd=work, env=env)
        _git("commit", "-q", "-m", "team memory", cwd=work, env=env)
        _git("push", "-q", str(bare), "main", cwd=work, env=env)

    def sh(self, command: str, *, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
        """Run one line in bash where the last one left off (a `cd` carries over)."""
        where = self.base / ".cwd"
        script = f"{command}\n__rc=$?\npwd > {shlex.quote(str(where))}\nexit $__rc\n"
        done = subprocess.run(
            ["bash", "-c", script],
            cwd=self.cwd,
            env=self.env(),
            input=stdin if stdin is not None else "",
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
            check=False,
        )
        if where.exists():
            self.cwd = Path(where.read_text().strip())
        self.outputs.append(done.stdout)
        return done

    def ok(self, command: str, **kwargs: Any) -> str:
        done = self.sh(command, **kwargs)
        assert done.returncode == 0, f"{command}\n{done.stdout}\n{done.stderr}"
        return done.stdout

    def commit_by_hand(self, text: str, message: str = "hand edit") -> None:
        """What a person does: edit MEMORY.md in an editor and commit it with git."""
        memory = self.memory / "MEMORY.md"
        before, index = memory.read_text().split("## Index", 1)
        memory.write_text(before.rstrip("\n") + "\n" + text + "\n\n## Index" + index)
        self.ok(f"git -C {shlex.quote(str(self.memory))} commit -qam {shlex.quote(message)}")


# --- what the README's notation stands for ---------------------------------------------


def _newest_item(box: Sandbox) -> str:
    items = json.loads(box.ok("memrepo items list --private --json"))
    assert items, "no README command before this one wrote a memory item"
    newest = max(items, key=lambda item: item["created_at"])
    return "memory:" + str(newest["id"])[:6]  # the shortest prefix the README says works


def _newest_review(box: Sandbox) -> str:
    reviews = json.loads(box.ok("memrepo review list --json"))
    assert reviews, "no review branch to show"
    return str(max(r["name"] for r in reviews))


def _oldest_held(box: Sandbox) -> str:
    """The id of the held write that has waited longest (`memrepo pending` lists it
    first)."""
    folder = box.memory / ".git" / "memrepo" / "held"
    waiting = [json.loads(path.read_text()) for path in folder.glob("*.json")]
    return str(min(waiting, key=lambda w: w["held_at"])["id"])


NOTATION: dict[str, Callable[[Sandbox], str]] = {
    "memory:ID": _newest_item,
    "HELD": _oldest_held,
    "dream/2026-03-01-1": _newest_review,
    "COMMIT": lambda box: box.ok(f"git -C {box.memory} rev-parse --short=10 HEAD").strip(),
    "REF": lambda box: "mail:ana@example.com",
    "ID": lambda box: "t-42",
    "QUERY": lambda box: "pnpm",
    "http://127.0.0.1:8080/v1": lambda box: box.model.url,
}


def _literal(text: str) -> Callable[[re.Match[str]], str]:
    """A replacement for `re.sub` that is `text` as it is (no backslash escapes)."""
    return lambda _: text


def expand(command: str, box: Sandbox) -> str:
    """The README command as shell: optional groups included, placeholders filled."""
    shell = re.sub(r"(?<=\s)\[(--[^\]]+)\]", r"\1", command)
    for token, value in NOTATION.items():
        pattern = re.escape(token) if not token.isupper() else rf"\b{token}\b"
        if re.search(pattern, shell):
            shell = re.sub(pattern, _literal(value(box)), shell)
    return shell


# --- what a command needs first ---------------------------------------------------------


def _tidy_material(box: Sandbox) -> None:
    """A folder with something for a dream: an expired agent entry, near duplicates and
    a subject written twice, as hand edits a person committed."""
    box.commit_by_hand(
        "- Promo code SPRING is valid for the campaign [expires: 2020-01-01; by: agent]\n"
        "- The staging deploy runs at nine after the nightly suite passes [by: user]\n"
        "- The staging deploy runs at nine after the nightly suite passes on main [by: agent]\n"
        "- Deploy day is Friday [subject: deploy-day; by: agent; added: 2026-02-01]\n"
        "- Deploy day is Monday [subject: deploy-day; by: user; added: 2025-01-01]\n"
        "- The nightly backup of the orders database runs at two in the morning [by: user]\n"
        "- The nightly backup of the orders database runs at two in the morning UTC [by: agent]"
    )


def _more_material(box: Sandbox) -> None:
    """A second review branch, for `review reject` after `review accept` took the first."""
    box.commit_by_hand(
        "- Release notes are written by the product team before every release [by: user]\n"
        "- Release notes are written by the product team before every minor release [by: agent]"
    )
    box.ok("memrepo dream")


def _laptop(box: Sandbox) -> None:
    box.machine("laptop")


def _token_file(box: Sandbox) -> None:
    """The token file the README makes a few lines further down, made its way."""
    box.ok(
        'python -c "import secrets; print(secrets.token_urlsafe(32))" > ~/.memrepo-token'
        " && chmod 600 ~/.memrepo-token"
    )


def _diverged_machines(box: Sandbox) -> None:
    """Before `git pull`: this machine syncs with the remote, the laptop pushes an entry,
    and this machine writes one of its own, so the pull has a merge to make."""
    box.ok(f"memrepo remote set {OWN_REMOTE} --i-own-this-private-repo")
    box.ok("memrepo sync")
    desktop = box.home
    box.machine("laptop")
    box.ok(f"memrepo clone {OWN_REMOTE} ~/agent-memory --i-own-this-private-repo")
    box.ok('memrepo remember "Written on the laptop"')
    box.ok("memrepo sync")
    box.machine(desktop.name)
    box.cwd = box.memory
    box.ok('memrepo remember "Written on the desktop"')


def _import_fixtures(box: Sandbox) -> None:
    """The other agents' memory the import commands read, shaped like the real formats
    (fixtures/imports/README.md says where each is documented)."""
    home = box.home
    shutil.copytree(FIXTURES / "claude-code-memory", home / ".claude/projects/my-app/memory")
    shutil.copytree(FIXTURES / "claude-project/project", home / "code/my-app")
    shutil.copytree(FIXTURES / "claude-project/home/.claude", home / ".claude", dirs_exist_ok=True)
    shutil.copytree(FIXTURES / "letta/memfs", home / ".letta/agents/agent-123/memory")
    shutil.copy(FIXTURES / "letta/agent.af", home / "agent.af")
    shutil.copy(FIXTURES / "mem0/get_all.json", home / "mem0-export.json")
    shutil.copy(FIXTURES / "openmemory/memories_export_dana.zip", home)


#: Run before the README command (its exact text, comments dropped).
def _own_model(box: Sandbox) -> None:
    """A person's own model folder: the one the extra ships, copied to where they keep it."""
    from memrepo.meaning.packaged import packaged_model_folder

    folder = box.home / "models" / "all-MiniLM-L6-v2"
    shutil.copytree(packaged_model_folder(box.home / "assembled"), folder, symlinks=False)


BEFORE: dict[str, Callable[[Sandbox], None]] = {
    "memrepo meaning on --model ~/models/all-MiniLM-L6-v2": _own_model,
    "memrepo mcp --http --port 8765 --token-file ~/.memrepo-token": _token_file,
    "memrepo review reject dream/2026-03-01-1": _more_material,
    f"memrepo clone {OWN_REMOTE} ~/agent-memory --i-own-this-private-repo": _laptop,
    "git pull --no-rebase": _diverged_machines,
}


def _both_machines_entries(box: Sandbox) -> None:
    text = (box.memory / "MEMORY.md").read_text()
    assert "Written on the laptop" in text and "Written on the desktop" in text, text
    assert "<<<<<<<" not in text and "sync/conflict" not in _git("-C", str(box.memory), "branch")


def _laptop_has_the_desktops_memory(box: Sandbox) -> None:
    assert "Prefers pnpm over npm" in (box.memory / "MEMORY.md").read_text()
    assert box.home.name == "laptop"


#: Checked after the README command: what its comment says happened.
AFTER: dict[str, Callable[[Sandbox], None]] = {
    "git pull --no-rebase": _both_machines_entries,
    "cd ~/agent-memory && git pull": _laptop_has_the_desktops_memory,
}


#: Run when a sandbox for that section (shell commands or a Python block) is made.
def _web_shop(box: Sandbox) -> None:
    """A workspace the section's `--workspace "Web shop"` examples name (a name memrepo
    does not know is an error, issue #31)."""
    box.ok('memrepo remember "Deploys go through staging first" --workspace "Web shop"')


SECTION_SETUP: dict[str, Callable[[Sandbox], None]] = {
    "Export, restore and import": _import_fixtures,
    "Dreaming and review branches": _tidy_material,
    "Recall": _web_shop,
    "Prompt context: what the agent sees": _web_shop,
}
#: Sections that start without a memory repo (their commands make it).
NO_REPO_YET = {"CLI and Python side by side"}


@pytest.fixture
def model() -> Iterator[ModelStub]:
    stub = ModelStub()
    try:
        yield stub
    finally:
        stub.close()


def new_sandbox(base: Path, model: ModelStub, section: str) -> Sandbox:
    box = Sandbox(base, model)
    if section not in NO_REPO_YET:
        box.ok("memrepo init ~/agent-memory")
        box.ok('memrepo remember "Prefers pnpm over npm"')
    if section in SECTION_SETUP:
        SECTION_SETUP[section](box)
    return box


# --- servers ----------------------------------------------------------------------------


def _answers_initialize(stdout: str) -> bool:
    for line in stdout.splitlines():
        message = json.loads(line)
        if message.get("id") == 1 and "serverInfo" in message.get("result", {}):
            return True
    return False


def run_stdio_server(box: Sandbox, command: str) -> str:
    """An MCP host's first request on stdin, then end of input: the server must answer
    it and exit 0. Returns what it printed."""
    done = box.sh(command, stdin=json.dumps(INITIALIZE) + "\n")
    assert done.returncode == 0, f"{command}\n{done.stderr}"
    assert _answers_initialize(done.stdout), f"{command}\n{done.stdout}\n{done.stderr}"
    return done.stdout


def run_http_server(box: Sandbox, command: str) -> None:
    """Start it, send an authorized initialize to the address it prints, stop it with
    Ctrl-C. The README's port is a fixed one that another program on a shared machine
    may hold, so it is swapped for `--port 0` (any free one), which the server prints."""
    if "--port" in command:
        command = re.sub(r"--port \d+", "--port 0", command)
    else:
        command += " --port 0"
    command = _shell_comment(command)
    with subprocess.Popen(
        ["bash", "-c", f"exec {command}"],
        cwd=box.cwd,
        env=box.env(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    ) as process:
        try:
            _initialize_over_http(box, command, process)
            process.send_signal(signal.SIGINT)
            assert process.wait(timeout=TIMEOUT) == 0
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()


def _initialize_over_http(box: Sandbox, command: str, process: subprocess.Popen[str]) -> None:
    assert process.stderr is not None
    printed = process.stderr.readline()
    served = re.search(r"serving (http://127\.0\.0\.1:\d+/mcp)", printed)
    assert served, f"{command}: {printed}"  # its first line (a warning would fail here)
    token = (box.home / ".memrepo-token").read_text().strip()
    request = urllib.request.Request(
        served.group(1),
        data=json.dumps(INITIALIZE).encode(),
        headers={
            "Authorization": f"Bearer {token}",
            "Content-Type": "application/json",
            "Accept": "application/json, text/event-stream",
        },
    )
    with urllib.request.urlopen(request, timeout=TIMEOUT) as answer:
        assert answer.status == 200
        assert "serverInfo" in answer.read().decode()


# --- the tests --------------------------------------------------------------------------


def test_every_block_says_its_language() -> None:
    unmarked = [(b.line, b.lang) for b in blocks() if b.lang not in LANGUAGES]
    assert unmarked == []


def test_the_readme_has_the_commands_this_test_knows() -> None:
    """Every hook, notation and exemption still matches a README command."""
    texts = {_shell_comment(c.text) for c in commands()}
    joined = "\n".join(texts)
    assert set(BEFORE) | set(AFTER) <= texts, (set(BEFORE) | set(AFTER)) - texts
    assert set(NOT_RUN) <= texts, set(NOT_RUN) - texts
    assert [t for t in NOTATION if t not in joined] == []
    sections = {c.section for c in commands()} | {b.section for b in blocks()}
    assert set(SECTION_SETUP) | NO_REPO_YET <= sections


def _sections() -> list[str]:
    seen: list[str] = []
    for command in commands():
        if command.section not in seen and _shell_comment(command.text) not in NOT_RUN:
            seen.append(command.section)
    return seen


@pytest.mark.integration
@pytest.mark.parametrize("section", _sections())
def test_every_command_of_a_section_runs(section: str, tmp_path: Path, model: ModelStub) -> None:
    box = new_sandbox(tmp_path, model, section)
    ran = 0
    for command in (c for c in commands() if c.section == section):
        text = _shell_comment(command.text)
        if text in NOT_RUN:
            continue
        if text in BEFORE:
            BEFORE[text](box)
        shell = expand(command.text, box)
        where = f"README.md:{command.line}: {command.text}"
        if re.match(r"memrepo( --repo \S+)? mcp\b", text) and "--http" in text:
            run_http_server(box, shell)
        elif re.match(r"memrepo( --repo \S+)? mcp\b", text):
            run_stdio_server(box, shell)
        else:
            done = box.sh(shell)
            assert done.returncode == 0, f"{where}\n$ {shell}\n{done.stdout}\n{done.stderr}"
            assert "Traceback" not in done.stderr, where
        if text in AFTER:
            AFTER[text](box)
        ran += 1
    assert ran > 0
    if any(re.search(r"\bdream\b.*--model", c.text) for c in commands() if c.section == section):
        assert model.requests > 0  # `dream --model` asked the model


def test_the_claude_code_command_registers_a_server_that_answers(
    tmp_path: Path, model: ModelStub
) -> None:
    (command,) = [c for c in commands() if " -- memrepo " in c.text]
    box = new_sandbox(tmp_path, model, command.section)
    answer = run_stdio_server(box, command.text.split(" -- ", 1)[1])
    assert '"serverInfo"' in answer and '"memrepo"' in answer, answer


def test_the_http_address_hosts_are_given_is_the_one_served() -> None:
    """`claude mcp add --transport http ...`, `.mcp.json`, Cursor and VS Code all name the
    address `memrepo mcp --http` serves by default, with a bearer token."""
    address = f"http://127.0.0.1:{DEFAULT_PORT}/mcp"
    urls = [u for c in commands() for u in re.findall(r"https?://\S+/mcp\b", c.text)]
    for block in (b for b in blocks() if b.lang == "json"):
        for server in _servers(json.loads(block.text)):
            if "url" in server:
                urls.append(server["url"])
                assert server["headers"]["Authorization"].startswith("Bearer ")
    assert address in urls and all(u == address for u in urls if "127.0.0.1" in u)


def _servers(config: dict[str, Any]) -> list[dict[str, Any]]:
    servers = config.get("mcpServers", config.get("servers"))
    assert isinstance(servers, dict) and servers, config
    return list(servers.values())


@pytest.mark.integration
@pytest.mark.parametrize("block", [b for b in blocks() if b.lang == "json"], ids=_block_id)
def test_host_configuration_parses_and_its_server_starts(
    block: Block, tmp_path: Path, model: ModelStub
) -> None:
    """The JSON is valid, and a `memrepo` server it names starts with those arguments
    and answers an MCP initialize. The README names it by a full path a host may need
    (`/usr/local/bin/memrepo`); here it is this interpreter's `memrepo`. `npx mcp-remote`
    (Node and the npm registry) is only checked to point at the served address."""
    box = new_sandbox(tmp_path, model, block.section)
    for server in _servers(json.loads(block.text)):
        if "command" not in server:
            assert server.get("type", "http") == "http" and "url" in server
            continue
        program = Path(server["command"]).name
        assert program in {"memrepo", "npx"}, server
        args = [
            a.replace("${userHome}", str(box.home)).replace("/Users/me", str(box.home))
            for a in server["args"]
        ]
        if program == "npx":
            assert args[:2] == ["-y", "mcp-remote"] and args[2].endswith("/mcp")
            continue
        assert shutil.which("memrepo", path=box.env()["PATH"]) == str(BIN / "memrepo")
        run_stdio_server(box, shlex.join(["memrepo", *args]))


def _python_blocks() -> list[Block]:
    return [b for b in blocks() if b.lang == "python"][1:]


def _prelude() -> str:
    return next(b for b in blocks() if b.lang == "python").text


#: What a block's comments say it does, checked on what it printed and left on disk.
CLAIMS: dict[str, Callable[[Sandbox, str], None]] = {
    'print(result["status"], result["source"], result["ref"])': lambda box, out: _expect(
        out.split()[:2] == ["written", "user_stated"], out
    ),
    "tools = MemoryTools(repo, ToolContext": lambda box, out: _expect(
        out.strip() == "written inferred", out
    ),
    "repo.on_memory_used(": lambda box, out: _expect(out.startswith("chat ("), out),
    "merge_file(": lambda box, out: _expect(
        "- Deploys on Fridays\n- Editor: helix" in out and "<<<<" not in out, out
    ),
    "repo.plug_task_registry(": lambda box, out: _expect(
        "[finding] The cache key ignores the lockfile" in out
        and "  - [answer] No, it floats on latest" in out,
        out,
    ),
    "repo.set_remote(url": lambda box, out: _expect(
        (box.home / "agent-memory-laptop" / "MEMORY.md").read_text()
        == (box.memory / "MEMORY.md").read_text()
        and _git("-C", str(box.remotes / "agent-memory.git"), "rev-parse", "main").strip()
        == _git("-C", str(box.memory), "rev-parse", "main").strip(),
        "the laptop copy or the remote differ from this machine",
    ),
    "report = repo.dream(": lambda box, out: _expect(
        re.match(r"[0-9a-f]{40} dream/\d{4}-\d{2}-\d{2}-1\n", out) is not None, out
    ),
    'repo.export("memory.mrx"': lambda box, out: _expect(
        (box.cwd / "restored" / "MEMORY.md").read_text() == (box.memory / "MEMORY.md").read_text()
        and (box.cwd / "facts.jsonl").stat().st_size > 0,
        "restore did not give back the memory",
    ),
    "repo.import_memory(": lambda box, out: _expect(
        out.startswith("2 1 0 {} ")  # two written, one of them the private item
        and "Prefers dark mode in every editor" in (box.memory / "imports/jsonl.md").read_text(),
        out,
    ),
    "report = repo.health()": lambda box, out: _expect(out == "PASS PASS 0.0\nTrue\n", out),
    "tools=[repo.memory_tool(": lambda box, out: _expect(
        out == CLAUDE_SAYS + "\n"
        and [r.get("is_error", False) for r in box.model.tool_results] == [False]
        and "File created successfully at: /memories/deploys.md"
        in json.dumps(box.model.tool_results),
        f"{out} {box.model.tool_results}",
    ),
}


def _expect(condition: bool, detail: str) -> None:
    assert condition, detail


@pytest.mark.integration
@pytest.mark.parametrize("block", _python_blocks(), ids=_block_id)
def test_every_python_block_runs_on_its_own(block: Block, tmp_path: Path, model: ModelStub) -> None:
    box = new_sandbox(tmp_path, model, block.section)
    source = _prelude() + "\n" + block.text
    done = subprocess.run(
        [sys.executable, "-c", source],
        cwd=box.cwd,
        env=box.env(),
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )
    assert done.returncode == 0, f"README.md:{block.line}\n{done.stdout}\n{done.stderr}"
    claims = [check for key, check in CLAIMS.items() if key in block.text]
    assert len(claims) == 1, f"README.md:{block.line}: say in CLAIMS what this block does"
    claims[0](box, done.stdout)


def test_every_claim_matches_a_block() -> None:
    texts = [b.text for b in _python_blocks()]
    assert [key for key in CLAIMS if not any(key in t for t in texts)] == []


def test_the_test_command_is_what_the_gate_runs() -> None:
    gate = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    first_screen = [b.text.strip() for b in blocks()[:2]]
    assert first_screen[1].endswith("pip install -e '.[test]' && python -m pytest -q -n auto")
    assert "-e '.[test]'" in gate and gate.splitlines()[-1] == "python -m pytest -q -n auto"


def _tree_copy(target: Path) -> None:
    """This checkout as a fresh clone plus its uncommitted work (what `pip install .`
    would see), or the unpacked sdist when there is no git checkout."""
    if (ROOT / ".git").exists():
        listed = _git("ls-files", "--cached", "--others", "--exclude-standard", "-z", cwd=ROOT)
        for name in filter(None, listed.split("\0")):
            source = ROOT / name
            if source.is_file():
                (target / name).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(source, target / name)
    else:
        ignore = shutil.ignore_patterns(".venv", "__pycache__", "*.egg-info", "build")
        shutil.copytree(ROOT, target, ignore=ignore, dirs_exist_ok=True)


@pytest.mark.slow
@pytest.mark.integration
def test_the_first_command_works_in_a_fresh_venv(tmp_path: Path) -> None:
    """The README's first line, verbatim, in a copy of this tree with an empty home: it
    installs from the package index like a new user's machine does."""
    first = blocks()[0].text.strip()
    assert first.endswith("pip install . && memrepo demo")
    tree, home = tmp_path / "memrepo", tmp_path / "home"
    tree.mkdir()
    home.mkdir()
    _tree_copy(tree)
    path = os.pathsep.join(
        p for p in os.environ.get("PATH", "").split(os.pathsep) if Path(p) != BIN
    )
    env = {k: v for k, v in os.environ.items() if k.startswith("PIP_")}
    env.update(HOME=str(home), PATH=path, TMPDIR=str(tmp_path), LANG="C.UTF-8")
    done = subprocess.run(
        ["bash", "-c", first],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "$ memrepo log" in done.stdout and "\nRemoved " in done.stdout


def _exit_code_table() -> dict[int, str]:
    text = readme_text()
    table = text[text.index("| code | meaning |") :].split("\n\n", 1)[0]
    return {int(m.group(1)): m.group(2) for m in re.finditer(r"^\| (\d+) \| (.+) \|$", table, re.M)}


@pytest.mark.integration
def test_the_exit_codes_table_is_what_the_command_does(tmp_path: Path, model: ModelStub) -> None:
    """0, 1, 2 and 3 as the table says (130 is tests/test_cli_conventions.py's)."""
    assert sorted(_exit_code_table()) == [0, 1, 2, 3, 130]
    box = new_sandbox(tmp_path, model, "Exit codes")
    assert box.sh('memrepo remember "Prefers pnpm over npm"').returncode == 0  # reinforced
    failed = box.sh("memrepo forget 'folder:MEMORY.md#nope'")
    assert failed.returncode == 1 and failed.stderr.startswith("memrepo: ")
    usage = box.sh("memrepo fly")
    assert usage.returncode == 2 and usage.stderr.startswith("usage: memrepo")
    skipped = box.sh('memrepo remember "ok"')
    assert skipped.returncode == 3 and skipped.stderr.startswith("memrepo: skipped: ")
    assert box.sh("memrepo log | head -1").stderr == ""  # a pipe closed early: quiet
