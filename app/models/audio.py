"""Instagram audio assets (spec §2 and §4 instagram-audio)."""

from __future__ import annotations

from app.models.base import Id, WireModel


class AudioAsset(WireModel):
    id: Id
    type: str | None = None
    title: str = ""
    artist: str | None = None
    cover_url: str | None = None
    duration_ms: int | None = None
    preview_url: str | None = None
