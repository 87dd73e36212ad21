"""Generated secrets in an encoding, each made the way its format is defined.

- base64 (RFC 4648 §4 standard and §5 URL-safe, padded or not) and hex of a text that
  holds a secret (an assignment, a token, a URL with a password, a PEM key), once or twice
  encoded.
- PEM bodies with the BEGIN/END lines lost: real keys serialised by ``cryptography``
  (PKCS#1 RSA, PKCS#8, SEC1 EC, Ed25519, OpenSSH, encrypted PKCS#8), built from numbers
  drawn with ``rng`` so a seed gives the same keys; wrapped at 64 or 70 or on one line.
- PuTTY ``.ppk`` files (PuTTY manual, appendix C): versions 2 and 3, private lines of
  base64 and the MAC.
- JWTs (RFC 7519) whose JSON header is pretty-printed, spaced or empty, with random
  claims and signatures.

Look-alikes are the encodings a memory holds in plain sight: base64 of ordinary text,
digests, SRI and npm integrity strings, UUIDs, age recipients, SSH public keys and
fingerprints, asset hashes, public keys and certificates without their armour.
"""

from __future__ import annotations

import base64
import datetime
import hashlib
import json
import random
from collections.abc import Callable

from cryptography import x509
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives import serialization as ser
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa
from cryptography.x509.oid import NameOID

from .families import BASE62, Case, draw_each, random_string

RFC4648 = "RFC 4648 base64/base64url/base16"
RFC7468 = "RFC 7468 PEM body (PKCS#1 RFC 8017, PKCS#8 RFC 5958, SEC1 RFC 5915, OpenSSH)"
PPK = "PuTTY manual appendix C, PPK file format"
RFC7519 = "RFC 7519 / RFC 7515 compact serialisation"
Draw = Callable[[random.Random], tuple[str, str]]


def _bytes(rng: random.Random, count: int) -> bytes:
    return bytes(rng.randrange(256) for _ in range(count))


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


# --- keys from rng --------------------------------------------------------------------------


_SMALL_PRIMES = [n for n in range(3, 2000, 2) if all(n % d for d in range(3, int(n**0.5) + 1, 2))]


def _probable_prime(rng: random.Random, bits: int) -> int:
    while True:
        candidate = rng.getrandbits(bits) | (1 << (bits - 1)) | (1 << (bits - 2)) | 1
        if any(candidate % p == 0 for p in _SMALL_PRIMES):
            continue
        if all(pow(base, candidate - 1, candidate) == 1 for base in (2, 3, 5, 7, 11, 13)):
            return candidate


