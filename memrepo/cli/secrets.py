"""`memrepo secrets check|rules|add|remove`: see what the secret detector hides, and add
rules of one's own for shapes it cannot know (an in-house token, a customer number).

The rules live in the memory repo's local config; `MemoryRepo.add_secret_rule` says how
they apply (memrepo/hygiene/custom.py).
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from memrepo.cli._common import (
    Subparsers,
    action,
    action_command,
    emit,
    emit_list,
    open_repo,
    read_text_argument,
)

if TYPE_CHECKING:
    from memrepo.models.settings import SecretCheck


def register(commands: Subparsers) -> None:
    """Add `secrets` to the parser."""
    actions = action_command(
        commands,
        "secrets",
        "See what the secret detector would hide in a text, and add rules of your own: "
        "every write, import, hand edit and sync redacts their matches as "
        "[redacted KIND].",
        [
            "memrepo secrets check 'deploy with token=9f8e7d6c5b4a39281706'",
            "memrepo secrets add acme_token 'acme_(live|test)_[A-Za-z0-9]{24,40}'",
            "memrepo secrets rules",
            "memrepo secrets remove acme_token",
        ],
    )
    check = action(actions, "check", _check, "print TEXT as memrepo would store it")
    check.add_argument("text", metavar="TEXT", help="the text to check ('-' reads stdin)")
    add = action(actions, "add", _add, "add (or replace) a rule of your own")
    add.add_argument("kind", metavar="KIND", help="lowercase letters and _, e.g. acme_token")
    add.add_argument(
        "pattern",
        metavar="PATTERN",
        help="a Python regular expression of bounded width ({16,64}, not + or *)",
    )
    remove = action(actions, "remove", _remove, "remove a rule of your own")
    remove.add_argument("kind", metavar="KIND", help="the kind the rule was added with")
    action(actions, "rules", _rules, "list your own rules")


def _check(args: argparse.Namespace) -> int:
    result = open_repo(args).check_secrets(read_text_argument(args.text))
    return emit(args, result, _describe_check)


def _describe_check(result: SecretCheck) -> str:
    found = ", ".join(result.redacted)
    return result.text + "\n" + (f"redacted: {found}" if found else "no secret found")


def _add(args: argparse.Namespace) -> int:
    rule = open_repo(args).add_secret_rule(args.kind, args.pattern)
    return emit(args, rule, lambda r: f"secret rule {r.kind}: {r.pattern}")


def _remove(args: argparse.Namespace) -> int:
    rule = open_repo(args).remove_secret_rule(args.kind)
    return emit(args, rule, lambda r: f"removed secret rule {r.kind}")


def _rules(args: argparse.Namespace) -> int:
    return emit_list(
        args,
        open_repo(args).secret_rules(),
        lambda rule: f"{rule.kind}  {rule.pattern}",
        "no rules of your own (built-in rules: README, 'What memrepo guarantees')",
    )
