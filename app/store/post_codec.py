"""How a Post is written to and read from the cache: a JSON body plus the columns we query on.

The body keeps every field the server sent, unknown ones included (`exclude_unset` also keeps the
difference between "absent" and "null"). Timestamps are written as ISO 8601 with the offset and,
in brackets, the zone (RFC 9557: `2026-10-25T02:30:00+02:00[Europe/Berlin]`). That is lossless:
the REST `Y-m-d H:i:s` form drops zone and sub-seconds, and the zone name matters because Python
never finds a time in a DST fold equal to the same instant in a fixed-offset zone. The models'
timestamp fields read that form themselves (`app.models.base.parse_rest_datetime`), so a body is
read back by pydantic straight from its JSON text.

The models are imported where a body is decoded, not at the top: the calendar paints from cards
at start-up, before pydantic and the models (~150 ms of imports) are needed at all.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from datetime import datetime
from typing import TYPE_CHECKING, Any, NamedTuple

from app.calendar.post_card import PostCard, card_of, card_to_json
from app.store.utc_text import utc_text

if TYPE_CHECKING:
    from pydantic import BaseModel

    from app.models import Label, Post, SocialAccountSummary


class PostRow(NamedTuple):
    id: str
    scheduled_utc: str | None  # `app.store.utc_text` form: text order is time order
    calendar_utc: str | None
    created_utc: str | None
    status: str
    body: str
    account_ids: frozenset[str]
    label_ids: frozenset[str]
    card: str  # app.calendar.post_card JSON: what the calendar reads
    parsed_card: PostCard  # the same, as the calendar will read it


def calendar_time(post: Post) -> datetime | None:
    """Where the calendar shows a post: its schedule, or when it went out if it had none
    (a "publish now" post has no `scheduled_at` but belongs on the day it was published)."""
    return post.scheduled_at or post.published_at


def dump_model(model: BaseModel) -> str:
    """Compact JSON of a wire model, by pydantic's serializer: fields in the model's order, then
    the unknown ones in the server's order (the same answer always gives the same text), and
    timestamps in the lossless form (`STORED_FORM`). Sorting the keys with the standard encoder
    and a call back per timestamp cost about half of encoding a page for the cache."""
    return model.model_dump_json(exclude_unset=True, context=_stored_form())


@functools.cache  # imported on first use, not per post (an import runs shiboken's hook)
def _stored_form() -> dict[str, Any]:
    from app.models.base import STORED_FORM

    return STORED_FORM


def load_label(body: str) -> Label:
    from app.models import Label

    return Label.model_validate_json(body)


def load_account(body: str) -> SocialAccountSummary:
    from app.models import SocialAccountSummary

    return SocialAccountSummary.model_validate_json(body)


def encode_post(post: Post) -> PostRow:
    card = card_of(post)
    body = dump_model(post)
    calendar = calendar_time(post)
    return PostRow(
        id=post.id,
        scheduled_utc=None if post.scheduled_at is None else utc_text(post.scheduled_at),
        calendar_utc=None if calendar is None else utc_text(calendar),
        created_utc=None if post.created_at is None else utc_text(post.created_at),
        status=post.status,
        body=body,
        account_ids=frozenset(_account_ids(post)),
        label_ids=frozenset(label.id for label in post.labels),
        card=card_to_json(card),
        parsed_card=card,
    )


def encode_posts(
    posts: Iterable[Post], into: dict[str, PostRow] | None = None
) -> dict[str, PostRow]:
    """Rows by id; a post already in `into` keeps its first copy (lists shift while read)."""
    rows: dict[str, PostRow] = {} if into is None else into
    for post in posts:
        if post.id not in rows:
            rows[post.id] = encode_post(post)
    return rows


def decode_post(body: str) -> Post:
    from app.models import Post

    return Post.model_validate_json(body)


def _account_ids(post: Post) -> set[str]:
    ids: set[str] = set()
    for platform in post.platforms:
        if platform.social_account is not None:
            ids.add(platform.social_account.id)
        elif isinstance(extra := (platform.model_extra or {}).get("social_account_id"), str):
            ids.add(extra)
    return ids
