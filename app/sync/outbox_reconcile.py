"""Did a batch whose answer was lost create its posts? Decided from the server's post list.

A batch makes one post per destination, with that destination's account and text. So for each
entry whose outcome is unknown we look, among the posts created since shortly before its request
left, for one unclaimed post per destination with the same account, text and content type.
Rules that keep the count exact:
- A post is credited to at most one entry, and never to an entry already `sent`
  (`claimed` holds their post ids), so two identical batches never share one post.
- Entries are matched oldest send first, against posts oldest first, so the earlier request
  takes the earlier posts.
- All destinations found: created (sent). None found: not created, safe to send again. Some
  found: the batch was created and then changed on the server; the user decides.
- The list must have been read whole; the caller re-reads it when its total moved while reading.
- Times are compared as the server shows them (`to_read_time`, from `app.api.server_clock`):
  this computer's clock running 10 minutes fast, or a wrong server time zone, must not hide a
  post that was created. When nothing is found in the window but a matching post was created
  within `DOUBT` before it, nothing is proven either way: the entry is `doubtful` (the user
  decides), never sent again on a guess.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from app.models.posts import Post
from app.models.requests import BatchRequest
from app.sync.outbox import OutboxEntry

DEFAULT_SKEW = timedelta(minutes=2)
"""How far the server's clock may be behind ours (REST times also drop the fraction)."""
DOUBT = timedelta(hours=26)
"""A matching post created this long before the window may still be this entry's, read through
a wrong clock or time zone (zones span 26 h); older than that it is another post."""


@dataclass(frozen=True)
class ExpectedPost:
    account_id: str
    content: str
    content_type: str | None


@dataclass(frozen=True)
class Reconciled:
    entry_id: int
    post_ids: tuple[str, ...]
    complete: bool
    """Every destination was found (the batch was created)."""
    doubtful: bool = False
    """None found in the window, but a matching post shortly before it: not proven absent."""

    @property
    def absent(self) -> bool:
        return not self.post_ids and not self.doubtful


def expected_posts(request: BatchRequest) -> list[ExpectedPost]:
    """The posts a batch creates: one per destination, its own text or the shared one."""
    shared = _text(request.content)
    return [
        ExpectedPost(
            account_id=destination.social_account_id,
            # A destination's own text, even an empty one, replaces the shared text.
            content=_text(destination.content) if destination.content is not None else shared,
            content_type=destination.content_type or None,
        )
        for destination in request.destinations
    ]


def reconcile(
    entries: Sequence[OutboxEntry],
    posts: Iterable[Post],
    claimed: set[str],
    *,
    skew: timedelta = DEFAULT_SKEW,
    to_read_time: Callable[[datetime], datetime] = lambda local: local,
) -> list[Reconciled]:
    """One verdict per entry (same order as `entries` sorted by send time)."""
    pool = sorted(
        (post for post in posts if post.id not in claimed),
        key=lambda post: (_created(post), post.id),
    )
    used: set[str] = set()
    verdicts: list[Reconciled] = []
    for entry in sorted(entries, key=lambda e: (e.sent_at or e.created_at, e.id)):
        since = to_read_time(entry.sent_at or entry.created_at) - skew
        found: list[str] = []
        for wanted in expected_posts(entry.request):
            match = next(
                (
                    post
                    for post in pool
                    if post.id not in used
                    and post.id not in found
                    and _created(post) >= since
                    and _matches(post, wanted)
                ),
                None,
            )
            if match is not None:
                found.append(match.id)
        used.update(found)
        doubtful = not found and any(
            post.id not in used and _created(post) >= since - DOUBT and _matches(post, wanted)
            for wanted in expected_posts(entry.request)
            for post in pool
        )
        verdicts.append(
            Reconciled(
                entry.id,
                tuple(found),
                complete=len(found) == len(entry.request.destinations),
                doubtful=doubtful,
            )
        )
    return verdicts


def _matches(post: Post, wanted: ExpectedPost) -> bool:
    if _text(post.content) != wanted.content:
        return False
    for platform in post.platforms:
        account = platform.social_account
        if account is None or account.id != wanted.account_id:
            continue
        if wanted.content_type is None or platform.content_type in (None, wanted.content_type):
            return True
    return False


def _created(post: Post) -> datetime:
    # A post without a creation time cannot be ruled out by time: treat it as recent enough.
    return post.created_at if post.created_at is not None else datetime.max.replace(tzinfo=UTC)


def _text(value: str | None) -> str:
    # The server trims strings (Laravel habit), so compare trimmed text.
    return (value or "").strip()
