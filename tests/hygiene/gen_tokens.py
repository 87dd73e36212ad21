"""Generated vendor tokens: every prefix-bearing family, drawn from its documented shape.

Each family is a list of parts: a literal (the vendor's prefix, a separator) or a random
draw ``(alphabet, shortest, longest)``; GitHub and npm tokens end in their documented
CRC32 checksum. Shapes follow the rule each ``source`` names (gitleaks rule ids,
trufflehog detectors, GitHub's partner patterns, Microsoft's SEC101 list); the samples
are drawn with ``rng`` from the shape, never taken from a list of examples. Each secret
is set in a context drawn from prose, env lines, JSON, YAML, CLI flags, quotes and
brackets. Look-alikes are placeholders, prose that uses the prefixes, and public ids.
"""

from __future__ import annotations

import random
import string
import zlib
from collections.abc import Callable
from dataclasses import dataclass

from .families import BASE62, BASE64, BASE64URL, HEX_LOWER, Case, random_string

UPNUM = string.ascii_uppercase + string.digits
LOWNUM = string.ascii_lowercase + string.digits
DIGITS = string.digits
B32L = "abcdefghijklmnopqrstuvwxyz234567"
BECH32 = "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L"

Part = str | tuple[str, int, int] | Callable[[random.Random], str]


@dataclass(frozen=True, slots=True)
class Family:
    """A token family: its name, where its shape is documented, and the shape."""

    name: str
    source: str
    parts: tuple[Part, ...]

    def draw(self, rng: random.Random) -> str:
        """One token of this shape."""
        out: list[str] = []
        for part in self.parts:
            if isinstance(part, str):
                out.append(part)
            elif isinstance(part, tuple):
                alphabet, low, high = part
                out.append(random_string(rng, alphabet, rng.randint(low, high)))
            else:
                out.append(part(rng))
        return "".join(out)


def _n(alphabet: str, low: int, high: int | None = None) -> tuple[str, int, int]:
    return (alphabet, low, low if high is None else high)


def _uuid(rng: random.Random) -> str:
    return "-".join(random_string(rng, HEX_LOWER, n) for n in (8, 4, 4, 4, 12))


def _crc_token(prefix: str, body: int) -> Callable[[random.Random], str]:
    """GitHub's and npm's shape: a random base62 body, then its CRC32 in 6 base62."""

    def draw(rng: random.Random) -> str:
        random_part = random_string(rng, BASE62, body)
        value = zlib.crc32(random_part.encode())
        digits = ""
        for _ in range(6):
            value, rest = divmod(value, 62)
            digits = BASE62[rest] + digits
        return prefix + random_part + digits

    return draw


def _signed(length: int, offset: int, signature: str, tail: str) -> Callable[[random.Random], str]:
    """An SEC101 identifiable key: base64, a signature at ``offset``, then ``tail``."""

    def draw(rng: random.Random) -> str:
        head = random_string(rng, BASE64, offset)
        rest = random_string(rng, BASE64, length - offset - len(signature) - len(tail) - 1)
        return head + signature + rest + rng.choice("AQgw") + tail

    return draw


def _f(name: str, source: str, *parts: Part) -> Family:
    return Family(name, source, parts)


_GL = "gitleaks"
_TH = "trufflehog"
_GH = "github-partner"
_MS = "SEC101"
_U = BASE64URL

