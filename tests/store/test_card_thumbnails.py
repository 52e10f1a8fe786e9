"""A card names its post's first image (`thumb_url`); an older cache gets it by schema step 6."""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from app.calendar.post_card import card_from_json, card_of, card_to_json
from app.store import WorkspaceCache
from tests.store.factories import make_post

MARCH = (datetime(2026, 3, 1, tzinfo=UTC), datetime(2026, 4, 1, tzinfo=UTC))


def media(n: int, kind: str | None, mime: str | None, url: Any = "default") -> dict[str, Any]:
    return {
        "id": f"m{n}",
        "path": f"medias/m{n}.bin",
        "url": f"https://cdn.example/medias/m{n}.bin" if url == "default" else url,
        "type": kind,
        "mime_type": mime,
        "original_filename": f"f{n}",
        "meta": {},
    }


IMAGE = media(1, "image", "image/png")
VIDEO = media(2, "video", "video/mp4")
DOCUMENT = media(3, "document", "application/pdf")
UNTYPED_IMAGE = media(4, None, "IMAGE/JPEG")
UNTYPED_OTHER = media(5, None, "application/zip")
FILE_URL = media(6, "image", "image/png", url="file:///etc/passwd")
NO_URL = media(7, "image", "image/png", url=None)
HTTP_UPPER = media(8, "image", "image/png", url="HTTP://cdn.example/m8.png")

CASES: dict[str, tuple[list[dict[str, Any]], str | None]] = {
    "no media": ([], None),
    "one image": ([IMAGE], IMAGE["url"]),
    "a video first, then an image": ([VIDEO, IMAGE], IMAGE["url"]),
    "only a video (no poster in the spec)": ([VIDEO], None),
    "a document": ([DOCUMENT], None),
    "untyped with an image MIME type": ([UNTYPED_OTHER, UNTYPED_IMAGE], UNTYPED_IMAGE["url"]),
    "a file: URL is never fetched": ([FILE_URL, NO_URL], None),
    "the first web image after unusable ones": (
        [FILE_URL, NO_URL, HTTP_UPPER, IMAGE],
        HTTP_UPPER["url"],
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_card_carries_the_url_of_its_posts_first_image(case: str) -> None:
    items, expected = CASES[case]
    card = card_of(make_post("p", media=items))

    assert card.thumb_url == expected
    assert card_from_json(card_to_json(card)) == card


def test_a_post_whose_media_is_null_has_no_thumbnail() -> None:
    assert card_of(make_post("p", media=None)).thumb_url is None


def as_version_3(card_text: str) -> str:
    """The card as Postdesk wrote it before thumbnails: version 3, eleven items."""
    data = json.loads(card_text)
    assert data[0] == 4
    return json.dumps([3, *data[1:11]])


@pytest.mark.parametrize("case", list(CASES))
def test_schema_step_6_gives_an_older_cache_the_same_thumbnails_as_a_sync_would(
    tmp_path: Path, case: str
) -> None:
    path = tmp_path / "c.sqlite3"
    items, expected = CASES[case]
    post = make_post("a", scheduled_at="2026-03-11 09:00:00", media=items)
    with WorkspaceCache(path) as cache:
        cache.replace_all_posts([post])
    with sqlite3.connect(path) as db:
        (stored,) = db.execute("SELECT card FROM posts").fetchone()
        db.execute("UPDATE posts SET card = ?", (as_version_3(stored),))
        db.execute("PRAGMA user_version = 5")  # as a Postdesk before schema step 6 left it

    with WorkspaceCache(path) as cache:
        cards = cache.cards_between(*MARCH)
    assert cards == [card_of(post)]
    assert cards[0].thumb_url == expected
    with sqlite3.connect(path) as db:
        (stored,) = db.execute("SELECT card FROM posts").fetchone()
        assert db.execute("PRAGMA user_version").fetchone() == (6,)
    assert card_from_json(stored) == card_of(post)  # rewritten in place, not rebuilt at read


def test_schema_step_6_keeps_a_card_whose_body_is_not_json_without_a_thumbnail(
    tmp_path: Path,
) -> None:
    path = tmp_path / "c.sqlite3"
    post = make_post("a", scheduled_at="2026-03-11 09:00:00", media=[IMAGE])
    with WorkspaceCache(path) as cache:
        cache.replace_all_posts([post])
    with sqlite3.connect(path) as db:
        (stored,) = db.execute("SELECT card FROM posts").fetchone()
        db.execute("UPDATE posts SET card = ?, body = '{not json'", (as_version_3(stored),))
        db.execute("PRAGMA user_version = 5")

    with WorkspaceCache(path) as cache:
        (card,) = cache.cards_between(*MARCH)
    assert card == card_of(post)._replace(thumb_url=None)


def test_schema_step_6_drops_a_version_3_card_it_cannot_read_and_the_body_rebuilds_it(
    tmp_path: Path,
) -> None:
    path = tmp_path / "c.sqlite3"
    post = make_post("a", scheduled_at="2026-03-11 09:00:00", media=[IMAGE])
    with WorkspaceCache(path) as cache:
        cache.replace_all_posts([post])
    with sqlite3.connect(path) as db:
        db.execute("UPDATE posts SET card = '[3,\"a\"]'")
        db.execute("PRAGMA user_version = 5")

    with WorkspaceCache(path) as cache:
        assert cache.cards_between(*MARCH) == [card_of(post)]
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT card FROM posts").fetchone() == (None,)
