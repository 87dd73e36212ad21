"""Prefix-bearing credentials of SaaS, payment and AI vendors (see ``_tokens``).

Shapes rewritten (not copied) from where they are documented:

- gitleaks (``cmd/generate/config/rules``): airtable-personnal-access-token,
  typeform-api-token, mailchimp-api-key, asana (PATs), braintree-access-token,
  braintree-tokenization-key, duffel-api-token, flutterwave-secret-key,
  flutterwave-encryption-key, lob-api-key, gocardless-api-token, new-relic (NRAA),
  anthropic-admin-api-key (the ``sk-`` core rule);
- GitHub secret-scanning partner patterns: ClickUp (``pk_<user>_<32>``), HubSpot
  private app tokens (``pat-na1-<uuid>``), Adafruit IO (``aio_``), Ionic (``ion_``),
  Onfido (``api_live.``), Midtrans (``Mid-server-``), Rootly, Samsara, Zuplo, PostHog
  personal keys (``phx_``), Telnyx, LaunchDarkly (``api-``/``sdk-`` + UUID), Paddle,
  Mercury, DevCycle, NVIDIA (``nvapi-``), Ubidots (``BBFF-``);
- trufflehog (``pkg/detectors``): elevenlabs (``sk_`` + 48 hex), togetherai
  (``tgp_v1_``), cerebras (``csk-``), mailersend (``mlsn.``), resend (``re_``), brevo
  SMTP keys (``xsmtpsib-``), klaviyo (``pk_`` + 34 hex), woocommerce (``ck_``/``cs_``),
  paypal access tokens (``A21AA``), pagerduty (``u+``), twitch chat (``oauth:``),
  voyageai (``pa-``), fireworksai (``fw_``), jina (``jina_``), firecrawl (``fc-``),
  browserbase (``bb_live_``), mem0 (``m0-``), modal (``as-``), openai sessions
  (``sess-``).
"""

from __future__ import annotations

import re

from ._base import (
    Rule,
    has_letter_and_digit,
    not_placeholder,
    secret_of,
    token_rule,
    wordlike_share,
)
from ._needs import Needs

_B62 = "[A-Za-z0-9]"
_URL = "[A-Za-z0-9_-]"
_UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"


def _random_not_words(match: re.Match[str]) -> bool:
    """Letters and digits, not mostly pronounceable pieces: a key, not ``live_stream_v2``."""
    return has_letter_and_digit(match) and wordlike_share(secret_of(match)) < 0.7


