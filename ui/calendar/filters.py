"""The calendar's post filter: account or network, label, status (no Qt)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from app.models import Post
from app.models.enums import PostStatus, known

UNKNOWN_STATUS = "__unknown__"
"""Status filter value matching every status this client does not know."""


@dataclass(frozen=True)
class PostFilter:
    account_id: str | None = None
    network: str | None = None
    label_id: str | None = None
    status: str | None = None  # a raw status, or UNKNOWN_STATUS

    @property
    def active(self) -> bool:
        values = (self.account_id, self.network, self.label_id, self.status)
        return any(value is not None for value in values)

    def matches(self, post: Post) -> bool:
        enabled = [platform for platform in post.platforms if platform.enabled] or post.platforms
        if self.network is not None and not any(p.platform == self.network for p in enabled):
            return False
        if self.account_id is not None and not any(
            p.social_account is not None and p.social_account.id == self.account_id for p in enabled
        ):
            return False
        if self.label_id is not None and not any(
            label.id == self.label_id for label in post.labels
        ):
            return False
        if self.status == UNKNOWN_STATUS:
            return known(PostStatus, post.status) is None
        return self.status is None or post.status == self.status

    def apply(self, posts: Iterable[Post]) -> list[Post]:
        if not self.active:
            return list(posts)
        return [post for post in posts if self.matches(post)]
