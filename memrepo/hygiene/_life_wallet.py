"""Crypto wallet private keys: Bitcoin WIF and extended keys, and raw keys near key words.

Shapes, as documented:
- WIF (en.bitcoin.it/wiki/Wallet_import_format): base58check of 0x80 (0xEF on testnet),
  32 key bytes and an optional 0x01 (compressed); 51 characters opening ``5`` (``9``), or
  52 opening ``K``/``L`` (``c``). The checksum (4 bytes of double SHA-256) is verified.
- Extended private keys (BIP-32, SLIP-132): base58check of 78 bytes, 111 characters
  opening ``xprv``/``tprv`` (``yprv``/``zprv``/``uprv``/``vprv`` and upper-case
  multisig variants). ``xpub`` and friends are public and not matched.
- Ethereum-style keys: 64 hex digits, ``0x`` or not, next to words that name a private
  key or a wallet (a bare 64-hex value is a sha256 digest unless a key word says
  otherwise; a transaction hash near "wallet" stays when "tx"/"hash" is said too).
- Solana and other ed25519 wallets: base58 of a 64-byte keypair (87-88 characters) next
  to such words. Public addresses (``0x`` + 40 hex, ``bc1...``, 32-byte base58) are not
  keys and none of these shapes matches them.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator

from ._base import Rule, is_placeholder, secret_of
from ._needs import Needs

BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
_BASE58_INDEX = {char: index for index, char in enumerate(BASE58)}
_B58 = "[1-9A-HJ-NP-Za-km-z]"


def base58_decode(value: str) -> bytes | None:
    """The bytes ``value`` encodes in Bitcoin's base58, or None if it is not base58."""
    number = 0
    for char in value:
        digit = _BASE58_INDEX.get(char)
        if digit is None:
            return None
        number = number * 58 + digit
    zeros = len(value) - len(value.lstrip("1"))
    return b"\0" * zeros + number.to_bytes((number.bit_length() + 7) // 8, "big")


def base58check_payload(value: str) -> bytes | None:
    """The payload of a base58check string whose checksum holds, else None."""
    raw = base58_decode(value)
    if raw is None or len(raw) < 5:
        return None
    payload, checksum = raw[:-4], raw[-4:]
    if hashlib.sha256(hashlib.sha256(payload).digest()).digest()[:4] != checksum:
        return None
    return payload


def _wif(match: re.Match[str]) -> bool:
    payload = base58check_payload(match.group())
    if payload is None or payload[0] not in (0x80, 0xEF):
        return False
    return len(payload) == 33 or (len(payload) == 34 and payload[-1] == 0x01)


def _extended(match: re.Match[str]) -> bool:
    """A valid checksum, or the exact length with a body that is not a stand-in: nobody
    writes 111 characters after ``xprv`` by accident."""
    value = secret_of(match)
    payload = base58check_payload(value)
    if payload is not None:
        return len(payload) == 78
    return len(value) == 111 and not is_placeholder(value[4:])


WIF = Rule(
    "wallet_key",
    re.compile(rf"(?<![A-Za-z0-9])(?:[59]{_B58}{{50}}|[KLc]{_B58}{{51}})(?![A-Za-z0-9])"),
    _wif,
    needs=Needs(any_of=("5", "9", "K", "L", "c"), run=True),
)

_EXTENDED_PREFIXES = ("xprv", "tprv", "yprv", "zprv", "uprv", "vprv", "Yprv", "Zprv", "Uprv")
EXTENDED = Rule(
    "wallet_key",
    re.compile(rf"(?<![A-Za-z0-9])[xtyzuvYZUV]prv{_B58}{{100,112}}(?![A-Za-z0-9])"),
    _extended,
    needs=Needs(any_of=(*_EXTENDED_PREFIXES, "Vprv"), run=True),
)

#: 64 hex digits (32 bytes: secp256k1 and ed25519 seeds), and base58 of 64 bytes.
HEX_KEY = re.compile(r"(?<![0-9A-Za-z])(?:0x)?[0-9a-fA-F]{64}(?![0-9A-Za-z])")
BASE58_KEY = re.compile(rf"(?<![A-Za-z0-9]){_B58}{{85,90}}(?![A-Za-z0-9])")
#: Words that name the value a private key.
_KEY_WORDS = re.compile(
    r"(?i)(?<![a-z])(?:priv(?:ate)?[ _-]?key|privkey|secret[ _-]?key|signing[ _-]?key"
    r"|keypair|key[ _-]?pair|wallet(?:'s)?[ _-]?key|account[ _-]?key|metamask|keystore"
    r"|export(?:ed)? key)"
)
#: Words that name a wallet: enough for a ``0x`` key or a base58 keypair, unless the
#: value is named a hash.
_WALLET_WORDS = re.compile(
    r"(?i)(?<![a-z])(?:wallet|ethereum|solana|phantom|ledger|trezor|eth|sol|burner)(?![a-z])"
)
_HASH_WORDS = re.compile(
    r"(?i)(?<![a-z])(?:tx|txid|txn|transaction|hash|digest|sha-?256|block|commit|checksum"
    r"|receipt|address|contract|topic)(?![a-z])"
)
_BEFORE = 100
_AFTER = 40


def _named_a_key(text: str, start: int, end: int, wallet_is_enough: bool) -> bool:
    around = text[max(0, start - _BEFORE) : start] + " " + text[end : end + _AFTER]
    if _KEY_WORDS.search(around):
        return True
    return (
        wallet_is_enough
        and _WALLET_WORDS.search(around) is not None
        and _HASH_WORDS.search(around) is None
    )


def raw_wallet_key_spans(text: str) -> Iterator[tuple[int, int]]:
    """64-hex keys and base58 keypairs that the words around them call a private key."""
    for match in HEX_KEY.finditer(text):
        value = match.group()
        if is_placeholder(value.removeprefix("0x")):
            continue
        if _named_a_key(text, *match.span(), wallet_is_enough=value.startswith("0x")):
            yield match.span()
    for match in BASE58_KEY.finditer(text):
        decoded = base58_decode(match.group())
        if decoded is not None and len(decoded) == 64 and _named_a_key(text, *match.span(), True):
            yield match.span()