FAMILIES: tuple[Family, ...] = (
    _f("github_pat", f"{_GL} github-pat", _crc_token("ghp_", 30)),
    _f("github_oauth", f"{_GL} github-oauth", _crc_token("gho_", 30)),
    _f("github_app", f"{_GL} github-app-token", _crc_token("ghs_", 30)),
    _f("github_refresh", f"{_GL} github-refresh-token", _crc_token("ghr_", 30)),
    _f(
        "github_fine_grained",
        f"{_GL} github-fine-grained-pat",
        "github_pat_11",
        _n(UPNUM, 20),
        "_",
        _n(BASE62, 59),
    ),
    _f("gitlab_pat", f"{_GL} gitlab-pat", "glpat-", _n(_U, 20)),
    _f(
        "gitlab_pat_routable",
        f"{_GL} gitlab-pat-routable",
        "glpat-",
        _n(_U, 27, 40),
        ".",
        _n(LOWNUM, 9),
    ),
    _f("gitlab_deploy", f"{_GL} gitlab-deploy-token", "gldt-", _n(_U, 20)),
    _f("gitlab_runner", f"{_GL} gitlab-runner-authentication-token", "glrt-", _n(_U, 20)),
    _f("gitlab_trigger", f"{_GL} gitlab-ptt", "glptt-", _n(HEX_LOWER, 40)),
    _f("gitlab_oauth", f"{_GL} gitlab-oauth-app-secret", "gloas-", _n(_U, 64)),
    _f("gitlab_job", f"{_GL} gitlab-cicd-job-token", "glcbt-", _n(BASE62, 1, 5), "_", _n(_U, 20)),
    _f("gitlab_agent", f"{_GL} gitlab-kubernetes-agent-token", "glagent-", _n(_U, 50)),
    _f("gitlab_rrt", f"{_GL} gitlab-rrt", "GR1348941", _n(_U, 20)),
    _f(
        "slack_bot",
        f"{_GL} slack-bot-token",
        "xoxb-",
        _n(DIGITS, 10, 13),
        "-",
        _n(DIGITS, 10, 13),
        "-",
        _n(BASE62, 24),
    ),
    _f(
        "slack_user",
        f"{_GL} slack-user-token",
        "xoxp-",
        _n(DIGITS, 10, 13),
        "-",
        _n(DIGITS, 10, 13),
        "-",
        _n(DIGITS, 10, 13),
        "-",
        _n(HEX_LOWER, 32),
    ),
    _f(
        "slack_app",
        f"{_GL} slack-app-token",
        "xapp-1-A",
        _n(UPNUM, 10),
        "-",
        _n(DIGITS, 13),
        "-",
        _n(HEX_LOWER, 64),
    ),
    _f("aws_key_id", f"{_GL} aws-access-token", "AKIA", _n(UPNUM, 16)),
    _f("aws_session_key_id", f"{_GL} aws-access-token", "ASIA", _n(UPNUM, 16)),
    _f("aws_session_token", f"{_TH} aws (session token)", "IQoJb3JpZ2luX2Vj", _n(BASE64, 300, 600)),
    _f("gcp_api_key", f"{_GL} gcp-api-key", "AIza", _n(_U, 35)),
    _f("openai_project", f"{_GL} openai-api-key", "sk-proj-", _n(_U, 74), "T3BlbkFJ", _n(_U, 74)),
    _f("openai_legacy", f"{_GL} openai-api-key", "sk-", _n(BASE62, 20), "T3BlbkFJ", _n(BASE62, 20)),
    _f("openai_admin", f"{_GL} openai-api-key", "sk-admin-", _n(_U, 58), "T3BlbkFJ", _n(_U, 58)),
    _f("anthropic_api", f"{_GL} anthropic-api-key", "sk-ant-api03-", _n(_U, 93), "AA"),
    _f("anthropic_admin", f"{_GL} anthropic-admin-api-key", "sk-ant-admin01-", _n(_U, 93), "AA"),
    _f("anthropic_oauth", f"{_GL} anthropic-oauth-token", "sk-ant-oat01-", _n(_U, 80, 110)),
    _f("openrouter", f"{_TH} openrouter", "sk-or-v1-", _n(HEX_LOWER, 64)),
    _f("stripe_secret", f"{_GL} stripe-access-token", "sk_live_", _n(BASE62, 24, 99)),
    _f("stripe_restricted", f"{_GL} stripe-access-token", "rk_live_", _n(BASE62, 24, 99)),
    _f("stripe_webhook", f"{_TH} stripe (webhook secret)", "whsec_", _n(BASE62, 32)),
    _f("sendgrid", f"{_GL} sendgrid-api-token", "SG.", _n(_U, 22), ".", _n(_U, 43)),
    _f("npm", f"{_GL} npm-access-token", _crc_token("npm_", 30)),
    _f("pypi", f"{_GL} pypi-upload-token", "pypi-AgEIcHlwaS5vcmc", _n(_U, 60, 180)),
    _f("huggingface", f"{_GL} huggingface-access-token", "hf_", _n(string.ascii_letters, 34)),
    _f(
        "huggingface_org",
        f"{_GL} huggingface-organization-api-token",
        "api_org_",
        _n(string.ascii_letters, 34),
    ),
    _f("twilio_api_key", f"{_GL} twilio-api-key", "SK", _n(HEX_LOWER, 32)),
    _f(
        "telegram_bot",
        f"{_GL} telegram-bot-api-token",
        _n("123456789", 1),
        _n(DIGITS, 8, 9),
        ":AA",
        _n(_U, 33),
    ),
    _f("digitalocean_pat", f"{_GL} digitalocean-pat", "dop_v1_", _n(HEX_LOWER, 64)),
    _f("digitalocean_oauth", f"{_GL} digitalocean-access-token", "doo_v1_", _n(HEX_LOWER, 64)),
    _f("heroku_v2", f"{_GL} heroku-api-key-v2", "HRKU-AA", _n(_U, 58)),
    _f("shopify_access", f"{_GL} shopify-access-token", "shpat_", _n(HEX_LOWER, 32)),
    _f("shopify_shared", f"{_GL} shopify-shared-secret", "shpss_", _n(HEX_LOWER, 32)),
    _f("mailgun_private", f"{_GL} mailgun-private-api-token", "key-", _n(HEX_LOWER, 32)),
    _f("databricks", f"{_GL} databricks-api-token", "dapi", _n(HEX_LOWER, 32)),
    _f("age", f"{_GL} age-secret-key", "AGE-SECRET-KEY-1", _n(BECH32, 58)),
    _f("atlassian", f"{_GL} atlassian-api-token", "ATATT3", _n(_U + "=", 186)),
    _f("linear", f"{_GL} linear-api-key", "lin_api_", _n(BASE62, 40)),
    _f("notion", f"{_TH} notion", "ntn_", _n(BASE62, 46)),
    _f("doppler", f"{_GL} doppler-api-token", "dp.pt.", _n(BASE62, 43)),
    _f("vault_service", f"{_GL} vault-service-token", "hvs.", _n(_U, 90, 120)),
    _f("vault_batch", f"{_GL} vault-batch-token", "hvb.", _n(_U, 138, 200)),
    _f("vault_legacy", f"{_GL} vault-service-token (s.)", "s.", _n(BASE62, 24)),
    _f("postman", f"{_GL} postman-api-token", "PMAK-", _n(HEX_LOWER, 24), "-", _n(HEX_LOWER, 34)),
    _f(
        "grafana_service",
        f"{_GL} grafana-service-account-token",
        "glsa_",
        _n(BASE62, 32),
        "_",
        _n(HEX_LOWER, 8),
    ),
    _f("grafana_cloud", f"{_GL} grafana-cloud-api-token", "glc_", _n(BASE64, 32, 80)),
    _f("sentry_user", f"{_GL} sentry-user-token", "sntryu_", _n(HEX_LOWER, 64)),
    _f("newrelic_user", f"{_GL} new-relic-user-api-key", "NRAK-", _n(UPNUM, 27)),
    _f("newrelic_insert", f"{_GL} new-relic-insert-key", "NRII-", _n(_U, 32)),
    _f("square", f"{_GL} square-access-token", "EAAA", _n(_U, 60)),
    _f("square_oauth", f"{_GL} square-secret", "sq0csp-", _n(_U, 43)),
    _f("planetscale", f"{_GL} planetscale-api-token", "pscale_tkn_", _n(_U, 43)),
    _f("planetscale_pw", f"{_GL} planetscale-password", "pscale_pw_", _n(_U, 43)),
    _f("supabase", f"{_TH} supabase", "sbp_", _n(HEX_LOWER, 40)),
    _f("netlify", f"{_TH} netlify", "nfp_", _n(BASE62, 36)),
    _f("dropbox_short", f"{_GL} dropbox-short-lived-api-token", "sl.", _n(_U, 135, 140)),
    _f("dropbox_long", f"{_GL} dropbox-long-lived-api-token", _n(BASE62, 11), "A" * 10, _n(_U, 43)),
    _f("flyio", f"{_GL} flyio-access-token", "fo1_", _n(_U, 43)),
    _f(
        "cloudflare_origin",
        f"{_GL} cloudflare-origin-ca-key",
        "v1.0-",
        _n(HEX_LOWER, 24),
        "-",
        _n(HEX_LOWER, 146),
    ),
    _f("artifactory", f"{_GL} artifactory-api-key", "AKCp", _n(BASE62, 69)),
    _f("alibaba", f"{_GL} alibaba-access-key-id", "LTAI", _n(BASE62, 20)),
    _f("adobe", f"{_GL} adobe-client-secret", "p8e-", _n(BASE62, 32)),
    _f("clojars", f"{_GL} clojars-api-token", "CLOJARS_", _n(LOWNUM, 60)),
    _f("contentful", f"{_GL} contentful-personal-access-token", "CFPAT-", _n(_U, 43)),
    _f("easypost", f"{_GL} easypost-api-token", "EZAK", _n(BASE62, 54)),
    _f("dynatrace", f"{_GL} dynatrace-api-token", "dt0c01.", _n(UPNUM, 24), ".", _n(UPNUM, 64)),
    _f("frameio", f"{_GL} frameio-api-token", "fio-u-", _n(_U, 64)),
    _f("google_client_secret", f"{_TH} gcp (oauth client secret)", "GOCSPX-", _n(_U, 28)),
    _f("google_oauth_refresh", f"{_GL} gcp (refresh token 1//0)", "1//0", _n(_U, 60, 100)),
    _f("google_oauth_access", f"{_TH} googleoauth2", "ya29.", _n(_U, 100, 200)),
    _f("infracost", f"{_GL} infracost-api-token", "ico-", _n(BASE62, 32)),
    _f(
        "langsmith",
        f"{_GL} langsmith-api-key",
        "lsv2_pt_",
        _n(HEX_LOWER, 32),
        "_",
        _n(HEX_LOWER, 10),
    ),
    _f("perplexity", f"{_GL} perplexity-api-key", "pplx-", _n(BASE62, 48)),
    _f("prefect", f"{_GL} prefect-api-token", "pnu_", _n(BASE62, 36)),
    _f("pulumi", f"{_GL} pulumi-api-token", "pul-", _n(HEX_LOWER, 40)),
    _f("readme", f"{_GL} readme-api-token", "rdme_", _n(LOWNUM, 70)),
    _f("rubygems", f"{_GL} rubygems-api-token", "rubygems_", _n(HEX_LOWER, 48)),
    _f("scalingo", f"{_GL} scalingo-api-token", "tk-us-", _n(_U, 48)),
    _f(
        "sendinblue",
        f"{_GL} sendinblue-api-token",
        "xkeysib-",
        _n(HEX_LOWER, 64),
        "-",
        _n(BASE62, 16),
    ),
    _f("shippo", f"{_GL} shippo-api-token", "shippo_live_", _n(HEX_LOWER, 40)),
    _f(
        "sourcegraph",
        f"{_GL} sourcegraph-access-token",
        "sgp_",
        _n(HEX_LOWER, 16),
        "_",
        _n(HEX_LOWER, 40),
    ),
    _f("replicate", f"{_TH} replicate", "r8_", _n(BASE62, 37)),
    _f("groq", f"{_GL} groq-api-key", "gsk_", _n(BASE62, 52)),
    _f("xai", f"{_TH} xai", "xai-", _n(BASE62, 80)),
    _f("tavily", f"{_TH} tavily", "tvly-", _n(BASE62, 32)),
    _f("pinecone", f"{_TH} pinecone", "pcsk_", _n(BASE62 + "_", 60, 70)),
    _f("docker_pat", f"{_TH} dockerhub", "dckr_pat_", _n(_U, 27)),
    _f("docker_oat", f"{_TH} dockerhub (organization token)", "dckr_oat_", _n(_U, 32)),
    _f("buildkite", f"{_TH} buildkite", "bkua_", _n(HEX_LOWER, 40)),
    _f("bitbucket_app", f"{_TH} bitbucketapppassword", "ATBB", _n(BASE62, 32)),
    _f("figma", f"{_TH} figmapersonalaccesstoken", "figd_", _n(_U, 40)),
    _f("sonarqube", f"{_TH} sonarcloud", "sqp_", _n(HEX_LOWER, 40)),
    _f("render", f"{_TH} render", "rnd_", _n(BASE62, 32)),
    _f("neon", f"{_TH} neon", "napi_", _n(LOWNUM, 64)),
    _f("openshift", f"{_GL} openshift-user-token", "sha256~", _n(_U, 43)),
    _f("plaid", f"{_GL} plaid-api-token", "access-production-", _uuid),
    _f("terraform", f"{_GL} hashicorp-tf-api-token", _n(BASE62, 14), ".atlasv1.", _n(_U, 67)),
    _f(
        "onepassword_service",
        f"{_GL} 1password-service-account-token",
        "ops_eyJ",
        _n(BASE64, 260, 300),
    ),
    # This session's families (memrepo/hygiene/_tokens_cloud.py, _tokens_apps.py).
    _f(
        "airtable_pat",
        f"{_GL} airtable-personnal-access-token",
        "pat",
        _n(BASE62, 14),
        ".",
        _n(HEX_LOWER, 64),
    ),
    _f("clickup", f"{_GH} clickup personal token", "pk_", _n(DIGITS, 6, 9), "_", _n(UPNUM, 32)),
    _f("typeform", f"{_GL} typeform-api-token", "tfp_", _n(_U, 44), "_", _n(BASE62, 14)),
    _f("mailchimp", f"{_GL} mailchimp-api-key", _n(HEX_LOWER, 32), "-us", _n(DIGITS, 1, 2)),
    _f("elevenlabs", f"{_TH} elevenlabs", "sk_", _n(HEX_LOWER, 48)),
    _f("together", f"{_TH} togetherai", "tgp_v1_", _n(_U, 43)),
    _f("cerebras", f"{_TH} cerebras", "csk-", _n(LOWNUM, 48)),
    _f("asana_pat", f"{_GL} asana (PAT)", "1/", _n(DIGITS, 16), ":", _n(HEX_LOWER, 32)),
    _f(
        "asana_pat_v2",
        f"{_GL} asana (PAT v2)",
        "2/",
        _n(DIGITS, 16),
        "/",
        _n(DIGITS, 16),
        ":",
        _n(HEX_LOWER, 32),
    ),
    _f("firebase_server", f"{_TH} fcm", "AAAA", _n(_U, 7), ":APA91b", _n(_U, 134)),
    _f(
        "bitwarden_machine",
        f"{_TH} bitwarden (machine account)",
        "0.",
        _uuid,
        ".",
        _n(BASE62, 30),
        ":",
        _n(BASE64, 22),
        "==",
    ),
    _f("circleci_pat", f"{_TH} circleci", "CCIPAT_", _n(BASE62, 22), "_", _n(HEX_LOWER, 40)),
    _f(
        "circleci_project",
        f"{_TH} circleci (project)",
        "CCIPRJ_",
        _n(BASE62, 22),
        "_",
        _n(HEX_LOWER, 40),
    ),
    _f(
        "braintree_access",
        f"{_GL} braintree-access-token",
        "access_token$production$",
        _n(LOWNUM, 16),
        "$",
        _n(HEX_LOWER, 32),
    ),
    _f(
        "braintree_tokenization",
        f"{_GL} braintree-tokenization-key",
        "sandbox_",
        _n(LOWNUM, 8),
        "_",
        _n(LOWNUM, 16),
    ),
    _f("yandex_api", f"{_GL} yandex-api-key", "AQVN", _n(_U, 35, 38)),
    _f("yandex_aws", f"{_GL} yandex-aws-access-token", "YC", _n(_U, 38)),
    _f("yandex_oauth", f"{_TH} yandex (y0_)", "y0_", _n(_U, 55)),
    _f("yandex_iam", f"{_GL} yandex-access-token", "t1.", _n(_U, 40, 80), ".", _n(_U, 86)),
    _f("nuget", f"{_TH} nugetapikey", "oy2", _n(LOWNUM, 43)),
    _f("azure_devops_pat", f"{_MS} SEC101/102 AdoPat", _n(B32L, 52)),
    _f(
        "azure_devops_pat_v2",
        f"{_MS} SEC101/102 AdoPat (84)",
        _n(BASE62, 52),
        "JQQJ9",
        _n("9DH", 1),
        _n(BASE62, 1),
        _n("ABCDEFGHIJKL", 1),
        _n(BASE62, 16),
        "AZDO",
        _n(BASE62, 4),
    ),
    _f(
        "azure_storage_signed",
        f"{_MS} SEC101/152 AzureStorageAccountIdentifiableKey",
        _signed(88, 76, "+ASt", "=="),
    ),
    _f(
        "azure_cosmos_signed",
        f"{_MS} SEC101/191 AzureCosmosDbIdentifiableKey",
        _signed(88, 76, "ACDb", "=="),
    ),
    _f(
        "azure_servicebus_signed",
        f"{_MS} SEC101/182 AzureServiceBusIdentifiableKey",
        _signed(44, 33, "+ASb", "="),
    ),
    _f(
        "azure_iot_signed",
        f"{_MS} SEC101/178 AzureIotHubIdentifiableKey",
        _signed(44, 33, "AIoT", "="),
    ),
    _f(
        "azure_function_signed",
        f"{_MS} SEC101/158 AzureFunctionIdentifiableKey",
        _n(_U, 44),
        "AzFu",
        _n(_U, 5),
        _n("AQgw", 1),
        "==",
    ),
    _f(
        "azure_search_signed",
        f"{_MS} SEC101/166 AzureSearchIdentifiableKey",
        _n(BASE62, 42),
        "AzSe",
        _n("ABCD", 1),
        _n(BASE62, 5),
    ),
    _f(
        "azure_storage_legacy",
        f"{_MS} SEC101/110 (az storage account keys list)",
        _n(BASE64, 86),
        "==",
    ),
    _f("tailscale", f"{_TH} tailscale", "tskey-auth-k", _n(BASE62, 11), "CNTRL-", _n(BASE62, 33)),
    _f(
        "harness",
        f"{_GL} harness-api-key",
        "pat.",
        _n(_U, 22),
        ".",
        _n(BASE62, 24),
        ".",
        _n(BASE62, 20),
    ),
    _f("octopus", f"{_GL} octopus-deploy-api-key", "API-", _n(UPNUM, 26)),
    _f(
        "definednetworking",
        f"{_GL} defined-networking-api-token",
        "dnkey-",
        _n(_U, 26),
        "-",
        _n(_U, 52),
    ),
    _f("clickhouse", f"{_GL} clickhouse-cloud-api-secret-key", "4b1d", _n(BASE62, 38)),
    _f("castai", f"{_GL} castai-api-key", "castai_v1_", _n(BASE62, 64), "_", _n(BASE62, 8)),
    _f("chieftools", f"{_GL} chieftools-pat", "ctp_", _n(BASE62, 36)),
    _f("intra42", f"{_GL} intra42-client-secret", "s-s4t2ud-", _n(HEX_LOWER, 64)),
    _f("settlemint", f"{_GL} settlemint-personal-access-token", "sm_pat_", _n(BASE62, 16)),
    _f("maxmind", f"{_GL} maxmind-license-key", _n(BASE62, 6), "_", _n(BASE62, 29), "_mmk"),
    _f("tencent", f"{_TH} tencentcloudsecretid", "AKID", _n(BASE62, 32)),
    _f("scaleway", f"{_TH} scalewaykey", "SCW", _n(UPNUM, 17)),
    _f("akamai", f"{_TH} akamai", "akab-", _n(LOWNUM, 16), "-", _n(LOWNUM, 16)),
    _f(
        "infisical",
        f"{_TH} infisical",
        "st.",
        _uuid,
        ".",
        _n(HEX_LOWER, 32),
        ".",
        _n(HEX_LOWER, 32),
    ),
    _f("adyen", f"{_GL} adyen-api-key", "AQE", _n(LOWNUM, 6, 12), ".", _n(_U, 60)),
    _f("salesforce", f"{_TH} salesforce", "00D", _n(BASE62, 15), "!", _n(BASE62 + ".", 96)),
    _f("hubspot_private", f"{_GH} hubspot private app token", "pat-na1-", _uuid),
    _f(
        "flutterwave",
        f"{_GL} flutterwave-secret-key",
        "FLWSECK_TEST-",
        _n("abcdefgh0123456789", 32),
        "-X",
    ),
    _f("duffel", f"{_GL} duffel-api-token", "duffel_live_", _n(_U, 43)),
    _f("lob", f"{_GL} lob-api-key", "live_", _n(HEX_LOWER, 35)),
    _f("gocardless", f"{_GL} gocardless-api-token", "live_", _n(_U, 40)),
    _f("launchdarkly", f"{_TH} launchdarkly", "api-", _uuid),
    _f("mailersend", f"{_TH} mailersend", "mlsn.", _n(HEX_LOWER, 64)),
    _f("resend", f"{_TH} resend", "re_", _n(BASE62, 8), "_", _n(BASE62, 24)),
    _f(
        "brevo_smtp", f"{_TH} brevo (smtp key)", "xsmtpsib-", _n(HEX_LOWER, 64), "-", _n(BASE62, 16)
    ),
    _f("klaviyo", f"{_TH} klaviyo", "pk_", _n(HEX_LOWER, 34)),
    _f("woocommerce", f"{_TH} woocommerce", "cs_", _n(HEX_LOWER, 40)),
    _f(
        "paddle",
        f"{_GH} paddle api key",
        "pdl_live_apikey_",
        _n(LOWNUM, 26),
        "_",
        _n(BASE62, 22),
        "_",
        _n(BASE62, 3),
    ),
    _f("paypal", f"{_TH} paypaloauth (access token)", "A21AA", _n(_U, 90)),
    _f("onfido", f"{_GH} onfido api token", "api_live.", _n(_U, 11), ".", _n(_U, 32)),
    _f("midtrans", f"{_GH} midtrans server key", "Mid-server-", _n(_U, 24)),
    _f("mercury", f"{_GH} mercury api token", "mercury_production_wma_", _n(BASE62, 50)),
    _f("newrelic_admin", f"{_GL} new-relic (NRAA)", "NRAA-", _n(HEX_LOWER, 27)),
    _f("adafruit", f"{_GH} adafruit io key", "aio_", _n(BASE62, 28)),
    _f("ionic", f"{_GH} ionic personal access token", "ion_", _n(BASE62, 42)),
    _f("rootly", f"{_GH} rootly api key", "rootly_", _n(HEX_LOWER, 64)),
    _f("samsara", f"{_GH} samsara api token", "samsara_api_", _n(BASE62, 30)),
    _f("zuplo", f"{_GH} zuplo consumer api key", "zpka_", _n(HEX_LOWER, 32), "_", _n(HEX_LOWER, 8)),
    _f("posthog_personal", f"{_GH} posthog personal api key", "phx_", _n(BASE62, 43)),
    _f(
        "telnyx", f"{_GH} telnyx api v2 key", "KEY", _n("0123456789ABCDEF", 32), "_", _n(BASE62, 22)
    ),
    _f("devcycle", f"{_GH} devcycle server sdk key", "dvc_server_", _uuid, "_", _n(HEX_LOWER, 7)),
    _f("pagerduty", f"{_TH} pagerdutyapikey", "u+", _n(_U + "+", 18)),
    _f("twitch_chat", f"{_TH} twitch (oauth:)", "oauth:", _n(LOWNUM, 30)),
    _f("ubidots", f"{_GH} ubidots token", "BBFF-", _n(BASE62, 30)),
    _f("nvidia", f"{_GH} nvidia api key", "nvapi-", _n(_U, 64)),
    _f("voyage", f"{_TH} voyageai", "pa-", _n(_U, 43)),
    _f("fireworks", f"{_TH} fireworksai", "fw_", _n(BASE62, 24)),
    _f("jina", f"{_TH} jinaai", "jina_", _n(HEX_LOWER, 32), _n(_U, 28)),
    _f("firecrawl", f"{_TH} firecrawl", "fc-", _n(HEX_LOWER, 32)),
    _f("browserbase", f"{_TH} browserbase", "bb_live_", _n(_U, 27)),
    _f("mem0", f"{_TH} mem0", "m0-", _n(BASE62, 40)),
    _f("modal", f"{_TH} modal (token secret)", "as-", _n(BASE62, 22)),
)

