"""Export the calendar (the cache's posts) to the import's CSV format.

One post is one row (a post has one destination). Accounts are written as `platform:username`
(the id when the account has no username), times as ISO 8601 with the offset in `tz`. Statuses
other than draft and scheduled (published, failed…) are written as they are: the file is also a
report, and the import refuses those rows with a clear reason. Media are the server's URLs; the
import wants local files, so such rows need their files downloaded before they are imported.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, tzinfo
from pathlib import Path

from app.csv_io.format import LIST_SEPARATOR, format_when, write_rows
from app.models.posts import Post
from app.store.workspace_cache import WorkspaceCache
from app.workspaces.profiles import write_atomically


def post_row(post: Post, tz: tzinfo) -> dict[str, str]:
    accounts: list[str] = []
    content_types: list[str] = []
    for platform in post.platforms:
        if not platform.enabled:
            continue
        account = platform.social_account
        if account is not None:
            name = f"{account.platform}:{account.username}" if account.username else account.id
            if name not in accounts:
                accounts.append(name)
        if platform.content_type and platform.content_type not in content_types:
            content_types.append(platform.content_type)
    when = post.scheduled_at
    return {
        "content": post.content or "",
        "accounts": LIST_SEPARATOR.join(accounts),
        "scheduled_at": format_when(when, tz) if when is not None else "",
        "status": post.status,
        "content_type": content_types[0] if len(content_types) == 1 else "",
        "labels": LIST_SEPARATOR.join(label.name for label in post.labels),
        "media": LIST_SEPARATOR.join(item.url or item.path or "" for item in post.media),
    }


def export_posts(posts: Iterable[Post], tz: tzinfo) -> str:
    """CSV text, posts in calendar order (dated first, by time; then undated drafts)."""

    def order(post: Post) -> tuple[int, str, str]:
        when = post.scheduled_at
        return (0, when.isoformat(), post.id) if when is not None else (1, "", post.id)

    return write_rows([post_row(post, tz) for post in sorted(posts, key=order)])


def export_calendar(
    cache: WorkspaceCache, path: Path, start: datetime, end: datetime, tz: tzinfo
) -> int:
    """Write the posts of [start, end) plus the undated drafts to `path` (atomically).
    Returns the number of rows."""
    cards = [*cache.cards_between(start, end), *cache.unscheduled_cards()]
    posts = cache.posts(card.id for card in cards)
    write_atomically(path, export_posts(posts, tz))
    return len(posts)
