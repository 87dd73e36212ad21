"""Card numbers need a card's shape: network prefix and length, Luhn, no contrary words.

An IMEI (15 digits with a Luhn check digit) was redacted as a card number.
"""

from __future__ import annotations

import pytest

from memrepo.hygiene import find_secrets, redact_secrets
from memrepo.hygiene._cards import card_network_fits, luhn_valid


def _complete(prefix: str, length: int) -> str:
    """``prefix`` padded to ``length`` digits with a Luhn check digit."""
    body = (prefix + "2718281828459045235360287")[: length - 1]
    return next(body + d for d in "0123456789" if luhn_valid(body + d))


@pytest.mark.parametrize(
    "number",
    [
        "4111 1111 1111 1111",  # Visa 16
        _complete("4222", 13),  # Visa 13
        _complete("5555", 16),  # Mastercard
        _complete("2221", 16),  # Mastercard 2-series
        "3782 822463 10005",  # Amex 4-6-5
        "6011-0009-9013-9424",  # Discover
        _complete("3530", 16),  # JCB
        _complete("3056", 14),  # Diners
        _complete("6212", 16),  # UnionPay
    ],
)
def test_cards_of_every_network_are_redacted(number: str) -> None:
    redacted, kinds = redact_secrets(f"paid with {number} yesterday")
    assert kinds == ("card_number",)
    assert number not in redacted


@pytest.mark.parametrize(
    "text",
    [
        "IMEI 490154203237518 on the test phone",
        "the handset 356938035643809 was replaced",
        "the handset 490154203237518 was replaced",
        f"order {_complete('4000', 16)} shipped",
        f"tracking {_complete('4490', 15)} arrives monday",
        f"invoice #{_complete('5555', 16)}",
        "refund to IBAN DE89 3704 0044 0532 0130 00",
        f"id {_complete('7000', 16)} and {_complete('1234', 16)}",
    ],
)
def test_luhn_valid_numbers_that_are_not_cards_stay(text: str) -> None:
    assert find_secrets(text) == []


def test_a_card_word_wins_over_an_id_word() -> None:
    text = "order paid by card 4111 1111 1111 1111"
    assert redact_secrets(text)[1] == ("card_number",)


def test_imeis_fail_every_network_length() -> None:
    assert luhn_valid("490154203237518") and not card_network_fits("490154203237518")
    assert luhn_valid("356938035643809") and not card_network_fits("356938035643809")