#: Contexts a token is met in; {X} is the token, {NAME} an env name, {key} a config key.
CONTEXTS = (
    "the CI token is {X}",
    "{NAME}={X}",
    '{{"{key}": "{X}", "region": "eu-west-1"}}',
    "{key}: {X}",
    "deploy --token {X} --region eu",
    "export {NAME}='{X}'",
    "I rotated the {key} credential to {X}.",
    "Ana pasted it in chat (new credential {X}) before lunch",
    "set it as `{X}` in the vault",
    '{key} = "{X}"',
)


def cases(rng: random.Random, per_family: int) -> list[Case]:
    """``per_family`` cases of every family, each a fresh draw in a drawn context."""
    found: list[Case] = []
    for family in FAMILIES:
        for _ in range(per_family):
            secret = family.draw(rng)
            context = rng.choice(CONTEXTS)
            text = context.format(X=secret, NAME=f"{family.name.upper()}_TOKEN", key=family.name)
            found.append(Case(f"token_{family.name}", family.source, text, (secret,)))
    return found


def _placeholders(rng: random.Random) -> list[str]:
    """Token prefixes with stand-in bodies, as docs and templates write them."""
    filler = rng.choice("xX0*")
    return [
        "ghp_" + "x" * 36,
        "AKIA" + "X" * 16,
        "AKIAIOSFODNN7EXAMPLE",
        "glpat-" + filler * 20 if filler != "*" else "glpat-xxxxxxxxxxxxxxxxxxxx",
        "npm_" + "0" * 36,
        "AIza" + "X" * 35,
        "sk_live_" + "1234567890" * 3,
        "sk-ant-api03-" + "x" * 93 + "AA",
        "pat" + "X" * 14 + "." + "0" * 64,
        "xoxb-your-token-here-1234567890",
        "dop_v1_" + "abcdef" * 10 + "abcd",
        "tfp_" + "your_typeform_token_here" * 2 + "_" * 11,
        "CCIPAT_" + "XXXXXXXXXXXXXXXXXXXXXX_" + "0" * 40,
        "sk_" + "a" * 48,
        "oy2" + "a" * 43,
        "1//0" + "x" * 60,
        "hvs." + "EXAMPLE" * 14,
        "SG." + "x" * 22 + "." + "x" * 43,
        "AQVN" + "abcdefghijklmnopqrstuvwxyz0123456789",
    ]


