"""Labels and signatures (spec §2)."""

from __future__ import annotations

from app.models.base import Id, RestDateTime, WireModel


class Label(WireModel):
    id: Id
    name: str
    color: str | None = None
    created_at: RestDateTime | None = None
    updated_at: RestDateTime | None = None


class Signature(WireModel):
    id: Id
    name: str
    content: str = ""
    created_at: RestDateTime | None = None
    updated_at: RestDateTime | None = None
