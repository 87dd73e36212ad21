"""The parser class of every `memrepo` command: help grouped by use, and "did you mean".

`memrepo --help` lists the commands in groups, the daily ones first (`CommandParser.
command_groups`), each by the first clause of its summary; `memrepo help COMMAND` keeps the
whole summary. A usage error that is one mistyped word (a command, an action, an option
or an option's value) is one line naming the nearest word that exists, exit 2; any other
keeps argparse's usage line and message. Only argparse (and difflib on an error): this is
loaded by every command, `--help` included.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Iterable, Sequence
from typing import NoReturn

__all__ = ["CommandParser", "first_clause", "suggestion"]

CommandGroups = Sequence[tuple[str, Sequence[str]]]

#: argparse's words for a value not among the choices (compiled on a usage error only).
_INVALID_CHOICE = (
    r"(?s)^argument (?P<argument>.+?): invalid choice: (?P<value>'.*?'|\".*?\") "
    r"\(choose from (?P<choices>.*)\)$"
)
_UNRECOGNIZED = "unrecognized arguments: "
#: How alike a typed word and a real one must be (difflib's ratio) to suggest it.
_CUTOFF = 0.6


def first_clause(summary: str) -> str:
    """A command's summary up to its first full stop, colon or semicolon outside
    parentheses: what the list of every command shows (`memrepo help COMMAND` shows all
    of it)."""
    depth = 0
    for at, char in enumerate(summary):
        if char == "(":
            depth += 1
        elif char == ")":
            depth = max(0, depth - 1)
        elif depth == 0 and char in ".:;" and summary[at + 1 : at + 2] in ("", " "):
            return summary[:at]
    return summary


def suggestion(typed: str, candidates: Iterable[str]) -> str | None:
    """The one candidate nearest to `typed`, when one is near enough; else None."""
    import difflib  # only on a usage error

    found = difflib.get_close_matches(typed, sorted(set(candidates)), n=1, cutoff=_CUTOFF)
    return found[0] if found else None


def _subparsers(
    parser: argparse.ArgumentParser,
) -> argparse._SubParsersAction[argparse.ArgumentParser] | None:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return action
    return None


class CommandParser(argparse.ArgumentParser):
    """An `ArgumentParser` whose usage errors suggest the nearest word, and whose help
    lists its commands in `command_groups` (title, command names) when it has any. The
    commands and actions added to it are of this class too."""

    command_groups: CommandGroups = ()
    #: Words that work as a command without being one of the parser's (`memrepo help`).
    extra_commands: Sequence[str] = ()
    _typed: Sequence[str] = ()  # the words this parser was last given

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        self._typed = list(sys.argv[1:] if args is None else args)
        return super().parse_known_args(args, namespace)

    # --- did you mean ------------------------------------------------------------------

    def error(self, message: str) -> NoReturn:
        line = self._suggest(message)
        if line is not None:
            self.exit(2, f"{self.prog}: error: {line}\n")
        choice = re.match(_INVALID_CHOICE, message)
        if choice is not None and choice["argument"] == "COMMAND":  # not the 40 names
            message = f"{choice['value']} is not a memrepo command (memrepo help lists them)"
        super().error(message)

    def _suggest(self, message: str) -> str | None:
        """One line for a usage error that looks like a typo, None for any other."""
        choice = re.match(_INVALID_CHOICE, message)
        if choice is not None:
            value = choice["value"][1:-1]
            choices = re.findall(r"'([^']*)'", choice["choices"])
            argument = choice["argument"]
            if argument == "COMMAND":
                choices += self.extra_commands
            near = suggestion(value, choices)
            if near is None:
                return None
            what = {
                "COMMAND": "is not a memrepo command",
                "ACTION": f"is not an action of {self.prog}",
            }.get(argument, f"is not a choice of {argument}")
            return f"'{value}' {what}; did you mean '{near}'?"
        if message.startswith(_UNRECOGNIZED):
            words = message.removeprefix(_UNRECOGNIZED).split()
            options = [word for word in words if word.startswith("-")]
            if len(options) != 1:
                return None
            typed = options[0].partition("=")[0]
            near = suggestion(typed, self._known_options())
            return f"unknown option '{typed}'; did you mean '{near}'?" if near else None
        return None

    def _known_options(self) -> list[str]:
        """The options of this parser and of each command and action the typed words
        name: what the words after them could have meant."""
        parser: argparse.ArgumentParser = self
        known: list[str] = []
        for word in [*self._typed, ""]:
            known += [s for action in parser._actions for s in action.option_strings]
            below = _subparsers(parser)
            if below is not None and word in below.choices:
                parser = below.choices[word]
        return known

    # --- grouped help ------------------------------------------------------------------

    def format_help(self) -> str:
        commands = _subparsers(self)
        if not self.command_groups or commands is None:
            return super().format_help()
        formatter = self._get_formatter()
        formatter.add_usage(self.usage, self._actions, self._mutually_exclusive_groups)
        formatter.add_text(self.description)
        for group in self._action_groups:
            if commands in group._group_actions:
                for title, actions in self._grouped(commands):
                    formatter.start_section(title)
                    formatter.add_arguments(actions)
                    formatter.end_section()
                continue
            formatter.start_section(group.title)
            formatter.add_text(group.description)
            formatter.add_arguments(group._group_actions)
            formatter.end_section()
        formatter.add_text(self.epilog)
        return formatter.format_help()

    def _grouped(
        self, commands: argparse._SubParsersAction[argparse.ArgumentParser]
    ) -> list[tuple[str, list[argparse.Action]]]:
        """Each group's commands that this parser has, as one help line each; a command
        in no group comes last, under "other commands"."""
        shown = {
            action.dest: argparse.Action(
                [], action.dest, metavar=action.metavar, help=first_clause(action.help or "")
            )
            for action in commands._get_subactions()
        }
        groups = [
            (title, [shown.pop(name) for name in names if name in shown])
            for title, names in self.command_groups
        ]
        groups.append(("other commands", list(shown.values())))
        return [(title, actions) for title, actions in groups if actions]