APP_RULES: tuple[Rule, ...] = (
    token_rule("airtable_token", rf"pat{_B62}{{14}}\.[a-f0-9]{{64}}", "pat"),
    token_rule("clickup_token", r"pk_[0-9]{5,10}_[0-9A-Z]{32}", "pk_"),
    token_rule("mailchimp_key", r"[0-9a-f]{32}-us[0-9]{1,2}", "-us"),
    token_rule("elevenlabs_key", r"sk_[a-f0-9]{48}", "sk_"),
    token_rule("together_key", r"tgp_v1_[A-Za-z0-9_-]{40,48}", "tgp_v1_"),
    token_rule("cerebras_key", r"csk-[A-Za-z0-9]{40,56}", "csk-"),
    token_rule("asana_token", r"[12]/[0-9]{10,16}(?:/[0-9]{10,16})?:[a-f0-9]{32}", "1/", "2/"),
    token_rule(
        "braintree_token",
        r"access_token\$(?:production|sandbox)\$[a-z0-9]{16}(?:\$[a-f0-9]{32})?",
        "access_token$",
    ),
    token_rule(
        # A tokenization key opens with a word, so it must not read as words.
        "braintree_token",
        r"(?:production|sandbox)_[a-z0-9]{8}_[a-z0-9]{16}",
        "production_",
        "sandbox_",
    ),
    token_rule("hubspot_token", rf"pat-(?:na|eu|ap)[0-9]-{_UUID}", "pat-"),
    token_rule(
        "flutterwave_key",
        r"FLWSECK(?:_TEST)?-[A-Ha-h0-9]{32}-X|FLWSECK_TEST[A-Ha-h0-9]{12}",
        "FLWSECK",
    ),
    token_rule("duffel_token", r"duffel_(?:test|live)_[A-Za-z0-9_=-]{43}", "duffel_"),
    token_rule("lob_key", r"(?:live|test)_[a-f0-9]{35}", "live_", "test_"),
    token_rule(
        "gocardless_token",
        r"live_[A-Za-z0-9_=-]{40}",
        "live_",
        validate=_random_not_words,
    ),
    token_rule("launchdarkly_key", rf"(?:api|sdk)-{_UUID}", "api-", "sdk-"),
    token_rule(
        "service_token",
        # Mail and commerce: MailerSend, Resend, Brevo SMTP, Klaviyo, WooCommerce, Paddle,
        # PayPal, Onfido, Midtrans, Mercury, New Relic admin keys.
        r"mlsn\.[a-f0-9]{64}|re_[A-Za-z0-9]{8}_[A-Za-z0-9]{24}"
        rf"|xsmtpsib-[a-f0-9]{{64}}-{_B62}{{16}}|pk_[a-f0-9]{{34}}|c[ks]_[a-f0-9]{{40}}"
        r"|pdl_(?:live|sdbx)_apikey_[A-Za-z0-9_]{40,70}|A21AA[A-Za-z0-9_-]{50,150}"
        r"|api_(?:live|sandbox)(?:_[a-z]{2})?[._][A-Za-z0-9_-]{11}\.[A-Za-z0-9_-]{32}"
        r"|Mid-server-[A-Za-z0-9_-]{24}|mercury_(?:production|sandbox)_[A-Za-z0-9_]{40,80}"
        r"|NRAA-[a-f0-9]{27}",
        *("mlsn.", "re_", "xsmtpsib-", "pk_", "ck_", "cs_", "pdl_", "A21AA", "api_live"),
        *("api_sandbox", "Mid-server-", "mercury_", "NRAA-"),
    ),
    token_rule(
        "service_token",
        # Developer platforms: Adafruit IO, Ionic, Rootly, Samsara, Zuplo, PostHog,
        # Telnyx, DevCycle, PagerDuty, Twitch chat, Ubidots.
        rf"aio_{_B62}{{28}}|ion_{_B62}{{42}}|rootly_[a-f0-9]{{64}}"
        rf"|samsara_api_{_B62}{{30}}|zpka_[a-f0-9]{{32}}_[a-f0-9]{{8}}|phx_{_B62}{{40,50}}"
        rf"|KEY[0-9A-F]{{32}}_{_B62}{{22}}|dvc_server_{_URL}{{30,80}}|u\+[A-Za-z0-9_+-]{{18}}"
        rf"|oauth:[a-z0-9]{{30}}|BBFF-{_B62}{{30}}",
        *("aio_", "ion_", "rootly_", "samsara_api_", "zpka_", "phx_", "KEY"),
        *("dvc_server_", "u+", "oauth:", "BBFF-"),
    ),
    token_rule(
        "service_token",
        # AI platforms: NVIDIA, Voyage, Fireworks, Jina, Firecrawl, Browserbase, mem0,
        # Modal, OpenAI browser sessions.
        rf"nvapi-{_URL}{{64}}|pa-{_URL}{{43}}|fw_{_B62}{{24,48}}|jina_{_URL}{{50,70}}"
        rf"|fc-[a-f0-9]{{32}}|bb_live_{_URL}{{27}}|m0-{_B62}{{40}}|as-{_B62}{{22}}"
        rf"|sess-{_B62}{{40}}",
        *("nvapi-", "pa-", "fw_", "jina_", "fc-", "bb_live_", "m0-", "as-", "sess-"),
    ),
    Rule(
        # Typeform: "tfp_" then 55-64 characters that may include "." (which breaks a
        # long run), so it is gated on its prefix in the whole text.
        "typeform_token",
        re.compile(r"(?<![A-Za-z0-9_.+/=-])tfp_[A-Za-z0-9_.=-]{55,64}(?![A-Za-z0-9_+/=-])"),
        not_placeholder(has_letter_and_digit, 4),
        needs=Needs(any_of=("tfp_",)),
    ),
)
