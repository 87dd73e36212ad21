"""Credentials that announce themselves: a vendor prefix, then a random body.

The families and their shapes follow two maintained rule sets, rewritten here (not
copied) as bounded, case-sensitive Python patterns:

- gitleaks, ``config/gitleaks.toml`` (MIT licence, github.com/gitleaks/gitleaks), rules
  gitlab-rrt, sendgrid-api-token, npm-access-token, pypi-upload-token, huggingface-access-token,
  huggingface-organization-api-token, twilio-api-key, digitalocean-pat,
  digitalocean-access-token, digitalocean-refresh-token, heroku-api-key-v2,
  shopify-access-token, shopify-custom-access-token, shopify-private-app-access-token,
  shopify-shared-secret, mailgun-private-api-token, databricks-api-token, age-secret-key,
  atlassian-api-token, linear-api-key, notion-api-token, doppler-api-token,
  vault-service-token, vault-batch-token, postman-api-token, grafana-api-key,
  grafana-cloud-api-token, grafana-service-account-token, sentry-org-token,
  sentry-user-token, new-relic-user-api-key, new-relic-insert-key, square-access-token,
  planetscale-api-token, planetscale-oauth-token, planetscale-password,
  dropbox-short-lived-api-token, mapbox-api-token, flyio-access-token,
  cloudflare-origin-ca-key, 1password-secret-key, 1password-service-account-token,
  artifactory-api-key, artifactory-reference-token, alibaba-access-key-id,
  adobe-client-secret, clojars-api-token, dynatrace-api-token, easypost-api-token,
  easypost-test-api-token, facebook-page-access-token, frameio-api-token,
  hashicorp-tf-api-token, infracost-api-token, openshift-user-token, perplexity-api-key,
  prefect-api-token, pulumi-api-token, readme-api-token, rubygems-api-token,
  scalingo-api-token, sendinblue-api-token, shippo-api-token, sourcegraph-access-token,
  plaid-api-token, twitter-bearer-token;
- detect-secrets (Apache-2.0 licence, github.com/Yelp/detect-secrets), plugins
  SendGridDetector, NpmDetector, PypiTokenDetector, TwilioKeyDetector,
  DiscordBotTokenDetector, TelegramBotTokenDetector.

Clouds, CI and secret managers continue in ``_tokens_cloud``; SaaS, payment and AI
vendors in ``_tokens_apps`` (each names its sources). Every body must also not be a
placeholder (``_base.is_placeholder``: gitleaks' ``ghp_`` + x's, ``...EXAMPLE``).

Where a vendor documents its prefix but a rule set pins one exact length, the body here
accepts a range around it: a token format that grows a few characters must not start
leaking. Every rule is run-gated (``Needs(run=True)``): its body holds 16 or more base64
characters in a row and its literal sits in that run or just before it.
"""

from __future__ import annotations

import re

from ._base import (
    Rule,
    has_letter_and_digit,
    has_mixed_case_or_digit,
    not_placeholder,
    token_rule,
)
from ._needs import Needs
from ._tokens_apps import APP_RULES
from ._tokens_cloud import CLOUD_RULES

# Not inside a longer token on either side.
_LEFT = r"(?<![A-Za-z0-9_.+/=-])"
_RIGHT = r"(?![A-Za-z0-9_+/=-])"
# Every rule here is a ``token_rule``: its body after the prefix must not be a
# placeholder (``_base.is_placeholder``).
_token = token_rule


_B62 = "[A-Za-z0-9]"
# An app-only Twitter/X bearer token opens with 22 "A"s, spelled out so the pattern opens
# with a literal.
_TWITTER_BEARER_HEAD = "A" * 22
_URL = "[A-Za-z0-9_-]"

