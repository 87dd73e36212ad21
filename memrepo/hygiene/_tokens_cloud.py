"""Prefix-bearing credentials of clouds, CI and secret managers (see ``_tokens``).

Shapes rewritten (not copied) from where they are documented:

- Microsoft security-utilities / SEC101 identifiable keys (SEC101/102 AdoPat,
  /158 AzureFunctionIdentifiableKey, /160 AzureStorageAccountIdentifiableKey,
  /166 AzureSearchIdentifiableKey, /172 AzureCacheForRedisIdentifiableKey,
  /173 AzureContainerRegistryIdentifiableKey, /176 AzureApimIdentifiableKey,
  /178 AzureIotHubIdentifiableKey, /180 AzureEventHubIdentifiableKey,
  /181 AzureRelayIdentifiableKey, /182 AzureServiceBusIdentifiableKey,
  /190 AzureEventGridIdentifiableKey, /191 AzureCosmosDbIdentifiableKey): a base64 body
  with a 4-character signature at a fixed offset; Azure DevOps PATs (52 lowercase
  base32, or 84 characters with ``JQQJ9`` at 52 and ``AZDO`` at 76); legacy storage
  keys (88 base64, ``==``) as ``az storage account keys list`` prints them;
- gitleaks (``cmd/generate/config/rules``): vault-service-token (legacy ``s.``),
  yandex-api-key, yandex-aws-access-token, yandex-access-token, harness-api-key,
  octopus-deploy-api-key, defined-networking-api-token, clickhouse-cloud-api-secret-key,
  castai-api-key, chieftools-pat / -access-token / -refresh-token,
  intra42-client-secret, settlemint-*-access-token, maxmind-license-key, adyen-api-key,
  authress-service-client-access-key, dropbox-long-lived-api-token,
  microsoft-teams-webhook, gcp (OAuth refresh token ``1//0``);
- trufflehog (``pkg/detectors``): nuget, circleci (``CCIPAT_``), bitwarden (machine
  account access token), tailscale, tencent, scaleway, akamai, fcm (Firebase server key
  ``AAAA...:APA91b``), aws (session token ``IQoJb3JpZ2luX2Vj`` / ``FwoGZXIvYXdzE``),
  yandex (``y0_``), docker (``dckr_oat_``), infisical (``st.``), salesforce.
"""

from __future__ import annotations

import re

from ._base import (
    Rule,
    has_letter_and_digit,
    is_placeholder,
    not_placeholder,
    secret_of,
    shannon_entropy,
    token_rule,
    wordlike_share,
)
from ._needs import Needs

_B64 = "[A-Za-z0-9+/]"
_URL = "[A-Za-z0-9_-]"
_UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"

# SEC101 signatures: 64-byte keys (88 base64) carry theirs at 76, 32-byte keys (44) at 33.
_SIGNED_88 = ("+ASt", "ACDb", "+AMC", "APIM")
_SIGNED_44 = ("AIoT", "+AEh", "+ARm", "+ASb", "AZEG", "AzCa")


def _alternatives(signatures: tuple[str, ...]) -> str:
    return "|".join(re.escape(signature) for signature in signatures)


def _mixed_random(match: re.Match[str]) -> bool:
    """Upper, lower and digits, and not a pattern: a base64 key, not a digest in hex."""
    value = secret_of(match)
    return (
        any(c.isupper() for c in value)
        and any(c.islower() for c in value)
        and any(c.isdigit() for c in value)
    )


def _storage_key(match: re.Match[str]) -> bool:
    """88 base64 characters of a key, not an integrity digest (``sha512:...==``)."""
    before = match.string[max(0, match.start() - 12) : match.start()].lower()
    return _mixed_random(match) and "sha" not in before and "integrity" not in before


def _base32_pat(match: re.Match[str]) -> bool:
    """A 52-character Azure DevOps PAT is random base32: digits 2-7 among the letters."""
    value = secret_of(match)
    return sum(c.isdigit() for c in value) >= 2 and shannon_entropy(value) >= 3.0


