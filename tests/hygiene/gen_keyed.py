"""Generated keyed credentials: a vendor keyword in the name, a value of the vendor's shape.

Each family is the keyword a name carries and the value's documented shape: a list of
literals and random draws ``(alphabet, shortest, longest)`` as gitleaks' semi-generic
rules (cmd/generate/config/rules/<vendor>.go) and trufflehog's keyword-prefixed
detectors (pkg/detectors/<vendor>) state them. This list is written apart from the
detector's table (memrepo/hygiene/_keyed_table.py) so that a slip in one shows in the
other. Values are drawn with ``rng`` from the shape, never taken from examples, and set
in the sample forms of gitleaks' ``GenerateSampleSecrets`` (INI, JSON, escaped JSON, XML,
YAML scalars and blocks, C#, Go, Java, Kotlin, PHP, Python, CSV, Logstash, Makefile)
plus prose and env lines. Look-alikes: prose naming the vendors, ids the vendors call
public, commit hashes and UUIDs under vendor names, placeholders and slugs.
"""

from __future__ import annotations

import random
import string

from .families import BASE62, HEX_LOWER, Case, random_string

LOW = string.ascii_lowercase + string.digits
B64U = LOW + "_-"
B64UE = LOW + "=_-"
DIG = string.digits
HEXH = "abcdefgh0123456789"

Part = str | tuple[str, int, int]


def _n(alphabet: str, low: int, high: int | None = None) -> tuple[str, int, int]:
    return (alphabet, low, low if high is None else high)


UUID: tuple[Part, ...] = (
    _n(HEX_LOWER, 8), "-", _n(HEX_LOWER, 4), "-", _n(HEX_LOWER, 4), "-",
    _n(HEX_LOWER, 4), "-", _n(HEX_LOWER, 12),
)  # fmt: skip

_GL = "gitleaks"
_TH = "trufflehog"

