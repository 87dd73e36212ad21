"""Every kind of secret the detector must catch, with realistic fake values.

Fake tokens are written as split string literals so that secret scanners reading this
file do not flag it; the code under test only ever sees the joined value.
"""

from __future__ import annotations

import itertools

import pytest

from memrepo.hygiene import (
    REDACTION_MARKER,
    SECRET_KINDS,
    SecretMatch,
    find_secrets,
    redact_secrets,
)

from .corpus import load_secrets

AWS_KEY_ID = "AKIAIOSFODNN7Q2XK4ZB"
AWS_SESSION_KEY_ID = "ASIAY34FZKBOKMUTVV7A"
AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzq8Lk3Pz9Q"
GITHUB_TOKENS = [
    "ghp_1a2B3c4D5e6F7g8H9i0J1k2L3m4N5o6P7q8R",
    "gho_Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0FeDcBa9",
    "ghu_a1b2c3d4e5f6g7h8i9j0k1l2m3n4o5p6q7r8",
    "ghs_Q4w5E6r7T8y9U0i1O2p3A4s5D6f7G8h9J0kL",
    "ghr_mN3bV5cX7zL9kJ1hG3fD5sA7pO9iU1yT3rE5",
    "github_pat_11ABCDEFG0123456789_aQ7cXm2KpL9sWd4FhJ6tRb8NyEv3Gz5UoCi1Mk0PqZnT4xHs7WfYe2LjA9dVrBg",
]
GITLAB_TOKEN = "glpat-9zXq3YtR5uWv7AbCdEfG"
SLACK_TOKENS = [
    "xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx",
    "xoxp-223456789012-2234567890123-3234567890123-9f8e7d6c5b4a39281706f5e4d3c2b1a0",
    "xoxa-2-323456789012-4234567890123-ZyXwVuTsRqPo",
    "xoxr-423456789012-5234567890123-QwErTyUiOpAs",
    "xoxs-523456789012-6234567890123-LkJhGfDsAzXc",
]
SLACK_WEBHOOK_PATH = "T01ABCDEF/B02GHIJKL/aBcDeFgHiJkLmNoPqRsTuVwX"
SK_KEYS = [
    "sk-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb3dEf6h",
    "sk-proj-Xy4zAb3dEf6hIj9kLm2nOp5qRs8tUv1w_T3BlbkFJ",
    "sk-ant-api03-Q1w2E3r4T5y6U7i8O9p0A1s2D3f4G5h6J7k8L9z0-x1C2v3B4n5M6AA",
]
GOOGLE_KEY = "AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY"
JWT = (
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9."
    "eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkphbmUiLCJpYXQiOjE3MTUwMDAwMDB9."
    "dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"
)
PEM = (
    "-----BEGIN RSA PRIVATE KEY-----\n"
    "MIIEowIBAAKCAQEA3Tz2mr7SZiAMfQyuvBjM9Oi4QmLJrYkpo5Y1dOtW8c4qL0Y7\n"
    "yXb2Jz3kQ9fA1cD4eG7hJ0kL3mN6pQ9rS2tU5vW8xY1zA4bC7dE0fG3hI6jK9lM\n"
    "-----END RSA PRIVATE KEY-----"
)
CARD_NUMBERS = ["4111 1111 1111 1111", "5500-0000-0000-0004", "378282246310005", "6011000990139424"]


def _only(text: str) -> SecretMatch:
    matches = find_secrets(text)
    assert len(matches) == 1, matches
    return matches[0]


def _assert_redacted(text: str, secret: str, kind: str) -> str:
    match = _only(text)
    assert match.kind == kind
    assert text[match.start : match.end] == secret
    redacted, kinds = redact_secrets(text)
    assert kinds == (kind,)
    assert secret not in redacted
    assert f"[redacted {kind}]" in redacted
    return redacted


@pytest.mark.parametrize("key_id", [AWS_KEY_ID, AWS_SESSION_KEY_ID])
def test_aws_access_key_id(key_id: str) -> None:
    assert _assert_redacted(f"deploy uses {key_id} for s3", key_id, "aws_access_key_id") == (
        "deploy uses [redacted aws_access_key_id] for s3"
    )


@pytest.mark.parametrize(
    "text",
    [
        f"aws_secret_access_key = {AWS_SECRET}",
        f'"AWS_SECRET_ACCESS_KEY": "{AWS_SECRET}"',
        f"the AWS secret key is {AWS_SECRET} for prod",
    ],
)
def test_aws_secret_access_key_next_to_secret_word(text: str) -> None:
    redacted = _assert_redacted(text, AWS_SECRET, "aws_secret_access_key")
    assert "ecret" in redacted  # the context word stays readable


@pytest.mark.parametrize("token", GITHUB_TOKENS)
def test_github_tokens(token: str) -> None:
    _assert_redacted(f"push with {token}.", token, "github_token")


def test_gitlab_token() -> None:
    _assert_redacted(f"CI uses {GITLAB_TOKEN} to clone", GITLAB_TOKEN, "gitlab_token")


