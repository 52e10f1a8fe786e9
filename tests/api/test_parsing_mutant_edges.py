"""Edges of mending a partly bad answer (app.api.parsing) that earlier tests left open (issue 18
§2): once a nested element without a usable id has left its list, the parts named after it keep
the positions they had in the answer as sent."""

from __future__ import annotations

import logging
from datetime import UTC
from typing import Any

import pytest
from pydantic import TypeAdapter

from app.api.parsing import validate
from app.models.pagination import Page
from app.models.posts import Post
from tests.api.helpers import post_json, posts_page

POST_PAGE = TypeAdapter(Page[Post])


def read_one_post(post: dict[str, Any]) -> Any:
    page = posts_page(1, last_page=1, per_page=1)
    page["data"] = [post]
    return validate(POST_PAGE, page, server_tz=UTC, what="GET /posts", mend=True)


def entry(entry_id: Any, platform: Any, account_platform: Any) -> dict[str, Any]:
    return {
        "id": entry_id,
        "platform": platform,
        "social_account": {"id": f"a-{entry_id}", "platform": account_platform},
    }


def test_a_label_after_one_left_out_is_named_by_its_place_in_the_answer(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Label 0 has no usable id (it goes); label 1's name is unreadable. The report names
    `labels.1.name`, never a `labels.0.name` that the answer's first label did not have."""
    post = post_json("p1", labels=[{"id": None, "name": "Gone"}, {"id": "l2", "name": None}])
    with caplog.at_level(logging.WARNING, logger="app.api"):
        result = read_one_post(post)
    [kept] = result.data
    assert [(label.id, label.name, label.shown_name) for label in kept.labels] == [
        ("l2", "", "(unreadable)")
    ]
    [item] = result.unreadable
    assert item.fields == ("labels.0", "labels.1.name")
    assert item.reason == (
        "labels.0.id: Input should be a valid string; labels.1.name: Input should be a valid string"
    )


def test_a_network_entry_after_one_left_out_is_named_by_its_place_in_the_answer() -> None:
    post = post_json(
        "p1",
        platforms=[entry(None, "x", "x"), entry("e2", "facebook", None)],
    )
    [item] = read_one_post(post).unreadable
    assert item.fields == ("platforms.0", "platforms.1.social_account.platform")


def test_a_part_mended_twice_after_a_shift_is_named_once() -> None:
    """Entry 1's `platform` is not text: left out first (it is required), then "" next round,
    while entry 0 left its list in between. One part, named once, by its place as sent."""
    post = post_json("p1", platforms=[5, entry("e2", 7, "x")])
    result = read_one_post(post)
    [kept] = result.data
    assert [(p.id, p.platform) for p in kept.platforms] == [("e2", "")]
    [item] = result.unreadable
    assert item.fields == ("platforms.0", "platforms.1.platform")
