"""Generated structural secrets: credentials known by where they sit, whoever the vendor.

Each family is drawn from the definition of a structure, never from a list of examples:

- RFC 3986 (URI generic syntax): ``userinfo`` before ``@`` (an empty user, a token as
  the user, a token-name user), a ``path`` segment that is the credential (a bot token
  ``bot<id>:<secret>``, a key after a ``hooks``/``keys``/``token`` segment), and a
  ``query`` of ``name=value`` pairs whose name says credential;
- RFC 6265 (HTTP state management): ``Cookie: name=value; name=value`` and
  ``Set-Cookie: name=value; attributes``;
- POSIX environment names (uppercase letters, digits, ``_``) ending in a secret word, and
  the variables libpq and MySQL document as passwords (``PGPASSWORD``, ``MYSQL_PWD``);
- configuration keys that glue a prefix or suffix to a secret word in any case and
  separator (``dbPassWord``, ``client-secret``, ``x-api-key``), and passphrases of
  several words.

Hosts, names, separators, cases and credential bodies (the alphabets and lengths of real
tokens, and human passwords, some of several words) are drawn with ``rng``; each case is
set in a drawn context. Look-alikes are drawn the same way: ordinary URLs and query
strings, cookies of preferences, placeholders, and prose about passwords and tokens.
"""

from __future__ import annotations

import random
import string
from collections.abc import Callable
from urllib.parse import quote

from .families import BASE62, BASE64, BASE64URL, HEX_LOWER, Case, random_string

LOWNUM = string.ascii_lowercase + string.digits
_RFC3986 = "RFC 3986"
_RFC6265 = "RFC 6265"
_POSIX = "POSIX env names"

#: Syllables for made-up words: hosts, names and the words of passphrases.
_ONSETS = ("b", "c", "d", "f", "g", "h", "j", "k", "l", "m", "n", "p", "r", "s", "t", "v")
_ONSETS_MORE = ("br", "ch", "cl", "dr", "fl", "gr", "pl", "sh", "st", "th", "tr", "w", "z")
_VOWELS = ("a", "e", "i", "o", "u", "ai", "ea", "oo", "ou")
_CODAS = ("", "", "", "n", "r", "l", "s", "t", "m", "nd", "st", "rk")


def word(rng: random.Random, syllables: tuple[int, int] = (1, 3)) -> str:
    """A pronounceable lowercase word (a host label, a name, a passphrase word)."""
    count = rng.randint(*syllables)
    onsets = _ONSETS + _ONSETS_MORE
    return "".join(
        rng.choice(onsets) + rng.choice(_VOWELS) + rng.choice(_CODAS) for _ in range(count)
    )


def host(rng: random.Random) -> str:
    """A host name: one or two labels under a common suffix."""
    labels = [word(rng) for _ in range(rng.randint(1, 2))]
    if rng.random() < 0.3:
        labels.insert(0, rng.choice(("api", "hooks", "www", "app", "cdn", "db")))
    return ".".join(labels) + "." + rng.choice(("com", "io", "net", "org", "dev", "co.uk"))


def token(rng: random.Random) -> str:
    """A random credential body in the alphabets and lengths real tokens use."""
    alphabet, low, high = rng.choice(
        (
            (HEX_LOWER, 32, 64),
            (BASE62, 20, 48),
            (BASE64URL, 24, 86),
            (LOWNUM, 24, 40),
            (HEX_LOWER.upper(), 32, 32),
        )
    )
    while True:
        body = random_string(rng, alphabet, rng.randint(low, high))
        # A draw of letters only (or digits only) is rare but real; these cases want
        # the common one, letters and digits mixed.
        if any(c.isdigit() for c in body) and any(c.isalpha() for c in body):
            return body


