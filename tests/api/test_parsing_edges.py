"""Edges of reading partly bad answers (app.api.parsing): what a manager is told about an item
that could not be read, what is kept and what is left out, in the server's time zone, and what
the log says. The sandbox never sends such answers: the parser is fed directly, or through a
client over a mock transport where the request's name matters."""

from __future__ import annotations

import copy
import logging
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from pydantic import TypeAdapter

from app.api import errors as e
from app.api.parsing import unwrap_object, validate
from app.models import ItemList, UnreadableItem
from app.models.base import Id, WireModel
from app.models.labels import Label
from app.models.pagination import Page
from app.models.posts import Post
from tests.api.helpers import json_response, make_client, post_json, posts_page

BERLIN = ZoneInfo("Europe/Berlin")
LABELS = TypeAdapter(list[Label])
POST_PAGE = TypeAdapter(Page[Post])


def read_labels(data: Any) -> Any:
    return validate(LABELS, data, server_tz=UTC, what="GET /labels", mend=True)


def read_posts(data: Any, server_tz: Any = UTC) -> Any:
    return validate(POST_PAGE, data, server_tz=server_tz, what="GET /posts", mend=True)


def one_post_page(post: dict[str, Any]) -> dict[str, Any]:
    page = posts_page(1, last_page=1, per_page=1)
    page["data"] = [post]
    return page


# -- what the reason says --------------------------------------------------------------------


def test_the_reason_names_nested_parts_by_their_dotted_path() -> None:
    page = one_post_page(post_json("p1", labels=[{"id": "l1", "name": "News"}, {"id": "l2"}]))
    [item] = read_posts(page).unreadable
    assert item.reason == "labels.1.name: Field required"
    assert item.fields == ("labels.1.name",)


def test_an_item_that_is_not_an_object_is_named_item_in_the_reason() -> None:
    result = read_labels([{"id": "l1", "name": "News"}, None])
    assert [label.id for label in result] == ["l1"]
    assert result.unreadable == [
        UnreadableItem(
            id=None,
            index=1,
            reason="item: Input should be a valid dictionary or instance of Label",
            source="GET /labels",
        )
    ]


def test_three_faults_are_all_listed_and_a_fourth_is_counted() -> None:
    three = read_labels([{"id": "l1", "name": None, "color": 3, "updated_at": "soon"}])
    assert three.unreadable[0].reason == (
        "name: Input should be a valid string; color: Input should be a valid string; "
        "updated_at: Value error, Invalid isoformat string: 'soon'"
    )
    four = read_labels(
        [{"id": "l1", "name": None, "color": 3, "created_at": "then", "updated_at": "soon"}]
    )
    assert four.unreadable[0].reason == (
        "name: Input should be a valid string; color: Input should be a valid string; "
        "created_at: Value error, Invalid isoformat string: 'then'; 1 more"
    )
    five = read_labels([{"id": None, "name": None, "color": 3, "created_at": [], "updated_at": {}}])
    assert five.unreadable[0].reason.endswith("; 2 more")


def test_a_whole_answer_of_the_wrong_kind_is_a_protocol_error_not_a_crash() -> None:
    """A page route answered with a bare list: nothing to read item by item."""
    with pytest.raises(e.ProtocolError) as caught:
        read_posts([post_json("p1")])
    assert str(caught.value) == (
        "The server's answer to GET /posts does not have the expected shape "
        "(item: Input should be a valid dictionary or instance of Page[Post])."
    )


@pytest.mark.asyncio
async def test_a_page_route_answered_with_a_bare_list_is_a_protocol_error() -> None:
    client, _, _ = make_client(lambda _: json_response(200, [post_json("p1")]))
    async with client:
        with pytest.raises(e.ProtocolError, match="GET /posts does not have the expected shape"):
            await client.posts.page(1)


# -- what names a kept item ------------------------------------------------------------------


def test_a_label_kept_in_part_is_named_by_its_readable_name() -> None:
    result = read_labels([{"id": "l1", "name": "Promo", "color": 7}])
    assert result[0].name == "Promo"
    assert result[0].color is None
    [item] = result.unreadable
    assert (item.text, item.when, item.fields) == ("Promo", None, ("color",))


def test_a_blank_name_does_not_name_a_label() -> None:
    [item] = read_labels([{"id": "l1", "name": "   ", "color": 7}]).unreadable
    assert item.text is None


def test_a_label_is_never_given_a_day_from_an_unknown_field() -> None:
    """Unknown fields are kept as sent: a text `published_at` on a label is not a day."""
    [item] = read_labels([{"id": "l1", "name": None, "published_at": "yesterday"}]).unreadable
    assert item.when is None
    assert item.kept


