"""What the views draw for one post, computed once per reload (no Qt).

Painting runs often and over many posts; parsing HTML or converting time zones in a paint
method would make a month with thousands of posts crawl, so every view works from `Entry`.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, datetime, tzinfo
from functools import cached_property

from app.calendar.post_card import CardLabel, PostCard
from app.domain.enums import PostStatus, describe, known
from app.posts.lifecycle import PostAction, allowed_actions
from ui.locale_text import compact_time


class Entry:
    """One post as the views draw it. Compared by identity: an entry is made anew when its post
    changed, so views tell changed posts apart with `is`. A plain class rather than a frozen
    dataclass: ~1,500 are made for a dense month (a frozen `__init__` took twice as long), and
    the class itself is made before the first paint."""

    def __init__(
        self, card: PostCard, local: datetime | None, actions: frozenset[PostAction]
    ) -> None:
        self.card = card
        self.local = local
        """Where it shows (scheduled_at, else published_at) in the display zone."""
        self.actions = actions

    def __repr__(self) -> str:
        return f"Entry(card={self.card!r}, local={self.local!r})"

    @property
    def id(self) -> str:
        return self.card.id

    @property
    def summary(self) -> str:
        return self.card.summary

    @property
    def scheduled_at(self) -> datetime | None:
        return self.card.scheduled_at

    @cached_property  # read for every paint of every chip
    def day(self) -> date | None:
        return self.local.date() if self.local is not None else None

    @cached_property  # read for every paint of every chip
    def minutes(self) -> int:
        """Wall-clock minutes since local midnight (0 when undated)."""
        return self.local.hour * 60 + self.local.minute if self.local is not None else 0

    @cached_property  # read for every paint of every chip
    def time_text(self) -> str:
        return compact_time(self.local) if self.local is not None else ""

    @property
    def status(self) -> str:
        return self.card.status

    @cached_property  # read for every paint of every chip
    def known_status(self) -> PostStatus | None:
        return known(PostStatus, self.card.status)

    @cached_property  # read for every paint of every chip
    def status_text(self) -> str:
        return status_text(self.card.status)

    @property
    def platform(self) -> str | None:
        return self.card.platform

    @property
    def account_text(self) -> str:
        return self.card.account_text

    @property
    def labels(self) -> tuple[CardLabel, ...]:
        return self.card.labels

    @cached_property  # read for every paint of every chip
    def label_colors(self) -> tuple[str, ...]:
        return tuple(label.color or "#8a8fa3" for label in self.card.labels)

    @cached_property  # read for every paint of every chip
    def draggable(self) -> bool:
        # An undated draft dragged from the tray onto the calendar gets its first date.
        undated_draft = self.local is None and self.known_status is PostStatus.DRAFT
        return PostAction.RESCHEDULE in self.actions or undated_draft


_STATUS_TEXT = {
    PostStatus.DRAFT: "Draft",
    PostStatus.SCHEDULED: "Scheduled",
    PostStatus.PUBLISHING: "Publishing",
    PostStatus.PUBLISHED: "Published",
    PostStatus.PARTIALLY_PUBLISHED: "Partially published",
    PostStatus.FAILED: "Failed",
    PostStatus.PENDING_APPROVAL: "Pending approval",
}


def status_text(raw: str | None) -> str:
    status = known(PostStatus, raw)
    return _STATUS_TEXT[status] if status is not None else describe(PostStatus, raw)


def build_entry(card: PostCard, tz: tzinfo) -> Entry:
    shown_at = card.calendar_at
    local = shown_at.astimezone(tz) if shown_at is not None else None
    return Entry(card, local, allowed_actions(card))


def build_entries(cards: Iterable[PostCard], tz: tzinfo) -> list[Entry]:
    return [build_entry(card, tz) for card in cards]


class EntryCache:
    """Entries kept from one reload to the next, by post id.

    A post whose card did not change keeps its very `Entry`, and with it everything computed
    for painting it (times, colours, elided text): the views then see which days really
    changed and repaint only those. The cache hands back the same card object for the same
    stored text, so the usual check is an identity test; other sources compare by value.
    """

    LIMIT = 20_000  # a workspace's worth of posts; past it the cache starts over

    def __init__(self, tz: tzinfo) -> None:
        self._tz = tz
        self._by_id: dict[str, Entry] = {}

    @property
    def tz(self) -> tzinfo:
        return self._tz

    def clear(self, tz: tzinfo | None = None) -> None:
        self._by_id.clear()
        if tz is not None:
            self._tz = tz

    def known(self, post_id: str) -> Entry | None:
        return self._by_id.get(post_id)

    def entries(self, cards: Iterable[PostCard]) -> list[Entry]:
        known_entries = self._by_id
        if len(known_entries) > self.LIMIT:
            known_entries.clear()
        result: list[Entry] = []
        for card in cards:
            entry = known_entries.get(card.id)
            if entry is None or (entry.card is not card and entry.card != card):
                entry = known_entries[card.id] = build_entry(card, self._tz)
            result.append(entry)
        return result
