"""How `memrepo completion` makes each shell's script from the parser.

What each script knows is two small functions made of `case` tables, keyed by the
command path typed so far ("", "items", "items list", ...): the words that may follow
it, and the choices of an option's value. The completing function walks the typed words
the way argparse reads them (an option that takes a value skips the next word, `--x=v`
is one word) to find that path. Every command, action, option, the choices of an option
or argument, which options take a value and which take a file come from the parser.
"""

from __future__ import annotations

import argparse
import shlex
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from memrepo.cli._parser import first_clause

__all__ = ["Node", "Option", "nodes", "script"]

#: Metavars of arguments that name a file or folder: completed with file names.
_FILE_METAVARS = {"PATH", "DIR", "FILE", "F", "P", "BASE", "OURS", "THEIRS"}


@dataclass(frozen=True, slots=True)
class Option:
    """One option of a command: its spellings, whether a value follows, the value's
    choices, whether the value is a file, and the first clause of its help."""

    names: tuple[str, ...]
    takes_value: bool
    choices: tuple[str, ...]
    files: bool
    help: str


@dataclass(frozen=True, slots=True)
class Node:
    """A command path (`()` for `memrepo` itself) and what may follow it: commands or
    actions (name, summary), options, and its arguments' choices or files."""

    path: tuple[str, ...]
    commands: tuple[tuple[str, str], ...]
    options: tuple[Option, ...]
    argument_choices: tuple[str, ...]
    argument_files: bool

    @property
    def key(self) -> str:
        return " ".join(self.path)


# --- what the parser holds ---------------------------------------------------------------


def nodes(parser: argparse.ArgumentParser) -> list[Node]:
    """Every command path of `parser`, `memrepo` itself first, and `help` (which takes
    the names of the commands)."""
    found = list(_walk(parser, ()))
    top = found[0]
    found.append(Node(("help",), top.commands, (), (), False))
    return found


def _walk(parser: argparse.ArgumentParser, path: tuple[str, ...]) -> Iterator[Node]:
    options: list[Option] = []
    commands: list[tuple[str, str]] = []
    below: list[tuple[str, argparse.ArgumentParser]] = []
    choices: list[str] = []
    files = False
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {sub.dest: sub.help or "" for sub in action._get_subactions()}
            for name, sub in action.choices.items():
                commands.append((name, first_clause(helps.get(name, ""))))
                below.append((name, sub))
        elif action.option_strings:
            options.append(
                Option(
                    names=tuple(action.option_strings),
                    takes_value=action.nargs != 0,
                    choices=tuple(str(c) for c in action.choices or ()),
                    files=_is_file(action),
                    help=first_clause(str(action.help or "")),
                )
            )
        else:
            choices += [str(c) for c in action.choices or ()]
            files = files or _is_file(action)
    if path == ():
        commands.append(("help", "Print the help of memrepo or of one command"))
    yield Node(path, tuple(commands), tuple(options), tuple(choices), files)
    for name, sub in below:
        yield from _walk(sub, (*path, name))


def _is_file(action: argparse.Action) -> bool:
    metavar = action.metavar if isinstance(action.metavar, str) else ""
    return action.type is Path or metavar in _FILE_METAVARS


# --- the scripts -----------------------------------------------------------------------


def script(shell: str, parser: argparse.ArgumentParser) -> str:
    """The completion script for `shell` (one of `SHELLS`)."""
    found = nodes(parser)
    head = (
        f"# memrepo completion for {shell}, made by `memrepo completion {shell}` from the "
        "commands and options of the memrepo that printed it.\n"
    )
    if shell == "fish":
        return head + _fish(found)
    tables = _tables(found)
    return head + tables + (_BASH if shell == "bash" else _ZSH + _zsh_descriptions(found))


def _words(words: Sequence[str]) -> str:
    return shlex.quote(" ".join(words))


