"""The odd server answers the spec's shapes, and its modes misbehave exactly as promised."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

from tests.tools.odd_server import IN_FLIGHT_GRACE, OddServer

AUTH = {"Authorization": "Bearer odd-key"}


@pytest.fixture
def odd() -> Iterator[OddServer]:
    with OddServer(quiet=True) as server:
        yield server


def client(server: OddServer) -> httpx.Client:
    return httpx.Client(base_url=server.base_url, headers=AUTH, timeout=5)


def test_posts_are_paginated_fifteen_a_page_in_a_laravel_envelope(odd: OddServer) -> None:
    with client(odd) as http:
        first = http.get("/posts").json()
        assert first["meta"]["total"] == 60
        assert first["meta"]["last_page"] == 4
        assert len(first["data"]) == 15
        assert first["links"]["prev"] is None
        assert first["links"]["next"].endswith("/api/posts?page=2")
        labels = [link["label"] for link in first["meta"]["links"]]
        assert labels[1:-1] == ["1", "2", "3", "4"]
        ids = set()
        for page in range(1, 5):
            ids |= {p["id"] for p in http.get("/posts", params={"page": page}).json()["data"]}
        assert len(ids) == 60
        post = first["data"][0]
        assert time.strptime(post["created_at"], "%Y-%m-%d %H:%M:%S")
        dated = [p["scheduled_at"] for p in first["data"] if p["scheduled_at"]]
        assert dated == sorted(dated, reverse=True)
        assert "post_group_id" not in post
        assert http.get(f"/posts/{post['id']}").json()["id"] == post["id"]


def test_accounts_include_a_disconnected_and_an_expired_one(odd: OddServer) -> None:
    with client(odd) as http:
        accounts = http.get("/social-accounts").json()
    assert isinstance(accounts, list)
    assert [a["platform"] for a in accounts] == sorted(a["platform"] for a in accounts)
    assert {"disconnected", "token_expired", "connected"} <= {a["status"] for a in accounts}


def test_batch_makes_one_post_per_destination_and_keys_errors_by_destination(
    odd: OddServer,
) -> None:
    with client(odd) as http:
        accounts = {a["platform"]: a["id"] for a in http.get("/social-accounts").json()}
        bad = http.post(
            "/posts/batch",
            json={
                "status": "scheduled",
                "scheduled_at": "2099-01-01 10:00:00",
                "content": "Fresh bread",
                "destinations": [
                    {"social_account_id": accounts["x"], "content_type": "x_post"},
                    {"social_account_id": accounts["pinterest"], "content_type": "pinterest_pin"},
                ],
            },
        )
        assert bad.status_code == 422
        assert set(bad.json()["errors"]) == {"destinations.1.meta.board_id"}
        good = http.post(
            "/posts/batch",
            json={
                "content": "Fresh bread",
                "destinations": [
                    {"social_account_id": accounts["x"], "content_type": "x_post"},
                    {"social_account_id": accounts["linkedin"], "content_type": "linkedin_post"},
                ],
            },
        )
        assert good.is_success
        posts = good.json()["posts"]
        assert len(posts) == 2
        assert len({p["post_group_id"] for p in posts}) == 1
        assert all(len(p["platforms"]) == 1 and p["status"] == "draft" for p in posts)
        assert http.get("/posts").json()["meta"]["total"] == 62


def test_put_schedules_a_draft_and_refuses_a_bad_time(odd: OddServer) -> None:
    with client(odd) as http:
        drafts = [
            p
            for page in (1, 2, 3, 4)
            for p in http.get("/posts", params={"page": page}).json()["data"]
            if p["status"] == "draft"
        ]
        target = drafts[0]["id"]
        wrong = http.put(f"/posts/{target}", json={"status": "scheduled", "scheduled_at": "soon"})
        assert wrong.status_code == 422
        assert "scheduled_at" in wrong.json()["errors"]
        done = http.put(
            f"/posts/{target}", json={"status": "scheduled", "scheduled_at": "2099-02-03 04:05:00"}
        )
        assert done.json()["status"] == "scheduled"
        assert done.json()["scheduled_at"] == "2099-02-03 04:05:00"
        assert http.delete(f"/posts/{target}").status_code == 204
        assert http.get(f"/posts/{target}").status_code == 404


def test_labels_signatures_and_webhooks_have_the_spec_shapes(odd: OddServer) -> None:
    with client(odd) as http:
        assert isinstance(http.get("/labels").json(), list)
        created = http.post("/labels", json={"name": "  New  ", "color": "#123456"})
        assert created.status_code == 201
        assert created.json()["name"] == "New"
        assert http.post("/labels", json={"name": "   ", "color": "red"}).status_code == 422
        signatures = http.get("/signatures").json()
        assert signatures["meta"]["per_page"] == len(signatures["data"]) == 10
        assert signatures["meta"]["total"] == 14
        hooks = http.get("/webhooks").json()
        assert all("signing_secret" not in h for h in hooks)
        one = http.get(f"/webhooks/{hooks[-1]['id']}").json()
        assert one["signing_secret"].startswith("whsec_")
        assert len(one["signing_secret"]) == len("whsec_") + 32
        logs = http.get(f"/webhooks/{one['id']}/logs").json()
        assert len(logs["data"]) == 15
        assert "links" not in logs["meta"]
        log_id = logs["data"][0]["id"]
        replay = http.post(f"/webhooks/{one['id']}/logs/{log_id}/replay")
        assert replay.json() == {"replayed": True}
        refused = http.post(
            "/webhooks", json={"endpoint": "http://127.0.0.1/hook", "events": ["post.created"]}
        )
        assert refused.status_code == 422
        assert "endpoint" in refused.json()["errors"]


def test_the_key_is_checked(odd: OddServer) -> None:
    with httpx.Client(base_url=odd.base_url, headers={"Authorization": "Bearer nope"}) as http:
        answer = http.get("/posts")
    assert answer.status_code == 401
    assert answer.json() == {"message": "Unauthenticated."}


def early_requests(server: OddServer) -> list[Any]:
    return list(server.stats()["early"])


def wait_until(predicate: Callable[[], bool], what: str, limit: float = 10.0) -> None:
    deadline = time.monotonic() + limit
    while not predicate():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.01)


def recorded_429(server: OddServer, after: float) -> bool:
    """Whether the server has recorded a 429 it gave after `after` (it records it once the
    answer is sent, so the client may hold the answer a moment before)."""
    with server.traffic.lock:
        return server.traffic.last_429_at > after


def test_rate_mode_answers_every_fifth_with_429_and_refuses_early_requests() -> None:
    with OddServer(modes={"rate"}, quiet=True) as odd, client(odd) as http:
        statuses = [http.get("/labels").status_code for _ in range(5)]
        assert statuses == [200, 200, 200, 200, 429]
        wait_until(lambda: recorded_429(odd, 0.0), "the 429 recorded")
        first_429 = odd.traffic.last_429_at
        # Back after the in-flight grace, well inside the 1 s wait: refused.
        wait_until(
            lambda: time.monotonic() - first_429 > IN_FLIGHT_GRACE, "the in-flight grace to pass"
        )
        limited = http.get("/labels")
        assert limited.status_code == 429
        assert limited.headers["Retry-After"] == "1"
        assert limited.json()["name"] == "rate_limit_exceeded"
        assert len(early_requests(odd)) == 1
        # The refusal was a 429 too: its wait starts again; back once that wait has passed.
        wait_until(lambda: recorded_429(odd, first_429), "the refusal recorded as a 429")
        wait_until(
            lambda: time.monotonic() >= odd.traffic.limited_until, "the new wait to pass", 5.0
        )
        assert http.get("/labels").status_code == 200
        assert len(early_requests(odd)) == 1


def test_drop_mode_commits_a_batch_and_then_says_nothing() -> None:
    with OddServer(modes={"drop"}, quiet=True) as odd, client(odd) as http:
        account = http.get("/social-accounts").json()[0]["id"]
        for _ in range(5):
            http.get("/labels")
        with pytest.raises(httpx.RemoteProtocolError):
            http.post(
                "/posts/batch",
                json={
                    "content": "hello",
                    "destinations": [
                        {"social_account_id": account, "content_type": "discord_message"}
                    ],
                },
            )
        assert http.get("/posts").json()["meta"]["total"] == 61


@pytest.mark.parametrize(
    ("mode", "status", "check"),
    [
        ("redirect", 302, lambda r: r.headers["Location"].startswith("https://")),
        ("html", 200, lambda r: r.headers["Content-Type"].startswith("text/html")),
        ("expired", 401, lambda r: r.json() == {"message": "Token expired."}),
    ],
)
def test_broken_deployment_modes(mode: str, status: int, check: Any) -> None:
    with OddServer(modes={mode}, quiet=True) as odd, client(odd) as http:
        answer = http.get("/posts")
    assert answer.status_code == status
    assert check(answer)


def test_hostile_mode_breaks_promises_the_spec_made() -> None:
    with OddServer(modes={"hostile"}, quiet=True) as odd, client(odd) as http:
        labels = http.get("/labels").json()
        posts = [
            p
            for page in (1, 2, 3, 4)
            for p in http.get("/posts", params={"page": page}).json()["data"]
        ]
        ig = next(
            a for a in http.get("/social-accounts").json() if a["platform"] == "instagram-facebook"
        )
        audio = http.get(f"/social-accounts/{ig['id']}/instagram-audio").json()
    assert None in {label["name"] for label in labels}
    statuses = {p["status"] for p in posts}
    assert None in statuses
    assert "archived" in statuses
    assert any("<script>" in (p["content"] or "") for p in posts)
    assert any(len(p["content"] or "") == 10_000 for p in posts)
    assert None in {track["title"] for track in audio}


def test_nulls_mode_sends_one_bad_field_per_post_and_every_post_an_id() -> None:
    with OddServer(modes={"nulls"}, quiet=True) as odd, client(odd) as http:
        labels = http.get("/labels").json()
        posts = [
            p
            for page in (1, 2, 3, 4)
            for p in http.get("/posts", params={"page": page}).json()["data"]
        ]
    [nameless] = [label for label in labels if label["name"] is None]
    carriers = [p for p in posts if any(lb["id"] == nameless["id"] for lb in p["labels"] or [])]
    assert len(carriers) == 7
    carried = [lb for p in carriers for lb in p["labels"] if lb["id"] == nameless["id"]]
    assert [lb["name"] for lb in carried] == [None] * 7
    assert {"pending_approval", "draft"} <= {p["status"] for p in carriers}
    assert any(p["scheduled_at"] is None for p in carriers)
    assert [p["status"] for p in posts].count(None) == 1
    assert all(isinstance(p["id"], str) for p in posts)
    assert len(posts) == 60
    entries = [e for p in posts for e in p["platforms"] or []]
    assert any(e["platform"] is None and e["enabled"] is None for e in entries)
    assert any(m["id"] is None for p in posts for m in p["media"] or [])
    assert {key for p in posts for key in ("platforms", "media", "labels") if p[key] is None} == {
        "platforms",
        "media",
        "labels",
    }


def test_command_line_prints_the_base_url() -> None:
    child = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tests.tools.odd_server",
            "--port",
            "0",
            "--mode",
            "slow,rate",
            "--quiet",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout is not None
        url = child.stdout.readline().strip()
        assert url.startswith("http://127.0.0.1:")
        assert url.endswith("/api")
        started = time.monotonic()
        answer = httpx.get(f"{url}/social-accounts", headers=AUTH, timeout=5)
        assert answer.status_code == 200
        assert time.monotonic() - started >= 0.3
    finally:
        child.terminate()
        child.communicate(timeout=5)
