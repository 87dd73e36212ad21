"""Commands over memory_items and workspace settings: items, retention, workspace."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from memrepo.cli._common import (
    Subparsers,
    action,
    action_command,
    command,
    emit,
    emit_list,
    emit_write,
    open_repo,
    read_text_argument,
)
from memrepo.errors import InvalidArgument
from memrepo.models.constants import SHORT_COMMIT

if TYPE_CHECKING:
    from memrepo.models import WriteResult
    from memrepo.models.items import ItemDetail, MemoryItem


def register(commands: Subparsers) -> None:
    """Add this module's commands to the parser."""
    _add_items(commands)
    _add_retention(commands)
    _add_workspace(commands)


def _add_items(commands: Subparsers) -> None:
    actions = action_command(
        commands,
        "items",
        "List, show, explain, edit, pin and forget memory_items (contact, task and private facts).",
        [
            "memrepo items list --private",
            "memrepo items list --contact mail:ana@example.com --json",
            "memrepo items show memory:3f2a9c01de4b",
            "memrepo items why memory:3f2a9c01de4b",
            "memrepo items edit memory:3f2a9c01de4b 'Ana prefers calls after 8pm'",
            "memrepo items edit memory:3f2a9c01de4b --due friday",
            "memrepo items pin memory:3f2a9c01de4b",
            "memrepo items unpin memory:3f2a9c01de4b",
            "memrepo items forget memory:3f2a9c01de4b",
        ],
    )
    listing = action(actions, "list", _list, "items matching the filters")
    listing.add_argument("--workspace", metavar="W", help="items of workspace W only")
    listing.add_argument("--contact", metavar="REF", help="contact-scope items of REF")
    listing.add_argument("--task", metavar="ID", help="items learned in task ID")
    listing.add_argument("--kind", metavar="K", help="one kind only: fact, preference, rule, ...")
    listing.add_argument(
        "--status", default="active", help="active (default), archived, superseded, any"
    )
    listing.add_argument("--private", action="store_true", help="include private items")
    listing.add_argument("--limit", type=int, metavar="N", help="at most N items")
    for name, handler, summary in (
        ("show", _show, "one item and the revisions it replaced"),
        ("why", _why, "where an item came from, in plain words"),
        ("forget", _forget, "delete an item (every revision is scrubbed)"),
    ):
        sub = action(actions, name, handler, summary)
        sub.add_argument("ref", metavar="REF", help="memory:<id>")
    editing = action(
        actions, "edit", _edit, "correct an item: a new revision of yours that supersedes it"
    )
    editing.add_argument("ref", metavar="REF", help="memory:<id> (a unique prefix will do)")
    editing.add_argument(
        "text", metavar="TEXT", nargs="?", help="the corrected text (- reads stdin)"
    )
    due = editing.add_mutually_exclusive_group()
    due.add_argument(
        "--due",
        metavar="WHEN",
        help='its due day, the same revision: 2026-12-11, "friday", "in 2 weeks"',
    )
    due.add_argument("--no-due", action="store_true", help="clear its due day")
    for name, handler, summary in (
        ("pin", _pin, "put an item in every prompt (L0), as only a person may"),
        ("unpin", _unpin, "take a pinned item out of every prompt again"),
    ):
        sub = action(actions, name, handler, summary)
        sub.add_argument("ref", metavar="REF", help="memory:<id> (a unique prefix will do)")


def _list(args: argparse.Namespace) -> int:
    from memrepo.folder.paths import slugify
    from memrepo.models.items import ItemFilters

    filters = ItemFilters.model_validate(
        {
            "workspace_id": slugify(args.workspace) if args.workspace else None,
            "scope": "contact" if args.contact else None,
            "scope_ref": args.contact,
            "task_id": args.task,
            "kind": args.kind,
            "status": args.status,
            "include_private": args.private,
            "limit": args.limit,
        }
    )
    return emit_list(args, open_repo(args).list_items(filters), _item_line, "no items")


def _item_line(item: MemoryItem) -> str:
    where = item.scope + (f":{item.scope_ref}" if item.scope_ref else "")
    flags = [item.source, item.privacy] + (["pinned"] if item.pinned else [])
    flags += ["tainted"] if item.tainted else []
    return f"{short_ref(item)}  [{where}; {', '.join(flags)}]  {item.content}"


def short_ref(item: MemoryItem) -> str:
    """`memory:` and the first 10 characters of the id, as git shortens commit ids: every
    command takes it back (a unique prefix names the item); --json prints the full ref."""
    return f"memory:{item.id[:SHORT_COMMIT]}"


