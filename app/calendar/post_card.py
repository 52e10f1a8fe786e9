"""What the calendar needs of a post, small and cheap to read back (no pydantic at runtime).

The calendar paints hundreds of posts at start and after every sync. Validating each full post
body with pydantic costs ~70 µs a post and importing the models ~150 ms, so the cache stores this
card next to the body and the calendar reads only cards; the full `Post` is decoded for the one
post whose details are shown.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, NamedTuple

from app.domain.naming import account_label, shown_name

if TYPE_CHECKING:
    from app.models import Post, PostPlatform

CARD_VERSION = 4
"""2: published_at (a post published now has no scheduled_at). 3: a JSON array, not an object:
the start reads ~1,300 cards before its first paint, and without the keys they parse ~30 %
faster (~2 ms there). 4: thumb_url, the post's first image (`thumb_url_of`), last."""
NO_TEXT = "(no text)"


class CardLabel(NamedTuple):
    id: str
    name: str
    color: str | None


class AccountChoice(NamedTuple):
    """An account in the calendar's filter list."""

    id: str
    platform: str
    label: str


def account_choice_from_json(text: str) -> AccountChoice:
    """From an account body as the cache stores it (the server's fields, by their names)."""
    data = json.loads(text)
    account_id = str(data["id"])
    return AccountChoice(
        id=account_id,
        platform=str(data.get("platform") or ""),
        label=account_label(data.get("display_name"), data.get("username"), account_id),
    )


def label_from_json(text: str) -> CardLabel:
    data = json.loads(text)
    name = data.get("name")
    return CardLabel(
        str(data["id"]), shown_name(name if isinstance(name, str) else None), data.get("color")
    )


class PostCard(NamedTuple):
    id: str
    status: str
    scheduled_at: datetime | None  # aware, UTC
    summary: str  # first line of the content as plain text
    platform: str | None  # the network of the entry that represents the post
    account_text: str  # "Name", "@handle" or "Name +2" for more destinations
    networks: tuple[str, ...]  # of the enabled entries (all entries when none is enabled)
    account_ids: tuple[str, ...]  # likewise
    labels: tuple[CardLabel, ...]
    published_at: datetime | None = None  # aware, UTC
    thumb_url: str | None = None  # the post's first image (`thumb_url_of`), for thumbnails

    @property
    def calendar_at(self) -> datetime | None:
        """Where the calendar shows the post: its schedule, or when it went out without one
        (as the cache files it, `app.store.post_codec.calendar_time`)."""
        return self.scheduled_at or self.published_at


def _account_text(primary: PostPlatform | None, destinations: int) -> str:
    if primary is None:
        return "No account"
    account = primary.social_account
    name = primary.display_name or (account.display_name if account else None)
    handle = primary.display_username or (account.username if account else None)
    text = name or (f"@{handle}" if handle else "") or primary.platform
    return f"{text} +{destinations - 1}" if destinations > 1 else text


def is_image(kind: object, mime_type: object) -> bool:
    """A media item the calendar can show as a thumbnail: typed `image`, or untyped (the
    payloads' "unclassified") with an image MIME type. Videos and documents never: the spec
    gives them no poster or preview URL."""
    if kind is not None:
        return kind == "image"
    return isinstance(mime_type, str) and mime_type.lower().startswith("image/")


def is_web_url(url: object) -> bool:
    """Only `http`/`https` addresses are ever fetched (DESIGN.md); the check here is the cheap
    one the cache's schema step 6 repeats in SQL, the downloader checks the rest."""
    return isinstance(url, str) and url[:8].lower().startswith(("http://", "https://"))


def thumb_url_of(post: Post) -> str | None:
    """The URL of the post's first image, wherever it stands among its media; None without one.
    (Schema step 6 in `app.store.schema` computes the same from a stored body: keep them equal.)"""
    for item in post.media:
        if is_image(item.type, item.mime_type) and is_web_url(item.url):
            return item.url
    return None


def card_of(post: Post) -> PostCard:
    summary_line = _summary_line()
    destinations = [platform for platform in post.platforms if platform.enabled]
    # With no entry enabled, the post is still shown (and filtered) by the entries it has.
    enabled = destinations or post.platforms
    primary = enabled[0] if enabled else None
    return PostCard(
        id=post.id,
        status=post.status,
        scheduled_at=None if post.scheduled_at is None else post.scheduled_at.astimezone(UTC),
        summary=summary_line(post.content) or NO_TEXT,
        platform=primary.platform if primary is not None else None,
        account_text=_account_text(primary, len(destinations)),
        networks=tuple(dict.fromkeys(p.platform for p in enabled)),
        account_ids=tuple(
            dict.fromkeys(p.social_account.id for p in enabled if p.social_account is not None)
        ),
        # A label whose name could not be read is still shown (and filtered by), as such.
        labels=tuple(
            CardLabel(label.id, shown_name(label.name), label.color) for label in post.labels
        ),
        published_at=None if post.published_at is None else post.published_at.astimezone(UTC),
        thumb_url=thumb_url_of(post),
    )


@functools.cache
def _summary_line() -> Callable[..., str]:
    # Imported on first use: reading cards (the first paint) never renders HTML, only making
    # them does. Once: with PySide6 loaded an `import` statement runs shiboken's import hook
    # (~20 us), and a sync makes 3,000 cards.
    from app.content.text_render import summary_line

    return summary_line


def card_to_json(card: PostCard) -> str:
    scheduled = card.scheduled_at
    published = card.published_at
    return json.dumps(
        [
            CARD_VERSION,
            card.id,
            card.status,
            None if scheduled is None else scheduled.isoformat(),
            None if published is None else published.isoformat(),
            card.summary,
            card.platform,
            card.account_text,
            card.networks,
            card.account_ids,
            [[label.id, label.name, label.color] for label in card.labels],
            card.thumb_url,
        ],
        ensure_ascii=False,
        separators=(",", ":"),
    )


class StaleCard(ValueError):
    """The text is not a card this version writes: rebuild it from the post body."""


def card_from_json(text: str) -> PostCard:
    try:
        data: Any = json.loads(text)
        # Older cards (objects, versions 1 and 2) were made arrays by the cache's schema step 5,
        # and arrays of version 3 got their thumbnail by step 6.
        if not (isinstance(data, list) and data and data[0] == CARD_VERSION):
            raise StaleCard("not a card of this version")
        _, post_id, status, at, out, summary, platform, account, networks, ids, labels, thumb = data
        return PostCard(
            post_id,
            status,
            None if at is None else datetime.fromisoformat(at).astimezone(UTC),
            summary,
            platform,
            account,
            tuple(networks),
            tuple(ids),
            tuple([CardLabel(*label) for label in labels]) if labels else (),
            None if out is None else datetime.fromisoformat(out).astimezone(UTC),
            thumb if isinstance(thumb, str) else None,
        )
    except StaleCard:
        raise
    except (ValueError, KeyError, TypeError) as error:
        raise StaleCard(str(error)) from None