#: (family, source, keyword as a name spells it, value shape).
FAMILIES: tuple[tuple[str, str, str, tuple[Part, ...]], ...] = (
    ("adafruit", f"{_GL} adafruit-api-key", "adafruit", (_n(B64U, 32),)),
    ("adobe_client_id", f"{_GL} adobe-client-id", "adobe", (_n(HEX_LOWER, 32),)),
    ("airtable", f"{_GL} airtable-api-key", "airtable", (_n(LOW, 17),)),
    ("algolia", f"{_GL} algolia-api-key", "algolia", (_n(LOW, 32),)),
    ("alibaba_secret", f"{_GL} alibaba-secret-key", "alibaba", (_n(LOW, 30),)),
    ("asana_client_id", f"{_GL} asana-client-id", "asana", (_n(DIG, 16),)),
    ("asana_secret", f"{_GL} asana-client-secret", "asana", (_n(LOW, 32),)),
    ("atlassian", f"{_GL} atlassian-api-token", "jira", (_n(LOW, 20), _n(HEX_LOWER, 4))),
    ("beamer", f"{_GL} beamer-api-token", "beamer", ("b_", _n(B64UE, 44))),
    ("bitbucket_client_id", f"{_GL} bitbucket-client-id", "bitbucket", (_n(LOW, 32),)),
    ("bitbucket_secret", f"{_GL} bitbucket-client-secret", "bitbucket", (_n(B64UE, 64),)),
    ("bittrex", f"{_GL} bittrex-access-key", "bittrex", (_n(LOW, 32),)),
    ("meraki", f"{_GL} cisco-meraki-api-key", "meraki", (_n(HEX_LOWER, 40),)),
    ("cloudflare", f"{_GL} cloudflare-api-key", "cloudflare", (_n(B64U, 40),)),
    ("cloudflare_global", f"{_GL} cloudflare-global-api-key", "cloudflare",
     (_n(HEX_LOWER, 37),)),
    ("codecov", f"{_GL} codecov-access-token", "codecov", (_n(LOW, 32),)),
    ("cohere", f"{_GL} cohere-api-token", "cohere", (_n(BASE62, 40),)),
    ("coinbase", f"{_GL} coinbase-access-token", "coinbase", (_n(B64U, 64),)),
    ("confluent_key", f"{_GL} confluent-access-token", "confluent", (_n(LOW, 16),)),
    ("confluent_secret", f"{_GL} confluent-secret-key", "confluent", (_n(LOW, 64),)),
    ("contentful", f"{_GL} contentful-delivery-api-token", "contentful", (_n(B64UE, 43),)),
    ("datadog", f"{_GL} datadog-access-token", "datadog", (_n(LOW, 40),)),
    ("defined_networking", f"{_GL} defined-networking-api-token", "dnkey",
     ("dnkey-", _n(B64UE, 26), "-", _n(B64UE, 52))),
    ("discord_key", f"{_GL} discord-api-token", "discord", (_n(HEX_LOWER, 64),)),
    ("discord_client_id", f"{_GL} discord-client-id", "discord", (_n(DIG, 18),)),
    ("discord_secret", f"{_GL} discord-client-secret", "discord", (_n(B64UE, 32),)),
    ("droneci", f"{_GL} droneci-access-token", "droneci", (_n(LOW, 32),)),
    ("dropbox", f"{_GL} dropbox-api-token", "dropbox", (_n(LOW, 15),)),
    ("dropbox_long_lived", f"{_GL} dropbox-long-lived-api-token", "dropbox",
     (_n(LOW, 11), "AAAAAAAAAA", _n(B64UE, 43))),
    ("dropbox_short_lived", f"{_GL} dropbox-short-lived-api-token", "dropbox",
     ("sl.", _n(B64UE, 135))),
    ("etsy", f"{_GL} etsy-access-token", "etsy", (_n(LOW, 24),)),
    ("facebook_secret", f"{_GL} facebook-secret", "facebook", (_n(HEX_LOWER, 32),)),
    ("fastly", f"{_GL} fastly-api-token", "fastly", (_n(B64UE, 32),)),
    ("finicity_token", f"{_GL} finicity-api-token", "finicity", (_n(HEX_LOWER, 32),)),
    ("finicity_secret", f"{_GL} finicity-client-secret", "finicity", (_n(LOW, 20),)),
    ("finnhub", f"{_GL} finnhub-access-token", "finnhub", (_n(LOW, 20),)),
    ("flickr", f"{_GL} flickr-access-token", "flickr", (_n(LOW, 32),)),
    ("freshbooks", f"{_GL} freshbooks-access-token", "freshbooks", (_n(LOW, 64),)),
    ("gitter", f"{_GL} gitter-access-token", "gitter", (_n(B64U, 40),)),
    ("gocardless", f"{_GL} gocardless-api-token", "gocardless", ("live_", _n(B64UE, 40))),
    ("heroku", f"{_GL} heroku-api-key", "heroku", UUID),
    ("hubspot", f"{_GL} hubspot-api-key", "hubspot", UUID),
    ("intercom", f"{_GL} intercom-api-key", "intercom", (_n(B64UE, 60),)),
    ("jfrog_api_key", f"{_GL} jfrog-api-key", "artifactory", (_n(LOW, 73),)),
    ("jfrog_identity", f"{_GL} jfrog-identity-token", "jfrog", (_n(LOW, 64),)),
    ("kraken", f"{_GL} kraken-access-token", "kraken", (_n(LOW + "/=_+-", 80, 90),)),
    ("kucoin_key", f"{_GL} kucoin-access-token", "kucoin", (_n(HEX_LOWER, 24),)),
    ("kucoin_secret", f"{_GL} kucoin-secret-key", "kucoin", UUID),
    ("launchdarkly", f"{_GL} launchdarkly-access-token", "launchdarkly", (_n(B64UE, 40),)),
    ("linear_secret", f"{_GL} linear-client-secret", "linear", (_n(HEX_LOWER, 32),)),
    ("linkedin_client_id", f"{_GL} linkedin-client-id", "linkedin", (_n(LOW, 14),)),
    ("linkedin_secret", f"{_GL} linkedin-client-secret", "linkedin", (_n(LOW, 16),)),
    ("lob", f"{_GL} lob-api-key", "lob", ("live_", _n(HEX_LOWER, 35))),
    ("lob_publishable", f"{_GL} lob-pub-api-key", "lob", ("test_pub_", _n(HEX_LOWER, 31))),
    ("mailchimp", f"{_GL} mailchimp-api-key", "mailchimp",
     (_n(HEX_LOWER, 32), "-us", _n(DIG, 2))),
    ("mailgun_private", f"{_GL} mailgun-private-api-token", "mailgun",
     ("key-", _n(HEX_LOWER, 32))),
    ("mailgun_public", f"{_GL} mailgun-pub-key", "mailgun", ("pubkey-", _n(HEX_LOWER, 32))),
    ("mailgun_signing", f"{_GL} mailgun-signing-key", "mailgun",
     (_n(HEXH, 32), "-", _n(HEXH, 8), "-", _n(HEXH, 8))),
    ("mapbox", f"{_GL} mapbox-api-token", "mapbox", ("pk.", _n(LOW, 60), ".", _n(LOW, 22))),
    ("mattermost", f"{_GL} mattermost-access-token", "mattermost", (_n(LOW, 26),)),
    ("messagebird_key", f"{_GL} messagebird-api-token", "messagebird", (_n(LOW, 25),)),
    ("messagebird_client_id", f"{_GL} messagebird-client-id", "message_bird", UUID),
    ("netlify", f"{_GL} netlify-access-token", "netlify", (_n(B64UE, 40, 46),)),
    ("newrelic_browser", f"{_GL} new-relic-browser-api-token", "newrelic",
     ("NRJS-", _n(HEX_LOWER, 19))),
    ("newrelic_insert", f"{_GL} new-relic-insert-key", "new_relic",
     ("NRII-", _n(LOW + "-", 32))),
    ("newrelic_user_id", f"{_GL} new-relic-user-api-id", "newrelic", (_n(LOW, 64),)),
    ("newrelic_user_key", f"{_GL} new-relic-user-api-key", "new-relic",
     ("NRAK-", _n(LOW, 27))),
    ("nytimes", f"{_GL} nytimes-access-token", "nytimes", (_n(B64UE, 32),)),
    ("okta", f"{_GL} okta-access-token", "okta", ("00", _n(BASE62 + "_=-", 40))),
    ("plaid_access", f"{_GL} plaid-api-token", "plaid", ("access-production-", *UUID)),
    ("plaid_client_id", f"{_GL} plaid-client-id", "plaid", (_n(LOW, 24),)),
    ("plaid_secret", f"{_GL} plaid-secret-key", "plaid", (_n(LOW, 30),)),
    ("privateai", f"{_GL} privateai-api-token", "private_ai", (_n(LOW, 32),)),
    ("rapidapi", f"{_GL} rapidapi-access-token", "rapidapi", (_n(B64U, 50),)),
    ("sendbird_id", f"{_GL} sendbird-access-id", "sendbird", UUID),
    ("sendbird_token", f"{_GL} sendbird-access-token", "sendbird", (_n(HEX_LOWER, 40),)),
    ("sentry_legacy", f"{_GL} sentry-access-token", "sentry", (_n(HEX_LOWER, 64),)),
    ("sidekiq", f"{_GL} sidekiq-secret", "BUNDLE_ENTERPRISE__CONTRIBSYS__COM",
     (_n(HEX_LOWER, 8), ":", _n(HEX_LOWER, 8))),
    ("snyk", f"{_GL} snyk-api-token", "snyk", UUID),
    ("sonar", f"{_GL} sonar-api-token", "sonar", (_n(B64UE, 40),)),
    ("squarespace", f"{_GL} squarespace-access-token", "squarespace", UUID),
    ("sumologic_id", f"{_GL} sumologic-access-id", "sumo", ("su", _n(BASE62, 12))),
    ("sumologic_key", f"{_GL} sumologic-access-token", "sumo", (_n(LOW, 64),)),
    ("telegram_bot", f"{_GL} telegram-bot-api-token", "telegram",
     (_n(DIG, 5, 16), ":A", _n(B64U, 34))),
    ("travisci", f"{_GL} travisci-access-token", "travis", (_n(LOW, 22),)),
    ("twitch", f"{_GL} twitch-api-token", "twitch", (_n(LOW, 30),)),
    ("twitter_access_secret", f"{_GL} twitter-access-secret", "twitter", (_n(LOW, 45),)),
    ("twitter_access_token", f"{_GL} twitter-access-token", "twitter",
     (_n(DIG, 15, 25), "-", _n(BASE62, 20, 40))),
    ("twitter_api_key", f"{_GL} twitter-api-key", "twitter", (_n(LOW, 25),)),
    ("twitter_api_secret", f"{_GL} twitter-api-secret", "twitter", (_n(LOW, 50),)),
    ("twitter_bearer", f"{_GL} twitter-bearer-token", "twitter",
     ("A" * 22, _n(BASE62 + "%", 80, 100))),
    ("typeform", f"{_GL} typeform-api-token", "typeform", ("tfp_", _n(LOW + "._=-", 59))),
    ("yandex_access", f"{_GL} yandex-access-token", "yandex",
     ("t1.", _n(BASE62 + "_-", 8, 40), ".", _n(BASE62 + "_-", 86))),
    ("yandex_api_key", f"{_GL} yandex-api-key", "yandex", ("AQVN", _n(BASE62 + "_-", 35, 38))),
    ("yandex_aws", f"{_GL} yandex-aws-access-token", "yandex", ("YC", _n(BASE62 + "_-", 38))),
    ("zendesk", f"{_GL} zendesk-secret-key", "zendesk", (_n(LOW, 40),)),
    ("abuseipdb", f"{_TH} abuseipdb", "abuseipdb", (_n(LOW, 80),)),
    ("airbrake", f"{_TH} airbrakeprojectkey", "airbrake", (_n(BASE62 + "-", 32),)),
    ("amplitude", f"{_TH} amplitudeapikey", "amplitude", (_n(HEX_LOWER, 32),)),
    ("adzuna", f"{_TH} adzuna", "adzuna", (_n(LOW, 32),)),
    ("apiflash", f"{_TH} apiflash", "apiflash", (_n(LOW, 32),)),
    ("baremetrics", f"{_TH} baremetrics", "baremetrics", ("sk_", _n(BASE62, 18, 25))),
    ("bscscan", f"{_TH} bscscan", "bscscan", (_n(string.ascii_uppercase + DIG, 34),)),
    ("bugsnag", f"{_TH} bugsnag", "bugsnag", UUID),
    ("censys", f"{_TH} censys", "censys", (_n(BASE62, 32),)),
    ("clarifai", f"{_TH} clarifai", "clarifai", (_n(BASE62, 32),)),
    ("coinlayer", f"{_TH} coinlayer", "coinlayer", (_n(HEX_LOWER, 32),)),
    ("currencylayer", f"{_TH} currencylayer", "currencylayer", (_n(LOW, 32),)),
    ("delighted", f"{_TH} delighted", "delighted", (_n(BASE62, 32),)),
    ("eventbrite", f"{_TH} eventbrite", "eventbrite", (_n(string.ascii_uppercase + DIG, 20),)),
    ("hunter", f"{_TH} hunter", "hunter", (_n(B64U, 40),)),
    ("mandrill", f"{_TH} mandrill", "mandrill", (_n(BASE62 + "_-", 22),)),
    ("opsgenie", f"{_TH} opsgenie", "opsgenie", UUID),
    ("postmark", f"{_TH} postmark", "postmark", UUID),
    ("shodan", f"{_TH} shodan", "shodan", (_n(BASE62, 32),)),
    ("trello", f"{_TH} trello", "trello", (_n(BASE62 + "-", 32),)),
    ("virustotal", f"{_TH} virustotal", "virustotal", (_n(HEX_LOWER, 64),)),
    ("yelp", f"{_TH} yelp", "yelp", (_n(BASE62 + "_=.-", 128),)),
    ("zerobounce", f"{_TH} zerobounce", "zerobounce", (_n(LOW, 32),)),
)  # fmt: skip