def _show(args: argparse.Namespace) -> int:
    return emit(args, open_repo(args).item(args.ref), _describe_detail)


def _describe_detail(detail: ItemDetail) -> str:
    replaced = [
        f"  replaced {short_ref(older)} ({older.status}): {older.content}" for older in detail.chain
    ]
    return "\n".join([_item_line(detail.item), *replaced])


def _why(args: argparse.Namespace) -> int:
    report = open_repo(args).why(args.ref)
    return emit(args, report, lambda r: r.explanation)


def _forget(args: argparse.Namespace) -> int:
    result = open_repo(args).forget(args.ref)
    return emit(args, result, lambda r: f"forgot {r.ref}: {r.text}")


def _edit(args: argparse.Namespace) -> int:
    if args.text is None and args.due is None and not args.no_due:
        raise InvalidArgument("nothing to change: give the corrected TEXT, --due or --no-due")
    repo = open_repo(args)
    ref = args.ref
    if args.text is not None:
        result = repo.revise_item(ref, read_text_argument(args.text))
        if result.status == "skipped" or (args.due is None and not args.no_due):
            return emit_write(args, result, _describe_revision)
        ref = result.ref or ref
    from memrepo.items.due import due_date

    detail = repo.set_item_due(ref, None if args.no_due else args.due)
    day = due_date(detail.item)
    said = f"due {day.isoformat()}" if day else "no due date"
    emit(args, detail.item, lambda item: f"{item.ref}: {said} ({item.kind})")
    return 0


def _describe_revision(result: WriteResult) -> str:
    notes = f" (redacted: {', '.join(result.redacted)})" if result.redacted else ""
    return f"{result.action} by {result.ref}{notes}"


def _pin(args: argparse.Namespace) -> int:
    return _set_pin(args, pinned=True)


def _unpin(args: argparse.Namespace) -> int:
    return _set_pin(args, pinned=False)


def _set_pin(args: argparse.Namespace, *, pinned: bool) -> int:
    detail = open_repo(args).pin_item(args.ref, pinned)
    word = "pinned (in every prompt)" if pinned else "unpinned"
    return emit(args, detail, lambda d: f"{word} {short_ref(d.item)}: {d.item.content}")


def _add_retention(commands: Subparsers) -> None:
    command(
        commands,
        "retention",
        _retention,
        "Drop item tombstones, expired items and superseded revisions older than 180 days.",
        ["memrepo retention", "memrepo retention --json"],
    )


def _retention(args: argparse.Namespace) -> int:
    return emit(
        args,
        open_repo(args).run_retention(),
        lambda report: (
            f"dropped {report.tombstones} tombstones, {report.expired} expired "
            f"items, {report.revisions} old revisions"
        ),
    )


def _add_workspace(commands: Subparsers) -> None:
    actions = action_command(
        commands,
        "workspace",
        "Set a workspace's memory settings (stored in the local config, never pushed).",
        [
            "memrepo workspace set 'Web shop' --memory off",
            "memrepo workspace set Clinic --privacy strict",
            "memrepo workspace set 'Web shop' --approval background",
        ],
    )
    setter = action(actions, "set", _workspace_set, "change memory on/off and the privacy mode")
    setter.add_argument("name", metavar="NAME", help="the workspace, as hosts name it")
    setter.add_argument(
        "--memory",
        choices=("on", "off"),
        help="off: what the agent would learn on its own is skipped; what the user states "
        "is still recorded",
    )
    setter.add_argument(
        "--privacy",
        choices=("normal", "strict", "disabled"),
        help="normal: facts go to the workspace's file (in git, synced); strict: they go "
        "to memory_items as private and never into git; disabled: like --memory off (the "
        "agent's own inferences are skipped, what the user states is still recorded)",
    )
    setter.add_argument(
        "--approval",
        choices=("none", "background", "all"),
        help="which of the agent's writes wait for your approval (memrepo pending): none, "
        "background (what it infers on its own) or all",
    )


def _workspace_set(args: argparse.Namespace) -> int:
    memory = None if args.memory is None else args.memory == "on"
    settings = open_repo(args).set_workspace(
        args.name, memory=memory, privacy=args.privacy, approval=args.approval
    )
    return emit(
        args,
        settings,
        lambda s: (
            f"workspace {args.name}: memory {'on' if s.memory_on else 'off'}, "
            f"privacy {s.privacy}, approval {s.approval}"
        ),
    )