def human_password(rng: random.Random) -> str:
    """A password a person chose: a word with digits and a symbol, or a random run."""
    style = rng.randrange(4)
    if style == 0:
        return word(rng, (2, 3)).capitalize() + str(rng.randint(10, 9999)) + rng.choice("!#%&*?")
    if style == 1:
        leet = str.maketrans({"a": "4", "e": "3", "o": "0", "i": "1", "s": "5"})
        return word(rng, (2, 3)).translate(leet) + rng.choice("!#$_") + str(rng.randint(1, 99))
    if style == 2:
        return random_string(
            rng, string.ascii_letters + string.digits + "!#%&*+-", rng.randint(10, 18)
        )
    return (
        word(rng, (1, 2))
        + rng.choice(("_", ".", ""))
        + word(rng, (1, 2))
        + str(rng.randint(1, 999))
    )


def passphrase(rng: random.Random) -> str:
    """Several plain words, sometimes with a number: how people pick Wi-Fi passwords."""
    # Diceware lists (the EFF's) hold words of 3 to 9 letters.
    words = [w for w in (word(rng, (1, 2)) for _ in range(rng.randint(2, 6))) if len(w) >= 3]
    words = words or [word(rng, (2, 2))]
    if rng.random() < 0.6 or len(words) < 3:
        words.insert(rng.randint(0, len(words)), str(rng.randint(2, 999)))
    return " ".join(words)


def _identifier(rng: random.Random, parts: list[str], style: str) -> str:
    """``parts`` joined as an identifier in ``style``."""
    if style == "screaming":
        return "_".join(p.upper() for p in parts)
    if style == "glued_upper":
        return "".join(p.upper() for p in parts)
    if style == "glued_lower":
        return "".join(parts)
    if style == "camel":
        return parts[0] + "".join(p.capitalize() for p in parts[1:])
    if style == "header":
        return "-".join(p.capitalize() for p in parts)
    return rng.choice(("-", "_")).join(parts)


def _uuid(rng: random.Random) -> str:
    return "-".join(random_string(rng, HEX_LOWER, n) for n in (8, 4, 4, 4, 12))


def _in_context(rng: random.Random, contexts: tuple[str, ...], **values: str) -> str:
    return rng.choice(contexts).format(**values)


# --- URLs (RFC 3986) ------------------------------------------------------------------

_URL_CONTEXTS = (
    "the bot posts through {U}",
    "curl -s -X POST '{U}' -d text=hi",
    "WEBHOOK_URL={U}",
    '{{"url": "{U}", "retries": 3}}',
    "[alerts]({U}) goes to the ops channel",
    "endpoint: {U}",
    "Ana pasted <{U}> in the chat.",
    "open {U}, then reload",
)


def _bot_path(rng: random.Random) -> tuple[str, tuple[str, ...]]:
    """A bot token as a path segment: ``/bot<id>:<secret>/<method>``."""
    secret = rng.choice(("AA", "AA", "")) + random_string(rng, BASE64URL, rng.randint(30, 35))
    bot_id = str(rng.randint(10**7, 10**10))
    method = rng.choice(("sendMessage", "getUpdates", "sendPhoto", "setWebhook"))
    url = f"https://{host(rng)}/bot{bot_id}:{secret}/{method}"
    if rng.random() < 0.4:
        url += f"?chat_id={rng.randint(-(10**12), 10**9)}"
    return url, (secret,)


def _keyed_path(rng: random.Random) -> tuple[str, tuple[str, ...]]:
    """A credential as the path segment after one that names it (with an id between)."""
    secret = token(rng)
    named = rng.choice(
        (
            "hooks",
            "webhooks",
            "api/webhooks",
            "webhook",
            "key",
            "keys",
            "token",
            "tokens",
            "apikey",
            "api_key",
            "secret",
            "services",
            "trigger/deploy/with/key",
            "auth",
        )
    )
    middle = rng.choice(("", f"{rng.randint(10**5, 10**18)}/", f"{word(rng)}/"))
    tail = rng.choice(("", "/", "/send", "/json", f"?{word(rng)}={rng.randint(1, 99)}"))
    return f"https://{host(rng)}/{named}/{middle}{secret}{tail}", (secret,)