#: The sample forms of gitleaks' GenerateSampleSecrets ({i}: the keyword as written,
#: {I}: upper case), then prose, env lines, JSON and YAML documents.
FORMS: tuple[str, ...] = (
    '{i}Token="{s}"',
    '{i}Token = "{s}"',
    "{i}Token={s}",
    "{i}Token = {s}",
    '{\n    "{i}_token": "{s}"\n}',
    '\\{\n    \\"{i}_token\\": \\"{s}\\"\n\\}',
    "<{i}Token>{s}</{i}Token>",
    "<{i}Token>\n    {s}\n</{i}Token>",
    "{i}_token: {s}",
    "{i}_token: '{s}'",
    '{i}_token: "{s}"',
    "{i}_token: |\n  {s}",
    "{i}_token: >\n  {s}",
    'string {i}Token = "{s}";',
    'var {i}Token string = "{s}"',
    '{i}Token := "{s}"',
    "{i}Token := `{s}`",
    'String {i}Token = "{s}";',
    'var {i}Token = "{s}"',
    '${i}Token .= "{s}"',
    "{i}Token = '{s}'",
    '{i}Token = "{s}"',
    "{i}Token,{s},",
    '  "{i}Token" => "{s}"',
    '{I}_TOKEN = "{s}"',
    '{I}_TOKEN := "{s}"',
    '{I}_TOKEN ::= "{s}"',
    '{I}_TOKEN :::= "{s}"',
    '{I}_TOKEN ?= "{s}"',
    '{I}_TOKEN += "{s}"',
    "Rotated today: the {i} key is {s}. Old one revoked.",
    "export {I}_API_KEY={s}",
    "{I}_API_KEY={s}\nLOG_LEVEL=info",
    '{"service": "billing", "{i}_api_key": "{s}", "retries": 3}',
    "integrations:\n  {i}_secret: {s}\n  enabled: true",
)


