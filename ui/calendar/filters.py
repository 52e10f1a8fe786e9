"""The calendar's post filter: account or network, label, status (no Qt)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from app.calendar.post_card import PostCard
from app.domain.enums import PostStatus, known

UNKNOWN_STATUS = "__unknown__"
"""Status filter value matching every status this client does not know."""


class PostFilter(NamedTuple):
    account_id: str | None = None
    network: str | None = None
    label_id: str | None = None
    status: str | None = None  # a raw status, or UNKNOWN_STATUS
    label_ids: frozenset[str] = frozenset()
    """Several labels at once: a post with any of them (with `label_id`: that one too)."""
    statuses: frozenset[str] = frozenset()
    """Several statuses at once: a post in any of them (raw values, or UNKNOWN_STATUS)."""

    @property
    def active(self) -> bool:
        values = (self.account_id, self.network, self.label_id, self.status)
        return any(value is not None for value in values) or bool(self.label_ids or self.statuses)

    def matches(self, card: PostCard) -> bool:
        if self.network is not None and self.network not in card.networks:
            return False
        if self.account_id is not None and self.account_id not in card.account_ids:
            return False
        labels = self.label_ids | ({self.label_id} if self.label_id is not None else set())
        if labels and not any(label.id in labels for label in card.labels):
            return False
        statuses = self.statuses | ({self.status} if self.status is not None else set())
        if not statuses or card.status in statuses:
            return True
        return UNKNOWN_STATUS in statuses and known(PostStatus, card.status) is None

    def apply(self, cards: Iterable[PostCard]) -> list[PostCard]:
        if not self.active:
            return list(cards)
        return [card for card in cards if self.matches(card)]