def _empty_user(rng: random.Random) -> tuple[str, tuple[str, ...]]:
    """``scheme://:password@host``: an empty user, the password alone (Redis, AMQP)."""
    secret = rng.choice((token(rng), human_password(rng)))
    scheme = rng.choice(("redis", "rediss", "amqp", "amqps", "postgresql", "mongodb", "https"))
    encoded = quote(secret, safe="!*")
    port, database = rng.randint(1024, 65535), rng.randint(0, 15)
    return f"{scheme}://:{encoded}@{host(rng)}:{port}/{database}", (encoded,)


def _token_user(rng: random.Random) -> tuple[str, tuple[str, ...]]:
    """``https://<token>@host/org/repo.git``: a token alone as the user."""
    secret = rng.choice(
        (
            random_string(rng, HEX_LOWER, 40),
            token(rng),
            random_string(rng, BASE62, rng.randint(20, 40)),
        )
    )
    path = f"{word(rng)}/{word(rng)}" + rng.choice((".git", "", "/"))
    return f"https://{secret}@{host(rng)}/{path}", (secret,)


def _named_user(rng: random.Random) -> tuple[str, tuple[str, ...]]:
    """``https://<token-name>:<token>@host``: a fixed user that names the token kind."""
    user = rng.choice(
        (
            "x-access-token",
            "oauth2",
            "gitlab-ci-token",
            "x-token-auth",
            "oauth",
            "token",
            "git",
            "apikey",
            word(rng),
            "x-oauth-basic",
        )
    )
    secret = token(rng)
    return f"https://{user}:{secret}@{host(rng)}/{word(rng)}/{word(rng)}.git", (secret,)


def _user_password(rng: random.Random) -> tuple[str, tuple[str, ...]]:
    """``scheme://user:password@host``, the password percent-encoded where it must be."""
    secret = quote(human_password(rng), safe="!*")
    scheme = rng.choice(("postgres", "mysql", "smtp", "ftp", "https", "mongodb+srv", "amqp"))
    user = rng.choice((word(rng), word(rng) + "_" + word(rng), "admin", "app"))
    return f"{scheme}://{user}:{secret}@{host(rng)}/{word(rng)}", (secret,)


# --- query strings (RFC 3986 query, application/x-www-form-urlencoded) ------------------

_CREDENTIAL_PARAMS = (
    *("key", "api_key", "apikey", "apiKey", "appid", "access_token", "token", "auth"),
    *("sig", "signature", "secret", "client_secret", "password", "pwd", "sessionid"),
    *("session_id", "auth_token", "private_token", "refresh_token", "hapikey", "jwt"),
    *("X-Amz-Security-Token", "api-key", "accessKey", "sid"),
)


def _benign_params(rng: random.Random) -> list[str]:
    names = ("id", "page", "lang", "sort", "q", "limit", "format", "v", "units", "chat_id")
    return [
        f"{rng.choice(names)}={rng.choice((str(rng.randint(1, 500)), word(rng)))}"
        for _ in range(rng.randint(0, 2))
    ]


def _query_value(rng: random.Random) -> tuple[str, tuple[str, ...]]:
    """A credential under a name that says so, among ordinary parameters."""
    name = rng.choice(_CREDENTIAL_PARAMS)
    secret = token(rng)
    params = _benign_params(rng)
    params.insert(rng.randint(0, len(params)), f"{name}={secret}")
    path = rng.choice(("", "data/2.5/weather", "v1/items", "api", "search"))
    return f"https://{host(rng)}/{path}?{'&'.join(params)}", (secret,)


def _sas(rng: random.Random) -> tuple[str, tuple[str, ...]]:
    """An Azure shared access signature: ``sv=...&sig=<base64, percent-encoded>``."""
    secret = quote(random_string(rng, BASE64, 43) + "=", safe="")
    start = f"20{rng.randint(20, 29)}-0{rng.randint(1, 9)}-1{rng.randint(0, 9)}"
    query = (
        f"sv=20{rng.randint(19, 24)}-0{rng.randint(1, 9)}-0{rng.randint(1, 9)}&ss=bfqt&srt=sco"
        f"&sp={rng.choice(('r', 'rl', 'rwdlac'))}&st={start}T08:00:00Z&spr=https&sig={secret}"
    )
    return f"https://{word(rng)}.blob.core.windows.net/{word(rng)}?{query}", (secret,)


