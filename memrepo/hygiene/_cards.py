"""Payment card numbers: a real card shape, not any Luhn-valid run of digits.

Luhn alone passes one digit run in ten, and some runs pass by construction: an IMEI is 15
digits with a Luhn check digit, and was redacted as a card. A number counts only when
its issuer prefix (IIN) and its length are those of a card network (the ranges the
networks publish: Visa, Mastercard, American Express, Discover, JCB, Diners Club,
UnionPay, Maestro, Mir), it passes Luhn, and the words just before it do not name it as
something else (an IMEI, an order, an IBAN, a phone number) unless they also name a card.
"""

from __future__ import annotations

import re

# (lowest prefix, highest prefix, allowed lengths); prefixes compare on their own length.
_NETWORKS: tuple[tuple[int, int, frozenset[int]], ...] = (
    (4, 4, frozenset({13, 16, 19})),  # Visa
    (51, 55, frozenset({16})),  # Mastercard
    (2221, 2720, frozenset({16})),  # Mastercard 2-series
    (34, 34, frozenset({15})),  # American Express
    (37, 37, frozenset({15})),
    (6011, 6011, frozenset({16, 19})),  # Discover
    (644, 649, frozenset({16, 19})),
    (65, 65, frozenset({16, 19})),
    (3528, 3589, frozenset({16, 19})),  # JCB
    (300, 305, frozenset({14, 16})),  # Diners Club
    (3095, 3095, frozenset({14, 16})),
    (36, 36, frozenset({14})),
    (38, 39, frozenset({14, 16})),
    (62, 62, frozenset({16, 17, 18, 19})),  # UnionPay (and Discover's 622126-622925)
    (2200, 2204, frozenset({16})),  # Mir
    (5018, 5018, frozenset({16, 19})),  # Maestro
    (5020, 5020, frozenset({16, 19})),
    (5038, 5038, frozenset({16, 19})),
    (5893, 5893, frozenset({16, 19})),
    (6304, 6304, frozenset({16, 19})),
    (6759, 6759, frozenset({16, 19})),
    (6761, 6763, frozenset({16, 19})),
)

# Words right before a number that say what it is.
_CARD_WORDS = re.compile(
    r"(?i)card|visa|master|amex|american express|discover|jcb|diners|unionpay|maestro"
    r"|credit|debit|\bcc\b|\bpan\b|payment|paid|pay with|charge"
)
_OTHER_WORDS = re.compile(
    r"(?i)imei|meid|serial|\bs/?n\b|order|invoice|tracking|shipment|parcel|ticket|isbn"
    r"|issn|phone|tel\b|mobile|fax|iban|account n|routing|customer|reference|\bref\b"
    r"|\bid\b|#"
)
# The country code and check digits an IBAN starts with ("DE89 3704 0044 ...").
_IBAN_HEAD = re.compile(r"[A-Z]{2}[0-9]{2}[ ]?$")
_CONTEXT = 32


def luhn_valid(digits: str) -> bool:
    """The Luhn checksum every payment card number satisfies (and 90% of digit runs fail)."""
    total = 0
    for index, char in enumerate(reversed(digits)):
        value = ord(char) - 48
        if index % 2 == 1:
            value *= 2
            if value > 9:
                value -= 9
        total += value
    return total % 10 == 0


def card_network_fits(digits: str) -> bool:
    """Whether ``digits`` has the issuer prefix and length of some card network."""
    for low, high, lengths in _NETWORKS:
        width = len(str(low))
        if len(digits) in lengths and low <= int(digits[:width]) <= high:
            return True
    return False


def is_card_number(match: re.Match[str]) -> bool:
    """A validator for the card pattern: network shape, Luhn, and no contrary context."""
    digits = "".join(c for c in match.group() if c.isdigit())
    if not (card_network_fits(digits) and luhn_valid(digits)):
        return False
    before = match.string[max(0, match.start() - _CONTEXT) : match.start()]
    if _IBAN_HEAD.search(before):
        return False
    return bool(_CARD_WORDS.search(before)) or not _OTHER_WORDS.search(before)
