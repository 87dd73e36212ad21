"""Generated secrets of a person's life, each drawn from its documented shape.

- BIP-39 phrases: random entropy through ``Mnemonic.to_mnemonic`` (the reference
  implementation of bip-0039.mediawiki), in prose, numbered lists and quotes.
- WIF and extended keys: base58check over random bytes with the documented version
  bytes (en.bitcoin.it/wiki/Wallet_import_format, BIP-32 and SLIP-132).
- Ethereum keys: 32 random bytes in hex; Solana keypairs: base58 of 64 random bytes.
- Wi-Fi: ZXing's ``WIFI:`` grammar with fields shuffled and specials escaped, and prose.
- Recovery codes in the shapes GitHub, Google, BitLocker and others print them; TOTP
  seeds as base32 of 10-20 random bytes, in ``otpauth://`` URIs (Google Authenticator's
  Key URI format) and in prose.

Look-alikes are what a memory of the same life holds in plain sight: prose of simple
words, public addresses, transaction hashes, digests, open networks, ticket ids.
"""

from __future__ import annotations

import base64
import hashlib
import random
import string
from collections.abc import Callable

from mnemonic import Mnemonic

from .families import BASE62, HEX_LOWER, Case, draw_each, random_string

BIP39 = "bip-0039.mediawiki (github.com/bitcoin/bips), reference word list of `mnemonic`"
WIF_DOC = "en.bitcoin.it/wiki/Wallet_import_format"
BIP32 = "BIP-32 / SLIP-132 serialization"
ZXING = "github.com/zxing/zxing/wiki/Barcode-Contents (Wi-Fi)"
KEY_URI = "github.com/google/google-authenticator/wiki/Key-Uri-Format"
CODES = "GitHub, Google, Microsoft and BitLocker recovery code formats"
B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
LOWER_DIGITS = string.ascii_lowercase + string.digits
_REFERENCE = Mnemonic("english")
WORDS = _REFERENCE.wordlist


def base58(data: bytes) -> str:
    """Bitcoin's base58 of ``data`` (leading zero bytes as "1")."""
    number = int.from_bytes(data, "big")
    out = ""
    while number:
        number, rest = divmod(number, 58)
        out = B58[rest] + out
    return "1" * (len(data) - len(data.lstrip(b"\0"))) + out


def base58check(payload: bytes) -> str:
    """``payload`` with its 4-byte double SHA-256 checksum, in base58."""
    checksum = hashlib.sha256(hashlib.sha256(payload).digest()).digest()[:4]
    return base58(payload + checksum)


def _bytes(rng: random.Random, count: int) -> bytes:
    return bytes(rng.randrange(256) for _ in range(count))