def _presigned(rng: random.Random) -> tuple[str, tuple[str, ...]]:
    """An S3 presigned URL (SigV4 query): the signature and the session token."""
    signature = random_string(rng, HEX_LOWER, 64)
    session = quote(random_string(rng, BASE64, rng.randint(100, 300)), safe="")
    query = (
        "X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Date=20240101T000000Z&X-Amz-Expires=3600"
        f"&X-Amz-Security-Token={session}&X-Amz-SignedHeaders=host&X-Amz-Signature={signature}"
    )
    return f"https://{word(rng)}.s3.amazonaws.com/{word(rng)}.pdf?{query}", (signature, session)


# --- cookies (RFC 6265) ------------------------------------------------------------------

_SESSION_COOKIES: tuple[tuple[str, Callable[[random.Random], str]], ...] = (
    ("sessionid", lambda rng: random_string(rng, LOWNUM, 32)),
    ("csrftoken", lambda rng: random_string(rng, BASE62, rng.choice((32, 64)))),
    ("PHPSESSID", lambda rng: random_string(rng, LOWNUM, 26)),
    ("JSESSIONID", lambda rng: random_string(rng, "0123456789ABCDEF", 32)),
    (
        "connect.sid",
        lambda rng: (
            "s%3A" + random_string(rng, BASE64URL, 32) + "." + random_string(rng, BASE64URL, 43)
        ),
    ),
    ("_session_id", lambda rng: random_string(rng, HEX_LOWER, 32)),
    ("remember_token", lambda rng: random_string(rng, BASE64URL, 40)),
    ("laravel_session", lambda rng: random_string(rng, BASE64, rng.randint(200, 300)) + "%3D"),
    ("auth", lambda rng: token(rng)),
    ("sid", lambda rng: random_string(rng, BASE62, 24)),
)


def _cookie(rng: random.Random) -> tuple[str, tuple[str, ...]]:
    """``Cookie:`` with one to three session cookies among preferences."""
    chosen = rng.sample(_SESSION_COOKIES, rng.randint(1, 3))
    pairs = [(name, draw(rng)) for name, draw in chosen]
    if rng.random() < 0.5:
        pairs.insert(rng.randint(0, len(pairs)), (rng.choice(("theme", "lang", "tz")), word(rng)))
    header = rng.choice(("Cookie", "cookie", "COOKIE"))
    text = f"{header}: " + "; ".join(f"{name}={value}" for name, value in pairs)
    secrets = tuple(value for name, value in pairs if name not in {"theme", "lang", "tz"})
    context = rng.choice(("{C}", "curl -H '{C}' https://x.io/me", "request headers: {C}"))
    return context.format(C=text), secrets


def _set_cookie(rng: random.Random) -> tuple[str, tuple[str, ...]]:
    """``Set-Cookie: name=value; Path=/; HttpOnly...``"""
    name, draw = rng.choice(_SESSION_COOKIES)
    value = draw(rng)
    attributes = rng.sample(
        ["Path=/", "HttpOnly", "Secure", "SameSite=Lax", "Max-Age=1209600", f"Domain=.{host(rng)}"],
        rng.randint(1, 4),
    )
    return f"Set-Cookie: {name}={value}; " + "; ".join(attributes), (value,)


# --- assignments whose key glues a secret word ---------------------------------------------

#: libpq's PGPASSWORD and MySQL's MYSQL_PWD are documented as passwords; the rest glue
#: a prefix to a secret word the way configs and env files do.
_DOCUMENTED_ENV = ("PGPASSWORD", "MYSQL_PWD", "MYSQL_ROOT_PASSWORD", "MONGO_INITDB_ROOT_PASSWORD")
_SECRET_WORDS = ("password", "passwd", "pwd", "pass", "token", "secret", "apikey", "authtoken")
_PREFIXES = ("db", "pg", "my", "admin", "root", "smtp", "redis", "app", "mail", "ldap", "client")

