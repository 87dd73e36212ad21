"""Recall with context (issue #16): what a person notices when entries are read in place."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from memrepo import MemoryRepo

from .files import commit_file

pytestmark = pytest.mark.slow

Git = Callable[..., str]

CHAT = """# Session 3, 2023-12-30

- Bo: Did you get to the coast on your road trip? [added: 2023-12-30]
- Ana: Yep, last month I drove somewhere fun [added: 2023-12-30]
- Bo: Which beach was it? [added: 2023-12-30]
- Ana: I made pasta with ham and peas yesterday [added: 2023-12-30]
- Bo: I went to the gym in the morning [added: 2023-12-30]
- Ana: The gym downtown is too crowded [added: 2023-12-30]

## Work

- The deploy checklist lives in the wiki [added: 2023-12-30]
"""


def texts(repo: MemoryRepo, query: str) -> list[str]:
    return [hit.text for hit in repo.recall(query).hits]


def test_an_elliptic_entry_is_found_through_its_neighbours(
    memory_repo: MemoryRepo, git: Git
) -> None:
    commit_file(memory_repo, git, "chats/ana.md", CHAT)
    found = texts(memory_repo, "road trip to the coast")
    assert found[0] == "Bo: Did you get to the coast on your road trip?"
    assert "Ana: Yep, last month I drove somewhere fun" in found[:3]


def test_context_follows_an_edit_of_a_neighbour(memory_repo: MemoryRepo, git: Git) -> None:
    commit_file(memory_repo, git, "chats/ana.md", CHAT)
    assert "Ana: Yep, last month I drove somewhere fun" in texts(memory_repo, "road trip coast")
    edited = CHAT.replace("Did you get to the coast on your road trip?", "How was the movie?")
    commit_file(memory_repo, git, "chats/ana.md", edited)
    assert "Ana: Yep, last month I drove somewhere fun" not in texts(memory_repo, "road trip coast")


def test_one_word_never_lists_the_lines_beside_a_match(memory_repo: MemoryRepo) -> None:
    memory_repo.remember("We ship the postgres 16 migration on March 3")
    memory_repo.remember("Café Lumen opens at 7 on weekdays")
    assert texts(memory_repo, "postgres") == ["We ship the postgres 16 migration on March 3"]


def test_a_heading_bounds_the_context(memory_repo: MemoryRepo, git: Git) -> None:
    commit_file(memory_repo, git, "chats/ana.md", CHAT)
    assert "The deploy checklist lives in the wiki" not in texts(memory_repo, "crowded gym")


def test_a_relative_date_is_found_by_the_day_it_names(memory_repo: MemoryRepo, git: Git) -> None:
    commit_file(memory_repo, git, "chats/ana.md", CHAT)
    found = texts(memory_repo, "What did Ana cook on 29 Dec 2023?")
    assert found[0] == "Ana: I made pasta with ham and peas yesterday"


def test_the_person_the_query_names_comes_first(memory_repo: MemoryRepo, git: Git) -> None:
    commit_file(memory_repo, git, "chats/ana.md", CHAT)
    assert texts(memory_repo, "what does Ana think of the gym")[0].startswith("Ana: The gym")
    assert texts(memory_repo, "when did Bo go to the gym")[0].startswith("Bo: I went to the gym")


def test_subject_metadata_is_searchable(memory_repo: MemoryRepo) -> None:
    memory_repo.remember("Prefers pnpm", subject="js-package-manager")
    assert texts(memory_repo, "which package manager") == ["Prefers pnpm"]
    assert texts(memory_repo, "js-package-manager") == ["Prefers pnpm"]


def test_irregular_forms_meet_their_lemma(memory_repo: MemoryRepo) -> None:
    memory_repo.remember("The children go to school by bus")
    memory_repo.remember("Our team won the regional cup")
    assert texts(memory_repo, "where the child went")[0] == "The children go to school by bus"
    assert texts(memory_repo, "win") == ["Our team won the regional cup"]


def test_explain_says_which_words_matched_where(memory_repo: MemoryRepo, git: Git) -> None:
    commit_file(memory_repo, git, "chats/ana.md", CHAT)
    (first, second, *_rest) = memory_repo.recall("road trip coast", explain=True).hits
    assert first.explain is not None and second.explain is not None
    assert first.explain.matched["text"] == ["road", "trip", "coast"]
    assert second.text == "Ana: Yep, last month I drove somewhere fun"
    assert second.explain.matched["text"] == []
    assert second.explain.matched["context"] == ["road", "trip", "coast"]
    assert set(second.explain.term_scores) == {"stem:road", "stem:trip", "stem:coast"}
    assert second.explain.index_score == pytest.approx(sum(second.explain.term_scores.values()))
    assert second.explain.score == pytest.approx(second.score)


def test_explain_shows_the_date_and_label_parts(memory_repo: MemoryRepo, git: Git) -> None:
    commit_file(memory_repo, git, "chats/ana.md", CHAT)
    hit = memory_repo.recall("what did Ana make on 29 Dec 2023", explain=True).hits[0]
    assert hit.explain is not None
    assert hit.explain.matched["date"] == ["2023-12-29"]
    assert hit.explain.matched["label"] == ["ana"]
    assert hit.explain.label_boost > 1.0
    assert "date:2023-12-29" in hit.explain.term_scores
    assert list(hit.explain.lanes) == ["folder"]


def test_without_explain_hits_carry_none(memory_repo: MemoryRepo) -> None:
    memory_repo.remember("We ship the postgres 16 migration on March 3")
    assert all(hit.explain is None for hit in memory_repo.recall("postgres").hits)


def test_relevance_says_how_much_weaker_a_hit_is(memory_repo: MemoryRepo, git: Git) -> None:
    commit_file(memory_repo, git, "chats/ana.md", CHAT)
    first, second, *_rest = memory_repo.recall("road trip coast").hits
    assert first.relevance == 1.0
    assert second.text == "Ana: Yep, last month I drove somewhere fun"
    assert 0.2 < second.relevance < 0.6  # found through its neighbour's words only


def test_a_word_the_last_one_may_complete_counts_half(memory_repo: MemoryRepo) -> None:
    memory_repo.remember("The user prefers short answers")
    memory_repo.remember("Editor: vim", subject="editor")
    first, second = memory_repo.recall("which editor do I use").hits
    assert first.text == "Editor: vim"
    assert second.text == "The user prefers short answers"  # "use" may be half of "user"
    assert second.relevance < 0.5
    assert memory_repo.recall("edi").hits[0].text == "Editor: vim"
