"""Every format, drawn many ways from its definition: the importer is held to what the
draw says, not to the draws it was written against.

`TUNED` seeds are the draws the importer was checked against while it was built;
`HELD_OUT` seeds were first run after it was done. Both must pass. Each draw knows
what it holds (which rows are live facts, which scaffolding, which persona) from the
exporter's definition alone (`exporters.py`), and the test compares the import with
that: rows read, facts written, skipped by reason, a dry run equal to the real run.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from memrepo import MemoryRepo

from .exporters import (
    claude_memory_file,
    double_encoded,
    letta_agent_file,
    mem0_get_all,
    memories,
    openmemory_zip,
    sentence,
)

TUNED = [1, 2, 3]
HELD_OUT = [501, 502, 503, 504, 505, 506]
COUNTS = ("rows", "written", "reinforced", "items_written", "skipped")

#: Letta scaffolding as Letta's and Letta Code's starter blocks write it, by reason.
SCAFFOLD = {
    "placeholder": ["Last name: ?", "Age: ?", "?", "- ?", "[none yet]", "Name: {name}",
                    "[CURRENTLY EMPTY: fill this in on first boot]"],
    "template": ["This is what I know so far about the user, I should expand this.",
                 "I haven't gotten to know this person yet.",
                 "What are they building and why does it matter to them?",
                 "Things they told me:"],
}  # fmt: skip


@dataclass
class Expected:
    """What a draw holds, by its own definition (for Claude Code: the words of each
    memory, which must all be kept, and how many memory files there are)."""

    rows: int = 0
    facts: int = 0
    skipped: Counter[str] = field(default_factory=Counter)
    words: set[str] = field(default_factory=set)


def draw_openmemory(rng: random.Random, folder: Path) -> tuple[Path, Expected]:
    drawn = memories(rng.randint(0, 10**6), rng.randint(4, 40))
    path = openmemory_zip(folder / "memories_export_dana.zip", drawn)
    expected = Expected(rows=len(drawn))
    for m in drawn:
        if m.state == "active":
            expected.facts += 1
        else:
            expected.skipped[m.state] += 1
    return path, expected


def draw_mem0(rng: random.Random, folder: Path) -> tuple[Path, Expected]:
    drawn = memories(rng.randint(0, 10**6), rng.randint(3, 30))
    relations = rng.randint(0, 6)
    document = mem0_get_all(drawn, relations, platform=rng.random() < 0.5)
    path = folder / "mem0.json"
    text = json.dumps(document, indent=2 if rng.random() < 0.5 else None)
    path.write_text(double_encoded(document) if rng.random() < 0.2 else text)
    expected = Expected(rows=len(drawn) + relations, facts=len(drawn))
    expected.skipped["graph_relation"] = relations
    return path, expected


def draw_letta(rng: random.Random, folder: Path) -> tuple[Path, Expected]:
    expected = Expected()
    human: list[str] = []
    for n in range(rng.randint(2, 12)):
        if rng.random() < 0.5:
            reason = rng.choice(sorted(SCAFFOLD))
            human.append(rng.choice(SCAFFOLD[reason]))
            expected.skipped[reason] += 1
        else:
            human.append(f"Fact {n}: " + sentence(rng, n))
            expected.facts += 1
    persona = [f"I am agent {n} and I " + sentence(rng, n) for n in range(rng.randint(1, 5))]
    expected.skipped["persona"] += len(persona)
    expected.rows = len(human) + len(persona)
    document = letta_agent_file({"human": "\n".join(human), "persona": "\n".join(persona)})
    path = folder / "agent.af"
    path.write_text(double_encoded(document) if rng.random() < 0.5 else json.dumps(document))
    return path, expected


def draw_claude(rng: random.Random, folder: Path) -> tuple[Path, Expected]:
    memory = folder / ".claude" / "projects" / "-work-app" / "memory"
    memory.mkdir(parents=True)
    expected = Expected()
    names = []
    for n in range(rng.randint(1, 6)):
        pieces = []
        for k in range(rng.randint(1, 12)):
            kind = rng.choice(("paragraph", "bullets", "code"))
            if kind == "paragraph":
                pieces.append(" ".join(sentence(rng, k) + "." for _ in range(rng.randint(1, 5))))
            elif kind == "bullets":
                pieces.append("\n".join(f"- {sentence(rng, k)}" for _ in range(3)))
            else:
                pieces.append(f"```sh\nmake deploy-{k}\nmake verify-{k}\n```")
        body = "\n\n".join(pieces) + "\n"
        name = f"memory_{n}.md"
        names.append(name)
        (memory / name).write_text(claude_memory_file(f"Memory {n}", "project", "d", body))
        expected.facts += 1  # at least one entry per memory (more when it is long)
        expected.words |= {w for w in body.split() if w.isalnum()}
    (memory / "MEMORY.md").write_text("".join(f"- [{n}]({n})\n" for n in names))
    return memory, expected


DRAWS = {
    "openmemory": draw_openmemory,
    "mem0": draw_mem0,
    "letta": draw_letta,
    "claude-code": draw_claude,
}


@pytest.mark.parametrize("fmt", sorted(DRAWS))
@pytest.mark.parametrize("seed", TUNED + HELD_OUT)
def test_a_drawn_export_imports_as_its_definition_says(
    memory_repo: MemoryRepo, tmp_path: Path, fmt: str, seed: int
) -> None:
    rng = random.Random(f"{fmt}-{seed}")
    path, expected = DRAWS[fmt](rng, tmp_path)
    dry = memory_repo.import_memory(path, source=fmt, dry_run=True)  # type: ignore[arg-type]
    real = memory_repo.import_memory(path, source=fmt)  # type: ignore[arg-type]
    assert [getattr(dry, k) for k in COUNTS] == [getattr(real, k) for k in COUNTS]
    assert real.rows == real.written + real.reinforced + real.skipped_total
    if fmt == "claude-code":
        entries = memory_repo.entries("imports/claude-code/work-app.md")
        assert real.rows == len(entries) >= expected.facts and real.skipped == {}
        assert all(len(e.text) <= 1000 for e in entries) and real.problems == ()
        kept = {w.strip(".;:`") for e in entries for w in e.text.split()}
        assert expected.words <= kept  # split into parts, never a word cut
        return
    assert (real.rows, real.written + real.reinforced) == (expected.rows, expected.facts)
    got = Counter(real.skipped)
    scaffolding = got.pop("placeholder", 0) + got.pop("template", 0)  # either name is fine
    want = Counter(expected.skipped)
    assert scaffolding == want.pop("placeholder", 0) + want.pop("template", 0)
    assert +got == +want