_ASSIGN_CONTEXTS = (
    "{K}={V}",
    "export {K}='{V}'",
    "{K}: {V}",
    '"{K}": "{V}",',
    '  {K}: "{V}"',
    "docker run -e {K}={V} app",
    "set {K}={V} before running psql",
    "{K} = {V}",
)


def _glued_key(rng: random.Random) -> tuple[str, tuple[str, ...]]:
    """A secret word with a prefix glued on, in a random case style."""
    parts = [rng.choice(_PREFIXES), rng.choice(_SECRET_WORDS)]
    if parts[1] == "apikey" and rng.random() < 0.5:
        parts[1:] = ["api", "key"]
    style = rng.choice(("screaming", "glued_upper", "glued_lower", "camel", "header", "sep"))
    key = _identifier(rng, parts, style)
    if style == "camel" and rng.random() < 0.5:
        key = key.replace("Word", "WORD").replace("word", "Word")
    value = rng.choice((token(rng), human_password(rng)))
    return _in_context(rng, _ASSIGN_CONTEXTS, K=key, V=value), (value,)


def _documented_env(rng: random.Random) -> tuple[str, tuple[str, ...]]:
    """The password variables libpq and MySQL read, set the way shells set them."""
    value = rng.choice((token(rng), human_password(rng)))
    return _in_context(
        rng, _ASSIGN_CONTEXTS[:2] + _ASSIGN_CONTEXTS[5:7], K=rng.choice(_DOCUMENTED_ENV), V=value
    ), (value,)


def _env_suffix(rng: random.Random) -> tuple[str, tuple[str, ...]]:
    """A POSIX env name ending in ``_KEY``, ``_SECRET``, ``_TOKEN``, ``_PASS``... with a
    random value."""
    stem = "_".join(word(rng).upper() for _ in range(rng.randint(1, 2)))
    suffix = rng.choice(("KEY", "SECRET", "TOKEN", "PASS", "PW", "PWD", "CREDENTIALS", "API_KEY"))
    value = token(rng)
    return _in_context(rng, _ASSIGN_CONTEXTS, K=f"{stem}_{suffix}", V=value), (value,)


def _header_key(rng: random.Random) -> tuple[str, tuple[str, ...]]:
    """An HTTP header whose name holds a secret word: ``x-api-key: <token>``."""
    name = rng.choice(
        (
            "x-api-key",
            "X-API-Key",
            "X-Auth-Token",
            "api-key",
            "X-Access-Token",
            "x-secret-key",
            "Private-Token",
        )
    )
    value = token(rng)
    template = rng.choice(("{K}: {V}", "curl -H '{K}: {V}' https://x.io", '-H "{K}: {V}"'))
    return template.format(K=name, V=value), (value,)


# --- multi-word values ----------------------------------------------------------------------


def _multi_word(rng: random.Random) -> tuple[str, tuple[str, ...]]:
    """A passphrase of plain words after a password keyword."""
    value = passphrase(rng)
    keyword = rng.choice(
        (
            "passphrase",
            "password",
            "wifi password",
            "Wi-Fi password",
            "pass phrase",
            "WPA passphrase",
        )
    )
    template = rng.choice(
        (
            "{K}: {V}",
            'the {K} is "{V}"',
            "our {K} is {V}",
            '{K} = "{V}"',
            "{K}: {V}.",
            "guest {K}: {V}\nrouter in the hall",
        )
    )
    return template.format(K=keyword, V=value), (value,)


