"""Realistic wire data for calendar tests: dicts validated into models, never mocks."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime
from typing import Any

from app.models import Label, Post, SocialAccountSummary, format_rest_datetime

_ids = itertools.count(1)


def utc(year: int, month: int, day: int, hour: int = 0, minute: int = 0) -> datetime:
    return datetime(year, month, day, hour, minute, tzinfo=UTC)


def uid(prefix: str = "0000") -> str:
    return f"{prefix}{next(_ids):04d}-7c1e-4b7a-9f3e-2d1c5b8a{next(_ids):04d}"


ACCOUNTS: dict[str, dict[str, Any]] = {
    "linkedin": {
        "id": "a1b2c3d4-0001-4000-8000-000000000001",
        "platform": "linkedin",
        "display_name": "Maya Chen",
        "username": "mayachen",
        "is_active": True,
        "status": "connected",
    },
    "x": {
        "id": "a1b2c3d4-0002-4000-8000-000000000002",
        "platform": "x",
        "display_name": "Northwind",
        "username": "northwindcoffee",
        "is_active": True,
        "status": "connected",
    },
    "instagram-facebook": {
        "id": "a1b2c3d4-0003-4000-8000-000000000003",
        "platform": "instagram-facebook",
        "display_name": "Northwind Coffee",
        "username": "nw.coffee",
        "is_active": True,
        "status": "connected",
    },
    "x-second": {
        "id": "a1b2c3d4-0004-4000-8000-000000000004",
        "platform": "x",
        "display_name": "Northwind Jobs",
        "username": "northwindjobs",
        "is_active": True,
        "status": "connected",
    },
}

LABELS: dict[str, dict[str, Any]] = {
    "launch": {
        "id": "1abe1000-0001-4000-8000-000000000001",
        "name": "Launch",
        "color": "#7c3aed",
        "created_at": "2025-01-06 09:00:00",
        "updated_at": "2025-01-06 09:00:00",
    },
    "hiring": {
        "id": "1abe1000-0002-4000-8000-000000000002",
        "name": "Hiring",
        "color": "#db2777",
        "created_at": "2025-01-06 09:00:00",
        "updated_at": "2025-01-06 09:00:00",
    },
}


def accounts() -> list[SocialAccountSummary]:
    return [SocialAccountSummary.model_validate(a) for a in ACCOUNTS.values()]


def labels() -> list[Label]:
    return [Label.model_validate(label) for label in LABELS.values()]


def post_dict(
    *,
    when: datetime | None,
    status: str = "scheduled",
    account: str = "linkedin",
    content: str | None = "Our autumn blend is here. Pre-order today, ships Monday.",
    labels: tuple[str, ...] = (),
    media: list[dict[str, Any]] | None = None,
    platform_status: str | None = None,
    error_message: str | None = None,
    platform_url: str | None = None,
    account_timezone: str | None = None,
    post_id: str | None = None,
) -> dict[str, Any]:
    social_account = dict(ACCOUNTS[account])
    if account_timezone is not None:
        social_account["timezone"] = account_timezone
    default_platform_status = {
        "published": "published",
        "failed": "failed",
        "publishing": "publishing",
    }.get(status, "pending")
    return {
        "id": post_id or uid(),
        "content": content,
        "media": media or [],
        "status": status,
        "scheduled_at": format_rest_datetime(when) if when is not None else None,
        "published_at": None,
        "platforms": [
            {
                "id": uid("9999"),
                "platform": social_account["platform"],
                "content_type": f"{social_account['platform'].split('-')[0]}_post",
                "meta": {},
                "status": platform_status or default_platform_status,
                "enabled": True,
                "platform_url": platform_url,
                "published_at": None,
                "error_message": error_message,
                "display_name": social_account["display_name"],
                "display_username": social_account["username"],
                "display_avatar": None,
                "social_account": social_account,
            }
        ],
        "labels": [LABELS[name] for name in labels],
        "created_at": "2025-01-02 08:00:00",
        "updated_at": "2025-01-02 08:00:00",
    }


def make_post(**kwargs: Any) -> Post:
    return Post.model_validate(post_dict(**kwargs))