def _tables(found: Sequence[Node]) -> str:
    """The two `case` tables bash and zsh share: what follows a path, an option's choices."""
    follows = []
    choices = []
    for node in found:
        names = [name for option in node.options for name in option.names]
        takes = [name for option in node.options if option.takes_value for name in option.names]
        follows.append(
            f"    {shlex.quote(node.key)})\n"
            f"        _memrepo_commands={_words([name for name, _ in node.commands])}\n"
            f"        _memrepo_options={_words(names)}\n"
            f"        _memrepo_values={_words(['', *takes, ''])}\n"
            f"        _memrepo_arguments={_words(node.argument_choices)} ;;\n"
        )
        for option in node.options:
            if option.choices:
                for name in option.names:
                    choices.append(
                        f"    {shlex.quote(f'{node.key}|{name}')}) "
                        f"_memrepo_reply={_words(option.choices)} ;;\n"
                    )
    return (
        "_memrepo_describe() {  # what may follow the command path $1\n"
        "    _memrepo_commands= _memrepo_options= _memrepo_values= _memrepo_arguments=\n"
        '    case "$1" in\n' + "".join(follows) + "    esac\n}\n"
        "_memrepo_choices() {  # the choices of option $2 of the command path $1\n"
        "    _memrepo_reply=\n"
        '    case "$1|$2" in\n' + "".join(choices) + "    esac\n}\n"
    )


#: Reads COMP_WORDS as bash splits them: `--x=v` arrives as `--x`, `=`, `v`.
_BASH = r"""_memrepo() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev= path= word i=1
    while (( i < COMP_CWORD )); do
        word=${COMP_WORDS[i]}
        _memrepo_describe "$path"
        if [[ $word == -* ]]; then
            if [[ $_memrepo_values == *" $word "* ]]; then
                (( i++ ))
                [[ ${COMP_WORDS[i]} == = ]] && (( i++ ))
            fi
        elif [[ " $_memrepo_commands " == *" $word "* ]]; then
            path=${path:+$path }$word
        fi
        (( i++ ))
    done
    _memrepo_describe "$path"
    (( COMP_CWORD > 1 )) && prev=${COMP_WORDS[COMP_CWORD-1]}
    if [[ $cur == = ]]; then
        cur=
    elif [[ $prev == = ]]; then
        prev=${COMP_WORDS[COMP_CWORD-2]}
    fi
    if [[ $prev == -* && $_memrepo_values == *" $prev "* ]]; then
        _memrepo_choices "$path" "$prev"
        COMPREPLY=($(compgen -W "$_memrepo_reply" -- "$cur"))
    elif [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$_memrepo_options" -- "$cur"))
    else
        COMPREPLY=($(compgen -W "$_memrepo_commands $_memrepo_arguments" -- "$cur"))
    fi
}
complete -o default -F _memrepo memrepo
"""

#: zsh's own completion system: `words` and `CURRENT` (1-based), `--x=v` one word.
#: (`path` is zsh's PATH array, hence `cmdpath`.)
_ZSH = r"""_memrepo() {
    local cmdpath= word opt= cur=${words[CURRENT]} prev=${words[CURRENT-1]}
    local -i i=2
    local -a described
    while (( i < CURRENT )); do
        word=${words[i]}
        _memrepo_describe "$cmdpath"
        if [[ $word == -*=* ]]; then
            :
        elif [[ $word == -* ]]; then
            [[ $_memrepo_values == *" $word "* ]] && (( i++ ))
        elif [[ " $_memrepo_commands " == *" $word "* ]]; then
            cmdpath=${cmdpath:+$cmdpath }$word
        fi
        (( i++ ))
    done
    _memrepo_describe "$cmdpath"
    if [[ $cur == -*=* ]]; then
        opt=${cur%%=*}
        compset -P '*='
    elif [[ $prev == -* && $_memrepo_values == *" $prev "* ]]; then
        opt=$prev
    fi
    if [[ -n $opt ]]; then
        _memrepo_choices "$cmdpath" "$opt"
        if [[ -n $_memrepo_reply ]]; then compadd -- ${=_memrepo_reply}; else _files; fi
    elif [[ $cur == -* ]]; then
        compadd -- ${=_memrepo_options}
    elif [[ -n $_memrepo_commands ]]; then
        _memrepo_described "$cmdpath"
        _describe -t commands 'memrepo command' described
    elif [[ -n $_memrepo_arguments ]]; then
        compadd -- ${=_memrepo_arguments}
    else
        _files
    fi
}
"""