def _phrase(rng: random.Random, words: int) -> str:
    return str(_REFERENCE.to_mnemonic(_bytes(rng, words * 4 // 3)))


# --- secrets ---------------------------------------------------------------------------

Draw = Callable[[random.Random], tuple[str, str]]


def _seed_prose(words: int) -> Draw:
    def draw(rng: random.Random) -> tuple[str, str]:
        phrase = _phrase(rng, words)
        if rng.random() < 0.3:
            phrase = phrase.title()
        template = rng.choice(
            [
                "my ledger backup: {X}",
                "Wallet words for the cold storage: {X}. Keep offline.",
                'Ana dictated her seed "{X}" over the phone',
                "restored the old MetaMask with {X} yesterday",
                "note to self - bitcoin - {X} - do not share",
                "{X} (the Trezor)",
            ]
        )
        return template.format(X=phrase), phrase

    return draw


def _seed_numbered(rng: random.Random) -> tuple[str, str]:
    words = _phrase(rng, rng.choice([12, 24])).split()
    style = rng.choice(["{n}. {w}", "{n}) {w}", "{n} {w}"])
    joiner = rng.choice(["\n", "  ", " "])
    lines = joiner.join(style.format(n=n, w=w) for n, w in enumerate(words, 1))
    # The secret is the list as written: the words alone are never in the text.
    return f"Recovery sheet:\n{lines}\n", lines


def _seed_bad_checksum(rng: random.Random) -> tuple[str, str]:
    while True:
        words = " ".join(rng.choice(WORDS) for _ in range(12))
        if not _REFERENCE.check(words):
            break
    context = rng.choice(["seed phrase", "recovery phrase", "mnemonic", "wallet phrase"])
    return f"the {context} (one word may be wrong): {words}", words


def _wif(version: int, compressed: bool) -> Draw:
    def draw(rng: random.Random) -> tuple[str, str]:
        key = base58check(bytes([version]) + _bytes(rng, 32) + (b"\x01" if compressed else b""))
        template = rng.choice(
            ["paper wallet WIF {X}", "importprivkey {X}", "{X}", "btc key: {X} (old laptop)"]
        )
        return template.format(X=key), key

    return draw


def _extended(version: str) -> Draw:
    def draw(rng: random.Random) -> tuple[str, str]:
        payload = (
            bytes.fromhex(version)
            + bytes([rng.randrange(4)])
            + _bytes(rng, 4)
            + _bytes(rng, 4)
            + _bytes(rng, 32)
            + b"\0"
            + _bytes(rng, 32)
        )
        key = base58check(payload)
        template = rng.choice(
            ["electrum master key {X}", "export of account 0: {X}", "descriptor wpkh({X}/0/*)"]
        )
        return template.format(X=key), key

    return draw


def _eth(rng: random.Random) -> tuple[str, str]:
    key = rng.choice(["0x", ""]) + _bytes(rng, 32).hex()
    template = rng.choice(
        [
            "MetaMask private key {X}",
            "burner wallet 0x key: {X}" if key.startswith("0x") else "private key: {X}",
            "the deployer's private key is {X}",
            "PRIVATE_KEY={X}",
            "exported key for the ledger-less wallet: {X}",
        ]
    )
    return template.format(X=key), key


def _solana(rng: random.Random) -> tuple[str, str]:
    key = base58(_bytes(rng, 64))
    template = rng.choice(
        ["Phantom wallet secret: {X}", "solana keypair {X}", "my SOL private key {X}"]
    )
    return template.format(X=key), key


def _escape_wifi(value: str) -> str:
    return "".join("\\" + c if c in '\\;,:"' else c for c in value)


def _wifi_password(rng: random.Random) -> str:
    kind = rng.randrange(3)
    if kind == 0:
        return random_string(rng, BASE62 + "!@#$%^&*-_;:,", rng.randint(8, 24))
    if kind == 1:
        return rng.choice(WORDS).title() + rng.choice("-_.!") + str(rng.randint(10, 9999))
    return random_string(rng, HEX_LOWER, rng.choice([10, 26, 64]))


def _wifi_qr(rng: random.Random) -> tuple[str, str]:
    password = _wifi_password(rng)
    ssid = rng.choice(["HomeNet", "FRITZ!Box 7590", "Cafe;Guest", "TP-Link_5G", "Casa: Ana"])
    fields = [
        f"T:{rng.choice(['WPA', 'WEP', 'WPA2', 'SAE'])};",
        f"S:{_escape_wifi(ssid)};",
        f"P:{_escape_wifi(password)};",
    ]
    if rng.random() < 0.5:
        fields.append("H:true;")
    rng.shuffle(fields)
    qr = "WIFI:" + "".join(fields) + ";"
    template = rng.choice(["QR for the guests: {X}", "{X}", "scanned `{X}` from the router"])
    return template.format(X=qr), _escape_wifi(password)


def _wifi_prose(rng: random.Random) -> tuple[str, str]:
    password = _wifi_password(rng)
    template = rng.choice(
        [
            "the wifi password is {X}",
            "Wi-Fi at grandma's: network Casa, password {X}",
            "WLAN key: {X}",
            'office wifi pw is "{X}"',
            "hotspot password = {X} (phone)",
            "Guest Wi-Fi password: {X}.",
        ]
    )
    return template.format(X=password), password


def _group(rng: random.Random, alphabet: str, sizes: tuple[int, ...], sep: str) -> str:
    while True:
        code = sep.join(random_string(rng, alphabet, size) for size in sizes)
        groups = code.split(sep)
        if any(c.isdigit() for c in code) and not any(g.isalpha() for g in groups):
            return code


def _codes(alphabet: str, sizes: tuple[int, ...], sep: str, heading: str) -> Draw:
    def draw(rng: random.Random) -> tuple[str, str]:
        codes = [_group(rng, alphabet, sizes, sep) for _ in range(rng.randint(1, 10))]
        joiner = rng.choice(["\n", " ", ", ", "\n- "])
        template = rng.choice(
            [
                "{H}:\n{X}",
                "{H} for my GitHub account (keep safe): {X}",
                "Saved the {H} - {X}",
                "{H}\n\n{X}\n",
            ]
        )
        return template.format(H=heading, X=joiner.join(codes)), codes[0]

    return draw


def _totp_secret(rng: random.Random) -> str:
    return base64.b32encode(_bytes(rng, rng.choice([10, 16, 20]))).decode().rstrip("=")


def _otpauth(rng: random.Random) -> tuple[str, str]:
    secret = _totp_secret(rng)
    issuer = rng.choice(["GitHub", "Google", "ACME%20Corp", "Proton"])
    params = [f"secret={secret}", f"issuer={issuer}", "algorithm=SHA1", "digits=6"]
    rng.shuffle(params)
    uri = f"otpauth://totp/{issuer}:ana%40example.com?{'&'.join(params)}"
    return rng.choice(["{X}", "2FA enrolment URI: {X}", "qr: {X}"]).format(X=uri), secret


def _totp_seed(rng: random.Random) -> tuple[str, str]:
    secret = _totp_secret(rng)
    if rng.random() < 0.5:
        secret = " ".join(secret[i : i + 4] for i in range(0, len(secret), 4)).lower()
    template = rng.choice(
        [
            "2FA secret for the bank: {X}",
            "Google Authenticator setup key: {X}",
            "TOTP seed = {X}",
            "authenticator key {X} (AWS root)",
        ]
    )
    return template.format(X=secret), secret


FAMILIES: dict[str, tuple[str, Draw]] = {
    "seed_phrase_12": (BIP39, _seed_prose(12)),
    "seed_phrase_15_18_21": (BIP39, lambda rng: _seed_prose(rng.choice([15, 18, 21]))(rng)),
    "seed_phrase_24": (BIP39, _seed_prose(24)),
    "seed_phrase_numbered": (BIP39, _seed_numbered),
    "seed_phrase_context": (BIP39, _seed_bad_checksum),
    "wif_uncompressed": (WIF_DOC, _wif(0x80, False)),
    "wif_compressed": (WIF_DOC, _wif(0x80, True)),
    "wif_testnet": (WIF_DOC, _wif(0xEF, True)),
    "xprv": (BIP32, _extended("0488ade4")),
    "tprv": (BIP32, _extended("04358394")),
    "zprv": (BIP32, _extended("04b2430c")),
    "eth_private_key": ("secp256k1 key, 32 bytes hex", _eth),
    "solana_keypair": ("ed25519 keypair, 64 bytes base58", _solana),
    "wifi_qr": (ZXING, _wifi_qr),
    "wifi_prose": ("WPA passphrase, 8-63 characters", _wifi_prose),
    "recovery_github": (CODES, _codes(HEX_LOWER, (5, 5), "-", "GitHub recovery codes")),
    "backup_google": (CODES, _codes(string.digits, (4, 4), " ", "Google backup codes")),
    "recovery_alnum": (
        CODES,
        _codes(string.ascii_lowercase + string.digits, (4, 4), "-", "recovery codes"),
    ),
    "bitlocker": (CODES, _codes(string.digits, (6,) * 8, "-", "BitLocker recovery key")),
    "otpauth_uri": (KEY_URI, _otpauth),
    "totp_seed": (KEY_URI, _totp_seed),
}


def cases(rng: random.Random, per_family: int) -> list[Case]:
    """``per_family`` fresh draws of every family."""
    return draw_each(FAMILIES, "life_", rng, per_family)


# --- look-alikes ------------------------------------------------------------------------

_FUNCTION = ("the", "a", "to", "of", "and", "in", "is", "we", "on", "it", "at", "as")


def _simple_prose(rng: random.Random) -> str:
    """Sentences of list words ("about", "early", "garden") held together as prose is."""
    sentence = []
    for _ in range(rng.randint(20, 40)):
        sentence.append(rng.choice(WORDS))
        if rng.random() < 0.45:
            sentence.append(rng.choice(_FUNCTION))
    return " ".join(sentence).capitalize() + "."


def _list_words_without_checksum(rng: random.Random) -> str:
    while True:
        words = " ".join(rng.choice(WORDS) for _ in range(12))
        if not _REFERENCE.check(words):
            return f"Shopping and chores: {words}"


def lookalikes(rng: random.Random) -> list[Case]:
    """What a life's memory holds in plain sight next to the secrets above."""
    address = base58check(b"\0" + _bytes(rng, 20))
    texts = [
        _simple_prose(rng),
        _simple_prose(rng),
        _list_words_without_checksum(rng),
        _list_words_without_checksum(rng),
        "We wrote down the seed phrase on paper and put it in the safe.",
        "Remember to never share your recovery phrase with anyone, even support.",
        f"send the refund to {address}",
        "my btc address bc1q" + random_string(rng, "qpzry9x8gf2tvdw0s3jn54khce6mua7l", 38),
        f"wallet address 0x{_bytes(rng, 20).hex()}",
        f"wallet tx hash 0x{_bytes(rng, 32).hex()} confirmed",
        f"the transaction 0x{_bytes(rng, 32).hex()} from my wallet failed",
        f"sha256 of the wallet backup: {_bytes(rng, 32).hex()}",
        "xpub661MyMwAqRbcF" + base58(_bytes(rng, 60))[:94],
        "Guest network: WIFI:T:nopass;S:CafeGuest;;",
        "the wifi password is on the fridge",
        "wifi password is written on the back of the router",
        "Ask Tom for the wifi password, it changed last week.",
        "The hotspot key is in the drawer",
        "I printed my recovery codes and put them in the safe.",
        "backup codes: see ticket PROJ-1234 for the rotation process",
        "Recovery codes regenerated on 2024-03-01 after the incident.",
        "2FA enabled with the authenticator app on the new phone",
        "TOTP codes are 6 digits and rotate every 30 seconds",
        f"commit {_bytes(rng, 20).hex()} fixed the wallet import",
        "uuid " + "-".join(_bytes(rng, n).hex() for n in (4, 2, 2, 2, 6)),
    ]
    return [Case("life_lookalike", "plain sight", text) for text in texts]
