"""PUT and DELETE /posts/{id}: §3 status transitions and the outbox events they record."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import httpx
import pytest

from app.sandbox.harness import SandboxServer

FUTURE = "2031-06-01 08:00:00"
LATER = "2031-06-02 09:30:00"


def _create(
    api: httpx.Client, sandbox: SandboxServer, platform: str = "x", **body: Any
) -> dict[str, Any]:
    payload = {
        "content": "Hello",
        "destinations": [{"social_account_id": sandbox.store.account_id(platform)}],
    }
    payload.update(body)
    response = api.post("/posts/batch", json=payload)
    assert response.status_code == 201, response.text
    post: dict[str, Any] = response.json()["posts"][0]
    return post


def _events(sandbox: SandboxServer, post_id: str) -> list[str]:
    return [e.event_type for e in sandbox.store.events(post_id=post_id)]


def test_draft_to_scheduled_and_back(api: httpx.Client, sandbox: SandboxServer) -> None:
    post = _create(api, sandbox)
    response = api.put(f"/posts/{post['id']}", json={"status": "scheduled", "scheduled_at": FUTURE})
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "scheduled"
    assert body["scheduled_at"] == FUTURE
    assert "post_group_id" not in body
    assert _events(sandbox, post["id"]) == ["post.created", "post.scheduled"]

    back = api.put(f"/posts/{post['id']}", json={"status": "draft"})
    assert back.json()["status"] == "draft"
    assert _events(sandbox, post["id"]) == ["post.created", "post.scheduled", "post.unscheduled"]
    unscheduled = sandbox.store.events(post_id=post["id"])[-1].payload
    assert unscheduled["status"] == "draft"
    assert unscheduled["id"] == post["id"]


def test_scheduling_a_draft_needs_a_time(api: httpx.Client, sandbox: SandboxServer) -> None:
    post = _create(api, sandbox)
    response = api.put(f"/posts/{post['id']}", json={"status": "scheduled"})
    assert response.status_code == 422
    assert list(response.json()["errors"]) == ["scheduled_at"]
    # The existing draft time is enough.
    dated = _create(api, sandbox, scheduled_at=FUTURE)
    assert api.put(f"/posts/{dated['id']}", json={"status": "scheduled"}).status_code == 200


def test_scheduling_checks_required_meta(api: httpx.Client, sandbox: SandboxServer) -> None:
    post = _create(api, sandbox, platform="pinterest")
    response = api.put(f"/posts/{post['id']}", json={"status": "scheduled", "scheduled_at": FUTURE})
    assert response.status_code == 422
    assert list(response.json()["errors"]) == ["platforms.0.meta.board_id"]
    platform_id = post["platforms"][0]["id"]
    response = api.put(
        f"/posts/{post['id']}",
        json={
            "status": "scheduled",
            "scheduled_at": FUTURE,
            "platforms": [{"id": platform_id, "meta": {"board_id": "918273645502"}}],
        },
    )
    assert response.status_code == 200, response.text
    assert response.json()["platforms"][0]["meta"] == {"board_id": "918273645502"}


def test_edits_without_status_change_record_nothing(
    api: httpx.Client, sandbox: SandboxServer
) -> None:
    post = _create(api, sandbox, status="scheduled", scheduled_at=FUTURE)
    label = sandbox.store.create_label("Edit", "#000000")
    response = api.put(
        f"/posts/{post['id']}",
        json={
            "content": "Changed",
            "scheduled_at": LATER,
            "labels": [label],
            "status": "scheduled",
        },
    )
    assert response.status_code == 200
    body = response.json()
    assert body["content"] == "Changed"
    assert body["scheduled_at"] == LATER
    assert body["status"] == "scheduled"
    assert [lb["id"] for lb in body["labels"]] == [label]
    assert _events(sandbox, post["id"]) == ["post.created", "post.scheduled"]


def test_publish_now_is_silent(api: httpx.Client, sandbox: SandboxServer) -> None:
    for start in ("draft", "scheduled"):
        extra = {"status": "scheduled", "scheduled_at": FUTURE} if start == "scheduled" else {}
        post = _create(api, sandbox, **extra)
        before = _events(sandbox, post["id"])
        response = api.put(f"/posts/{post['id']}", json={"status": "publishing"})
        assert response.status_code == 200
        assert response.json()["status"] == "publishing"
        assert _events(sandbox, post["id"]) == before


def test_failed_back_to_draft_is_silent(api: httpx.Client, sandbox: SandboxServer) -> None:
    post = _create(api, sandbox)
    sandbox.store.set_post_status(post["id"], "publishing")
    sandbox.store.set_post_status(post["id"], "failed", error_message="Token revoked")
    assert _events(sandbox, post["id"]) == ["post.created", "post.failed"]
    failed = api.get(f"/posts/{post['id']}").json()
    assert failed["platforms"][0]["status"] == "failed"
    assert failed["platforms"][0]["error_message"] == "Token revoked"
    response = api.put(f"/posts/{post['id']}", json={"status": "draft"})
    assert response.status_code == 200
    assert response.json()["status"] == "draft"
    assert response.json()["platforms"][0]["status"] == "pending"
    assert _events(sandbox, post["id"]) == ["post.created", "post.failed"]


@pytest.mark.parametrize(
    ("start", "target"),
    [
        ("published", "publishing"),
        ("published", "draft"),
        ("failed", "publishing"),
        ("failed", "scheduled"),
        ("partially_published", "publishing"),
        ("draft", "published"),
        ("draft", "failed"),
        ("scheduled", "partially_published"),
        ("publishing", "draft"),
    ],
)
def test_forbidden_transitions(
    api: httpx.Client, sandbox: SandboxServer, start: str, target: str
) -> None:
    post = _create(api, sandbox, platform="x")
    sandbox.store.set_post_status(post["id"], start, record_event=False)
    response = api.put(f"/posts/{post['id']}", json={"status": target, "content": "new text"})
    assert response.status_code == 422
    assert list(response.json()["errors"]) == ["status"]
    after = api.get(f"/posts/{post['id']}").json()
    assert after["status"] == start
    assert after["content"] == "Hello"
    assert _events(sandbox, post["id"]) == ["post.created"]


def test_republishing_message_suggests_duplicating(
    api: httpx.Client, sandbox: SandboxServer
) -> None:
    post = _create(api, sandbox)
    sandbox.store.set_post_status(post["id"], "published", record_event=False)
    response = api.put(f"/posts/{post['id']}", json={"status": "publishing"})
    assert "duplicate" in response.json()["errors"]["status"][0]


def test_unknown_status_value(api: httpx.Client, sandbox: SandboxServer) -> None:
    post = _create(api, sandbox)
    response = api.put(f"/posts/{post['id']}", json={"status": "pending_approval"})
    assert response.status_code == 422
    assert response.json()["errors"]["status"] == ["The selected status is invalid."]


def test_platform_enable_toggle(api: httpx.Client, sandbox: SandboxServer) -> None:
    post = _create(api, sandbox)
    platform_id = post["platforms"][0]["id"]
    response = api.put(
        f"/posts/{post['id']}", json={"platforms": [{"id": platform_id, "enabled": False}]}
    )
    assert response.json()["platforms"][0]["enabled"] is False
    # Nothing enabled: cannot be published.
    response = api.put(f"/posts/{post['id']}", json={"status": "publishing"})
    assert response.status_code == 422
    assert list(response.json()["errors"]) == ["platforms"]
    bad = api.put(f"/posts/{post['id']}", json={"platforms": [{"id": "nope", "enabled": True}]})
    assert bad.status_code == 422
    assert list(bad.json()["errors"]) == ["platforms.0.id"]


def test_rescheduling_a_queued_post_leaves_the_queue(
    api: httpx.Client, sandbox: SandboxServer
) -> None:
    post = _create(api, sandbox, queue="next")
    assert post["schedule_mode"] == "queue"
    response = api.put(f"/posts/{post['id']}", json={"scheduled_at": LATER})
    assert response.json()["schedule_mode"] is None
    assert response.json()["scheduled_at"] == LATER
    # A scheduled post cannot lose its time.
    response = api.put(f"/posts/{post['id']}", json={"scheduled_at": None})
    assert response.status_code == 422


def test_media_can_be_replaced_and_kept(api: httpx.Client, sandbox: SandboxServer) -> None:
    tokens = [
        api.post(
            "/uploads", files={"file": (f"{n}.png", b"data" + bytes([n]), "image/png")}
        ).json()["upload_token"]
        for n in range(2)
    ]
    post = _create(api, sandbox, media=[{"upload_token": tokens[0]}])
    kept = post["media"][0]["id"]
    response = api.put(
        f"/posts/{post['id']}",
        json={"media": [{"upload_token": tokens[1], "alt": "second"}, {"id": kept}]},
    )
    media = response.json()["media"]
    assert [m["original_filename"] for m in media] == ["1.png", "0.png"]
    assert media[1]["id"] == kept
    assert api.put(f"/posts/{post['id']}", json={"media": [{"id": "other"}]}).status_code == 422


def test_delete_records_id_and_workspace_only(api: httpx.Client, sandbox: SandboxServer) -> None:
    post = _create(api, sandbox)
    response = api.delete(f"/posts/{post['id']}")
    assert response.status_code == 204
    assert response.content == b""
    assert api.get(f"/posts/{post['id']}").status_code == 404
    deleted = sandbox.store.events(post_id=post["id"])[-1]
    assert deleted.event_type == "post.deleted"
    assert deleted.payload == {"id": post["id"], "workspace_id": sandbox.workspace_id}
    assert api.delete(f"/posts/{post['id']}").status_code == 404


def test_outbox_payload_follows_the_post_payload_shape(
    api: httpx.Client, sandbox: SandboxServer
) -> None:
    label = sandbox.store.create_label("Launch", "#123abc")
    post = _create(api, sandbox, labels=[label], status="scheduled", scheduled_at=FUTURE)
    payload = sandbox.store.events(post_id=post["id"])[-1].payload
    assert set(payload) == {
        "id", "workspace_id", "user_id", "status", "created_via", "content", "scheduled_at",
        "published_at", "created_at", "updated_at", "author", "workspace", "labels", "media",
        "platforms",
    }  # fmt: skip
    assert payload["labels"] == [{"id": label, "name": "Launch", "color": "#123abc"}]
    assert payload["author"] == {"id": payload["user_id"], "name": "Marco Rossi"}
    assert "email" not in payload["author"]
    created = datetime.fromisoformat(payload["created_at"])
    assert created.utcoffset() is not None
    platform = payload["platforms"][0]
    assert "error_message" not in platform
    assert set(platform["social_account"]) == {
        "id", "platform", "display_name", "username", "is_active", "status",
    }  # fmt: skip
    assert created.tzinfo is not None
    assert created <= datetime.now(UTC)
