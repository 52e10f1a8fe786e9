"""The sandbox's view of the per-network table in `app.networks` (which the client uses too).

Kept as a thin adapter so the routes speak in the sandbox's `FieldErrors`; `GET /content-types`
publishes the same table, so a client can discover it instead of hard-coding it.
"""

from __future__ import annotations

from typing import Any

from app.networks import (
    NETWORKS,
    PLATFORMS,
    ContentType,
    Network,
    audio_unavailable_reason,
    media_type_for,
    missing_required,
    network,
)
from app.networks import TIKTOK_PRIVACY_LEVELS as _PRIVACY_CHOICES
from app.networks import check_meta as _check_meta
from app.sandbox.errors import FieldErrors

TIKTOK_PRIVACY_LEVELS: tuple[str, ...] = tuple(c.value for c in _PRIVACY_CHOICES)

__all__ = [
    "NETWORKS",
    "PLATFORMS",
    "TIKTOK_PRIVACY_LEVELS",
    "ContentType",
    "Network",
    "check_meta",
    "instagram_audio_eligibility",
    "media_type_for",
    "missing_required_meta",
    "network",
]


def check_meta(
    errors: FieldErrors,
    platform: str,
    meta: dict[str, Any],
    prefix: str,
    *,
    board_ids: list[str] | None = None,
    channel_ids: list[str] | None = None,
) -> None:
    """Type checks on known meta keys, run always; `prefix` is the meta object's error key
    (`destinations.0.meta`). Unknown keys are kept: the spec has no full key reference."""
    for problem in _check_meta(platform, meta, board_ids=board_ids, channel_ids=channel_ids):
        errors.add(f"{prefix}.{problem.path}", problem.template, **problem.values)


def missing_required_meta(
    platform: str, meta: dict[str, Any], content_type: str | None = None
) -> list[str]:
    return missing_required(platform, meta, content_type)


def instagram_audio_eligibility(platform: str) -> str | None:
    """None when the account may search audio, otherwise the 422 message."""
    return audio_unavailable_reason(platform)
