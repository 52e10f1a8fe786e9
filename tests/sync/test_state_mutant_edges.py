"""The status bar's words for posts read in part, when what could not be read lies deeper in the
post (a field of one of its labels, media or networks): named by the part a person knows."""

from __future__ import annotations

from datetime import UTC, datetime

from app.models.unreadable import UnreadableItem
from app.sync.state import unreadable_summary

NOW = datetime(2025, 11, 20, 12, 0, tzinfo=UTC)
NOV_12 = datetime(2025, 11, 12, 9, 30, tzinfo=UTC)


def post(text: str, *fields: str, index: int = 0) -> UnreadableItem:
    return UnreadableItem(f"p{index}", index, "a reason", "GET /posts", fields, text, NOV_12)


def test_a_label_name_inside_a_post_reads_as_a_label() -> None:
    summary = unreadable_summary([post("New spring menu", "labels.0.name")], NOW)
    assert summary == "1 post could not be read whole: “New spring menu” on 12 Nov (a label)."


def test_deep_fields_of_one_part_are_said_once() -> None:
    item = post("Tea time", "platforms.0.meta.board_id", "platforms.1.content_type")
    summary = unreadable_summary([item], NOW)
    assert summary == "1 post could not be read whole: “Tea time” on 12 Nov (one of its networks)."


def test_posts_missing_the_same_deep_part_are_grouped() -> None:
    items = [post("Menu", "media.0.url"), post("Tea", "media.2.type", index=1)]
    assert unreadable_summary(items, NOW) == (
        "2 posts could not be read whole: its media on 2 of them (“Menu” on 12 Nov, "
        "“Tea” on 12 Nov)."
    )