def _zsh_descriptions(found: Sequence[Node]) -> str:
    """zsh shows each command with its summary: `name:summary` lines per path."""
    cases = []
    for node in found:
        if node.commands:
            pairs = " ".join(
                shlex.quote(f"{name}:{text}".replace("\\", "")) for name, text in node.commands
            )
            cases.append(f"    {shlex.quote(node.key)}) described=({pairs}) ;;\n")
    return (
        "_memrepo_described() {  # sets `described` of the caller: name:summary pairs\n"
        '    case "$1" in\n' + "".join(cases) + "    esac\n}\n"
        "if (( $+functions[compdef] )); then\n"
        "    compdef _memrepo memrepo\n"
        "else\n"
        "    print -u2 'memrepo completion: run compinit before loading this script'\n"
        "fi\n"
    )


def _fish(found: Sequence[Node]) -> str:
    """fish: one `complete` line per word, each on the condition that the words typed
    so far name its command path (`__memrepo_at PATH`)."""
    commands = [
        f"        case {shlex.quote(node.key)}\n"
        f"            printf '%s\\n' {' '.join(name for name, _ in node.commands)}\n"
        for node in found
        if node.commands
    ]
    values = [
        f"        case {shlex.quote(node.key)}\n            printf '%s\\n' {' '.join(takes)}\n"
        for node in found
        if (takes := [n for o in node.options if o.takes_value for n in o.names])
    ]
    lines = [
        "function __memrepo_commands --argument-names path\n"
        "    switch $path\n" + "".join(commands) + "    end\n"
        "end\n"
        "function __memrepo_values --argument-names path\n"
        "    switch $path\n" + "".join(values) + "    end\n"
        "end\n"
        "function __memrepo_at --argument-names want\n"
        "    set -l words (commandline -opc)\n"
        "    set -l path ''\n"
        "    set -l skip 0\n"
        "    for word in $words[2..-1]\n"
        "        if test $skip = 1\n"
        "            set skip 0\n"
        "        else if string match -q -- '-*=*' $word\n"
        "        else if string match -q -- '-*' $word\n"
        "            contains -- $word (__memrepo_values $path); and set skip 1\n"
        "        else if contains -- $word (__memrepo_commands $path)\n"
        '            set path (string trim -- "$path $word")\n'
        "        end\n"
        "    end\n"
        '    test "$path" = "$want"\n'
        "end\n"
        "complete -c memrepo -f\n"
    ]
    for node in found:
        at = f"-n \"__memrepo_at '{node.key}'\""  # a path is words of [a-z-]
        for name, text in node.commands:
            lines.append(f"complete -c memrepo {at} -a {name} -d {_fish_text(text)}\n")
        if node.argument_choices:
            lines.append(f"complete -c memrepo {at} -a {_words(node.argument_choices)}\n")
        if node.argument_files:
            lines.append(f"complete -c memrepo {at} -F\n")
        for option in node.options:
            lines.append(f"complete -c memrepo {at} {_fish_option(option)}\n")
    return "".join(lines)


def _fish_option(option: Option) -> str:
    spelt = []
    for name in option.names:
        if name.startswith("--"):
            spelt.append(f"-l {name[2:]}")
        elif len(name) == 2:
            spelt.append(f"-s {name[1]}")
        else:
            spelt.append(f"-o {name[1:]}")
    if option.choices:
        spelt.append(f"-x -a {_words(option.choices)}")
    elif option.files:
        spelt.append("-r -F")
    elif option.takes_value:
        spelt.append("-x")
    if option.help:
        spelt.append(f"-d {_fish_text(option.help)}")
    return " ".join(spelt)


def _fish_text(text: str) -> str:
    """`text` quoted for fish, which reads a backslash inside '...' as an escape."""
    return shlex.quote(text.replace("\\", ""))
