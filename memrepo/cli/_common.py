"""What every command module shares: repo resolution, help with examples, and one way to
print what a command did: `emit` (a result, or `--json`), `emit_list` (a listing that says
when it is empty), `emit_write` (a write, exit 3 when screened out), `usage_error`.

Building the parser imports this module and every command module, and `memrepo --help`
does nothing else: what they import at the top is paid by every command. So none of them
imports the engine or the models at the top (pydantic, libgit2): `open_repo` is where the
library is first loaded, and the models a command prints are types only
(`TYPE_CHECKING`) or are imported in its handler (`tests/test_startup.py`).
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TypeAlias, TypeVar

from memrepo.errors import InvalidArgument
from memrepo.layout import ENTRY_POINT
from memrepo.models.constants import SHORT_COMMIT

if TYPE_CHECKING:
    from pydantic import BaseModel

    from memrepo.engine import MemoryRepo
    from memrepo.models import WriteResult

ENV_REPO = "MEMREPO_REPO"
DEFAULT_REPO = "~/agent-memory"
EXIT_USAGE = 2
EXIT_SKIPPED = 3
"""The exit code of a write that was screened out (too short, a secret, opted out, ...):
not an error, but nothing was stored, and a script should be able to tell."""
MAX_STDIN_TEXT = 1_000_000

Handler = Callable[[argparse.Namespace], int]
R = TypeVar("R", bound="BaseModel | Sequence[BaseModel]")
M = TypeVar("M", bound="BaseModel")
Subparsers: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"


REPO_HELP = (
    f"the memory repo (default: ${ENV_REPO}, else the memory repo you are in, else {DEFAULT_REPO})"
)

# `--repo` may also follow the subcommand. SUPPRESS keeps a subcommand that was not given
# --repo from overwriting the value parsed before it.
REPO_AFTER = argparse.ArgumentParser(add_help=False)
REPO_AFTER.add_argument("--repo", metavar="PATH", default=argparse.SUPPRESS, help=REPO_HELP)

JSON_FLAG = argparse.ArgumentParser(add_help=False)
JSON_FLAG.add_argument("--json", action="store_true", help="print the result as JSON")


def examples(*lines: str) -> str:
    return "Example:\n" + "\n".join(f"  {line}" for line in lines)


def command(
    commands: Subparsers,
    name: str,
    handler: Handler,
    summary: str,
    usage_examples: Sequence[str],
    *,
    json_output: bool = True,
) -> argparse.ArgumentParser:
    """A subcommand with --repo after it, --json when it prints a result, and examples."""
    parents = [REPO_AFTER, JSON_FLAG] if json_output else [REPO_AFTER]
    sub = _subparser(commands, name, summary, usage_examples, parents)
    sub.set_defaults(handler=handler)
    return sub


def _subparser(
    parent: Subparsers,
    name: str,
    summary: str,
    usage_examples: Sequence[str],
    parents: list[argparse.ArgumentParser],
) -> argparse.ArgumentParser:
    """A command's or an action's parser: its summary is both its line in the list above
    it and its own description; its examples follow the options, as they are written."""
    return parent.add_parser(
        name,
        help=summary,
        description=summary,
        epilog=examples(*usage_examples) if usage_examples else None,
        parents=parents,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )


def action_command(
    commands: Subparsers, name: str, summary: str, usage_examples: Sequence[str]
) -> Subparsers:
    """A command made of actions (`memrepo items list|show|...`); add each with `action`.
    The actions take --repo and --json themselves, after the action's name; each shows
    the command's examples that use it."""
    parser = command(commands, name, _run_action, summary, usage_examples, json_output=False)
    actions = parser.add_subparsers(title="actions", metavar="ACTION", required=True)
    setattr(actions, _EXAMPLES, (name, tuple(usage_examples)))  # read back by `action`
    return actions


_EXAMPLES = "memrepo_examples"


def action(
    actions: Subparsers,
    name: str,
    handler: Handler,
    summary: str,
    usage_examples: Sequence[str] = (),
) -> argparse.ArgumentParser:
    """One action of an `action_command`, run by `handler`. Its help shows
    `usage_examples`, else the command's own examples of this action."""
    command_name, shared = getattr(actions, _EXAMPLES, ("", ()))
    mine = list(usage_examples) or [
        line for line in shared if _action_of(line, command_name) == name
    ]
    sub = _subparser(actions, name, summary, mine, [REPO_AFTER, JSON_FLAG])
    sub.set_defaults(action_handler=handler)
    return sub


def _action_of(example: str, command_name: str) -> str | None:
    """The action an example line runs (`memrepo task add x` -> add)."""
    words = example.split()
    for first, second in itertools.pairwise(words):
        if first == command_name:
            return second
    return None


def _run_action(args: argparse.Namespace) -> int:
    handler: Handler = args.action_handler
    return handler(args)


