"""The gate, end to end against a real server: sign-in by the one-time URL, the session
on every request, CSRF on every POST, Host and Origin checks, bounded strict forms."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from .conftest import Serve, Served

pytestmark = [pytest.mark.integration, pytest.mark.slow]


@pytest.fixture
def hub(serve: Serve, root: Path) -> Served:
    return serve(root)


def test_the_login_url_opens_a_session_once(hub: Served) -> None:
    login = hub.hub.login_url.removeprefix(hub.base)
    client = hub.client()
    first = client.get(login)
    assert first.status_code == 303 and first.headers["location"] == "/"
    cookie = first.headers["set-cookie"]
    assert "httponly" in cookie.lower() and "samesite=strict" in cookie.lower()
    assert client.get("/").status_code == 200
    again = hub.client().get(login)  # the same address, another browser
    assert again.status_code == 403 and "works once" in again.text


def test_without_the_session_cookie_nothing_is_served(hub: Served) -> None:
    client = hub.client()
    for path in ("/", "/static/hub.css", "/memory?ref=folder:MEMORY.md%23x", "/nowhere"):
        response = client.get(path)
        assert response.status_code == 401, path
        assert "Not signed in" in response.text
    forged = hub.client()
    forged.cookies.set(f"memrepo_hub_{hub.port}", "made-up-session")
    assert forged.get("/").status_code == 401
    assert hub.client().get("/login?token=guess").status_code == 403


def test_a_forged_host_header_is_refused_even_with_a_session(hub: Served) -> None:
    person = hub.login()
    assert person.get("/").status_code == 200
    for host in ("evil.example", f"evil.example:{hub.port}", "127.0.0.1:1"):
        response = person.http.get("/", headers={"Host": host})
        assert response.status_code == 421, host
        assert "Wrong address" in response.text
    assert person.http.get("/", headers={"Host": f"localhost:{hub.port}"}).status_code == 200


def test_a_post_without_the_csrf_token_is_refused_and_changes_nothing(hub: Served) -> None:
    person = hub.login()
    back = {"show": "1", "back": "/"}
    missing = person.post("/session/private", back, csrf=False)
    wrong = person.post("/session/private", {**back, "csrf": "not-the-token"})
    for response in (missing, wrong):
        assert response.status_code == 403 and "CSRF" in response.text
    assert "Private items are hidden" in person.get("/").text
    ok = person.post("/session/private", back)
    assert "Private items are shown" in person.follow(ok).text


def test_requests_from_other_sites_are_refused(hub: Served) -> None:
    person = hub.login()
    fields = {"show": "1", "back": "/", "csrf": person.csrf()}
    foreign = person.http.post(
        "/session/private", data=fields, headers={"Origin": "http://evil.example"}
    )
    assert foreign.status_code == 403
    no_origin = person.http.post("/session/private", data=fields)
    assert no_origin.status_code == 403
    cross = person.http.get("/", headers={"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "cors"})
    assert cross.status_code == 403
    same_port_other_origin = person.http.get("/", headers={"Origin": "http://127.0.0.1:1"})
    assert same_port_other_origin.status_code == 403
    assert "Private items are hidden" in person.get("/").text


def test_forms_are_bounded_url_encoded_utf8(hub: Served) -> None:
    person = hub.login()
    token = person.csrf()
    headers = {**hub.origin, "Content-Type": "application/x-www-form-urlencoded"}
    huge = person.http.post("/session/private", content=b"a=" + b"x" * 200_000, headers=headers)
    assert huge.status_code == 413
    not_utf8 = person.http.post(
        "/session/private", content=f"csrf={token}&show=%FF%FE".encode(), headers=headers
    )
    assert not_utf8.status_code == 400 and "not UTF-8" in not_utf8.text
    raw = person.http.post("/session/private", content=b"show=\xff", headers=headers)
    assert raw.status_code == 400
    as_json = person.http.post("/session/private", json={"csrf": token}, headers=hub.origin)
    assert as_json.status_code == 415
    for response in (huge, not_utf8, raw, as_json):
        assert "Traceback" not in response.text
    assert person.http.request("PUT", "/", headers=hub.origin).status_code == 405
    assert person.http.request("DELETE", "/").status_code == 405


def test_every_response_keeps_the_page_to_itself(hub: Served) -> None:
    person = hub.login()
    for response in (person.get("/"), hub.client().get("/"), person.get("/static/hub.js")):
        csp = response.headers["content-security-policy"]
        assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp
        assert response.headers["x-frame-options"] == "DENY"
        assert response.headers["referrer-policy"] == "same-origin"
        assert response.headers["cache-control"] == "no-store"
    page = person.get("/").text
    assert "http://" not in page.replace(hub.base, "")  # nothing loads from elsewhere
    assert '<script src="/static/hub.js"' in page


def test_bad_addresses_and_forged_fields_get_a_clear_page(hub: Served) -> None:
    person = hub.login()
    cases = {
        "/?page=abc": 400,
        "/?scope=everything": 400,
        "/?page=99": 400,
        "/no/such/page": 404,
        "/?q=%FF%FE": 400,  # percent-escapes that are not UTF-8
        "/?" + "&".join(f"f{n}=1" for n in range(300)): 400,
    }
    for path, status in cases.items():
        response = person.http.get(path)
        assert response.status_code == status, path
        assert "Traceback" not in response.text and "<h1>" in response.text
    evil_back = person.post("/session/private", {"show": "1", "back": "//evil.example/"})
    assert evil_back.status_code == 400 and "not a page of the hub" in evil_back.text


def test_it_listens_on_loopback_only_and_logs_no_query(hub: Served) -> None:
    assert hub.server.servers[0].sockets[0].getsockname()[0] == "127.0.0.1"
    person = hub.login()
    person.get("/", q="my-secret-search")
    person.get("/static/hub.css")  # same connection: the first request's line is written
    assert any(line.startswith("GET / -> 200") for line in hub.lines)
    assert not any("my-secret-search" in line for line in hub.lines)
    assert not any("token" in line for line in hub.lines)


def test_the_port_must_be_free_and_real() -> None:
    from memrepo.errors import InvalidArgument
    from memrepo.hub.serve import bind

    with pytest.raises(InvalidArgument, match="not a TCP port"):
        bind(70000)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        with pytest.raises(InvalidArgument, match="pick another --port"):
            bind(taken.getsockname()[1])
