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
import re
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


#: Named alphabets a shape draws from: ``{name:n}`` or ``{name:low-high}`` characters.
ALPHABETS = {
    "b62": BASE62,
    "b64": BASE64,
    "url": BASE64URL,
    "hex": HEX_LOWER,
    "upnum": UPNUM,
    "lownum": LOWNUM,
    "digits": DIGITS,
    "b32": B32L,
    "bech32": BECH32,
    "letters": string.ascii_letters,
    "url=": BASE64URL + "=",
    "b62_": BASE62 + "_",
    "url+": BASE64URL + "+",
    "b62.": BASE62 + ".",
    "hexup": "0123456789ABCDEF",
    "hexah": "abcdefgh0123456789",
    "ABCD": "ABCD",
    "AQgw": "AQgw",
    "A-L": "ABCDEFGHIJKL",
    "9DH": "9DH",
    "1-9": "123456789",
}
_FIELD = re.compile(r"\{([^}]*)\}")
_SOURCES = {"GL": "gitleaks", "TH": "trufflehog", "MS": "Microsoft"}


def _part(field: str) -> Part:
    """One ``{...}`` of a shape: ``uuid``, ``crc:n`` (n base62 and their CRC32),
    ``sig:length/offset/signature/tail`` (an SEC101 key), or ``alphabet:n[-m]``."""
    if field == "uuid":
        return _uuid
    kind, _, arguments = field.partition(":")
    if kind == "crc":
        return _crc_token("", int(arguments))
    if kind == "sig":
        length, offset, signature, tail = arguments.split("/")
        return _signed(int(length), int(offset), signature, tail)
    low, _, high = arguments.partition("-")
    return (ALPHABETS[kind], int(low), int(high or low))


def _family(row: str) -> Family:
    """``name|source|shape``: literals with ``{...}`` draws (see ``_part``)."""
    name, source, shape = row.split("|")
    parts: list[Part] = []
    position = 0
    for field in _FIELD.finditer(shape):
        if field.start() > position:
            parts.append(shape[position : field.start()])
        parts.append(_part(field.group(1)))
        position = field.end()
    if position < len(shape):
        parts.append(shape[position:])
    list_name, _, rule = source.partition(" ")
    return Family(name, f"{_SOURCES.get(list_name, list_name)} {rule}", tuple(parts))


