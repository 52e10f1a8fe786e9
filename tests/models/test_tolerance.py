"""What the server adds later must not crash the client: unknown values, extra fields, nulls."""

from __future__ import annotations

from pydantic import TypeAdapter

from app.models import (
    AudioAsset,
    NamedItem,
    Page,
    Post,
    PostStatus,
    SocialAccountSummary,
    describe,
    known,
)

POST_PAGE = TypeAdapter(Page[Post])


def test_unknown_statuses_are_kept_and_described() -> None:
    post = Post.model_validate({"id": "p1", "status": "pending_review_v2"})
    assert post.status == "pending_review_v2"
    assert post.known_status is None
    assert describe(PostStatus, post.status) == "unknown (pending_review_v2)"
    assert describe(PostStatus, "draft") == "draft"
    assert known(PostStatus, "partially_published") is PostStatus.PARTIALLY_PUBLISHED


def test_extra_fields_are_kept_at_every_level() -> None:
    post = Post.model_validate(
        {
            "id": "p1",
            "status": "draft",
            "future": 1,
            "platforms": [
                {
                    "id": "pp1",
                    "platform": "threads-v2",
                    "shiny": True,
                    "social_account": {"id": "a1", "platform": "threads-v2", "tier": "gold"},
                }
            ],
        }
    )
    assert post.model_extra == {"future": 1}
    assert post.platforms[0].platform == "threads-v2"
    assert post.platforms[0].model_extra == {"shiny": True}
    assert post.platforms[0].social_account is not None
    assert post.platforms[0].social_account.model_extra == {"tier": "gold"}


def test_nulls_where_lists_and_objects_are_expected_become_empty() -> None:
    post = Post.model_validate(
        {
            "id": "p1",
            "status": "draft",
            "content": None,
            "media": None,
            "labels": None,
            "platforms": [{"id": "pp1", "platform": "x", "meta": None}],
        }
    )
    assert post.content is None
    assert post.media == []
    assert post.labels == []
    assert post.platforms[0].meta == {}


def test_a_page_with_sparse_meta_still_knows_its_size() -> None:
    page = POST_PAGE.validate_python(
        {"data": [], "meta": {"current_page": 1, "per_page": 25, "total": 51}}
    )
    assert page.last_page == 3
    assert page.has_next
    assert POST_PAGE.validate_python({"data": None}).data == []


def test_integer_ids_and_odd_shapes_are_accepted_where_the_spec_is_loose() -> None:
    board = NamedItem.model_validate({"id": 7, "title": "Recipes"})
    assert (board.id, board.name) == ("7", "Recipes")
    account = SocialAccountSummary.model_validate({"id": "a1", "platform": "x"})
    assert account.label == "a1"
    audio = AudioAsset.model_validate({"id": 123456, "type": None, "title": "Rain"})
    assert audio.id == "123456"
    assert audio.type is None