@pytest.mark.parametrize("token", SLACK_TOKENS)
def test_slack_tokens(token: str) -> None:
    _assert_redacted(f"bot token {token} in vault", token, "slack_token")


def test_slack_webhook_url_keeps_host_hides_path() -> None:
    text = f"alerts go to https://hooks.slack.com/services/{SLACK_WEBHOOK_PATH} daily"
    redacted = _assert_redacted(text, SLACK_WEBHOOK_PATH, "slack_token")
    assert redacted == (
        "alerts go to https://hooks.slack.com/services/[redacted slack_token] daily"
    )


@pytest.mark.parametrize("key", SK_KEYS)
def test_sk_style_api_keys(key: str) -> None:
    _assert_redacted(f"OPENAI key {key} (rotate monthly)", key, "api_key")


def test_sk_prefix_needs_twenty_characters() -> None:
    assert find_secrets("short sk-Ab3dEf6hIj9kLm2 is not a key") == []


def test_google_api_key() -> None:
    _assert_redacted(f"maps key {GOOGLE_KEY}", GOOGLE_KEY, "google_api_key")


def test_jwt() -> None:
    _assert_redacted(f"session cookie was {JWT}.", JWT, "jwt")


def test_private_key_block_with_newlines() -> None:
    assert _assert_redacted(f"key:\n{PEM}\nend", PEM, "private_key") == (
        "key:\n[redacted private_key]\nend"
    )


def test_private_key_block_with_newlines_collapsed() -> None:
    collapsed = " ".join(PEM.split())
    _assert_redacted(f"the deploy key {collapsed} lives here", collapsed, "private_key")


@pytest.mark.parametrize(
    "header",
    ["OPENSSH PRIVATE KEY", "PRIVATE KEY", "EC PRIVATE KEY", "ENCRYPTED PRIVATE KEY"],
)
def test_private_key_variants(header: str) -> None:
    block = f"-----BEGIN {header}----- b3BlbnNzaC1rZXktdjEAAAAA -----END {header}-----"
    _assert_redacted(f"x {block} y", block, "private_key")


def test_private_key_without_end_runs_to_the_end() -> None:
    text = "pasted -----BEGIN OPENSSH PRIVATE KEY----- b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAA"
    assert redact_secrets(text) == ("pasted [redacted private_key]", ("private_key",))


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("password=hunter2x", "hunter2x"),
        ("password=my_pass123", "my_pass123"),
        ("DB_PASSWORD=Tr0ub4dor&3 in .env", "Tr0ub4dor&3"),
        ("passwd: s3cr3t-pw!", "s3cr3t-pw!"),
        ("token=8f3kq9zzLm2", "8f3kq9zzLm2"),
        ("secret: Xk29_pq81mz", "Xk29_pq81mz"),
        ("client_secret: 4bd1f0a7c9e2", "4bd1f0a7c9e2"),
        ("api_key=a8d7f6e5c4b3", "a8d7f6e5c4b3"),
        ('{"password": "correct horse battery staple"}', "correct horse battery staple"),
        ("'token': 'ab12cd34ef56'", "ab12cd34ef56"),
        ("my wifi password is 2fast4you!", "2fast4you!"),
        ("Authorization: Bearer abcDEF123456ghiJKL789", "abcDEF123456ghiJKL789"),
        ("https://api.example.com/v1?token=q9w8e7r6t5y4", "q9w8e7r6t5y4"),
    ],
)
def test_assignment_redacts_the_value_and_keeps_the_keyword(text: str, value: str) -> None:
    redacted = _assert_redacted(text, value, "assignment")
    assert redacted == text.replace(value, "[redacted assignment]")


@pytest.mark.parametrize(
    ("url", "credentials"),
    [
        ("https://deploy:S3cretPass@git.example.com/repo.git", "deploy:S3cretPass"),
        ("postgres://app:pa55w0rd@db.internal:5432/app", "app:pa55w0rd"),
    ],
)
def test_url_credentials(url: str, credentials: str) -> None:
    redacted = _assert_redacted(f"clone {url} now", credentials, "url_credentials")
    assert "@" in redacted and "://[redacted url_credentials]@" in redacted


@pytest.mark.parametrize("number", CARD_NUMBERS)
def test_card_numbers_passing_luhn(number: str) -> None:
    _assert_redacted(f"paid with {number}, thanks", number, "card_number")


def test_overlapping_candidates_merge_into_the_most_specific_kind() -> None:
    token = GITHUB_TOKENS[0]
    assert redact_secrets(f"GITHUB_TOKEN={token}") == (
        "GITHUB_TOKEN=[redacted github_token]",
        ("github_token",),
    )
    url = f"https://x-access-token:{token}@github.com/org/repo"
    redacted, _ = redact_secrets(url)
    assert token not in redacted
    assert "x-access-token" not in redacted


def test_matches_are_sorted_and_disjoint() -> None:
    text = f"{JWT} and {AWS_KEY_ID} then password=hunter2x and {GOOGLE_KEY}"
    matches = find_secrets(text)
    assert [m.kind for m in matches] == [
        "jwt",
        "aws_access_key_id",
        "assignment",
        "google_api_key",
    ]
    assert all(a.end <= b.start for a, b in itertools.pairwise(matches))