def _draw(rng: random.Random, parts: tuple[Part, ...]) -> str:
    out: list[str] = []
    for part in parts:
        if isinstance(part, str):
            out.append(part)
        else:
            alphabet, low, high = part
            out.append(random_string(rng, alphabet, rng.randint(low, high)))
    return "".join(out)


def cases(rng: random.Random, per_family: int) -> list[Case]:
    """``per_family`` texts per family, each a value in a form drawn with ``rng``."""
    found: list[Case] = []
    for name, source, keyword, parts in FAMILIES:
        for _ in range(per_family):
            value = _draw(rng, parts)
            form = rng.choice(FORMS)
            text = form.replace("{i}", keyword).replace("{I}", keyword.upper())
            found.append(Case(f"keyed_{name}", source, text.replace("{s}", value), (value,)))
    return found


def lookalikes(rng: random.Random) -> list[Case]:
    """Texts that name vendors and hold no credential; each must come out unchanged."""
    hex40 = random_string(rng, HEX_LOWER, 40)
    uuid = _draw(rng, UUID)
    texts = (
        "The Datadog dashboard: 3 monitors are red since 09:14, Sentry shows 12 issues.",
        f"ALGOLIA_APP_ID={random_string(rng, string.ascii_uppercase + DIG, 10)}",
        "DD_SITE=datadoghq.eu and datadog_site: us5.datadoghq.com",
        f"OKTA_DOMAIN=dev-{random_string(rng, DIG, 8)}.okta.com",
        f"datadog_commit: {hex40}",
        f"sentry_release: {random_string(rng, HEX_LOWER, 40)}",
        f"Deployed {hex40} to Heroku; Netlify preview at deploy-preview-42--site.netlify.app",
        f"heroku_app_id: {uuid}",
        f"kucoin_order_id: {random_string(rng, HEX_LOWER, 24)}",
        f"discord_channel_id: {random_string(rng, DIG, 18)}",
        f"asana_task_gid = {random_string(rng, DIG, 16)}",
        "AIRTABLE_API_KEY=your_airtable_api_key_here",
        "DATADOG_API_KEY=${DATADOG_API_KEY}",
        "twitter_api_key: <your-twitter-api-key>",
        "gitter_room: our-team-channel-for-the-backend-devs-24",
        "The linear regression on 2024 data: slope 0.42, Jira ticket OPS-1234 has it.",
        "global_settings_version: 2024-03-05-release-candidate-1",
        "Confluence page: Team-Onboarding-Guide-Version-2024-Final",
        "Plaid link flow: access-sandbox tokens expire; see the Plaid docs page 12.",
        "Twilio, Twitch and Twitter are three vendors; Twitter has 280 chars.",
        "Mapbox style: mapbox://styles/mapbox/streets-v12 in the mapbox_style setting",
        f"Sendbird app: {uuid} (the app id is public and shown in the dashboard)",
        "Kraken order history exported to /home/dev/reports/kraken-2024-03-05-orders.csv",
    )
    return [Case("keyed_lookalike", "gen_keyed", text) for text in texts]
