"""Does the user's latest message ask the agent to remember something?

`memory_remember` stores a fact as `user_stated` (high trust, may be pinned) only when the
model says the user asked AND this detector agrees, so a model that misreads the turn, or
text injected by a web page, cannot promote its own inference to the user's word.

The detector is deliberately small and conservative: a phrase that asks to keep something
("remember that", "don't forget", "keep in mind", "note that", "save this to memory",
"from now on", and a few German, French, Spanish and Turkish equivalents) makes it true;
questions about memory ("do you remember ...?", "what do you remember"), negated requests
("don't remember this", "do not save this") and a `<no-memory>` marker make it false. A
miss costs little: the fact is still saved, as `inferred`.
"""

from __future__ import annotations

import re

_ASK = re.compile(
    r"""
    \b(?:please\s+)?remember\b(?!\s+(?:when|how|what|who|where|why|if|whether)\b)
    | \bdon'?t\s+forget\b | \bdo\s+not\s+forget\b | \bnever\s+forget\b
    | \bkeep\s+in\s+mind\b | \bbear\s+in\s+mind\b
    | \bmake\s+a\s+note\b | \btake\s+a\s+note\b | \bnote\s+(?:that|down|this)\b
    | \bmemori[sz]e\b | \bfor\s+future\s+reference\b | \bfrom\s+now\s+on\b
    | \b(?:save|store|add|put|write|keep)\b[^.!?\n]{0,40}\b(?:memory|memories|notes)\b
    | \bmerk\s+dir\b | \bmerke\s+dir\b | \bvergiss\s+nicht\b | \bnicht\s+vergessen\b
    | \bsouviens[-\s]toi\b | \bretiens\b | \bn'oublie\s+pas\b
    | \brecuerda\b | \bno\s+olvides\b
    | \bunutma\b | \bhat[\u0131i]rla\b | \bakl\u0131nda\s+tut\b
    """,
    re.IGNORECASE | re.VERBOSE,
)
_QUESTION = re.compile(
    r"""
    \b(?:do|did)\s+you\s+(?:still\s+)?remember\b[^.!\n]*\?
    | \bwhat\s+do\s+you\s+remember\b | \bdo\s+you\s+recall\b
    """,
    re.IGNORECASE | re.VERBOSE,
)
_REFUSE = re.compile(
    r"""
    \b(?:don'?t|do\s+not|never|no\s+need\s+to)\s+
      (?:remember|save|store|note|keep|memori[sz]e)\b
    | \bforget\s+(?:that|this|it|about)\b | \bnot\s+worth\s+remembering\b
    """,
    re.IGNORECASE | re.VERBOSE,
)
_NO_MEMORY = "<no-memory>"


def asks_to_remember(message: str | None) -> bool:
    """True when `message` (the user's latest message) explicitly asks to remember."""
    if not message or _NO_MEMORY in message.casefold():
        return False
    text = " ".join(message.replace("\u2019", "'").split())
    if _REFUSE.search(text):
        return False
    for sentence in re.split(r"(?<=[.!?;])\s+|\n", text):
        if _ASK.search(sentence) and not _QUESTION.search(sentence):
            return True
    return False
