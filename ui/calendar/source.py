"""Where the calendar reads posts from, and an in-memory implementation for tests and previews.

The real source is the SQLite cache; the views depend only on this protocol. The views draw
`PostCard`s (cheap to read); the full `Post` is asked for only when its details are shown. Range
queries use aware datetimes and select by `scheduled_at` in `[start, end)`, so a view only ever
loads the days it shows.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from app.calendar.post_card import AccountChoice, CardLabel, PostCard, card_of

if TYPE_CHECKING:
    from app.models import Label, Post, SocialAccountSummary


@runtime_checkable
class CalendarSource(Protocol):
    def cards_between(self, start: datetime, end: datetime) -> list[PostCard]:
        """Posts with `start <= scheduled_at < end` (aware datetimes), in time order."""
        ...

    def unscheduled_cards(self) -> list[PostCard]:
        """Posts with no place on the calendar (no schedule, never published), for the
        "Unscheduled" tray: drafts, and e.g. a post whose "publish now" failed."""
        ...

    def post(self, post_id: str) -> Post | None: ...

    def account_choices(self) -> list[AccountChoice]: ...

    def label_choices(self) -> list[CardLabel]: ...


def _utc(when: datetime) -> datetime:
    return when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)


class InMemoryCalendarSource:
    """Posts held in a list, kept sorted by time so range queries stay cheap with thousands."""

    def __init__(
        self,
        posts: Iterable[Post] = (),
        *,
        accounts: Iterable[SocialAccountSummary] = (),
        labels: Iterable[Label] = (),
    ) -> None:
        self._accounts = list(accounts)
        self._labels = list(labels)
        self._dated: list[tuple[datetime, Post]] = []
        self._keys: list[datetime] = []
        self._undated: list[Post] = []
        self.queries: list[tuple[datetime, datetime]] = []  # what was asked, for tests
        self.set_posts(posts)

    def set_posts(self, posts: Iterable[Post]) -> None:
        dated: list[tuple[datetime, Post]] = []
        undated: list[Post] = []
        for post in posts:
            # Filed as the cache files them (app.store.post_codec.calendar_time).
            shown_at = post.scheduled_at or post.published_at
            if shown_at is None:
                undated.append(post)
            else:
                dated.append((_utc(shown_at), post))
        dated.sort(key=lambda pair: pair[0])
        self._dated = dated
        self._keys = [when for when, _post in dated]
        self._undated = undated

    def all_posts(self) -> list[Post]:
        return [post for _when, post in self._dated] + list(self._undated)

    def posts_between(self, start: datetime, end: datetime) -> list[Post]:
        self.queries.append((start, end))
        low = bisect.bisect_left(self._keys, _utc(start))
        high = bisect.bisect_left(self._keys, _utc(end))
        return [post for _when, post in self._dated[low:high]]

    def unscheduled_drafts(self) -> list[Post]:
        """Named like the cache's method: every post without a place on the calendar."""
        return list(self._undated)

    def cards_between(self, start: datetime, end: datetime) -> list[PostCard]:
        return [card_of(post) for post in self.posts_between(start, end)]

    def unscheduled_cards(self) -> list[PostCard]:
        return [card_of(post) for post in self.unscheduled_drafts()]

    def post(self, post_id: str) -> Post | None:
        return next((post for post in self.all_posts() if post.id == post_id), None)

    def account_choices(self) -> list[AccountChoice]:
        return [AccountChoice(a.id, a.platform, a.label) for a in self._accounts]

    def label_choices(self) -> list[CardLabel]:
        return [CardLabel(label.id, label.name, label.color) for label in self._labels]
