"""Social accounts (spec §2: Social account summary) and the tolerant boards/channels readers."""

from __future__ import annotations

from typing import Any

from pydantic import model_validator

from app.domain.naming import account_label
from app.models.base import Id, WireModel


class SocialAccountSummary(WireModel):
    id: Id
    platform: str
    display_name: str | None = None
    username: str | None = None
    is_active: bool | None = None
    status: str | None = None
    # Extras seen only on accounts embedded in batch responses.
    has_posting_schedule: bool | None = None
    timezone: str | None = None
    posting_goal: int | None = None
    max_content_length: int | None = None
    long_posts: bool | None = None
    verified_badge: Any = None

    @property
    def label(self) -> str:
        return account_label(self.display_name, self.username, self.id)


class NamedItem(WireModel):
    """Anything the spec leaves unshaped but we need as a pick list: an id and a display name.

    Accepts `name`, or failing that `title`/`label`/`display_name`, so a differently shaped
    deployment still yields something to show.
    """

    id: Id
    name: str

    @model_validator(mode="before")
    @classmethod
    def _fill_name(cls, data: Any) -> Any:
        if isinstance(data, dict) and not isinstance(data.get("name"), str):
            for key in ("title", "label", "display_name", "slug", "id"):
                if data.get(key) is not None:
                    return {**data, "name": str(data[key])}
        return data