def rsa_key(rng: random.Random, bits: int = 2048) -> rsa.RSAPrivateKey:
    """An RSA key whose primes are drawn with ``rng`` (Fermat-tested: fine for samples)."""
    e = 65537
    while True:
        p, q = _probable_prime(rng, bits // 2), _probable_prime(rng, bits // 2)
        phi = (p - 1) * (q - 1)
        if p != q and phi % e:
            break
    d = pow(e, -1, phi)
    numbers = rsa.RSAPrivateNumbers(
        p, q, d, d % (p - 1), d % (q - 1), pow(q, -1, p), rsa.RSAPublicNumbers(e, p * q)
    )
    return numbers.private_key()


def _body(pem: bytes, rng: random.Random) -> str:
    """A PEM block's base64 lines without its BEGIN/END lines, rewrapped as pasted."""
    lines = [line for line in pem.decode().splitlines() if line and not line.startswith("---")]
    joined = "".join(lines)
    width = rng.choice([64, 64, 70, 76, 0])
    if not width:
        return joined
    return "\n".join(joined[i : i + width] for i in range(0, len(joined), width))


def _pem_family(make: Callable[[random.Random], bytes]) -> Draw:
    def draw(rng: random.Random) -> tuple[str, str]:
        body = _body(make(rng), rng)
        template = rng.choice(
            [
                "{X}",
                "id_rsa from the old server (header got cut):\n{X}\n",
                "key = '''\n{X}\n'''",
                "The deploy key body: {X} -- rotate it",
            ]
        )
        first_line = body.splitlines()[0]
        return template.format(X=body), first_line

    return draw


def _no_encryption() -> ser.KeySerializationEncryption:
    return ser.NoEncryption()


def _rsa_pkcs1(rng: random.Random) -> bytes:
    key = rsa_key(rng, rng.choice([1024, 2048]))
    return key.private_bytes(
        ser.Encoding.PEM, ser.PrivateFormat.TraditionalOpenSSL, _no_encryption()
    )


def _rsa_pkcs8(rng: random.Random) -> bytes:
    return rsa_key(rng).private_bytes(ser.Encoding.PEM, ser.PrivateFormat.PKCS8, _no_encryption())


def _ec_key(rng: random.Random) -> ec.EllipticCurvePrivateKey:
    curve = rng.choice([ec.SECP256R1(), ec.SECP384R1(), ec.SECP256K1()])
    return ec.derive_private_key(rng.getrandbits(200) + 1, curve)


def _ec_sec1(rng: random.Random) -> bytes:
    fmt = ser.PrivateFormat.TraditionalOpenSSL
    return _ec_key(rng).private_bytes(ser.Encoding.PEM, fmt, _no_encryption())


def _ed25519(rng: random.Random) -> bytes:
    key = ed25519.Ed25519PrivateKey.from_private_bytes(_bytes(rng, 32))
    return key.private_bytes(ser.Encoding.PEM, ser.PrivateFormat.PKCS8, _no_encryption())


def _openssh(rng: random.Random) -> bytes:
    key: ed25519.Ed25519PrivateKey | ec.EllipticCurvePrivateKey
    if rng.random() < 0.5:
        key = ed25519.Ed25519PrivateKey.from_private_bytes(_bytes(rng, 32))
    else:
        key = ec.derive_private_key(rng.getrandbits(200) + 1, ec.SECP256R1())
    return key.private_bytes(ser.Encoding.PEM, ser.PrivateFormat.OpenSSH, _no_encryption())


def _encrypted_pkcs8(rng: random.Random) -> bytes:
    password = random_string(rng, BASE62, 12).encode()
    return _ec_key(rng).private_bytes(
        ser.Encoding.PEM, ser.PrivateFormat.PKCS8, ser.BestAvailableEncryption(password)
    )


# --- PuTTY ----------------------------------------------------------------------------------


def _ssh_string(data: bytes) -> bytes:
    return len(data).to_bytes(4, "big") + data


def _ppk(rng: random.Random) -> tuple[str, str]:
    version = rng.choice([2, 3])
    algorithm = rng.choice(["ssh-rsa", "ssh-ed25519", "ecdsa-sha2-nistp256"])
    public = _ssh_string(algorithm.encode()) + _ssh_string(_bytes(rng, rng.choice([32, 65, 257])))
    private = _ssh_string(_bytes(rng, rng.choice([32, 257]))) + _bytes(rng, rng.randint(0, 200))

    def lines(blob: bytes) -> list[str]:
        text = base64.b64encode(blob).decode()
        return [text[i : i + 64] for i in range(0, len(text), 64)]

    public_lines, private_lines = lines(public), lines(private)
    mac = _bytes(rng, 32 if version == 3 else 20).hex()
    parts = [
        f"PuTTY-User-Key-File-{version}: {algorithm}",
        "Encryption: none",
        f"Comment: {rng.choice(['ana@laptop', 'rsa-key-20240301', 'deploy'])}",
        f"Public-Lines: {len(public_lines)}",
        *public_lines,
        f"Private-Lines: {len(private_lines)}",
        *private_lines,
        f"Private-MAC: {mac}",
    ]
    text = "\n".join(parts)
    if rng.random() < 0.3:
        text = f"my putty key for the NAS:\n{text}\n"
    return text, private_lines[0]


# --- JWTs -----------------------------------------------------------------------------------


def _jwt(rng: random.Random) -> tuple[str, str]:
    alg = rng.choice(["HS256", "RS256", "ES256", "none"])
    header: dict[str, str] = {"alg": alg, "typ": "JWT"}
    if rng.random() < 0.3:
        header["kid"] = random_string(rng, BASE62, 8)
    style = rng.choice(["pretty", "spaced", "crlf", "tab", "empty"])
    if style == "pretty":
        header_text = json.dumps(header, indent=rng.choice([2, 4]))
    elif style == "spaced":
        header_text = "{ " + json.dumps(header)[1:-1] + " }"
    elif style == "crlf":
        header_text = json.dumps(header, indent=2).replace("\n", "\r\n")
    elif style == "tab":
        header_text = json.dumps(header, indent="\t")
    else:
        header_text = "{}"
    claims = {
        "sub": str(rng.randint(1000, 99999)),
        "name": rng.choice(["Ana", "Bo", "Chen"]),
        "iat": rng.randint(1_600_000_000, 1_800_000_000),
        "scope": rng.choice(["read", "admin", "repo write"]),
    }
    payload = json.dumps(claims, indent=rng.choice([None, 2]))
    signature = "" if alg == "none" else _b64url(_bytes(rng, 32 if alg == "HS256" else 64))
    token = f"{_b64url(header_text.encode())}.{_b64url(payload.encode())}.{signature}"
    template = rng.choice(["{X}", "Authorization header value was {X}", "session jwt={X}"])
    return template.format(X=token), token


# --- encodings of secrets -------------------------------------------------------------------


def _inner_secret(rng: random.Random) -> str:
    kind = rng.randrange(6)
    word = random_string(rng, BASE62, rng.randint(12, 24))
    if kind == 0:
        return f"password={word}"
    if kind == 1:
        return "ghp_" + random_string(rng, BASE62, 36)
    if kind == 2:
        return f"postgres://app:{word}@db.internal:5432/prod"
    if kind == 3:
        return json.dumps({"api_key": "sk-" + random_string(rng, BASE62, 48)})
    if kind == 4:
        return (
            "xoxb-" + "-".join(random_string(rng, "0123456789", 12) for _ in range(2)) + "-" + word
        )
    return _ec_sec1(rng).decode()


def _encoding(style: str) -> Draw:
    def draw(rng: random.Random) -> tuple[str, str]:
        data = _inner_secret(rng).encode()
        if style == "base64":
            value = base64.b64encode(data).decode()
        elif style == "base64url":
            value = _b64url(data)
        elif style == "hex":
            value = data.hex()
        else:
            value = base64.b64encode(base64.b64encode(data)).decode()
        template = rng.choice(
            [
                "{X}",
                "kubectl get secret app -o yaml showed data.config: {X}",
                '{{"auth": "{X}"}}',
                "CONFIG_BLOB={X}",
                "they pasted `{X}` into the channel",
            ]
        )
        return template.format(X=value), value

    return draw


FAMILIES: dict[str, tuple[str, Draw]] = {
    "base64_of_secret": (RFC4648, _encoding("base64")),
    "base64url_of_secret": (RFC4648, _encoding("base64url")),
    "hex_of_secret": (RFC4648, _encoding("hex")),
    "base64_twice": (RFC4648, _encoding("twice")),
    "pem_body_rsa_pkcs1": (RFC7468, _pem_family(_rsa_pkcs1)),
    "pem_body_pkcs8": (RFC7468, _pem_family(_rsa_pkcs8)),
    "pem_body_ec": (RFC7468, _pem_family(_ec_sec1)),
    "pem_body_ed25519": (RFC7468, _pem_family(_ed25519)),
    "pem_body_openssh": (RFC7468, _pem_family(_openssh)),
    "pem_body_encrypted": (RFC7468, _pem_family(_encrypted_pkcs8)),
    "putty_ppk": (PPK, _ppk),
    "jwt_any_header": (RFC7519, _jwt),
}


def cases(rng: random.Random, per_family: int) -> list[Case]:
    """``per_family`` fresh draws of every family."""
    return draw_each(FAMILIES, "encoded_", rng, per_family)


# --- look-alikes ----------------------------------------------------------------------------

_PLAIN = (
    "Meeting moved to Thursday at 3pm, bring the quarterly numbers.",
    '{"name": "Ana", "city": "Lisbon", "likes": ["tea", "maps"]}',
    "user=ana; theme=dark; lang=pt",
    "The password policy requires twelve characters.",
)


_PNG = b"\x89PNG\r\n\x1a\n"


def _one_line(pem: bytes) -> str:
    return " ".join(line for line in pem.decode().splitlines() if not line.startswith("---"))


def _certificate(rng: random.Random) -> bytes:
    key = _ec_key(rng)
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "example.test")])
    start = datetime.datetime(2024, 1, 1, tzinfo=datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(rng.getrandbits(64))
        .not_valid_before(start)
        .not_valid_after(start + datetime.timedelta(days=365))
        .sign(key, hashes.SHA256())
    )
    return cert.public_bytes(ser.Encoding.PEM)


