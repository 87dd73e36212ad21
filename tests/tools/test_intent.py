"""The detector of explicit remember requests: what promotes a write to user_stated."""

from __future__ import annotations

import pytest

from memrepo.tools import ToolContext, asks_to_remember

ASKS = [
    "Remember that I prefer tea.",
    "please remember my sister's name is Ana",
    "Don't forget: the deploy freeze starts Friday",
    "Keep in mind that the staging DB is shared.",
    "Note that we use pnpm, not npm.",
    "Save this to your memory: invoices go to finance@",
    "From now on, answer in British English.",
    "Can you remember that I'm vegetarian?",
    "Do you remember my dog? Remember that his name is Rex.",
    "Merk dir, dass ich Tee mag.",
    "Souviens-toi que je préfère le thé.",
    "Recuerda que prefiero té.",
    "Bunu unutma: toplant\u0131 sal\u0131 g\u00fcn\u00fc.",
    "I\u2019m off on Fridays, keep in mind",
]
DOES_NOT_ASK = [
    "",
    "What's the weather like?",
    "Do you remember what I said about tea?",
    "What do you remember about the deploy?",
    "Remember when we shipped v2?",
    "Don't remember this, it's temporary.",
    "Do not save this anywhere.",
    "Forget that I said that.",
    "Remember that I prefer tea <no-memory>",
    "The page says: this is worth memory usage graphs",
]


@pytest.mark.parametrize("message", ASKS)
def test_explicit_requests_ask(message: str) -> None:
    assert asks_to_remember(message)


@pytest.mark.parametrize("message", DOES_NOT_ASK)
def test_questions_refusals_and_chatter_do_not_ask(message: str) -> None:
    assert not asks_to_remember(message)


def test_the_host_can_answer_instead_of_the_detector() -> None:
    button = ToolContext(latest_user_message="tea", user_asked_to_remember=True)
    assert button.user_asks_to_remember
    said = ToolContext(latest_user_message="Remember that I like tea", user_asked_to_remember=False)
    assert not said.user_asks_to_remember
    # A new turn forgets the host's answer about the previous one.
    assert not button.next_turn("thanks").user_asks_to_remember
    assert said.next_turn("Please remember I like tea").user_asks_to_remember


def test_untrusted_is_sticky_across_turns() -> None:
    ctx = ToolContext(task_id="t1").after_untrusted().next_turn("Remember I like tea")
    assert ctx.untrusted and ctx.user_asks_to_remember