def emit(args: argparse.Namespace, result: R, describe: Callable[[R], str]) -> int:
    """Print `result` as JSON when --json asked for it, else as `describe` words it."""
    if args.json:
        print_json(result)
    else:
        print(describe(result))
    return 0


def emit_list(
    args: argparse.Namespace, rows: Sequence[M], line: Callable[[M], str], none: str
) -> int:
    """Print `rows` as a JSON list when --json asked for it, else one `line` each; an empty
    list is the sentence `none` ("no tasks"), so a person never reads silence."""
    return emit(args, rows, lambda shown: "\n".join(map(line, shown)) if shown else none)


def emit_write(
    args: argparse.Namespace, result: WriteResult, describe: Callable[[WriteResult], str]
) -> int:
    """Print what a write did. One that was screened out stored nothing but is no error:
    a person reads why on stderr (`--json` prints it whole), and the exit code is
    `EXIT_SKIPPED` either way, so a script can tell."""
    if result.status == "skipped" and not args.json:
        by = f" by {result.ref}" if result.ref else ""
        print(f"memrepo: skipped: {result.reason}{by}", file=sys.stderr)
        return EXIT_SKIPPED
    emit(args, result, describe)
    return EXIT_SKIPPED if result.status == "skipped" else 0


def written(result: WriteResult, where: str) -> str:
    """A stored write in one line: what it did, its ref, and in brackets `where` it went
    (a commit, or memory_items) and what screening changed in it."""
    notes = [where]
    if result.redacted:
        notes.append(f"redacted: {', '.join(result.redacted)}")
    if result.truncated:
        notes.append("truncated")
    return f"{result.action} {result.ref} ({'; '.join(notes)})"


def commit_note(commit: str | None) -> str:
    """The commit a write made, short, or that it made none (the fact was there)."""
    return f"commit {commit[:SHORT_COMMIT]}" if commit else "no new commit"


def usage_error(message: str) -> int:
    """Options that parse but do not go together: one `memrepo:` line on stderr and exit
    2, as argparse's own usage errors, before any work is done."""
    print(f"memrepo: {message}", file=sys.stderr)
    return EXIT_USAGE


def repo_path(args: argparse.Namespace) -> Path:
    """Found the way git finds a repository: --repo, else $MEMREPO_REPO, else the memory
    repo the current directory is in, else ~/agent-memory."""
    chosen = args.repo or os.environ.get(ENV_REPO)
    if chosen:
        return Path(chosen).expanduser()
    return enclosing_memory_repo(Path.cwd()) or Path(DEFAULT_REPO).expanduser()


def enclosing_memory_repo(start: Path) -> Path | None:
    """The top of the git work tree holding `start`, when it is a memory repo (it has a
    MEMORY.md or memrepo's state folder); None for any other place."""
    for folder in (start, *start.parents):
        if (folder / ".git").exists():
            memory = (folder / ENTRY_POINT).is_file() or (folder / ".git" / "memrepo").is_dir()
            return folder if memory else None
    return None


def read_text_argument(text: str) -> str:
    """`-` means: read the text from standard input (for text over the argument limit,
    or text a script pipes in); anything else is the text itself."""
    if text != "-":
        return text
    data = sys.stdin.buffer.read(MAX_STDIN_TEXT + 1)
    if len(data) > MAX_STDIN_TEXT:
        raise InvalidArgument(
            f"standard input holds over {MAX_STDIN_TEXT:,} bytes; one fact is far less"
        )
    return data.decode("utf-8", errors="replace")


def open_repo(args: argparse.Namespace) -> MemoryRepo:
    """The repo a command works on; the first place a command loads the library. A day
    after the last maintenance pass, opening it starts the next one in the background
    (`memrepo.maintenance.background`: it never delays this command)."""
    from memrepo.engine import MemoryRepo
    from memrepo.maintenance.background import start_if_due

    repo = MemoryRepo.open(repo_path(args))
    if not getattr(args, "maintains_itself", False):
        with contextlib.suppress(OSError):  # a read-only or vanished state folder
            start_if_due(repo.root, repo.folder.state_dir)
    return repo


def count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def print_json(data: BaseModel | Sequence[BaseModel]) -> None:
    """The result model as JSON; readable UTF-8 unless some text cannot be encoded (a
    query typed with invalid bytes carries lone surrogates), then escaped, still valid."""
    from pydantic import BaseModel  # loaded already: `data` is a model

    if isinstance(data, BaseModel):
        payload: object = data.model_dump(mode="json")
    else:
        payload = [item.model_dump(mode="json") for item in data]
    text = json.dumps(payload, indent=2, ensure_ascii=False)
    try:
        text.encode("utf-8")  # strict: stdout's own error handler may let them through
    except UnicodeEncodeError:
        text = json.dumps(payload, indent=2, ensure_ascii=True)
    print(text)