def test_a_post_without_content_is_named_by_nothing_rather_than_failing() -> None:
    page = one_post_page(post_json("p1", content=None, status=None))
    result = read_posts(page)
    assert [post.id for post in result.data] == ["p1"]
    [item] = result.unreadable
    assert (item.text, item.fields) == (None, ("status",))


def test_a_published_post_kept_in_part_is_named_by_its_publication_day() -> None:
    page = one_post_page(
        post_json("p1", status=None, scheduled_at=None, published_at="2025-11-12 09:30:00")
    )
    [item] = read_posts(page).unreadable
    assert item.when == datetime(2025, 11, 12, 9, 30, tzinfo=UTC)


def test_times_of_a_page_read_in_part_stay_in_the_server_time_zone() -> None:
    """The good posts and the mended one are read again as a whole: still in the server's zone."""
    page = posts_page(1, last_page=1, per_page=2)
    page["data"][0]["scheduled_at"] = "2025-11-12 09:30:00"
    page["data"][1].update(status=None, scheduled_at="2025-11-13 10:00:00")
    result = read_posts(page, server_tz=BERLIN)
    assert [post.scheduled_at for post in result.data] == [
        datetime(2025, 11, 12, 9, 30, tzinfo=BERLIN),
        datetime(2025, 11, 13, 10, 0, tzinfo=BERLIN),
    ]
    assert result.data[0].scheduled_at == datetime(2025, 11, 12, 8, 30, tzinfo=UTC)
    assert result.unreadable[0].when == datetime(2025, 11, 13, 9, 0, tzinfo=UTC)


# -- what is kept ----------------------------------------------------------------------------


def test_a_network_entry_whose_account_is_an_empty_object_is_kept_with_the_account_unknown() -> (
    None
):
    post = post_json(
        "p1",
        platforms=[
            {"id": "pp1", "platform": "x", "social_account": {}},
            {"id": "pp2", "platform": "linkedin"},
        ],
    )
    result = read_posts(one_post_page(post))
    [kept] = result.data
    assert [(p.id, p.platform, p.social_account) for p in kept.platforms] == [
        ("pp1", "x", None),
        ("pp2", "linkedin", None),
    ]
    assert result.unreadable[0].fields == ("platforms.0.social_account",)


def test_reading_an_answer_never_changes_it() -> None:
    """The answer may be kept or logged by the caller: mending works on a copy."""
    post = post_json(
        "p1",
        status=None,
        labels=[{"id": "l1", "name": None}, {"id": None, "name": "Ghost"}],
        platforms=[{"id": "pp1", "platform": None, "social_account": {"platform": "x"}}],
        media=[{"id": "m1", "size": "big"}],
    )
    page = one_post_page(post)
    before = copy.deepcopy(page)
    result = read_posts(page)
    assert result.unreadable[0].kept
    assert page == before


class _Stats(WireModel):
    id: Id
    views: int


class _Clip(WireModel):
    id: Id
    title: str
    stats: _Stats | None = None


def test_a_nested_part_nothing_can_be_read_into_is_given_up_not_the_item() -> None:
    """A required number that is null: neither its default (none) nor "" fits, so the nested
    object holding it goes, and the item with a usable id stays."""
    data = [{"id": "c1", "title": "Clip", "stats": {"id": "s1", "views": None}}]
    result = validate(TypeAdapter(list[_Clip]), data, server_tz=UTC, what="GET /clips", mend=True)
    assert isinstance(result, ItemList)
    assert [(clip.id, clip.title, clip.stats) for clip in result] == [("c1", "Clip", None)]
    assert result.unreadable[0].fields == ("stats.views", "stats")


# -- the log ---------------------------------------------------------------------------------


def test_the_log_says_which_items_were_kept_in_part_and_which_left_out(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.WARNING, logger="app.api"):
        read_labels([{"id": "l1", "name": None}, {"name": "Nobody's"}])
    assert [record.getMessage() for record in caplog.records] == [
        "Kept in part (unreadable parts left empty) item l1 of GET /labels: "
        "name: Input should be a valid string",
        "Left out an unreadable item #2 of GET /labels: id: Field required",
    ]


# -- objects wrapped in `data` ---------------------------------------------------------------


def test_only_an_object_alone_in_data_is_unwrapped() -> None:
    inner = {"id": "w1", "name": "Cafe"}
    assert unwrap_object({"data": inner}) == inner
    assert unwrap_object({"data": inner, "meta": {"v": 1}}) == {"data": inner, "meta": {"v": 1}}
    assert unwrap_object([inner]) == [inner]
    assert unwrap_object({"data": [inner]}) == {"data": [inner]}
