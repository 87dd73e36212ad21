"""An entry's context: neighbours in its section, heading path, description, label."""

from __future__ import annotations

from memrepo.formats import parse
from memrepo.recall.entry_context import (
    LIST_SCALE,
    NEIGHBOUR_WEIGHTS,
    entry_contexts,
    is_dialogue,
    label_of,
)

FILE = """---
description: chats with Ana about travel
---
# Travel

- Ana: We drove to the coast for a road trip
- Bo: How long did it take?
- Ana: Yep, last month I drove somewhere fun
- Bo: Nice
- Ana: Four hours

## Food

- Pasta with ham and peas [author: Kate]
- Tiramisu for dessert [subject: desserts]
"""


def contexts() -> dict[str, tuple[tuple[str, float], ...]]:
    doc = parse(FILE.encode(), "chats/travel.md")
    found = entry_contexts(doc)
    return {e.text: found[e.line_no].segments for e in doc.entries}


def test_neighbours_are_weighted_by_offset_without_their_speaker() -> None:
    segments = contexts()["Ana: Yep, last month I drove somewhere fun"]
    words = {text: weight for text, weight in segments}
    assert words["We drove to the coast for a road trip"] == NEIGHBOUR_WEIGHTS[-2]
    assert words["How long did it take?"] == NEIGHBOUR_WEIGHTS[-1]
    assert words["Nice"] == NEIGHBOUR_WEIGHTS[1]
    assert words["Four hours"] == NEIGHBOUR_WEIGHTS[2]
    assert all(weight < 1.0 for weight in words.values())


def test_a_heading_starts_a_new_context() -> None:
    segments = contexts()["Pasta with ham and peas"]
    texts = [text for text, _weight in segments]
    assert "Tiramisu for dessert" in texts
    assert not any("hours" in text for text in texts)
    assert "Travel Food chats with Ana about travel" in texts  # heading path + description


def test_labels_come_from_a_lead_or_metadata() -> None:
    doc = parse(FILE.encode(), "chats/travel.md")
    labels = [label_of(entry) for entry in doc.entries]
    assert labels[:2] == ["Ana", "Bo"]
    assert labels[5:] == ["Kate", ""]  # a subject is searchable, not a label
    for text in ("- https://example.com is down", "- 10:00 standup", "- plain fact"):
        (entry,) = parse(f"# T\n\n{text}\n".encode(), "t.md").entries
        assert label_of(entry) == ""


def test_a_fenced_block_heading_is_not_a_heading() -> None:
    text = "# A\n\n- one\n\n```\n# not a heading\n```\n\n- two\n"
    doc = parse(text.encode(), "a.md")
    found = entry_contexts(doc)
    two = next(e for e in doc.entries if e.text == "two")
    assert ("one", NEIGHBOUR_WEIGHTS[-1] * LIST_SCALE) in found[two.line_no].segments


def test_only_a_dialogue_gives_neighbours_their_full_weight() -> None:
    doc = parse(FILE.encode(), "chats/travel.md")
    travel, food = doc.entries[:5], doc.entries[5:]
    assert is_dialogue(travel) and not is_dialogue(food)
    facts = parse(b"# F\n\n- Home address: Main St 1\n- Coffee order: flat white\n", "f.md")
    assert not is_dialogue(facts.entries)  # leads that never repeat are not speakers
    segments = entry_contexts(doc)[food[0].line_no].segments
    assert ("Tiramisu for dessert", NEIGHBOUR_WEIGHTS[1] * LIST_SCALE) in segments