def _public_ids(rng: random.Random) -> list[str]:
    """Values that look like tokens but are meant to be seen."""
    return [
        "the checkout page embeds pk_live_" + random_string(rng, BASE62, 24),
        "pk_test keys are safe to embed, said the Stripe docs",
        "mapbox public token pk.eyJ1Ijoi"
        + random_string(rng, BASE62, 40)
        + "."
        + random_string(rng, BASE64URL, 22),
        "the posthog snippet embeds phc_" + random_string(rng, BASE62, 43),
        "fixed in " + random_string(rng, HEX_LOWER, 40) + " yesterday",
        "see commit " + random_string(rng, HEX_LOWER, 7) + " and its parent",
        "request " + _uuid(rng) + " failed twice",
        "role arn:aws:iam::" + random_string(rng, DIGITS, 12) + ":role/DeployRole",
        "bucket arn:aws:s3:::acme-backups-" + random_string(rng, LOWNUM, 8),
        "image sha256:" + random_string(rng, HEX_LOWER, 64),
        '"integrity": "sha512-' + random_string(rng, BASE64, 86) + '=="',
        '<script integrity="sha384-' + random_string(rng, BASE64, 64) + '">',
        "client id "
        + random_string(rng, DIGITS, 12)
        + "-"
        + random_string(rng, LOWNUM, 32)
        + ".apps.googleusercontent.com",
        "age recipient age1" + random_string(rng, BECH32.lower(), 58),
        "host key SHA256:" + random_string(rng, BASE64, 43) + " for the bastion",
        "ipfs://bafybei" + random_string(rng, B32L, 52),
        "http://" + random_string(rng, B32L, 56) + ".onion/",
        "slack channel C"
        + random_string(rng, UPNUM, 10)
        + " and user U"
        + random_string(rng, UPNUM, 10),
    ]


