"""Labels and signatures (spec §2)."""

from __future__ import annotations

from app.domain.naming import shown_name
from app.models.base import Id, RestDateTime, WireModel


class Label(WireModel):
    id: Id
    name: str
    """"" when the server sent it unreadable (`app.api.parsing` mends such a label): see
    `shown_name`."""
    color: str | None = None
    created_at: RestDateTime | None = None
    updated_at: RestDateTime | None = None

    @property
    def shown_name(self) -> str:
        """The name, or "(unreadable)" when the server's could not be read."""
        return shown_name(self.name)


class Signature(WireModel):
    id: Id
    name: str
    content: str = ""
    created_at: RestDateTime | None = None
    updated_at: RestDateTime | None = None
