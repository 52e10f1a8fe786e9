"""What a webhook delivery carries (spec §6): envelope, post payload, deleted payload, logs."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from app.models import (
    DeletedPostPayload,
    DeliveryLog,
    PostPayload,
    Webhook,
    WebhookEnvelope,
)

PUBLISHED = {
    "id": "7d3c1f0e-0000-4000-8000-000000000001",
    "type": "post.partially_published",
    "created_at": "2025-03-01T10:00:05+00:00",
    "data": {
        "id": "post-1",
        "workspace_id": "ws-1",
        "user_id": "u-1",
        "status": "partially_published",
        "created_via": "api",
        "content": "<p>Hello</p>",
        "scheduled_at": None,
        "published_at": None,
        "created_at": "2025-03-01T09:00:00+00:00",
        "updated_at": "2025-03-01T10:00:04+00:00",
        "author": {"id": "u-1", "name": "Ana"},
        "workspace": {"id": "ws-1", "name": "Acme"},
        "labels": [{"id": "l-1", "name": "Launch", "color": "#ff0000"}],
        "media": [
            {
                "id": "m-1",
                "path": "medias/m-1.png",
                "url": "https://cdn.example/m-1.png",
                "type": None,
                "mime_type": "image/png",
                "original_filename": "a.png",
                "source": "unsplash",
                "source_meta": {"author": "x"},
                "meta": {"alt_text": "A cat"},
            }
        ],
        "platforms": [
            {
                "id": "pp-1",
                "social_account_id": "acc-1",
                "platform": "x",
                "content_type": "x_post",
                "enabled": True,
                "status": "published",
                "platform_post_id": "1888",
                "platform_url": "https://x.com/a/status/1888",
                "published_at": "2025-03-01T10:00:01+00:00",
                "display_name": "Acme",
                "display_username": "acme",
                "display_avatar": None,
                "meta": {},
                "social_account": {
                    "id": "acc-1",
                    "platform": "x",
                    "display_name": "Acme",
                    "username": "acme",
                    "is_active": True,
                    "status": "connected",
                },
            },
            {
                "id": "pp-2",
                "social_account_id": "acc-2",
                "platform": "pinterest",
                "content_type": "pinterest_pin",
                "enabled": True,
                "status": "failed",
                "platform_post_id": None,
                "platform_url": None,
                "published_at": None,
                "error_message": "Board not found",
                "error_context": {"code": 404},
                "meta": {"board_id": "b1"},
                "social_account": None,
            },
            {"id": "pp-3", "platform": "tiktok", "enabled": False, "status": "pending"},
        ],
    },
}


def test_an_envelope_and_its_post_payload_parse_from_raw_bytes() -> None:
    raw = json.dumps(PUBLISHED).encode()
    envelope = WebhookEnvelope.model_validate_json(raw)
    assert envelope.type == "post.partially_published"
    assert envelope.created_at == datetime(2025, 3, 1, 10, 0, 5, tzinfo=UTC)
    payload = PostPayload.model_validate(envelope.data)
    assert payload.status == "partially_published"
    assert payload.author is not None
    assert payload.author.name == "Ana"
    assert payload.workspace is not None
    assert payload.workspace.name == "Acme"
    assert payload.labels[0].color == "#ff0000"
    assert payload.media[0].type is None
    assert payload.media[0].meta == {"alt_text": "A cat"}
    failed = payload.platforms[1]
    assert failed.error_message == "Board not found"
    assert failed.error_context == {"code": 404}
    assert failed.social_account is None
    assert payload.platforms[0].published_at == datetime(2025, 3, 1, 10, 0, 1, tzinfo=UTC)
    assert [p.enabled for p in payload.platforms] == [True, True, False]


def test_a_deleted_post_payload_has_only_ids() -> None:
    envelope = WebhookEnvelope.model_validate(
        {
            "id": "e2",
            "type": "post.deleted",
            "created_at": "2025-03-01T10:00:00Z",
            "data": {"id": "post-1", "workspace_id": "ws-1"},
        }
    )
    deleted = DeletedPostPayload.model_validate(envelope.data)
    assert (deleted.id, deleted.workspace_id) == ("post-1", "ws-1")


def test_a_test_ping_has_empty_data_and_unknown_types_are_kept() -> None:
    ping = WebhookEnvelope.model_validate(
        {"id": "e3", "type": "webhook.test", "data": None, "created_at": "2025-03-01T10:00:00Z"}
    )
    assert ping.data == {}
    future = WebhookEnvelope.model_validate({"id": "e4", "type": "post.archived", "data": {}})
    assert future.type == "post.archived"


def test_a_delivery_log_keeps_the_envelope_it_posted() -> None:
    log = DeliveryLog.model_validate(
        {
            "id": PUBLISHED["id"],
            "event_type": "post.partially_published",
            "payload": PUBLISHED,
            "response_status": 500,
            "response_body": "x" * 2000,
            "delivered_at": None,
            "failed_at": "2025-03-01T10:02:05+00:00",
            "attempts": 3,
            "created_at": "2025-03-01T10:00:05+00:00",
        }
    )
    assert isinstance(log.payload, WebhookEnvelope)
    assert log.payload.id == log.id
    assert not log.succeeded
    assert log.attempts == 3


def test_the_signing_secret_never_shows_in_a_repr() -> None:
    secret = "whsec_" + "Q" * 32
    hook = Webhook.model_validate(
        {"id": "w1", "endpoint": "https://e.com", "status": "enabled", "signing_secret": secret}
    )
    assert hook.signing_secret == secret
    assert secret not in repr(hook)
    assert secret not in str(hook)
