"""The calendar card of a post: where it shows (schedule, or when it went out without one)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from app.calendar.post_card import (
    CARD_VERSION,
    StaleCard,
    card_from_json,
    card_of,
    card_to_json,
)
from tests.ui.calendar.factories import make_post


def test_a_post_published_now_is_placed_by_when_it_went_out() -> None:
    post = make_post(when=None, status="published")
    out = datetime(2025, 10, 22, 8, 5, tzinfo=UTC)
    post = post.model_copy(update={"published_at": out})
    card = card_of(post)
    assert card.scheduled_at is None
    assert card.calendar_at == out
    again = card_from_json(card_to_json(card))
    assert again == card
    assert again.published_at == out


def test_an_object_card_of_versions_1_or_2_is_stale_for_the_reader() -> None:
    """The cache's schema step 5 turns them into arrays (tests/store/test_post_cards.py); one
    left over is rebuilt from the body like any other card this version did not write."""
    text = (
        '{"v":1,"id":"p1","status":"scheduled","at":"2025-10-22T08:00:00+00:00",'
        '"summary":"Hi","platform":"x","account":"Northwind","networks":["x"],'
        '"accounts":["a1"],"labels":[]}'
    )
    assert CARD_VERSION == 4
    with pytest.raises(StaleCard):
        card_from_json(text)
