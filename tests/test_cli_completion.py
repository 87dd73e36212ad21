"""`memrepo completion bash|zsh|fish` as a person uses it: the script the command prints,
loaded into the real shell, completes what the parser parses.

bash and zsh run interactively on a pseudo-terminal and a TAB is typed, as a person
does; every command path the parser has is checked through bash's completion function
(`COMP_WORDS`, `COMP_CWORD`, as `complete -p memrepo` names it); fish answers
`complete -C LINE` exactly as at its prompt. zsh and fish are skipped where they are not
installed.
"""

from __future__ import annotations

import argparse
import os
import pty
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from memrepo.cli import build_parser
from memrepo.cli._completion import nodes

PROJECT = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "PYTHONPATH": str(PROJECT)}


def printed_script(shell: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "memrepo", "completion", shell],
        capture_output=True,
        text=True,
        env=ENV,
        timeout=60,
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, ""), done.stderr
    return done.stdout


@pytest.fixture(scope="module")
def bash_script(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("completion") / "memrepo.bash"
    path.write_text(printed_script("bash"), encoding="utf-8")
    return path


BASH_DRIVER = """
source "$1"; shift
# What bash does on TAB: the function `complete -p memrepo` names, with the line split.
function=$(complete -p memrepo | sed -n 's/.*-F \\([^ ]*\\) .*/\\1/p')
while IFS= read -r line; do
    # Split as readline does for completion: COMP_WORDBREAKS holds "=", a word of its own.
    read -r -a COMP_WORDS <<< "${line//=/ = }"
    [[ $line == *" " ]] && COMP_WORDS+=("")
    COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
    COMP_LINE=$line COMP_POINT=${#line} COMPREPLY=()
    "$function" memrepo "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
    echo "${COMPREPLY[*]}"
done
"""


def bash_completes(script: Path, *lines: str) -> list[list[str]]:
    """What bash offers at the end of each typed line, as it would on TAB."""
    done = subprocess.run(
        ["bash", "--norc", "--noprofile", "-c", BASH_DRIVER, "bash", str(script)],
        input="".join(f"{line}\n" for line in lines),
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert done.stderr == ""
    return [answer.split() for answer in done.stdout.splitlines()]


#: Each line typed at a real prompt, TAB where a person presses it, and the words the
#: line holds once completed (a `memrepo` function prints them when the line runs).
TYPED = {
    "memrepo rec\t": "<recall>",
    "memrepo items l\t": "<items><list>",
    "memrepo --repo /tmp/mem log --li\t5": "<--repo></tmp/mem><log><--limit><5>",
    "memrepo remember x --scope=g\t": "<remember><x><--scope=global>",
    "memrepo completion z\t": "<completion><zsh>",
    "memrepo help hu\t": "<help><hub>",
}
LOAD = {
    "bash": ["--norc", "--noprofile", "-i"],
    "zsh": ["-f", "-i"],  # compinit first, as ~/.zshrc has it
}


@pytest.mark.parametrize("shell", ["bash", "zsh"])
def test_tab_completes_at_a_real_prompt(shell: str, tmp_path: Path) -> None:
    """An interactive shell on a terminal, the script loaded as its start file would."""
    if shutil.which(shell) is None:
        pytest.skip(f"{shell} is not installed")
    script = tmp_path / f"memrepo.{shell}"
    script.write_text(printed_script(shell), encoding="utf-8")
    setup = "autoload -U compinit; compinit -u -D; " if shell == "zsh" else ""
    typed = (
        f'{setup}eval "$(cat {script})"\n'
        "memrepo() { printf '<%s>' \"$@\"; printf '\\n'; }\n"
        + "".join(f"{line}\n" for line in TYPED)
        + "exit\n"
    )
    shown = _interactive(shell, LOAD[shell], typed)
    ran = [line.strip() for line in shown.splitlines() if line.strip().startswith("<")]
    assert ran == list(TYPED.values())


def _interactive(shell: str, argv: list[str], typed: str) -> str:
    """Everything an interactive `shell` on a pseudo-terminal shows while `typed` is typed."""
    master, slave = pty.openpty()
    env = {"PATH": os.environ["PATH"], "HOME": os.environ.get("HOME", "/"), "TERM": "dumb",
           "PS1": "$ ", "INPUTRC": "/dev/null"}  # fmt: skip
    with subprocess.Popen(
        [shell, *argv], stdin=slave, stdout=slave, stderr=slave, env=env, start_new_session=True
    ) as proc:
        os.close(slave)
        os.write(master, typed.encode())
        shown = bytearray()
        while True:
            try:
                data = os.read(master, 65536)
            except OSError:  # EIO: the shell exited and closed its end
                break
            if not data:
                break
            shown.extend(data)
        proc.wait(timeout=60)
    os.close(master)
    return shown.decode("utf-8", errors="replace").replace("\r", "")


def test_bash_completes_commands_actions_options_and_choices(bash_script: Path) -> None:
    cases = {
        "memrepo rec": ["recall"],
        "memrepo re": ["remember", "retention", "recall", "reindex", "review", "restore",
                       "remote", "reject"],
        "memrepo items l": ["list"],
        "memrepo log --li": ["--limit"],
        "memrepo --repo /tmp/mem log --p": ["--path"],
        "memrepo remember 'x' --scope g": ["global"],
        "memrepo remember x --scope=": ["global", "workspace", "contact", "task"],
        "memrepo workspace set --privacy ": ["normal", "strict", "disabled"],
        "memrepo completion ": ["bash", "zsh", "fish"],
        "memrepo help it": ["items"],
        "memrepo --color ": ["auto", "always", "never"],
        "memrepo --repo recall reme": ["remember"],  # `recall` is --repo's value here
        "memrepo log --limit 5 --j": ["--json"],
    }  # fmt: skip
    answers = bash_completes(bash_script, *cases)
    assert dict(zip(cases, answers, strict=True)) == cases


@pytest.mark.slow
def test_bash_completes_every_command_and_option_the_parser_has(bash_script: Path) -> None:
    """Made from the parser: nothing it parses is missing, nothing is left over."""
    found = nodes(build_parser())
    lines = [f"memrepo {' '.join((*node.path, ''))}" for node in found]
    lines += [f"memrepo {' '.join((*node.path, '-'))}" for node in found]
    answers = bash_completes(bash_script, *lines)
    words = answers[: len(found)]
    options = answers[len(found) :]
    for node, offered, dashed in zip(found, words, options, strict=True):
        expected = [name for name, _ in node.commands] + list(node.argument_choices)
        assert offered == expected, node.path
        assert dashed == [name for option in node.options for name in option.names], node.path
    top = next(node for node in found if node.path == ())
    assert {name for name, _ in top.commands} == {*_commands(build_parser()), "help"}


def _commands(parser: argparse.ArgumentParser) -> list[str]:
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return list(action.choices)


@pytest.mark.skipif(shutil.which("fish") is None, reason="fish is not installed")
def test_fish_completes_with_descriptions(tmp_path: Path) -> None:
    script = tmp_path / "memrepo.fish"
    script.write_text(printed_script("fish"), encoding="utf-8")
    cases = {
        "memrepo rec": ["recall\tSearch every lane (folder, memory items) and print one fused, "
                        "ranked answer"],
        "memrepo items l": ["list\titems matching the filters"],
        "memrepo log --li": ["--limit\tat most N commits"],
        "memrepo --repo /tmp/mem lo": ["log\tShow main's history, newest first"],
        "memrepo completion ": ["bash", "fish", "zsh"],
        "memrepo remember x --scope=g": [
            "--scope=global\titem scope (task: bound to --task and purged with it)"
        ],
    }  # fmt: skip
    for line, expected in cases.items():
        done = subprocess.run(
            ["fish", "--no-config", "-c", f"source {script}; complete -C {line!r}"],
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
        )
        assert done.stdout.splitlines() == expected, line


def test_an_unknown_shell_is_a_usage_error() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "memrepo", "completion", "bsh"],
        capture_output=True,
        text=True,
        env=ENV,
        timeout=60,
        check=False,
    )
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (
        "memrepo completion: error: 'bsh' is not a choice of SHELL; did you mean 'bash'?\n"
    )
