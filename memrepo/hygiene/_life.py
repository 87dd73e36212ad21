"""Secrets of a person's life: seed phrases, wallet keys, Wi-Fi and recovery codes.

A memory of a person's life meets these where no vendor prefix helps: a seed phrase is
twelve ordinary-looking words, a Wi-Fi password is whatever its owner chose. Each rule
reads the shape its format documents (a checksum, a QR grammar) or the words around it
(``_life_seed``, ``_life_wallet``, ``_life_codes`` say where each shape is documented).
"""

from __future__ import annotations

import re

from ._base import Detector, Finder
from ._life_codes import (
    OTPAUTH,
    RECOVERY_CONTEXT,
    RECOVERY_NEEDS,
    TOTP_NEEDS,
    TOTP_SEED,
    WIFI_NEEDS,
    WIFI_PROSE,
    WIFI_QR,
    recovery_code_spans,
    totp_spans,
    wifi_spans,
)
from ._life_seed import WORD_RUN, may_hold_phrase, seed_phrase_spans
from ._life_wallet import BASE58_KEY, EXTENDED, HEX_KEY, WIF, raw_wallet_key_spans
from ._needs import Needs

#: This module's detectors, most specific first.
DETECTORS: tuple[Detector, ...] = (
    *(Detector(rule.kind, rule.spans, rule.needs) for rule in (EXTENDED, WIF)),
    # A base64 or hex run of 64+ characters: run-gated, no literal.
    Detector("wallet_key", raw_wallet_key_spans, Needs(run=True)),
    # One detector per kind where two finders share it: every literal of a need is a
    # lookup every text pays for.
    Detector("wifi_password", wifi_spans, WIFI_NEEDS),
    Detector("totp_secret", totp_spans, TOTP_NEEDS),
    Detector("recovery_code", recovery_code_spans, RECOVERY_NEEDS),
    # Twelve words hold no literal: only texts that speak of wallets are searched.
    Detector("seed_phrase", seed_phrase_spans, Needs(shape_check=may_hold_phrase)),
)

#: Each finder's expressions: every match a finder reports is a match of one of them
#: (tests/hygiene/test_prefilter.py reads the needs off them; test_package bounds them).
PATTERNS_OF: dict[Finder, tuple[re.Pattern[str], ...]] = {
    EXTENDED.spans: (EXTENDED.pattern,),
    WIF.spans: (WIF.pattern,),
    raw_wallet_key_spans: (HEX_KEY, BASE58_KEY),
    wifi_spans: (WIFI_QR.pattern, WIFI_PROSE),
    totp_spans: (OTPAUTH.pattern, TOTP_SEED),
    recovery_code_spans: (RECOVERY_CONTEXT,),
    # Its reports lie in runs of WORD_RUN: the shape its needs check.
    seed_phrase_spans: (WORD_RUN,),
}
