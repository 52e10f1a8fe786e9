"""Places where an independent reading of the spec found the sandbox off (issue 9 §1), and the
composer's lookup routes with their per-user limit (§8)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.sandbox.clock import ManualClock, to_db
from app.sandbox.harness import SandboxServer

from .conftest import client_for

START = datetime(2030, 1, 2, 15, 0, tzinfo=UTC)


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(START)


@pytest.fixture
def server(tmp_path: Path, clock: ManualClock) -> Iterator[SandboxServer]:
    with SandboxServer(tmp_path / "fixes.db", now=clock) as running:
        yield running


@pytest.fixture
def client(server: SandboxServer) -> Iterator[httpx.Client]:
    with client_for(server) as api:
        yield api


def account(server: SandboxServer, platform: str) -> str:
    return server.store.account_id(platform)


# -- webhooks endpoint ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "endpoint",
    [
        "https://exa mple.com/h",
        "https://example.com/a b",
        "https://exa\tmple.com/",
        "https://-x.com/",
    ],
)
def test_endpoints_with_a_broken_host_or_spaces_are_refused(
    client: httpx.Client, endpoint: str
) -> None:
    response = client.post("/webhooks", json={"endpoint": endpoint, "events": ["post.created"]})
    assert response.status_code == 422
    assert response.json()["errors"]["endpoint"] == ["The endpoint field must be a valid URL."]
    hook = client.post(
        "/webhooks", json={"endpoint": "https://example.com/h", "events": ["post.created"]}
    ).json()
    update = client.put(f"/webhooks/{hook['id']}", json={"endpoint": endpoint})
    assert update.status_code == 422


def test_endpoint_is_trimmed(client: httpx.Client) -> None:
    response = client.post(
        "/webhooks", json={"endpoint": "  https://example.com/h  ", "events": ["post.created"]}
    )
    assert response.status_code == 201
    assert response.json()["endpoint"] == "https://example.com/h"


# -- required fields and Laravel's input habits ---------------------------------------------


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("/labels", {"name": "   ", "color": "#123456"}, "name"),
        ("/labels", {"name": "Launch", "color": " "}, "color"),
        ("/signatures", {"name": "\t", "content": "Thanks"}, "name"),
        ("/signatures", {"name": "Sign-off", "content": "  "}, "content"),
        ("/webhooks", {"endpoint": "   ", "events": ["post.created"]}, "endpoint"),
    ],
)
def test_required_fields_refuse_blank_text(
    client: httpx.Client, path: str, body: dict[str, Any], field: str
) -> None:
    response = client.post(path, json=body)
    assert response.status_code == 422
    assert response.json()["errors"][field] == [f"The {field} field is required."]


def test_blank_account_id_in_a_batch_is_required(
    client: httpx.Client, server: SandboxServer
) -> None:
    response = client.post(
        "/posts/batch", json={"content": "Hi", "destinations": [{"social_account_id": "  "}]}
    )
    assert response.status_code == 422
    assert response.json()["errors"]["destinations.0.social_account_id"] == [
        "The destinations.0.social account id field is required."
    ]


def test_name_length_counts_the_trimmed_text(client: httpx.Client) -> None:
    padded = "  " + "n" * 255 + "  "
    created = client.post("/labels", json={"name": padded, "color": "#123456"})
    assert created.status_code == 201
    assert created.json()["name"] == "n" * 255


def test_empty_destination_content_keeps_the_shared_text(
    client: httpx.Client, server: SandboxServer
) -> None:
    response = client.post(
        "/posts/batch",
        json={
            "content": "Shared text",
            "destinations": [
                {"social_account_id": account(server, "x"), "content": ""},
                {"social_account_id": account(server, "linkedin"), "content": "Own text"},
            ],
        },
    )
    assert response.status_code == 201
    assert [p["content"] for p in response.json()["posts"]] == ["Shared text", "Own text"]


def test_empty_destination_content_with_no_shared_text_cannot_schedule(
    client: httpx.Client, server: SandboxServer
) -> None:
    response = client.post(
        "/posts/batch",
        json={
            "status": "scheduled",
            "scheduled_at": to_db(START + timedelta(days=1)),
            "destinations": [{"social_account_id": account(server, "x"), "content": ""}],
        },
    )
    assert response.status_code == 422
    assert "destinations.0.content" in response.json()["errors"]


# -- queue ---------------------------------------------------------------------------------


def test_queue_next_ignores_a_past_time(client: httpx.Client, server: SandboxServer) -> None:
    response = client.post(
        "/posts/batch",
        json={
            "queue": "next",
            "scheduled_at": to_db(START - timedelta(days=3)),
            "content": "Queued",
            "destinations": [{"social_account_id": account(server, "x")}],
        },
    )
    assert response.status_code == 201, response.text
    post = response.json()["posts"][0]
    assert post["status"] == "scheduled"
    assert post["schedule_mode"] == "queue"
    assert post["scheduled_at"] > to_db(START)  # a queue slot, not the time sent


def test_queue_still_checks_the_time_format(client: httpx.Client, server: SandboxServer) -> None:
    response = client.post(
        "/posts/batch",
        json={
            "queue": "next",
            "scheduled_at": "yesterday",
            "content": "Queued",
            "destinations": [{"social_account_id": account(server, "x")}],
        },
    )
    assert response.status_code == 422
    assert "scheduled_at" in response.json()["errors"]


# -- audio and lookups ---------------------------------------------------------------------


def audio_search(client: httpx.Client, server: SandboxServer, **params: str) -> httpx.Response:
    return client.get(
        f"/social-accounts/{account(server, 'instagram-facebook')}/instagram-audio",
        params=params,
    )


def test_audio_q_is_measured_after_trimming(client: httpx.Client, server: SandboxServer) -> None:
    assert audio_search(client, server, q="  " + "a" * 100 + "  ").status_code == 200
    assert audio_search(client, server, q=" " + "a" * 101).status_code == 422


def test_sixty_lookups_a_minute_per_user(
    client: httpx.Client, server: SandboxServer, clock: ManualClock
) -> None:
    boards = f"/social-accounts/{account(server, 'pinterest')}/boards"
    channels = f"/social-accounts/{account(server, 'discord')}/channels"
    wrong = f"/social-accounts/{account(server, 'x')}/boards"
    for n in range(20):
        assert client.get(boards).status_code == 200
        assert client.get(channels).status_code == 200
        assert audio_search(client, server, q=f"word{n}").status_code == 200
    clock.advance(timedelta(seconds=10))
    limited = client.get(boards)
    assert limited.status_code == 429
    assert limited.headers["Retry-After"] == "50"
    assert limited.json()["name"] == "rate_limit_exceeded"
    assert client.get(channels).status_code == 429
    assert client.get(wrong).status_code == 429  # the limit comes before the checks
    assert audio_search(client, server, q="new words").status_code == 429
    assert audio_search(client, server, q="word4").status_code == 200  # cached: free

    # Another user (the other workspace's admin) has a budget of their own.
    other = server.store.accounts(server.other_workspace_id)
    ig = next(a["id"] for a in other if a["platform"] == "instagram-facebook")
    with client_for(server, server.keys.other_admin) as other_client:
        assert other_client.get(f"/social-accounts/{ig}/instagram-audio").status_code == 200

    clock.advance(timedelta(seconds=50))
    assert client.get(boards).status_code == 200


def test_refused_lookups_count_too(
    client: httpx.Client, server: SandboxServer, clock: ManualClock
) -> None:
    wrong = f"/social-accounts/{account(server, 'x')}/channels"
    for _ in range(60):
        assert client.get(wrong).status_code == 422
    assert client.get(f"/social-accounts/{account(server, 'discord')}/channels").status_code == 429


def test_reading_one_track_gives_fresh_links(
    client: httpx.Client, server: SandboxServer, clock: ManualClock
) -> None:
    first = audio_search(client, server).json()[0]
    path = f"/social-accounts/{account(server, 'instagram-facebook')}/instagram-audio"
    clock.advance(timedelta(minutes=5))
    again = client.get(f"{path}/{first['id']}")
    assert again.status_code == 200
    track = again.json()
    assert {k: v for k, v in track.items() if not k.endswith("_url")} == {
        k: v for k, v in first.items() if not k.endswith("_url")
    }
    assert track["preview_url"] != first["preview_url"]
    assert track["cover_url"] != first["cover_url"]
    assert server.store.audio_lookup_count() == 2  # a track read is an uncached lookup

    assert client.get(f"{path}/99999999999").status_code == 404
    assert client.get(f"{path}/not-digits").status_code == 404
    wrong = f"/social-accounts/{account(server, 'instagram')}/instagram-audio/{first['id']}"
    assert client.get(wrong).status_code == 422


def test_track_reads_share_the_thirty_a_minute(client: httpx.Client, server: SandboxServer) -> None:
    first = audio_search(client, server).json()[0]
    path = f"/social-accounts/{account(server, 'instagram-facebook')}/instagram-audio"
    for _ in range(29):
        assert client.get(f"{path}/{first['id']}").status_code == 200
    refused = client.get(f"{path}/{first['id']}")
    assert refused.status_code == 429
    assert int(refused.headers["Retry-After"]) >= 1


def test_track_read_upstream_failure(client: httpx.Client, server: SandboxServer) -> None:
    first = audio_search(client, server).json()[0]
    server.store.audio_upstream_failing = True
    path = f"/social-accounts/{account(server, 'instagram-facebook')}/instagram-audio"
    response = client.get(f"{path}/{first['id']}")
    assert response.status_code == 502
    assert set(response.json()) == {"message"}