#: (family, generator): each family's cases come from its generator.
FAMILIES: tuple[tuple[str, str, Callable[[random.Random], tuple[str, tuple[str, ...]]]], ...] = (
    ("url_bot_path", _RFC3986 + " path segment (bot<id>:<token>)", _bot_path),
    ("url_keyed_path", _RFC3986 + " path segment after a key name", _keyed_path),
    ("url_empty_user", _RFC3986 + " userinfo with an empty user", _empty_user),
    ("url_token_user", _RFC3986 + " userinfo, a token as the user", _token_user),
    ("url_named_user", _RFC3986 + " userinfo, a token-name user", _named_user),
    ("url_user_password", _RFC3986 + " userinfo user:password", _user_password),
    ("query_named", _RFC3986 + " query, credential parameter names", _query_value),
    ("query_sas", "Azure SAS query (sv=...&sig=)", _sas),
    ("query_presigned", "AWS SigV4 presigned query", _presigned),
    ("cookie", _RFC6265 + " Cookie header", _cookie),
    ("set_cookie", _RFC6265 + " Set-Cookie header", _set_cookie),
    ("assign_glued", "config keys glued to a secret word", _glued_key),
    ("assign_documented_env", "libpq PGPASSWORD, MySQL MYSQL_PWD env variables", _documented_env),
    ("assign_env_suffix", _POSIX + " ending in a secret word", _env_suffix),
    ("assign_header", "HTTP headers named for a secret", _header_key),
    ("multi_word", "passphrases of plain words", _multi_word),
)


def cases(rng: random.Random, per_family: int) -> list[Case]:
    """``per_family`` cases of every family; URLs are set in a drawn context."""
    found: list[Case] = []
    for name, source, draw in FAMILIES:
        for _ in range(per_family):
            text, secrets = draw(rng)
            if name.startswith(("url_", "query_")):
                text = rng.choice(_URL_CONTEXTS).format(U=text)
            found.append(Case(f"structural_{name}", source, text, secrets))
    return found


# --- look-alikes ------------------------------------------------------------------------------


def _url_lookalikes(rng: random.Random) -> list[str]:
    """URLs with ids, hashes and placeholders where credentials could be."""
    sha = random_string(rng, HEX_LOWER, 40)
    return [
        f"fixed in https://{host(rng)}/{word(rng)}/{word(rng)}/commit/{sha}",
        f"see https://{host(rng)}/{word(rng)}/blob/{sha}/src/{word(rng)}.py#L{rng.randint(1, 400)}",
        f"the bundle https://{host(rng)}/static/app.{random_string(rng, HEX_LOWER, 20)}.js loads",
        f"profile at https://{host(rng)}/users/{_uuid(rng)}/settings",
        f"watch https://youtu.be/{random_string(rng, BASE64URL, 11)} first",
        f"spec: https://docs.{host(rng)}/document/d/{random_string(rng, BASE64URL, 44)}/edit",
        f"https://{host(rng)}/bot<TOKEN>/sendMessage is the endpoint shape",
        f"https://{host(rng)}/services/YOUR/WEBHOOK/URL in the template",
        f"clone ssh://git@{host(rng)}/{word(rng)}/{word(rng)}.git",
        f"git@{host(rng)}:{word(rng)}/{word(rng)}.git is the remote",
        f"mail {word(rng)}@{host(rng)} or open https://{word(rng)}@{host(rng)}/",
        f"postgres://localhost:{rng.randint(1024, 65535)}/{word(rng)} on the laptop",
        f"postgres://user:pass@localhost/{word(rng)} in the README",
        f"redis://username:password@{host(rng)}:6379/0 (the docs' example)",
        f"amqp://<user>:<password>@{host(rng)}:5672/",
        "mongodb://${MONGO_USER}:${MONGO_PASSWORD}@mongo:27017",
        f"https://user:****@{host(rng)}/ was logged",
        f"https://{host(rng)}/api/v2/keys/{rng.randint(1, 9999)} lists one key",
        f"https://{host(rng)}/tokens/new to make one",
        f"https://{host(rng)}/{word(rng)}/{word(rng)}-{word(rng)}-{rng.randint(2, 99)}/",
    ]