def test_kinds_are_distinct_in_order_of_appearance() -> None:
    text = f"{GOOGLE_KEY} {AWS_KEY_ID} {GOOGLE_KEY}"
    assert redact_secrets(text)[1] == ("google_api_key", "aws_access_key_id")


def _leaked(secret: str, redacted: str) -> int:
    """Length of the longest piece of ``secret`` still in ``redacted`` (markers aside:
    "[redacted github_token]" shares "github_" with every github_pat_ token by design).
    """
    return _longest_common_substring(secret, REDACTION_MARKER.sub("[]", redacted))


def _longest_common_substring(a: str, b: str) -> int:
    best = 0
    for i in range(len(a)):
        for j in range(i + best + 1, len(a) + 1):
            if a[i:j] in b:
                best = j - i
            else:
                break
    return best


def _one_case_per_kind() -> dict[str, tuple[str, str]]:
    """For every kind, the first corpus sample holding one secret redacted as that kind."""
    cases: dict[str, tuple[str, str]] = {}
    for sample in load_secrets():
        kinds = redact_secrets(sample.text)[1]
        if len(kinds) == 1 and len(sample.secrets) == 1:
            cases.setdefault(kinds[0], (sample.text, sample.secrets[0]))
    return cases


SECRET_IN_CONTEXT: dict[str, tuple[str, str]] = {
    **_one_case_per_kind(),
    "private_key": (f"k {PEM} k", PEM),
    "card_number": ("card 4111 1111 1111 1111 ok", "4111 1111 1111 1111"),
    "assignment": ("password=Hunter2Pw9x!", "Hunter2Pw9x!"),
}


def test_every_kind_has_a_leak_case() -> None:
    assert set(SECRET_IN_CONTEXT) == set(SECRET_KINDS)


@pytest.mark.parametrize("kind", SECRET_KINDS)
def test_no_fragment_longer_than_four_characters_survives(kind: str) -> None:
    text, secret = SECRET_IN_CONTEXT[kind]
    redacted, kinds = redact_secrets(text)
    assert kinds == (kind,)
    assert _leaked(secret, redacted) <= 4, redacted


@pytest.mark.parametrize("kind", SECRET_KINDS)
def test_redaction_is_idempotent(kind: str) -> None:
    once, _ = redact_secrets(SECRET_IN_CONTEXT[kind][0])
    assert redact_secrets(once) == (once, ())


@pytest.mark.parametrize("kind", SECRET_KINDS)
def test_marker_is_never_metadata(kind: str) -> None:
    """A '[key: value]' group at line end is metadata; a marker must not look like one."""
    redacted, _ = redact_secrets(SECRET_IN_CONTEXT[kind][0])
    assert f"[redacted {kind}]" in redacted
    assert ":" not in f"[redacted {kind}]"


STANDALONE = [
    AWS_KEY_ID,
    GITHUB_TOKENS[0],
    GITHUB_TOKENS[-1],
    GITLAB_TOKEN,
    SLACK_TOKENS[0],
    GOOGLE_KEY,
    SK_KEYS[2],
    JWT,
    CARD_NUMBERS[0],
    " ".join(PEM.split()),
]


@pytest.mark.parametrize("secret", STANDALONE, ids=range(len(STANDALONE)))
@pytest.mark.parametrize("context", ["it is {}.", "({})", "'{}',", "`{}`", "<{}>", "{}; next"])
def test_secrets_next_to_punctuation(secret: str, context: str) -> None:
    text = context.format(secret)
    redacted, _ = redact_secrets(text)
    assert _leaked(secret, redacted) <= 4, redacted


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        # A token after "=" is a token: an env line or a query string.
        (
            "BWS_TOKEN=0."
            + "4f1c2e3d-5b6a-4c7d-8e9f-0a1b2c3d4e5f."
            + "Xq7Lm2Pz9Rt4Vw6Yb8Nc1Df3Gh5Jk0"
            + ":Qm9vYmFyQmF6UXV4Zm9vYg==",
            "0.4f1c2e3d-5b6a-4c7d-8e9f-0a1b2c3d4e5f.Xq7Lm2Pz9Rt4Vw"
            "6Yb8Nc1Df3Gh5Jk0:Qm9vYmFyQmF6UXV4Zm9vYg==",
        ),
        # A token may end in "-" or "_" (GitLab's and OpenAI's alphabets hold both).
        ("push with glpat-" + "Wq8Aj3ENlDAih6IBcfc-" + " today", "glpat-Wq8Aj3ENlDAih6IBcfc-"),
        # A letters-only random body after a vendor prefix is still random.
        ("set `sm_pat_" + "PWabFWIUkHLaJlSp` now", "sm_pat_PWabFWIUkHLaJlSp"),
    ],
)
def test_token_edges(text: str, secret: str) -> None:
    redacted, kinds = redact_secrets(text)
    assert kinds
    assert _leaked(secret, redacted) <= 4, redacted