def _legacy_vault(match: re.Match[str]) -> bool:
    """``s.`` + 24 base62 with a digit, or both cases and few words (gitleaks allows
    letters-only bodies: ``s.getElementsByTagName``)."""
    value = secret_of(match)[2:]
    if any(c.isdigit() for c in value):
        return any(c.isalpha() for c in value)
    mixed = any(c.isupper() for c in value) and any(c.islower() for c in value)
    return mixed and wordlike_share(value) < 0.5


def _dropbox_long_lived(match: re.Match[str]) -> bool:
    """Its ten ``A``s are the format, not a placeholder run."""
    value = secret_of(match).replace("A" * 10, "", 1)
    return has_letter_and_digit(match) and not is_placeholder(value)


CLOUD_RULES: tuple[Rule, ...] = (
    token_rule(
        "azure_key",
        rf"{_B64}{{76}}(?:{_alternatives(_SIGNED_88)}){_B64}{{5}}[AQgw]=="
        rf"|{_B64}{{33}}(?:{_alternatives(_SIGNED_44)}){_B64}{{5}}[AQgw]="
        rf"|{_URL}{{44}}AzFu{_URL}{{5}}[AQgw]=="
        r"|[A-Za-z0-9]{42}AzSe[A-D][A-Za-z0-9]{5}|[A-Za-z0-9+/]{42}\+ACR[A-D][A-Za-z0-9]{5}",
        *_SIGNED_88,
        *_SIGNED_44,
        "AzFu",
        "AzSe",
        "+ACR",
    ),
    token_rule("azure_storage_key", rf"{_B64}{{86}}==", "==", validate=_storage_key),
    token_rule(
        "azure_devops_token",
        r"[a-z2-7]{52}",
        validate=_base32_pat,
    ),
    token_rule(
        "azure_devops_token",
        r"[A-Za-z0-9]{52}JQQJ9[A-Za-z0-9]{19}AZDO[A-Za-z0-9]{4}",
        "JQQJ9",
    ),
    token_rule(
        "aws_session_token",
        r"(?:IQoJb3JpZ2luX2Vj|FwoGZXIvYXdzE)[A-Za-z0-9+/]{100,1500}={0,2}",
        "IQoJb3JpZ2luX2Vj",
        "FwoGZXIvYXdzE",
    ),
    token_rule(
        "yandex_token",
        r"AQVN[A-Za-z0-9_-]{35,38}|YC[A-Za-z0-9_-]{38}|(?:y0|y1|y2|y3)_[A-Za-z0-9_-]{50,60}"
        r"|t1\.[A-Za-z0-9_-]{10,300}={0,2}\.[A-Za-z0-9_-]{80,90}={0,2}",
        *("AQVN", "YC", "y0_", "y1_", "y2_", "y3_", "t1."),
    ),
    token_rule("google_oauth_token", r"1//0[A-Za-z0-9_-]{40,400}", "1//0"),
    # "AAAA" opens a Firebase server key and sits within RUN_LEAD of the part after ":".
    token_rule("firebase_key", r"AAAA[A-Za-z0-9_-]{7}:APA91b[A-Za-z0-9_-]{120,170}", "AAAA"),
    token_rule(
        "vault_token",
        r"s\.[A-Za-z0-9]{24}|b\.AAAAAQ[A-Za-z0-9_-]{80,300}",
        "s.",
        "b.AAAAAQ",
        validate=_legacy_vault,
    ),
    token_rule("nuget_key", r"oy2[a-z0-9]{43}", "oy2"),
    token_rule(
        "circleci_token", r"CCIP(?:AT|RJ)_[A-Za-z0-9]{22}_[a-f0-9]{40}", "CCIPAT_", "CCIPRJ_"
    ),
    token_rule("bitwarden_token", rf"0\.{_UUID}\.[A-Za-z0-9]{{30}}:[A-Za-z0-9+/]{{22}}==", "0."),
    token_rule(
        "tailscale_key",
        r"tskey-(?:api|auth|client|webhook|scim)-[A-Za-z0-9]{6,20}-[A-Za-z0-9]{20,60}",
        "tskey-",
    ),
    token_rule(
        "service_token",
        # Harness, Octopus Deploy, Defined Networking, ClickHouse, CAST AI, Chief Tools,
        # 42 Intra, SettleMint, MaxMind, Docker OAT, Tencent, Scaleway, Akamai, Infisical.
        r"(?:pat|sat)\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{20}"
        r"|API-[A-Z0-9]{26}|dnkey-[A-Za-z0-9=_-]{26}-[A-Za-z0-9=_-]{52}"
        r"|castai_v1_[A-Za-z0-9]{64}_[A-Za-z0-9]{8}|ct[opr]_[A-Za-z0-9]{30,248}"
        r"|s-s4t2(?:ud|af)-[a-f0-9]{64}|sm_(?:aat|pat|sat)_[A-Za-z0-9]{16}"
        r"|dckr_oat_[A-Za-z0-9_-]{32}"
        r"|AKID[A-Za-z0-9]{32}|akab-[a-z0-9]{16}-[a-z0-9]{16}"
        rf"|st\.{_UUID}\.[a-f0-9]{{32}}\.[a-f0-9]{{32}}",
        *("pat.", "sat.", "API-", "dnkey-", "castai_v1_", "cto_", "ctp_", "ctr_"),
        *("s-s4t2", "sm_aat_", "sm_pat_", "sm_sat_", "dckr_oat_", "AKID"),
        *("akab-", "st."),
    ),
    token_rule("maxmind_key", r"[A-Za-z0-9]{6}_[A-Za-z0-9]{29}_mmk", "_mmk"),
    # Scaleway access key: "SCW" and 17 of A-Z0-9; one in 250 draws has no digit, and the
    # prefix is evidence enough (the placeholder check still applies).
    token_rule("service_token", r"SCW[A-Z0-9]{17}", "SCW", validate=None),
    token_rule("service_token", r"4b1d[A-Za-z0-9]{38}", "4b1d", validate=_mixed_random),
    token_rule(
        # Adyen: "AQE", an id, ".", 50-80 more; the id joins the run or sits within
        # RUN_LEAD of the long part.
        "adyen_key",
        r"AQE[A-Za-z0-9]{5,40}\.[A-Za-z0-9_=-]{50,80}",
        "AQE",
    ),
    token_rule(
        "dropbox_token",
        r"[A-Za-z0-9]{11}AAAAAAAAAA[A-Za-z0-9_=-]{43}",
        "AAAAAAAAAA",
        validate=_dropbox_long_lived,
        check_placeholder=False,
    ),
    Rule(
        "teams_webhook",
        # The tenant's host name stays readable; the rest of the URL is the credential.
        re.compile(
            rf"webhook\.office\.com/webhookb2/{_UUID}@{_UUID}"
            rf"/IncomingWebhook/[a-z0-9]{{32}}/{_UUID}(?:/[A-Za-z0-9_-]{{20,80}})?"
        ),
        needs=Needs(any_of=("webhookb2/",), run=True),
    ),
    Rule(
        # Authress: its prefix may sit further than RUN_LEAD from the long part, so it is
        # looked for in the whole text.
        "service_token",
        re.compile(
            r"(?<![A-Za-z0-9_.+/=-])(?:sc|ext|scauth|authress)_[A-Za-z0-9]{5,30}"
            r"\.[A-Za-z0-9]{4,6}\.acc[_-][A-Za-z0-9-]{10,32}\.[A-Za-z0-9+/_=-]{30,120}"
            r"(?![A-Za-z0-9_+/=-])"
        ),
        not_placeholder(has_letter_and_digit),
        # ".acc" is looked up first (all_of): one scan for most texts.
        needs=Needs(any_of=("sc_", "ext_", "scauth_", "authress_"), all_of=(".acc",)),
    ),
    Rule(
        # Salesforce session/access token: the org id (00D...), "!", then the token;
        # its "." may break runs, so it is gated on its two literals instead.
        "salesforce_token",
        re.compile(r"(?<![A-Za-z0-9])00D[A-Za-z0-9]{12,15}![A-Za-z0-9._]{80,120}(?![A-Za-z0-9._])"),
        not_placeholder(has_letter_and_digit, 18),
        needs=Needs(any_of=("00D",), all_of=("!",)),
    ),
)
