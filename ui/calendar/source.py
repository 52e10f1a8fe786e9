"""Where the calendar reads posts from, and an in-memory implementation for tests and previews.

The real source is the SQLite cache; the views depend only on this protocol. Range queries use
aware datetimes and select by `scheduled_at` in `[start, end)`, so a view only ever loads the
days it shows.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Protocol, runtime_checkable

from app.models import Label, Post, SocialAccountSummary
from app.models.enums import PostStatus


@runtime_checkable
class CalendarSource(Protocol):
    def posts_between(self, start: datetime, end: datetime) -> list[Post]:
        """Posts with `start <= scheduled_at < end` (aware datetimes), in time order."""
        ...

    def unscheduled_drafts(self) -> list[Post]:
        """Drafts without a date, for the "Unscheduled" tray."""
        ...

    def accounts(self) -> list[SocialAccountSummary]: ...

    def labels(self) -> list[Label]: ...


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
            if post.scheduled_at is None:
                undated.append(post)
            else:
                dated.append((_utc(post.scheduled_at), post))
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
        return [post for post in self._undated if post.status == PostStatus.DRAFT]

    def accounts(self) -> list[SocialAccountSummary]:
        return list(self._accounts)

    def labels(self) -> list[Label]:
        return list(self._labels)
