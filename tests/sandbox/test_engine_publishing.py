"""The publisher (§3 post status table): due and publish-now posts reach their outcome, with
exactly the events of the transitions they make."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.sandbox.clock import ManualClock, to_db
from app.sandbox.harness import SandboxServer
from app.sandbox.post_lifecycle import FORBIDDEN_FOR_USER, POST_STATUSES, TRANSITIONS

from .conftest import client_for

START = datetime(2031, 3, 3, 9, 0, tzinfo=UTC)


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(START)


@pytest.fixture
def server(tmp_path: Path, clock: ManualClock) -> Iterator[SandboxServer]:
    with SandboxServer(tmp_path / "engine.db", now=clock) as running:
        yield running


@pytest.fixture
def client(server: SandboxServer) -> Iterator[httpx.Client]:
    with client_for(server) as api:
        yield api


def tick(server: SandboxServer, times: int = 1) -> None:
    assert server.engine is not None
    for _ in range(times):
        server.engine.run_once()


def events(server: SandboxServer, post_id: str) -> list[str]:
    return [e.event_type for e in server.store.events(post_id=post_id)]


def create(
    client: httpx.Client, server: SandboxServer, platform: str = "x", **body: Any
) -> dict[str, Any]:
    payload: dict[str, Any] = {
        "content": "Fresh roast",
        "destinations": [{"social_account_id": server.store.account_id(platform)}],
    }
    payload.update(body)
    response = client.post("/posts/batch", json=payload)
    assert response.status_code == 201, response.text
    post: dict[str, Any] = response.json()["posts"][0]
    return post


def test_a_due_post_publishes_with_one_event(
    client: httpx.Client, server: SandboxServer, clock: ManualClock
) -> None:
    when = to_db(START + timedelta(hours=1))
    post = create(client, server, status="scheduled", scheduled_at=when)
    tick(server)
    assert server.store.post(post["id"])["status"] == "scheduled"  # type: ignore[index]

    clock.advance(timedelta(hours=1))  # exactly the scheduled time counts as due
    tick(server)
    publishing = client.get(f"/posts/{post['id']}").json()
    assert publishing["status"] == "publishing"
    assert [p["status"] for p in publishing["platforms"]] == ["publishing"]
    assert events(server, post["id"]) == ["post.created", "post.scheduled"]  # silent

    tick(server)
    done = client.get(f"/posts/{post['id']}").json()
    assert done["status"] == "published"
    assert done["published_at"] == to_db(clock())
    entry = done["platforms"][0]
    assert entry["status"] == "published"
    assert entry["platform_url"].startswith("https://")
    assert entry["published_at"] == to_db(clock())
    assert entry["error_message"] is None
    assert events(server, post["id"]) == ["post.created", "post.scheduled", "post.published"]
    payload = server.store.events(post_id=post["id"])[-1].payload
    assert payload["status"] == "published"
    assert payload["platforms"][0]["status"] == "published"

    tick(server, 2)  # nothing more happens to a finished post
    assert len(events(server, post["id"])) == 3


def test_publish_now_never_emits_scheduled(client: httpx.Client, server: SandboxServer) -> None:
    post = create(client, server)
    response = client.put(f"/posts/{post['id']}", json={"status": "publishing"})
    assert response.status_code == 200
    assert response.json()["status"] == "publishing"
    assert [p["status"] for p in response.json()["platforms"]] == ["publishing"]
    tick(server)
    after = client.get(f"/posts/{post['id']}").json()
    assert after["status"] == "published"
    assert all(p["status"] != "pending" for p in after["platforms"])
    assert events(server, post["id"]) == ["post.created", "post.published"]


def test_batch_may_publish_at_once(client: httpx.Client, server: SandboxServer) -> None:
    post = create(client, server, status="publishing")
    assert post["status"] == "publishing"
    assert post["platforms"][0]["status"] == "publishing"
    tick(server)
    assert server.store.post(post["id"])["status"] == "published"  # type: ignore[index]
    assert events(server, post["id"]) == ["post.created", "post.published"]


def test_batch_publish_needs_ready_destinations(
    client: httpx.Client, server: SandboxServer
) -> None:
    response = client.post(
        "/posts/batch",
        json={
            "status": "publishing",
            "destinations": [{"social_account_id": server.store.account_id("x")}],
        },
    )
    assert response.status_code == 422
    assert "destinations.0.content" in response.json()["errors"]
    assert server.store.post_count() == 0


def test_batch_publish_refuses_a_queue(client: httpx.Client, server: SandboxServer) -> None:
    response = client.post(
        "/posts/batch",
        json={
            "status": "publishing",
            "queue": "next",
            "content": "Hi",
            "destinations": [{"social_account_id": server.store.account_id("x")}],
        },
    )
    assert response.status_code == 422
    assert "queue" in response.json()["errors"]


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"status": "disconnected"}, "disconnected"),
        ({"status": "token_expired"}, "expired"),
        ({"is_active": False}, "turned off"),
        ({"publish_failure": "X refused the post: duplicate content."}, "duplicate content"),
    ],
)
def test_unusable_accounts_fail_with_the_reason(
    client: httpx.Client, server: SandboxServer, change: dict[str, Any], reason: str
) -> None:
    post = create(client, server)
    server.store.set_account(server.store.account_id("x"), **change)
    client.put(f"/posts/{post['id']}", json={"status": "publishing"})
    tick(server)
    after = client.get(f"/posts/{post['id']}").json()
    assert after["status"] == "failed"
    assert after["published_at"] is None
    entry = after["platforms"][0]
    assert entry["status"] == "failed"
    assert reason in entry["error_message"]
    assert events(server, post["id"]) == ["post.created", "post.failed"]


def test_mixed_outcome_is_partially_published(client: httpx.Client, server: SandboxServer) -> None:
    post = create(client, server)
    broken = server.store.account_id("linkedin")
    server.store.add_platform(post["id"], broken)
    server.store.add_platform(post["id"], server.store.account_id("discord"), enabled=False)
    server.store.set_account(broken, status="disconnected")
    client.put(f"/posts/{post['id']}", json={"status": "publishing"})
    tick(server)
    after = client.get(f"/posts/{post['id']}").json()
    assert after["status"] == "partially_published"
    assert after["published_at"] is None  # null until fully published
    assert [p["status"] for p in after["platforms"]] == ["published", "failed", "pending"]
    assert events(server, post["id"]) == ["post.created", "post.partially_published"]
    payload = server.store.events(post_id=post["id"])[-1].payload
    assert "disconnected" in payload["platforms"][1]["error_message"]
    assert payload["platforms"][1]["error_context"] == {"code": "account_disconnected"}


def test_same_account_same_outcome(client: httpx.Client, server: SandboxServer) -> None:
    server.store.set_account(server.store.account_id("linkedin"), publish_failure="Rejected.")
    outcomes = []
    for platform in ("x", "linkedin", "x", "linkedin"):
        post = create(client, server, platform=platform, status="publishing")
        tick(server)
        outcomes.append(server.store.post(post["id"])["status"])  # type: ignore[index]
    assert outcomes == ["published", "failed", "published", "failed"]


def test_edits_that_keep_the_status_emit_nothing(
    client: httpx.Client, server: SandboxServer
) -> None:
    post = create(client, server, status="scheduled", scheduled_at=to_db(START + timedelta(days=1)))
    client.put(
        f"/posts/{post['id']}",
        json={"content": "Edited", "scheduled_at": to_db(START + timedelta(days=2))},
    )
    client.put(f"/posts/{post['id']}", json={"status": "scheduled"})
    tick(server)
    assert events(server, post["id"]) == ["post.created", "post.scheduled"]


def test_forbidden_transitions_are_the_complement_of_the_spec_table() -> None:
    allowed = {(t.source, t.target) for t in TRANSITIONS if t.actor == "user"}
    pairs = {(a, b) for a in POST_STATUSES for b in POST_STATUSES if a != b}
    assert pairs - allowed == FORBIDDEN_FOR_USER
    assert ("published", "scheduled") in FORBIDDEN_FOR_USER
    assert ("failed", "publishing") in FORBIDDEN_FOR_USER
    assert ("draft", "scheduled") not in FORBIDDEN_FOR_USER


@pytest.mark.parametrize(("source", "target"), sorted(FORBIDDEN_FOR_USER))
def test_every_forbidden_transition_is_refused(
    client: httpx.Client, server: SandboxServer, source: str, target: str
) -> None:
    post = create(client, server, scheduled_at=to_db(START + timedelta(days=1)))
    server.store.set_post_status(post["id"], source, record_event=False)
    response = client.put(
        f"/posts/{post['id']}",
        json={"status": target, "scheduled_at": to_db(START + timedelta(days=3))},
    )
    assert response.status_code == 422
    assert "status" in response.json()["errors"]
    assert server.store.post(post["id"])["status"] == source  # type: ignore[index]


def test_published_cannot_be_scheduled_again(client: httpx.Client, server: SandboxServer) -> None:
    post = create(client, server, status="publishing")
    tick(server)
    response = client.put(
        f"/posts/{post['id']}",
        json={"status": "scheduled", "scheduled_at": to_db(START + timedelta(days=1))},
    )
    assert response.status_code == 422
    assert "republished" in response.json()["errors"]["status"][0]


def test_scheduling_at_exactly_now_is_refused(
    client: httpx.Client, server: SandboxServer, clock: ManualClock
) -> None:
    now = to_db(clock())
    batch = client.post(
        "/posts/batch",
        json={
            "status": "scheduled",
            "scheduled_at": now,
            "content": "Hi",
            "destinations": [{"social_account_id": server.store.account_id("x")}],
        },
    )
    assert batch.status_code == 422
    assert "scheduled_at" in batch.json()["errors"]
    post = create(client, server)
    update = client.put(f"/posts/{post['id']}", json={"status": "scheduled", "scheduled_at": now})
    assert update.status_code == 422
    assert "scheduled_at" in update.json()["errors"]
    one_second_later = to_db(clock() + timedelta(seconds=1))
    accepted = client.put(
        f"/posts/{post['id']}", json={"status": "scheduled", "scheduled_at": one_second_later}
    )
    assert accepted.status_code == 200


def test_seeded_publishing_posts_are_decided(tmp_path: Path) -> None:
    with SandboxServer(tmp_path / "demo.db", seed="demo", posts=40) as demo:
        assert demo.engine is not None
        with demo.store.tx() as db:
            before = db.scalar("SELECT COUNT(*) FROM posts WHERE status = 'publishing'")
        assert before > 0
        demo.engine.run_once()
        with demo.store.tx() as db:
            after = db.scalar("SELECT COUNT(*) FROM posts WHERE status = 'publishing'")
            stuck = db.scalar(
                "SELECT COUNT(*) FROM post_platforms pp JOIN posts p ON p.id = pp.post_id "
                "WHERE p.status IN ('published', 'partially_published', 'failed') "
                "AND pp.enabled = 1 AND pp.status IN ('pending', 'publishing')"
            )
        assert after == 0
        assert stuck == 0