# name|source|shape, one family a line. Sources: GL = gitleaks rule ids, TH = trufflehog
# detectors, github-partner = GitHub's secret-scanning partner patterns, MS =
# Microsoft's SEC101 list. The rows from "airtable_pat" on, and aws_session_token,
# vault_legacy, dropbox_long, google_oauth_refresh and docker_oat, sample the rules of
# memrepo/hygiene/_tokens_cloud.py and _tokens_apps.py.
_SHAPES = """
github_pat|GL github-pat|ghp_{crc:30}
github_oauth|GL github-oauth|gho_{crc:30}
github_app|GL github-app-token|ghs_{crc:30}
github_refresh|GL github-refresh-token|ghr_{crc:30}
github_fine_grained|GL github-fine-grained-pat|github_pat_11{upnum:20}_{b62:59}
gitlab_pat|GL gitlab-pat|glpat-{url:20}
gitlab_pat_routable|GL gitlab-pat-routable|glpat-{url:27-40}.{lownum:9}
gitlab_deploy|GL gitlab-deploy-token|gldt-{url:20}
gitlab_runner|GL gitlab-runner-authentication-token|glrt-{url:20}
gitlab_trigger|GL gitlab-ptt|glptt-{hex:40}
gitlab_oauth|GL gitlab-oauth-app-secret|gloas-{url:64}
gitlab_job|GL gitlab-cicd-job-token|glcbt-{b62:1-5}_{url:20}
gitlab_agent|GL gitlab-kubernetes-agent-token|glagent-{url:50}
gitlab_rrt|GL gitlab-rrt|GR1348941{url:20}
slack_bot|GL slack-bot-token|xoxb-{digits:10-13}-{digits:10-13}-{b62:24}
slack_user|GL slack-user-token|xoxp-{digits:10-13}-{digits:10-13}-{digits:10-13}-{hex:32}
slack_app|GL slack-app-token|xapp-1-A{upnum:10}-{digits:13}-{hex:64}
aws_key_id|GL aws-access-token|AKIA{upnum:16}
aws_session_key_id|GL aws-access-token|ASIA{upnum:16}
aws_session_token|TH aws (session token)|IQoJb3JpZ2luX2Vj{b64:300-600}
gcp_api_key|GL gcp-api-key|AIza{url:35}
openai_project|GL openai-api-key|sk-proj-{url:74}T3BlbkFJ{url:74}
openai_legacy|GL openai-api-key|sk-{b62:20}T3BlbkFJ{b62:20}
openai_admin|GL openai-api-key|sk-admin-{url:58}T3BlbkFJ{url:58}
anthropic_api|GL anthropic-api-key|sk-ant-api03-{url:93}AA
anthropic_admin|GL anthropic-admin-api-key|sk-ant-admin01-{url:93}AA
anthropic_oauth|GL anthropic-oauth-token|sk-ant-oat01-{url:80-110}
openrouter|TH openrouter|sk-or-v1-{hex:64}
stripe_secret|GL stripe-access-token|sk_live_{b62:24-99}
stripe_restricted|GL stripe-access-token|rk_live_{b62:24-99}
stripe_webhook|TH stripe (webhook secret)|whsec_{b62:32}
sendgrid|GL sendgrid-api-token|SG.{url:22}.{url:43}
npm|GL npm-access-token|npm_{crc:30}
pypi|GL pypi-upload-token|pypi-AgEIcHlwaS5vcmc{url:60-180}
huggingface|GL huggingface-access-token|hf_{letters:34}
huggingface_org|GL huggingface-organization-api-token|api_org_{letters:34}
twilio_api_key|GL twilio-api-key|SK{hex:32}
telegram_bot|GL telegram-bot-api-token|{1-9:1}{digits:8-9}:AA{url:33}
digitalocean_pat|GL digitalocean-pat|dop_v1_{hex:64}
digitalocean_oauth|GL digitalocean-access-token|doo_v1_{hex:64}
heroku_v2|GL heroku-api-key-v2|HRKU-AA{url:58}
shopify_access|GL shopify-access-token|shpat_{hex:32}
shopify_shared|GL shopify-shared-secret|shpss_{hex:32}
mailgun_private|GL mailgun-private-api-token|key-{hex:32}
databricks|GL databricks-api-token|dapi{hex:32}
age|GL age-secret-key|AGE-SECRET-KEY-1{bech32:58}
atlassian|GL atlassian-api-token|ATATT3{url=:186}
linear|GL linear-api-key|lin_api_{b62:40}
notion|TH notion|ntn_{b62:46}
doppler|GL doppler-api-token|dp.pt.{b62:43}
vault_service|GL vault-service-token|hvs.{url:90-120}
vault_batch|GL vault-batch-token|hvb.{url:138-200}
vault_legacy|GL vault-service-token (s.)|s.{b62:24}
postman|GL postman-api-token|PMAK-{hex:24}-{hex:34}
grafana_service|GL grafana-service-account-token|glsa_{b62:32}_{hex:8}
grafana_cloud|GL grafana-cloud-api-token|glc_{b64:32-80}
sentry_user|GL sentry-user-token|sntryu_{hex:64}
newrelic_user|GL new-relic-user-api-key|NRAK-{upnum:27}
newrelic_insert|GL new-relic-insert-key|NRII-{url:32}
square|GL square-access-token|EAAA{url:60}
square_oauth|GL square-secret|sq0csp-{url:43}
planetscale|GL planetscale-api-token|pscale_tkn_{url:43}
planetscale_pw|GL planetscale-password|pscale_pw_{url:43}
supabase|TH supabase|sbp_{hex:40}
netlify|TH netlify|nfp_{b62:36}
dropbox_short|GL dropbox-short-lived-api-token|sl.{url:135-140}
dropbox_long|GL dropbox-long-lived-api-token|{b62:11}AAAAAAAAAA{url:43}
flyio|GL flyio-access-token|fo1_{url:43}
cloudflare_origin|GL cloudflare-origin-ca-key|v1.0-{hex:24}-{hex:146}
artifactory|GL artifactory-api-key|AKCp{b62:69}
alibaba|GL alibaba-access-key-id|LTAI{b62:20}
adobe|GL adobe-client-secret|p8e-{b62:32}
clojars|GL clojars-api-token|CLOJARS_{lownum:60}
contentful|GL contentful-personal-access-token|CFPAT-{url:43}
easypost|GL easypost-api-token|EZAK{b62:54}
dynatrace|GL dynatrace-api-token|dt0c01.{upnum:24}.{upnum:64}
frameio|GL frameio-api-token|fio-u-{url:64}
google_client_secret|TH gcp (oauth client secret)|GOCSPX-{url:28}
google_oauth_refresh|GL gcp (refresh token 1//0)|1//0{url:60-100}
google_oauth_access|TH googleoauth2|ya29.{url:100-200}
infracost|GL infracost-api-token|ico-{b62:32}
langsmith|GL langsmith-api-key|lsv2_pt_{hex:32}_{hex:10}
perplexity|GL perplexity-api-key|pplx-{b62:48}
prefect|GL prefect-api-token|pnu_{b62:36}
pulumi|GL pulumi-api-token|pul-{hex:40}
readme|GL readme-api-token|rdme_{lownum:70}
rubygems|GL rubygems-api-token|rubygems_{hex:48}
scalingo|GL scalingo-api-token|tk-us-{url:48}
sendinblue|GL sendinblue-api-token|xkeysib-{hex:64}-{b62:16}
shippo|GL shippo-api-token|shippo_live_{hex:40}
sourcegraph|GL sourcegraph-access-token|sgp_{hex:16}_{hex:40}
replicate|TH replicate|r8_{b62:37}
groq|GL groq-api-key|gsk_{b62:52}
xai|TH xai|xai-{b62:80}
tavily|TH tavily|tvly-{b62:32}
pinecone|TH pinecone|pcsk_{b62_:60-70}
docker_pat|TH dockerhub|dckr_pat_{url:27}
docker_oat|TH dockerhub (organization token)|dckr_oat_{url:32}
buildkite|TH buildkite|bkua_{hex:40}
bitbucket_app|TH bitbucketapppassword|ATBB{b62:32}
figma|TH figmapersonalaccesstoken|figd_{url:40}
sonarqube|TH sonarcloud|sqp_{hex:40}
render|TH render|rnd_{b62:32}
neon|TH neon|napi_{lownum:64}
openshift|GL openshift-user-token|sha256~{url:43}
plaid|GL plaid-api-token|access-production-{uuid}
terraform|GL hashicorp-tf-api-token|{b62:14}.atlasv1.{url:67}
onepassword_service|GL 1password-service-account-token|ops_eyJ{b64:260-300}
airtable_pat|GL airtable-personnal-access-token|pat{b62:14}.{hex:64}
clickup|github-partner clickup personal token|pk_{digits:6-9}_{upnum:32}
typeform|GL typeform-api-token|tfp_{url:44}_{b62:14}
mailchimp|GL mailchimp-api-key|{hex:32}-us{digits:1-2}
elevenlabs|TH elevenlabs|sk_{hex:48}
together|TH togetherai|tgp_v1_{url:43}
cerebras|TH cerebras|csk-{lownum:48}
asana_pat|GL asana (PAT)|1/{digits:16}:{hex:32}
asana_pat_v2|GL asana (PAT v2)|2/{digits:16}/{digits:16}:{hex:32}
firebase_server|TH fcm|AAAA{url:7}:APA91b{url:134}
bitwarden_machine|TH bitwarden (machine account)|0.{uuid}.{b62:30}:{b64:22}==
circleci_pat|TH circleci|CCIPAT_{b62:22}_{hex:40}
circleci_project|TH circleci (project)|CCIPRJ_{b62:22}_{hex:40}
braintree_access|GL braintree-access-token|access_token$production${lownum:16}${hex:32}
braintree_tokenization|GL braintree-tokenization-key|sandbox_{lownum:8}_{lownum:16}
yandex_api|GL yandex-api-key|AQVN{url:35-38}
yandex_aws|GL yandex-aws-access-token|YC{url:38}
yandex_oauth|TH yandex (y0_)|y0_{url:55}
yandex_iam|GL yandex-access-token|t1.{url:40-80}.{url:86}
nuget|TH nugetapikey|oy2{lownum:43}
azure_devops_pat|MS SEC101/102 AdoPat|{b32:52}
azure_devops_pat_v2|MS SEC101/102 (84)|{b62:52}JQQJ9{9DH:1}{b62:1}{A-L:1}{b62:16}AZDO{b62:4}
azure_storage_signed|MS SEC101/152 AzureStorageAccountIdentifiableKey|{sig:88/76/+ASt/==}
azure_cosmos_signed|MS SEC101/191 AzureCosmosDbIdentifiableKey|{sig:88/76/ACDb/==}
azure_servicebus_signed|MS SEC101/182 AzureServiceBusIdentifiableKey|{sig:44/33/+ASb/=}
azure_iot_signed|MS SEC101/178 AzureIotHubIdentifiableKey|{sig:44/33/AIoT/=}
azure_function_signed|MS SEC101/158 AzureFunctionIdentifiableKey|{url:44}AzFu{url:5}{AQgw:1}==
azure_search_signed|MS SEC101/166 AzureSearchIdentifiableKey|{b62:42}AzSe{ABCD:1}{b62:5}
azure_storage_legacy|MS SEC101/110 (az storage account keys list)|{b64:86}==
tailscale|TH tailscale|tskey-auth-k{b62:11}CNTRL-{b62:33}
harness|GL harness-api-key|pat.{url:22}.{b62:24}.{b62:20}
octopus|GL octopus-deploy-api-key|API-{upnum:26}
definednetworking|GL defined-networking-api-token|dnkey-{url:26}-{url:52}
clickhouse|GL clickhouse-cloud-api-secret-key|4b1d{b62:38}
castai|GL castai-api-key|castai_v1_{b62:64}_{b62:8}
chieftools|GL chieftools-pat|ctp_{b62:36}
intra42|GL intra42-client-secret|s-s4t2ud-{hex:64}
settlemint|GL settlemint-personal-access-token|sm_pat_{b62:16}
maxmind|GL maxmind-license-key|{b62:6}_{b62:29}_mmk
tencent|TH tencentcloudsecretid|AKID{b62:32}
scaleway|TH scalewaykey|SCW{upnum:17}
akamai|TH akamai|akab-{lownum:16}-{lownum:16}
infisical|TH infisical|st.{uuid}.{hex:32}.{hex:32}
adyen|GL adyen-api-key|AQE{lownum:6-12}.{url:60}
salesforce|TH salesforce|00D{b62:15}!{b62.:96}
hubspot_private|github-partner hubspot private app token|pat-na1-{uuid}
flutterwave|GL flutterwave-secret-key|FLWSECK_TEST-{hexah:32}-X
duffel|GL duffel-api-token|duffel_live_{url:43}
lob|GL lob-api-key|live_{hex:35}
gocardless|GL gocardless-api-token|live_{url:40}
launchdarkly|TH launchdarkly|api-{uuid}
mailersend|TH mailersend|mlsn.{hex:64}
resend|TH resend|re_{b62:8}_{b62:24}
brevo_smtp|TH brevo (smtp key)|xsmtpsib-{hex:64}-{b62:16}
klaviyo|TH klaviyo|pk_{hex:34}
woocommerce|TH woocommerce|cs_{hex:40}
paddle|github-partner paddle api key|pdl_live_apikey_{lownum:26}_{b62:22}_{b62:3}
paypal|TH paypaloauth (access token)|A21AA{url:90}
onfido|github-partner onfido api token|api_live.{url:11}.{url:32}
midtrans|github-partner midtrans server key|Mid-server-{url:24}
mercury|github-partner mercury api token|mercury_production_wma_{b62:50}
newrelic_admin|GL new-relic (NRAA)|NRAA-{hex:27}
adafruit|github-partner adafruit io key|aio_{b62:28}
ionic|github-partner ionic personal access token|ion_{b62:42}
rootly|github-partner rootly api key|rootly_{hex:64}
samsara|github-partner samsara api token|samsara_api_{b62:30}
zuplo|github-partner zuplo consumer api key|zpka_{hex:32}_{hex:8}
posthog_personal|github-partner posthog personal api key|phx_{b62:43}
telnyx|github-partner telnyx api v2 key|KEY{hexup:32}_{b62:22}
devcycle|github-partner devcycle server sdk key|dvc_server_{uuid}_{hex:7}
pagerduty|TH pagerdutyapikey|u+{url+:18}
twitch_chat|TH twitch (oauth:)|oauth:{lownum:30}
ubidots|github-partner ubidots token|BBFF-{b62:30}
nvidia|github-partner nvidia api key|nvapi-{url:64}
voyage|TH voyageai|pa-{url:43}
fireworks|TH fireworksai|fw_{b62:24}
jina|TH jinaai|jina_{hex:32}{url:28}
firecrawl|TH firecrawl|fc-{hex:32}
browserbase|TH browserbase|bb_live_{url:27}
mem0|TH mem0|m0-{b62:40}
modal|TH modal (token secret)|as-{b62:22}
"""

FAMILIES: tuple[Family, ...] = tuple(_family(row) for row in _SHAPES.strip().splitlines())


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