TOKEN_RULES: tuple[Rule, ...] = (
    # A GitLab runner registration token (the other GitLab prefixes are in _rules).
    _token("gitlab_token", r"GR1348941[A-Za-z0-9_-]{20,40}", "GR1348941"),
    _token("sendgrid_key", rf"SG\.{_URL}{{20,24}}\.{_URL}{{40,46}}", "SG."),
    _token("npm_token", rf"npm_{_B62}{{32,40}}", "npm_"),
    _token("pypi_token", r"pypi-Ag[A-Za-z0-9_-]{50,1000}", "pypi-Ag"),
    _token(
        "huggingface_token",
        rf"(?:hf_|api_org_){_B62}{{30,40}}",
        "hf_",
        "api_org_",
        validate=has_mixed_case_or_digit,
    ),
    _token("twilio_key", r"AC[0-9a-f]{32}|SK[0-9a-fA-F]{32}", "AC", "SK"),
    # Discord bot token: base64 user id . timestamp . HMAC.
    _token("discord_token", rf"[MNO]{_URL}{{23,27}}\.{_URL}{{6,7}}\.{_URL}{{27,40}}", "."),
    Rule(
        "discord_token",
        re.compile(
            r"discord(?:app)?\.com/api/webhooks/[0-9]{17,20}/"
            r"(?P<secret>[A-Za-z0-9_-]{60,70})(?![A-Za-z0-9_-])"
        ),
        needs=Needs(any_of=("discord",), run=True),
    ),
    Rule(
        "telegram_token",
        # The bot's numeric id, ":", then "A" and 34 more (core.telegram.org/bots/api#making-
        # requests; gitleaks telegram-bot-api-token gives the id 5-16 digits): a range of one
        # around the 35, as for every vendor length.
        re.compile(r"(?<![A-Za-z0-9_:-])[0-9]{5,16}:A[A-Za-z0-9_-]{33,35}(?![A-Za-z0-9_-])"),
        has_letter_and_digit,
        needs=Needs(any_of=(":A",), run=True),
    ),
    _token("digitalocean_token", r"do[opr]_v1_[a-f0-9]{64}", "dop_v1_", "doo_v1_", "dor_v1_"),
    _token("heroku_key", r"HRKU-AA[A-Za-z0-9_-]{50,70}", "HRKU-"),
    _token(
        "shopify_token",
        r"shp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}",
        *("shpat_", "shpss_", "shpca_", "shppa_"),
    ),
    _token("mailgun_key", r"key-[0-9a-f]{32}", "key-"),
    _token("databricks_token", r"dapi[a-f0-9]{32}(?:-[0-9])?", "dapi"),
    _token(
        "age_secret_key",
        r"AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}",
        "AGE-SECRET-KEY-1",
        validate=None,
    ),
    _token("atlassian_token", r"ATATT3[A-Za-z0-9_=-]{150,250}", "ATATT3"),
    _token("linear_key", rf"lin_(?:api|oauth)_{_B62}{{32,48}}", "lin_api_", "lin_oauth_"),
    _token("notion_token", rf"ntn_{_B62}{{40,50}}|secret_{_B62}{{43}}", "ntn_", "secret_"),
    _token("doppler_token", rf"dp\.(?:pt|st|sa|ct|scim|audit)\.{_B62}{{40,44}}", "dp."),
    _token("vault_token", r"hv[sbr]\.[A-Za-z0-9_-]{24,300}", "hvs.", "hvb.", "hvr."),
    _token("postman_key", r"PMAK-[a-f0-9]{24}-[a-f0-9]{34}", "PMAK-"),
    _token(
        "grafana_token",
        rf"glsa_{_B62}{{32}}_[A-Fa-f0-9]{{8}}|glc_[A-Za-z0-9+/]{{32,400}}={{0,3}}"
        rf"|eyJrIjoi{_B62}{{70,400}}={{0,3}}",
        *("glsa_", "glc_", "eyJrIjoi"),
    ),
    _token(
        "sentry_token",
        r"sntrys_eyJ[A-Za-z0-9+/=_]{60,1000}|sntryu_[a-f0-9]{64}",
        "sntrys_",
        "sntryu_",
    ),
    # gitleaks new-relic-user-api-key reads the body case-insensitively.
    _token("newrelic_key", r"NRAK-[A-Za-z0-9]{27}|NRII-[A-Za-z0-9_-]{32}", "NRAK-", "NRII-"),
    _token(
        "square_token",
        r"sq0(?:atp|csp)-[A-Za-z0-9_-]{22,60}|EAAA[A-Za-z0-9_-]{56,64}",
        *("sq0atp-", "sq0csp-", "EAAA"),
    ),
    _token("planetscale_token", r"pscale_(?:tkn|oauth|pw)_[A-Za-z0-9_=-]{32,64}", "pscale_"),
    _token(
        "supabase_token",
        r"sbp_(?:v0_)?[a-f0-9]{40}|sb_secret_[A-Za-z0-9_-]{20,80}",
        "sbp_",
        "sb_secret_",
    ),
    _token("netlify_token", rf"nfp_{_B62}{{36,40}}", "nfp_"),
    _token("dropbox_token", r"sl\.(?:u\.)?[A-Za-z0-9_-]{100,1400}", "sl."),
    _token("mapbox_token", rf"sk\.eyJ{_URL}{{20,300}}\.{_URL}{{20,100}}", "sk.eyJ"),
    _token(
        "flyio_token",
        rf"fo1_{_URL}{{43}}|fm1[ar]_[A-Za-z0-9+/]{{100,1500}}={{0,3}}"
        r"|fm2_[A-Za-z0-9+/]{100,1500}={0,3}",
        *("fo1_", "fm1a_", "fm1r_", "fm2_"),
    ),
    _token("cloudflare_key", r"v1\.0-[a-f0-9]{24}-[a-f0-9]{146}", "v1.0-"),
    # The long tail: one kind, "service_token", for vendors met less often.
    _token(
        "service_token",
        r"ops_eyJ[A-Za-z0-9+/]{250,2000}={0,3}"
        r"|A3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}"
        rf"|AKCp{_B62}{{69}}|cmVmd{_B62}{{59}}|LTAI{_B62}{{20}}|p8e-{_B62}{{32}}"
        r"|CLOJARS_[a-z0-9]{60}|CFPAT-[A-Za-z0-9_-]{43}|EZ[AT]K[A-Za-z0-9]{54}"
        r"|dt0c01\.[A-Z0-9]{24}\.[A-Z0-9]{64}"
        rf"|EAA[B-Z]{_B62}{{90,400}}|fio-u-[A-Za-z0-9_=-]{{64}}|GOCSPX-{_URL}{{28}}"
        rf"|ico-{_B62}{{32}}|lsv2_(?:pt|sk)_[a-f0-9]{{32}}_[a-f0-9]{{10}}"
        rf"|pplx-{_B62}{{48}}|pnu_{_B62}{{36}}|pul-[a-f0-9]{{40}}|rdme_[a-z0-9]{{70}}"
        r"|rubygems_[a-f0-9]{48}|tk-us-[A-Za-z0-9_-]{48}"
        rf"|xkeysib-[a-f0-9]{{64}}-{_B62}{{16}}|shippo_(?:live|test)_[a-fA-F0-9]{{40}}"
        r"|sgp_(?:[a-fA-F0-9]{16}_|local_)?[a-fA-F0-9]{40}|whsec_[A-Za-z0-9]{32,64}"
        rf"|r8_{_B62}{{37}}|gsk_{_B62}{{52}}|xai-{_B62}{{70,90}}|tvly-(?:dev-)?{_B62}{{32}}"
        r"|pcsk_[A-Za-z0-9_]{50,100}|dckr_pat_[A-Za-z0-9_-]{27}|bkua_[a-f0-9]{40}"
        rf"|ATBB[A-Za-z0-9_=-]{{32}}|figd_{_URL}{{40}}|sq[pua]_[a-f0-9]{{40}}"
        rf"|rnd_{_B62}{{32}}|napi_[a-z0-9]{{64}}|ya29\.{_URL}{{30,1000}}"
        rf"|sha256~{_URL}{{43}}|{_TWITTER_BEARER_HEAD}[A-Za-z0-9%]{{60,120}}"
        r"|access-(?:sandbox|development|production)-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}"
        r"-[0-9a-f]{4}-[0-9a-f]{12}",
        *("ops_eyJ", "A3-", "AKCp", "cmVmd", "LTAI", "p8e-", "CLOJARS_", "CFPAT-", "dt0c01."),
        *("EZAK", "EZTK", "EAA", "fio-u-", "GOCSPX-", "ico-", "lsv2_", "pplx-", "pnu_"),
        *("pul-", "rdme_", "rubygems_", "tk-us-", "xkeysib-", "shippo_", "sgp_", "whsec_"),
        *("r8_", "gsk_", "xai-", "tvly-", "pcsk_", "dckr_pat_", "bkua_", "ATBB", "figd_"),
        *("sqp_", "squ_", "sqa_", "rnd_", "napi_", "ya29.", "sha256~", "A" * 20),
        "access-",
    ),
    Rule(
        "service_token",
        # HashiCorp Terraform Cloud: 14 characters, ".atlasv1.", 60-70 more.
        re.compile(rf"{_LEFT}{_B62}{{14}}\.atlasv1\.[A-Za-z0-9_=-]{{60,70}}{_RIGHT}"),
        not_placeholder(has_letter_and_digit, 23),
        needs=Needs(any_of=(".atlasv1.",), run=True),
    ),
    *CLOUD_RULES,
    *APP_RULES,
)
