"""Export the calendar (the cache's posts) to the import's CSV format.

One post is one row (a post has one destination). Accounts are written as `platform:username`
(the id when the account has no username), times as ISO 8601 with the offset in `tz`. Statuses
other than draft and scheduled (published, failed…) are written as they are: the file is also a
report; the import skips and counts those rows, or imports them as drafts when asked. Media are
the server's URLs, which the import downloads and uploads again; `meta` carries the network
settings (board, privacy level, channel, thread replies…).
"""

from __future__ import annotations

import json
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
    # One settings object for the row: each network's keys differ (board, channel, privacy
    # level), and the import gives each destination the keys its network knows.
    meta: dict[str, object] = {}
    for platform in post.platforms:
        if platform.enabled:
            for key, value in (platform.meta or {}).items():
                meta.setdefault(key, value)
    return {
        "content": post.content or "",
        "accounts": LIST_SEPARATOR.join(accounts),
        "scheduled_at": format_when(when, tz) if when is not None else "",
        "status": post.status,
        "content_type": content_types[0] if len(content_types) == 1 else "",
        "labels": LIST_SEPARATOR.join(label.name for label in post.labels),
        "media": LIST_SEPARATOR.join(item.url or item.path or "" for item in post.media),
        "meta": json.dumps(meta, ensure_ascii=False, sort_keys=True) if meta else "",
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
