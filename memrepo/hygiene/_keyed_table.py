"""The keyed families: a vendor keyword in the name a value is assigned to, and the shape
of that vendor's credential (issue #27).

Each row is ours, written from where the shape is documented: gitleaks' semi-generic
rules (``GenerateSemiGenericRegex(keywords, secret)`` in cmd/generate/config/rules, the
rule id given) and trufflehog detectors whose pattern is a keyword prefix and a value
(``PrefixRegex(keywords) + value`` in pkg/detectors/<vendor>). The value is written as
a small expression over the value alone, matched whole and case-insensitively (as the
``(?i)`` rules of both lists match it); the keyword part is ``_keyed``'s.

Keywords are written in the vendor's own spelling (``LaunchDarkly``): the detector
looks for it as written, lowercased, uppercased and capitalised, so ``launchdarkly_key``,
``LAUNCHDARKLY_KEY``, ``launchDarklyKey`` and ``LaunchdarklyKey`` all name it.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class KeyedFamily:
    """One vendor credential: the keywords that name it, its value, and its source.

    ``fixed`` is a part of every value that is not drawn at random (Dropbox's run of
    ``A``, Twitter's 22 ``A``): it is left out when the value is checked for being a
    placeholder.
    """

    name: str
    keywords: tuple[str, ...]
    value: str
    source: str
    fixed: str = ""


_H = "[0-9a-f]"
_A = "[a-z0-9]"
_UUID = f"{_H}{{8}}-{_H}{{4}}-{_H}{{4}}-{_H}{{4}}-{_H}{{12}}"
_ALNUM_UUID = "[0-9a-z]{8}-[0-9a-z]{4}-[0-9a-z]{4}-[0-9a-z]{4}-[0-9a-z]{12}"
_GL = "gitleaks"
_TH = "trufflehog"


def _k(name: str, source: str, keywords: str, value: str, fixed: str = "") -> KeyedFamily:
    return KeyedFamily(name, tuple(keywords.split()), value, source, fixed)


# fmt: off
#: Every keyed family, gitleaks' semi-generic rules first (rule id in ``source``).
KEYED_FAMILIES: tuple[KeyedFamily, ...] = (
    _k("adafruit", f"{_GL} adafruit-api-key", "Adafruit", "[a-z0-9_-]{32}"),
    _k("adobe_client_id", f"{_GL} adobe-client-id", "Adobe", f"{_H}{{32}}"),
    _k("airtable", f"{_GL} airtable-api-key", "Airtable AirTable", f"{_A}{{17}}"),
    _k("algolia", f"{_GL} algolia-api-key", "Algolia", f"{_A}{{32}}"),
    _k("alibaba_secret", f"{_GL} alibaba-secret-key", "Alibaba", f"{_A}{{30}}"),
    _k("asana_client_id", f"{_GL} asana-client-id", "Asana", "[0-9]{16}"),
    _k("asana_secret", f"{_GL} asana-client-secret", "Asana", f"{_A}{{32}}"),
    _k("atlassian", f"{_GL} atlassian-api-token", "Atlassian Confluence Jira",
       f"{_A}{{20}}{_H}{{4}}"),
    _k("beamer", f"{_GL} beamer-api-token", "Beamer", "b_[a-z0-9=_-]{44}"),
    _k("bitbucket_client_id", f"{_GL} bitbucket-client-id", "Bitbucket BitBucket",
       f"{_A}{{32}}"),
    _k("bitbucket_secret", f"{_GL} bitbucket-client-secret", "Bitbucket BitBucket",
       "[a-z0-9=_-]{64}"),
    _k("bittrex", f"{_GL} bittrex-access-key, bittrex-secret-key", "Bittrex", f"{_A}{{32}}"),
    _k("meraki", f"{_GL} cisco-meraki-api-key", "Meraki", f"{_H}{{40}}"),
    _k("cloudflare", f"{_GL} cloudflare-api-key", "Cloudflare CloudFlare", "[a-z0-9_-]{40}"),
    _k("cloudflare_global", f"{_GL} cloudflare-global-api-key", "Cloudflare CloudFlare",
       f"{_H}{{37}}"),
    _k("codecov", f"{_GL} codecov-access-token", "Codecov CodeCov", f"{_A}{{32}}"),
    _k("cohere", f"{_GL} cohere-api-token", "Cohere CO_API_KEY", "[a-z0-9]{40}"),
    _k("coinbase", f"{_GL} coinbase-access-token", "Coinbase CoinBase", "[a-z0-9_-]{64}"),
    _k("confluent_key", f"{_GL} confluent-access-token", "Confluent", f"{_A}{{16}}"),
    _k("confluent_secret", f"{_GL} confluent-secret-key", "Confluent", f"{_A}{{64}}"),
    _k("contentful", f"{_GL} contentful-delivery-api-token", "Contentful", "[a-z0-9=_-]{43}"),
    _k("datadog", f"{_GL} datadog-access-token", "Datadog DataDog", f"{_A}{{40}}"),
    _k("defined_networking", f"{_GL} defined-networking-api-token", "dnkey",
       "dnkey-[a-z0-9=_-]{26}-[a-z0-9=_-]{52}"),
    _k("discord_key", f"{_GL} discord-api-token", "Discord", f"{_H}{{64}}"),
    _k("discord_client_id", f"{_GL} discord-client-id", "Discord", "[0-9]{18}"),
    _k("discord_secret", f"{_GL} discord-client-secret", "Discord", "[a-z0-9=_-]{32}"),
    _k("droneci", f"{_GL} droneci-access-token", "DroneCI Droneci", f"{_A}{{32}}"),
    _k("dropbox", f"{_GL} dropbox-api-token", "Dropbox DropBox", f"{_A}{{15}}"),
    _k("dropbox_long_lived", f"{_GL} dropbox-long-lived-api-token", "Dropbox DropBox",
       f"{_A}{{11}}AAAAAAAAAA[a-z0-9_=-]{{43}}", fixed="AAAAAAAAAA"),
    _k("dropbox_short_lived", f"{_GL} dropbox-short-lived-api-token", "Dropbox DropBox",
       r"sl\.[a-z0-9=_-]{135}"),
    _k("etsy", f"{_GL} etsy-access-token", "Etsy", f"{_A}{{24}}"),
    _k("facebook_secret", f"{_GL} facebook-secret", "Facebook FaceBook", f"{_H}{{32}}"),
    _k("fastly", f"{_GL} fastly-api-token", "Fastly", "[a-z0-9=_-]{32}"),
    _k("finicity_token", f"{_GL} finicity-api-token", "Finicity", f"{_H}{{32}}"),
    _k("finicity_secret", f"{_GL} finicity-client-secret", "Finicity", f"{_A}{{20}}"),
    _k("finnhub", f"{_GL} finnhub-access-token", "Finnhub FinnHub", f"{_A}{{20}}"),
    _k("flickr", f"{_GL} flickr-access-token", "Flickr", f"{_A}{{32}}"),
    _k("freshbooks", f"{_GL} freshbooks-access-token", "FreshBooks", f"{_A}{{64}}"),
    _k("gitter", f"{_GL} gitter-access-token", "Gitter", "[a-z0-9_-]{40}"),
    _k("gocardless", f"{_GL} gocardless-api-token", "GoCardless", "live_[a-z0-9=_-]{40}"),
    _k("heroku", f"{_GL} heroku-api-key", "Heroku", _UUID),
    _k("hubspot", f"{_GL} hubspot-api-key", "HubSpot", _UUID),
    _k("intercom", f"{_GL} intercom-api-key", "Intercom", "[a-z0-9=_-]{60}"),
    _k("jfrog_api_key", f"{_GL} jfrog-api-key", "JFrog Artifactory Bintray Xray",
       f"{_A}{{73}}"),
    _k("jfrog_identity", f"{_GL} jfrog-identity-token", "JFrog Artifactory Bintray Xray",
       f"{_A}{{64}}"),
    _k("kraken", f"{_GL} kraken-access-token", "Kraken", "[a-z0-9/=_+-]{80,90}"),
    _k("kucoin_key", f"{_GL} kucoin-access-token", "KuCoin", f"{_H}{{24}}"),
    _k("kucoin_secret", f"{_GL} kucoin-secret-key", "KuCoin", _UUID),
    _k("launchdarkly", f"{_GL} launchdarkly-access-token", "LaunchDarkly", "[a-z0-9=_-]{40}"),
    _k("linear_secret", f"{_GL} linear-client-secret", "Linear", f"{_H}{{32}}"),
    _k("linkedin_client_id", f"{_GL} linkedin-client-id", "LinkedIn Linked_In Linked-In",
       f"{_A}{{14}}"),
    _k("linkedin_secret", f"{_GL} linkedin-client-secret", "LinkedIn Linked_In Linked-In",
       f"{_A}{{16}}"),
    _k("lob", f"{_GL} lob-api-key", "Lob", f"(?:live|test)_{_H}{{35}}"),
    _k("lob_publishable", f"{_GL} lob-pub-api-key", "Lob", f"(?:live|test)_pub_{_H}{{31}}"),
    _k("mailchimp", f"{_GL} mailchimp-api-key", "MailChimp", f"{_H}{{32}}-us[0-9]{{2}}"),
    _k("mailgun_private", f"{_GL} mailgun-private-api-token", "Mailgun MailGun",
       f"key-{_H}{{32}}"),
    _k("mailgun_public", f"{_GL} mailgun-pub-key", "Mailgun MailGun", f"pubkey-{_H}{{32}}"),
    _k("mailgun_signing", f"{_GL} mailgun-signing-key", "Mailgun MailGun",
       "[a-h0-9]{32}-[a-h0-9]{8}-[a-h0-9]{8}"),
    _k("mapbox", f"{_GL} mapbox-api-token", "Mapbox MapBox", rf"pk\.{_A}{{60}}\.{_A}{{22}}"),
    _k("mattermost", f"{_GL} mattermost-access-token", "Mattermost MatterMost", f"{_A}{{26}}"),
    _k("messagebird_key", f"{_GL} messagebird-api-token",
       "MessageBird Message_Bird Message-Bird", f"{_A}{{25}}"),
    _k("messagebird_client_id", f"{_GL} messagebird-client-id",
       "MessageBird Message_Bird Message-Bird", _UUID),
    _k("netlify", f"{_GL} netlify-access-token", "Netlify", "[a-z0-9=_-]{40,46}"),
    _k("newrelic_browser", f"{_GL} new-relic-browser-api-token", "NewRelic New_Relic New-Relic",
       f"NRJS-{_H}{{19}}"),
    _k("newrelic_insert", f"{_GL} new-relic-insert-key", "NewRelic New_Relic New-Relic",
       "NRII-[a-z0-9-]{32}"),
    _k("newrelic_user_id", f"{_GL} new-relic-user-api-id", "NewRelic New_Relic New-Relic",
       f"{_A}{{64}}"),
    _k("newrelic_user_key", f"{_GL} new-relic-user-api-key", "NewRelic New_Relic New-Relic",
       f"NRAK-{_A}{{27}}"),
    _k("nytimes", f"{_GL} nytimes-access-token", "NYTimes NewYorkTimes New-York-Times",
       "[a-z0-9=_-]{32}"),
    _k("okta", f"{_GL} okta-access-token", "Okta", "00[a-z0-9_=-]{40}"),
    _k("plaid_access", f"{_GL} plaid-api-token", "Plaid",
       f"access-(?:sandbox|development|production)-{_UUID}"),
    _k("plaid_client_id", f"{_GL} plaid-client-id", "Plaid", f"{_A}{{24}}"),
    _k("plaid_secret", f"{_GL} plaid-secret-key", "Plaid", f"{_A}{{30}}"),
    _k("privateai", f"{_GL} privateai-api-token", "PrivateAI Private_AI Private-AI",
       f"{_A}{{32}}"),
    _k("rapidapi", f"{_GL} rapidapi-access-token", "RapidAPI RapidApi", "[a-z0-9_-]{50}"),
    _k("sendbird_id", f"{_GL} sendbird-access-id", "SendBird", _UUID),
    _k("sendbird_token", f"{_GL} sendbird-access-token", "SendBird", f"{_H}{{40}}"),
    _k("sentry_legacy", f"{_GL} sentry-access-token", "Sentry", f"{_H}{{64}}"),
    _k("sidekiq", f"{_GL} sidekiq-secret", "Contribsys", f"{_H}{{8}}:{_H}{{8}}"),
    _k("snyk", f"{_GL} snyk-api-token", "Snyk", _UUID),
    _k("sonar", f"{_GL} sonar-api-token", "Sonar SonarQube SonarCloud", "[a-z0-9=_-]{40}"),
    _k("squarespace", f"{_GL} squarespace-access-token", "Squarespace SquareSpace", _UUID),
    _k("sumologic_id", f"{_GL} sumologic-access-id", "Sumo SumoLogic", "su[a-z0-9]{12}"),
    _k("sumologic_key", f"{_GL} sumologic-access-token", "Sumo SumoLogic", f"{_A}{{64}}"),
    _k("telegram_bot", f"{_GL} telegram-bot-api-token", "Telegram",
       "[0-9]{5,16}:A[a-z0-9_-]{34}"),
    _k("travisci", f"{_GL} travisci-access-token", "Travis TravisCI", f"{_A}{{22}}"),
    _k("twitch", f"{_GL} twitch-api-token", "Twitch", f"{_A}{{30}}"),
    _k("twitter_access_secret", f"{_GL} twitter-access-secret", "Twitter", f"{_A}{{45}}"),
    _k("twitter_access_token", f"{_GL} twitter-access-token", "Twitter",
       "[0-9]{15,25}-[a-z0-9]{20,40}"),
    _k("twitter_api_key", f"{_GL} twitter-api-key", "Twitter", f"{_A}{{25}}"),
    _k("twitter_api_secret", f"{_GL} twitter-api-secret", "Twitter", f"{_A}{{50}}"),
    _k("twitter_bearer", f"{_GL} twitter-bearer-token", "Twitter", "A{22}[a-z0-9%]{80,100}",
       fixed="A" * 22),
    _k("typeform", f"{_GL} typeform-api-token", "Typeform TypeForm", "tfp_[a-z0-9._=-]{59}"),
    _k("yandex_access", f"{_GL} yandex-access-token", "Yandex",
       r"t1\.[a-z0-9_-]{1,300}={0,2}\.[a-z0-9_-]{86}={0,2}"),
    _k("yandex_api_key", f"{_GL} yandex-api-key", "Yandex", "AQVN[a-z0-9_-]{35,38}"),
    _k("yandex_aws", f"{_GL} yandex-aws-access-token", "Yandex", "YC[a-z0-9_-]{38}"),
    _k("zendesk", f"{_GL} zendesk-secret-key", "Zendesk ZenDesk", f"{_A}{{40}}"),
    # trufflehog: keyword prefix + value (pkg/detectors/<vendor>/<vendor>.go)
    _k("abuseipdb", f"{_TH} abuseipdb", "AbuseIPDB", f"{_A}{{80}}"),
    _k("airbrake", f"{_TH} airbrakeprojectkey, airbrakeuserkey", "Airbrake",
       "[a-z0-9-]{32}|[a-z0-9-]{40}"),
    _k("amplitude", f"{_TH} amplitudeapikey", "Amplitude", f"{_H}{{32}}"),
    _k("adzuna", f"{_TH} adzuna", "Adzuna", f"{_A}{{32}}"),
    _k("apiflash", f"{_TH} apiflash", "ApiFlash", f"{_A}{{32}}"),
    _k("baremetrics", f"{_TH} baremetrics", "Baremetrics", "(?:sk|lk)_[a-z0-9]{18,25}"),
    _k("bscscan", f"{_TH} bscscan", "BscScan", "[0-9a-z]{34}"),
    _k("bugsnag", f"{_TH} bugsnag", "Bugsnag BugSnag", _ALNUM_UUID),
    _k("censys", f"{_TH} censys", "Censys", f"{_A}{{32}}"),
    _k("clarifai", f"{_TH} clarifai", "Clarifai", f"{_A}{{32}}"),
    _k("coinlayer", f"{_TH} coinlayer", "Coinlayer CoinLayer", f"{_H}{{32}}"),
    _k("currencylayer", f"{_TH} currencylayer", "CurrencyLayer", f"{_A}{{32}}"),
    _k("delighted", f"{_TH} delighted", "Delighted", f"{_A}{{32}}"),
    _k("eventbrite", f"{_TH} eventbrite", "Eventbrite EventBrite", "[0-9a-z]{20}"),
    _k("hunter", f"{_TH} hunter", "Hunter", "[a-z0-9_-]{40}"),
    _k("mandrill", f"{_TH} mandrill", "Mandrill", "[a-z0-9_-]{22}"),
    _k("opsgenie", f"{_TH} opsgenie", "Opsgenie OpsGenie", _UUID),
    _k("postmark", f"{_TH} postmark", "Postmark PostMark", _ALNUM_UUID),
    _k("shodan", f"{_TH} shodan", "Shodan", f"{_A}{{32}}"),
    _k("trello", f"{_TH} trello", "Trello", "[a-z0-9-]{32}|[a-z0-9-]{64}"),
    _k("virustotal", f"{_TH} virustotal", "VirusTotal", f"{_H}{{64}}"),
    _k("yelp", f"{_TH} yelp", "Yelp", "[a-z0-9_=.-]{128}"),
    _k("zerobounce", f"{_TH} zerobounce", "ZeroBounce", f"{_A}{{32}}"),
)
# fmt: on
