"""Things that look a little like secrets and must stay readable."""

from __future__ import annotations

import pytest

from memrepo.hygiene import find_secrets, redact_secrets


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("fixed in 3f786850e387550fdab836ed7e6dc881de23001b", id="git-sha-40"),
        pytest.param("see commit 3f78685 and 3f786850e387", id="git-sha-short"),
        pytest.param(
            "the secret fix is commit 3f786850e387550fdab836ed7e6dc881de23001b",
            id="git-sha-next-to-secret",
        ),
        pytest.param("request 123e4567-e89b-12d3-a456-426614174000 failed", id="uuid"),
        pytest.param("ISBN 978-3-16-148410-0 and 9783161484100", id="isbn"),
        pytest.param("call +1 415 555 0132 or 0176 12345678", id="phone"),
        pytest.param("order 4111111111111112 and 1234 5678 9012 3456", id="luhn-fails"),
        pytest.param("epoch ms 1715000000000 and 1715000000001", id="timestamps"),
        pytest.param("due 2024-05-01, 01/05/2024, 2024-05-01T10:00:00Z", id="dates"),
        pytest.param("upgrade to v1.2.3, 3.11.4 and 2024.1.0-rc1", id="versions"),
        pytest.param("the token expired yesterday", id="token-prose"),
        pytest.param("reset my password tomorrow", id="password-prose"),
        pytest.param("a secret: keep the surprise", id="secret-prose"),
        pytest.param("password: forgotten, token: Expired, secret: Surprise", id="plain-words"),
        pytest.param("the token is expired and the password is unknown", id="is-prose"),
        pytest.param("max tokens: 4096, password policy: strong", id="settings-prose"),
        pytest.param('"token_type": "bearer", "expires_in": 3600', id="oauth-fields"),
        pytest.param("password=$DB_PASSWORD token=${TOKEN} secret: <your-secret>", id="vars"),
        pytest.param("api_key=your_api_key_here password: ******** token=xxxxxxxx", id="masks"),
        pytest.param("update the task-list, it is risk-free and sk-learn based", id="sk-prose"),
        pytest.param(
            "task-sk-abcdefghijklmnopqrstuvwxyz and sk-style-api-keys-are-common-here",
            id="sk-prose-long",
        ),
        pytest.param("docs at https://user@example.com/path?q=1#frag", id="url-no-password"),
        pytest.param("served on https://example.com:8443/a@b", id="url-port"),
        pytest.param(
            "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHmqN8rGv4tyRr9QW2yX7kZ1sPq3uVcB0dE9fGhJkLmN "
            "dev@laptop",
            id="ssh-public-key-ed25519",
        ),
        pytest.param(
            "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQC7Xq9vYz2mKp4Lr8sT1uV6wN3bC5dF0gH2jI4kM7nO9"
            "pQ1rS3tU5vW8xY0zA2bC4dE6fG8hI0jK2lM4nO6pQ8rS0tU2vW4xY6zA8bC0dE2fG4hI6jK8lM0nO2pQ4"
            " ops@bastion",
            id="ssh-public-key-rsa",
        ),
        pytest.param(
            "-----BEGIN PUBLIC KEY----- MIIBIjANBgkqhkiG9w0BAQEFAAOC -----END PUBLIC KEY-----",
            id="pem-public-key",
        ),
        pytest.param("AKIA is the prefix of AWS access key ids", id="aws-prefix-prose"),
    ],
)
def test_not_redacted(text: str) -> None:
    assert find_secrets(text) == []
    assert redact_secrets(text) == (text, ())


@pytest.mark.parametrize(
    "text",
    [
        # gitleaks' own false positives for its token rules: stand-in bodies.
        pytest.param("the docs show ghp_" + "x" * 36 + " as the format", id="ghp-xs"),
        pytest.param("copy AKIA" + "X" * 16 + " from the template", id="akia-xs"),
        pytest.param("the example key AKIAIOSFODNN" + "7EXAMPLE is fine", id="akia-example"),
        pytest.param("(sk_live_" + "1234567890" * 3 + ").", id="stripe-sequence"),
        pytest.param('"npm_' + "0" * 36 + '"', id="npm-zeros"),
        pytest.param("use pat" + "X" * 14 + "." + "0" * 64 + " here", id="airtable-xs"),
        pytest.param("xoxb-your-token-here-1234567890", id="slack-your"),
        pytest.param("the campaign slug is sk-2024-summer-sale-banner-v2", id="sk-slug"),
        pytest.param(
            "the checkout page embeds pk_live_" + "4eC39HqLyjWDarjtT1zdp7dc", id="pk-live"
        ),
        pytest.param('"integrity": "sha512-' + "Zm9vYmFy" * 10 + 'Zm9vYmFyZm9v=="', id="sri"),
    ],
)
def test_placeholders_and_public_ids_are_kept(text: str) -> None:
    assert redact_secrets(text) == (text, ())
