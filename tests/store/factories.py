"""Posts, accounts and labels shaped like the server's JSON, for cache and sync tests."""

from __future__ import annotations

import itertools
from datetime import UTC, tzinfo
from typing import Any

from app.models import Label, Post, SocialAccountSummary

_ids = itertools.count(1)


def raw_post(
    post_id: str | None = None,
    *,
    scheduled_at: str | None = "2026-03-10 09:00:00",
    status: str = "scheduled",
    account_id: str = "acc-x",
    label_ids: tuple[str, ...] = (),
    content: str | None = "Hello",
    **extra: Any,
) -> dict[str, Any]:
    post_id = post_id or f"post-{next(_ids)}"
    return {
        "id": post_id,
        "content": content,
        "media": [],
        "status": status,
        "schedule_mode": None,
        "scheduled_at": scheduled_at,
        "published_at": None,
        "platforms": [
            {
                "id": f"pp-{post_id}",
                "platform": "x",
                "content_type": "x_post",
                "meta": {},
                "status": "pending",
                "enabled": True,
                "platform_url": None,
                "published_at": None,
                "error_message": None,
                "display_name": "Acme",
                "display_username": "acme",
                "display_avatar": None,
                "social_account": {
                    "id": account_id,
                    "platform": "x",
                    "display_name": "Acme",
                    "username": "acme",
                    "is_active": True,
                    "status": "connected",
                },
            }
        ],
        "labels": [
            {
                "id": label_id,
                "name": label_id.title(),
                "color": "#112233",
                "created_at": "2026-01-01 10:00:00",
                "updated_at": "2026-01-01 10:00:00",
            }
            for label_id in label_ids
        ],
        "created_at": "2026-01-05 08:00:00",
        "updated_at": "2026-01-05 08:00:00",
        **extra,
    }


def make_post(post_id: str | None = None, *, server_tz: tzinfo = UTC, **fields: Any) -> Post:
    return Post.model_validate(raw_post(post_id, **fields), context={"server_tz": server_tz})


def make_account(account_id: str, platform: str = "x", **extra: Any) -> SocialAccountSummary:
    return SocialAccountSummary.model_validate(
        {
            "id": account_id,
            "platform": platform,
            "display_name": account_id.title(),
            "username": account_id,
            "is_active": True,
            "status": "connected",
            **extra,
        }
    )


def make_label(label_id: str, name: str | None = None) -> Label:
    return Label.model_validate(
        {
            "id": label_id,
            "name": name or label_id.title(),
            "color": "#abcdef",
            "created_at": "2026-01-01 10:00:00",
            "updated_at": "2026-01-02 10:00:00",
        }
    )