def _query_lookalikes(rng: random.Random) -> list[str]:
    """Ordinary query strings, and credential names with placeholder or absent values."""
    h = host(rng)
    return [
        f"https://{h}/items?id={rng.randint(1, 9999)}",
        f"https://{h}/list?page={rng.randint(1, 30)}&sort=name",
        f"https://{h}/post?utm_source=newsletter&utm_medium=email"
        f"&utm_campaign={word(rng)}_{rng.randint(2020, 2026)}",
        f"https://{h}/search?q={word(rng)}+{word(rng)}&lang=en",
        f"https://{h}/watch?v={random_string(rng, BASE64URL, 11)}&t={rng.randint(1, 900)}s",
        f"https://maps.{h}/api/js?key=YOUR_API_KEY&callback=initMap",
        f"https://maps.{h}/api/js?key=GOOGLE_MAPS_API_KEY&libraries=places",
        f"https://{h}/api?key={{key}}&q={word(rng)}",
        f"https://{h}/login?next=/{word(rng)}&session=expired",
        f"https://{h}/oauth/authorize?client_id={word(rng)}&response_type=code&scope=read",
        f"https://{h}/api?token=&page=2",
        f"https://{h}/reset?token=<token>",
        f"https://{h}/?sig=v2&sort_key=created_at&primary_key=id",
        f"https://{h}/compare?ref={random_string(rng, HEX_LOWER, 7)}&base=main",
    ]


def _cookie_lookalikes(rng: random.Random) -> list[str]:
    return [
        f"Cookie: theme=dark; lang={rng.choice(('en', 'fr', 'de'))}",
        f"Set-Cookie: lang=en-US; Path=/; Max-Age={rng.randint(60, 86400)}",
        "Set-Cookie: sessionid=<session id>; Path=/; HttpOnly",
        "cookie: consent=true; tz=Europe/Paris; seen_banner=1",
        "the sessionid cookie is HttpOnly and the csrftoken one is not",
    ]


def _assignment_lookalikes(rng: random.Random) -> list[str]:
    """Keys with secret words whose values are names, numbers, masks or placeholders."""
    name = word(rng).upper()
    return [
        "password: ********",
        "password=<redacted>",
        "DB_PASSWORD=${DB_PASSWORD}",
        f"PGPASSWORD=${name}_PASS psql -h db",
        "key=value in the docs means any pair",
        "primary_key=id",
        "sort_key: created_at",
        f"max_tokens: {rng.choice((256, 1024, 4096, 8192))}",
        f"token_expiry: {rng.randint(60, 86400)}",
        f"cache_key: user:{rng.randint(1, 999)}:profile",
        "tokenizer: bpe",
        "x-api-key: <your key>",
        "client-secret: ${CLIENT_SECRET}",
        f"{name}_TOKEN={name}_TOKEN_FILE",
        f"{name}_SECRET_ARN=arn:aws:secretsmanager:eu-west-1:"
        f"{random_string(rng, string.digits, 12)}:secret:{word(rng)}",
        "MYSQL_PWD is read by the client, but the manual calls it insecure",
        "export PGPASSWORD # set from the vault",
        "dbPassword: process.env.DB_PASSWORD",
        "passwordField: 'input[type=password]'",
        f"{name}_KEY_ID=12",
    ]


def _prose_lookalikes(rng: random.Random) -> list[str]:
    """Prose about passwords, passphrases and tokens (no value in it)."""
    return [
        "reset your password at the login page",
        f"the password policy says {rng.randint(8, 16)} chars",
        f"token refresh happens at 0{rng.randint(1, 9)}:00",
        "password: expires every 90 days",
        "passphrase: at least four words, no names",
        "wifi password: on the fridge",
        "password: see the vault entry",
        "the password is stored in the team vault",
        f"my password is {rng.randint(12, 20)} characters long now",
        "password: required for admin accounts",
        "Wi-Fi password: ask at the front desk",
        "the passphrase must be four words or more",
        "token: expired",
        "the secret is to keep the dough cold",
        "the key to the shed is under the mat",
        "bypass: true",
    ]


def lookalikes(rng: random.Random) -> list[Case]:
    """Texts that hold no secret: ordinary URLs and queries, preference cookies,
    placeholder assignments, prose."""
    groups = (
        ("structural_url_lookalike", _url_lookalikes),
        ("structural_query_lookalike", _query_lookalikes),
        ("structural_cookie_lookalike", _cookie_lookalikes),
        ("structural_assign_lookalike", _assignment_lookalikes),
        ("structural_prose_lookalike", _prose_lookalikes),
    )
    return [Case(family, "look-alikes", text) for family, draw in groups for text in draw(rng)]
