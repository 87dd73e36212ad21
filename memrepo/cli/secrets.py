"""`memrepo secrets check|rules|add|remove`: see what the secret detector hides, and add
rules of one's own for shapes it cannot know (an in-house token, a customer number).

The rules live in the memory repo's local config; `MemoryRepo.add_secret_rule` says how
they apply (memrepo/hygiene/custom.py).
"""

from __future__ import annotations

import argparse

from memrepo.cli._common import (
    Subparsers,
    action,
    action_command,
    open_repo,
    print_json,
    read_text_argument,
)


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
    if args.json:
        print_json(result)
    else:
        print(result.text)
        found = ", ".join(result.redacted)
        print(f"redacted: {found}" if found else "no secret found")
    return 0


def _add(args: argparse.Namespace) -> int:
    rule = open_repo(args).add_secret_rule(args.kind, args.pattern)
    if args.json:
        print_json(rule)
    else:
        print(f"secret rule {rule.kind}: {rule.pattern}")
    return 0


def _remove(args: argparse.Namespace) -> int:
    rule = open_repo(args).remove_secret_rule(args.kind)
    if args.json:
        print_json(rule)
    else:
        print(f"removed secret rule {rule.kind}")
    return 0


def _rules(args: argparse.Namespace) -> int:
    rules = open_repo(args).secret_rules()
    if args.json:
        print_json(rules)
    elif not rules:
        print("no rules of your own (built-in rules: README, 'What memrepo guarantees')")
    for rule in [] if args.json else rules:
        print(f"{rule.kind}  {rule.pattern}")
    return 0