def lookalikes(rng: random.Random) -> list[Case]:
    """Encodings a memory holds in plain sight."""
    ed = ed25519.Ed25519PrivateKey.from_private_bytes(_bytes(rng, 32)).public_key()
    ssh_public = ed.public_bytes(ser.Encoding.OpenSSH, ser.PublicFormat.OpenSSH).decode()
    blob = base64.b64decode(ssh_public.split()[1])
    fingerprint = base64.b64encode(hashlib.sha256(blob).digest()).decode().rstrip("=")
    spki = (
        _ec_key(rng)
        .public_key()
        .public_bytes(ser.Encoding.PEM, ser.PublicFormat.SubjectPublicKeyInfo)
    )
    rsa_public = (
        rsa_key(rng, 1024).public_key().public_bytes(ser.Encoding.PEM, ser.PublicFormat.PKCS1)
    )
    digest = _bytes(rng, 64)
    texts = [
        *(f"note: {base64.b64encode(text.encode()).decode()}" for text in _PLAIN),
        f"payload {_b64url(_PLAIN[1].encode())}",
        f"hex dump {_PLAIN[0].encode().hex()}",
        f"commit {_bytes(rng, 20).hex()} on main",
        f"sha256 {_bytes(rng, 32).hex()} release.tar.gz",
        f'<script integrity="sha384-{base64.b64encode(_bytes(rng, 48)).decode()}">',
        f'"integrity": "sha512-{base64.b64encode(digest).decode()}"',
        "uuid " + "-".join(_bytes(rng, n).hex() for n in (4, 2, 2, 2, 6)),
        "age recipient age1" + random_string(rng, "qpzry9x8gf2tvdw0s3jn54khce6mua7l", 58),
        f"{ssh_public} ana@laptop",
        f"fingerprint SHA256:{fingerprint}",
        f"asset app.{_bytes(rng, 4).hex()}.js and vendor.{_bytes(rng, 10).hex()}.css",
        f"image@sha256:{_bytes(rng, 32).hex()}",
        # One line each: screen collapses line breaks, and a look-alike must come out
        # exactly as written.
        "public key body " + _one_line(spki),
        "the server's RSA public half (PKCS#1) " + _one_line(rsa_public),
        "certificate body " + _one_line(_certificate(rng)),
        f"thumbnail bytes {base64.b64encode(_PNG + _bytes(rng, 60)).decode()}",
        "The ewoks.were.cute and e30.model.numbers were fine",
        "Private-Lines: the ppk format puts them after the public ones",
    ]
    return [Case("encoded_lookalike", "plain sight", text) for text in texts]