def _prose() -> list[str]:
    """Sentences that use the prefixes as words."""
    return [
        "the campaign slug is sk-2024-summer-sale-banner-v2",
        "we use sk-learn style pipelines and a task-list that is risk-free",
        "the sl. abbreviation and s.t. in proofs, pat. pending",
        "as-is, re_run_the_pipeline_tomorrow and fc-barcelona-fan-club",
        "live_streaming_enabled_for_all_users and test_user_profile_settings",
        "sandbox_settings_for_the_new_users and production_ready_checklist_items",
        "the API-GATEWAY-TIMEOUT error and KEY_ROTATION_INTERVAL_DAYS",
        "pat-on-the-back for the team, oauth:login flow documented",
        "YC-backed startup, AQVN is a prefix, 1//0 is a division by zero",
        "csk-tutorial-part-two and nvapi-docs-overview-page",
    ]


#: Contexts for look-alikes: no keyword ("token is", NAME=), which the keyword rules of
#: other modules judge on their own.
NEUTRAL_CONTEXTS = (
    "the docs show {X} as the format",
    "copy {X} from the template",
    '"{X}"',
    "({X}).",
)


def lookalikes(rng: random.Random) -> list[Case]:
    """Texts that hold no secret: placeholders, public ids, prefixes in prose."""
    found: list[Case] = []
    for text in _placeholders(rng):
        context = rng.choice(NEUTRAL_CONTEXTS)
        found.append(Case("token_placeholder", "gitleaks fps", context.format(X=text)))
    for text in _public_ids(rng):
        found.append(Case("token_public_id", "public ids", text))
    for text in _prose():
        found.append(Case("token_prose", "prose", text))
    return found
