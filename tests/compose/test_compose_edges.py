"""Edges of the composer's pure rules that mutation testing found unguarded (issue 18 §2): where
a thread is cut, what a preview counts in, what an edit sends and reads back, how a 422's paths
land on the form, and how an existing post opens."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from app.compose.batch import (
    MediaNotUploaded,
    build_batch,
    build_update,
    describe_ignored,
    ignored_fields,
)
from app.compose.checks import (
    DRAFT_TIME_PAST,
    DUPLICATE_ACCOUNT,
    NEEDS_TEXT_OR_MEDIA,
    NO_DESTINATIONS,
    Issue,
    blocker_summary,
    char_count,
    check_document,
    map_field_errors,
    value_at,
)
from app.compose.document import ComposerDocument, MediaAttachment, Schedule, ScheduleMode
from app.compose.opening import document_from_post, duplicate_document
from app.compose.preview import preview, split_into_thread, split_thread
from app.models.accounts import SocialAccountSummary
from app.models.posts import Post
from app.models.requests import PlatformToggle, PostUpdate
from app.networks.text_length import Counting, x_weighted_length

NOW = datetime(2031, 1, 10, 12, 0, tzinfo=UTC)
CJK = "日本語"  # weight 2 each on X: 150 of them weigh 300


def _account(id_: str, platform: str, **fields: object) -> SocialAccountSummary:
    return SocialAccountSummary.model_validate(
        {"id": id_, "platform": platform, "status": "connected", "is_active": True, **fields}
    )


def _image(**fields: Any) -> MediaAttachment:
    return MediaAttachment(path="a.png", mime="image/png", size=10, width=10, height=10, **fields)


# -- cutting a thread --------------------------------------------------------------------------


def test_text_exactly_at_the_limit_is_one_part() -> None:
    assert split_thread("ab cd", 5) == ["ab cd"]
    assert split_thread("ab cd e", 5) == ["ab cd", "e"]


def test_a_limit_too_small_for_one_character_still_moves_on_one_character_at_a_time() -> None:
    assert split_thread("abc", 0) == ["a", "b", "c"]
    assert split_thread(CJK, 1, Counting.X_WEIGHTED) == list(CJK)


def test_blank_space_at_a_hard_cut_does_not_start_the_next_part() -> None:
    assert split_thread("abc  def", 3) == ["abc", "def"]


def test_blank_space_after_a_sentence_end_does_not_start_the_next_part() -> None:
    assert split_thread("aaaaaa bbb.  cccccc", 12) == ["aaaaaa bbb.", "cccccc"]


def test_a_sentence_end_exactly_at_the_limit_is_used() -> None:
    assert split_thread("aaaaaa b. cc", 10) == ["aaaaaa b.", "cc"]


def test_a_paragraph_break_wins_over_a_later_sentence_end() -> None:
    assert split_thread("aaaa aaaa\n\nbb. cc dddddd", 16) == ["aaaa aaaa", "bb. cc dddddd"]


def test_a_break_in_the_first_half_is_not_taken() -> None:
    # The space ends at 5 of 10: exactly half, too early; the word is cut instead.
    assert split_thread("aaaa bbbbbbbbb", 10) == ["aaaa bbbbb", "bbbb"]
    # One later and it is taken.
    assert split_thread("aaaaa bbbbbbbb", 10) == ["aaaaa", "bbbbbbbb"]


def test_the_last_break_that_fits_is_taken() -> None:
    text = "a b c d e f g h i j k l m n o p q r s t u"
    assert split_thread(text, 20) == ["a b c d e f g h i j", "k l m n o p q r s t", "u"]


# -- split into a thread -----------------------------------------------------------------------


def test_x_text_weighing_exactly_the_limit_is_not_split() -> None:
    doc = ComposerDocument(content="a" * 280)
    dest = doc.add_destination("x1", "x")
    assert split_into_thread(doc, 0) is False
    assert dest.content is None
    assert "thread_replies" not in dest.meta


def test_split_counts_the_way_x_does_and_uses_the_accounts_own_limit() -> None:
    text = CJK * 150  # 450 characters, weight 900
    doc = ComposerDocument(content=text)
    dest = doc.add_destination("x1", "x")
    assert split_into_thread(doc, 0, _account("x1", "x", max_content_length=400)) is True
    assert dest.content is not None
    assert len(dest.content) == 200  # 400 by weight
    replies = dest.meta["thread_replies"]
    assert all(set(r) == {"text", "media"} and r["media"] == [] for r in replies)
    # The rest is cut at the account's limit, then each piece at X's reply limit (280 by weight).
    assert [len(r["text"]) for r in replies] == [140, 60, 50]
    assert all(x_weighted_length(r["text"]) <= 280 for r in replies)
    assert dest.content + "".join(r["text"] for r in replies) == text


def test_split_counts_weight_without_an_account_too() -> None:
    doc = ComposerDocument(content=CJK * 50)  # 150 characters under 280, but weight 300
    dest = doc.add_destination("x1", "x")
    assert split_into_thread(doc, 0) is True
    assert dest.content == (CJK * 50)[:140]
    assert dest.meta["thread_replies"] == [{"text": (CJK * 50)[140:], "media": []}]


def test_split_drops_thread_replies_that_are_not_a_list() -> None:
    doc = ComposerDocument(content="a" * 300)
    dest = doc.add_destination("x1", "x")
    dest.meta = {"thread_replies": "broken"}
    assert split_into_thread(doc, 0) is True
    assert dest.meta["thread_replies"] == [{"text": "a" * 20, "media": []}]


# -- the preview -------------------------------------------------------------------------------


def test_an_x_preview_counts_by_weight_and_cuts_there() -> None:
    text = CJK * 50
    doc = ComposerDocument(content=text)
    doc.add_destination("x1", "x")
    shown = preview(doc, 0)
    assert (shown.account_id, shown.platform, shown.content_type) == ("x1", "x", "x_post")
    assert shown.network_name == "X"
    assert (shown.length, shown.limit, shown.over_by) == (300, 280, 20)
    assert shown.parts[0].text == text[:140]
    assert shown.cut_off == text[140:]


@pytest.mark.parametrize(("text", "length", "limit"), [("", 0, 1), ("a", 1, 1), ("abcd", 4, 4)])
def test_an_unknown_network_is_never_over_its_limit(text: str, length: int, limit: int) -> None:
    doc = ComposerDocument(content=text)
    doc.add_destination("m1", "myspace", "status")
    shown = preview(doc, 0)
    assert shown.network_name == "myspace"
    assert (shown.length, shown.limit, shown.blocked) == (length, limit, False)
    assert shown.sent_text == text


def test_thread_replies_in_the_preview_are_trimmed_and_numbered() -> None:
    doc = ComposerDocument(content="Hello")
    dest = doc.add_destination("x1", "x")
    dest.meta = {"thread_replies": [{"text": "  one  "}, {"text": None}, "junk", {"media": []}]}
    parts = preview(doc, 0).parts
    assert [(p.text, p.label) for p in parts] == [
        ("Hello", ""),
        ("one", "Reply 1"),
        ("", "Reply 2"),
        ("", "Reply 4"),
    ]


# -- the document ------------------------------------------------------------------------------


def test_resetting_the_only_override_leaves_an_empty_document() -> None:
    doc = ComposerDocument()
    dest = doc.add_destination("a", "linkedin")
    dest.content = "Mine"
    assert not doc.is_empty()
    dest.reset_content()
    assert dest.content is None
    assert doc.is_empty()


# -- batch and update bodies -------------------------------------------------------------------


def test_media_not_uploaded_names_each_file_by_path_or_id() -> None:
    named = MediaAttachment(path="/tmp/a.png")
    unnamed = MediaAttachment(id="m2")
    with pytest.raises(MediaNotUploaded) as caught:
        build_batch(_doc_with_media([named, unnamed]))
    assert str(caught.value) == "Not uploaded yet: /tmp/a.png, m2"
    assert caught.value.attachments == [named, unnamed]


def _doc_with_media(media: list[MediaAttachment]) -> ComposerDocument:
    doc = ComposerDocument(content="x", media=media)
    doc.add_destination("a", "linkedin")
    return doc


def test_a_disabled_destination_before_an_enabled_one_is_skipped_not_the_end() -> None:
    doc = ComposerDocument(content="Hi")
    doc.add_destination("off", "linkedin").enabled = False
    doc.add_destination("on", "x")
    wire = build_batch(doc).to_wire()
    assert [d["social_account_id"] for d in wire["destinations"]] == ["on"]


def test_a_destinations_own_media_is_sent_with_it() -> None:
    doc = ComposerDocument(content="Hi", media=[_image(upload_token="shared")])
    doc.add_destination("a", "linkedin")
    doc.add_destination("b", "x").media = [_image(upload_token="own", alt="B")]
    wire = build_batch(doc).to_wire()
    assert "media" not in wire["destinations"][0]
    assert wire["destinations"][1]["media"] == [{"upload_token": "own", "alt": "B"}]
    assert wire["media"] == [{"upload_token": "shared", "alt": ""}]


def test_no_enabled_destination_says_so() -> None:
    doc = ComposerDocument(content="Hi")
    doc.add_destination("off", "linkedin").enabled = False
    with pytest.raises(ValueError, match=r"^Choose at least one account to post to\.$"):
        build_batch(doc)


def _original(**fields: Any) -> Post:
    body: dict[str, Any] = {
        "id": "post-1",
        "status": "draft",
        "content": "Old",
        "platforms": [
            {
                "id": "pp1",
                "platform": "facebook",
                "content_type": "facebook_reel",
                "meta": {},
                "enabled": False,
                "social_account": {"id": "acc", "platform": "facebook"},
            }
        ],
    }
    body.update(fields)
    return Post.model_validate(body)


def test_an_edit_sends_the_shared_text_unless_it_is_blank() -> None:
    original = _original()
    doc = document_from_post(original)
    doc.content = "Shared"
    doc.destinations[0].content = "Own"
    assert build_update(doc, original).update.content == "Shared"
    doc.content = "  "
    assert build_update(doc, original).update.content == "Own"


def test_text_cleared_in_an_edit_is_sent_cleared_not_left_out() -> None:
    original = _original()
    doc = document_from_post(original)
    doc.content = ""
    # None would mean "leave the text alone": the old text would stay on the post.
    assert build_update(doc, original).update.content == ""


def test_an_edit_sends_each_platforms_content_type_and_an_empty_media_list() -> None:
    original = _original()
    plan = build_update(document_from_post(original), original)
    assert plan.update.platforms is not None
    assert plan.update.platforms[0].content_type == "facebook_reel"
    assert plan.update.platforms[0].enabled is False
    # An empty list removes every file; None would leave the post's media alone.
    assert plan.update.media == []


def test_text_cleared_by_the_edit_and_read_back_as_null_was_not_ignored() -> None:
    sent = PostUpdate(content="")
    after = _original(content=None)
    assert ignored_fields(sent, after) == []


def test_a_time_read_back_different_from_the_one_sent_was_ignored() -> None:
    at = datetime(2031, 2, 1, 10, 0, tzinfo=UTC)
    sent = PostUpdate(scheduled_at=at)
    assert ignored_fields(sent, _original(scheduled_at="2031-02-01 10:00:00")) == []
    assert ignored_fields(sent, _original(scheduled_at="2031-02-01 11:00:00")) == ["scheduled_at"]
    assert ignored_fields(sent, _original()) == ["scheduled_at"]


def test_a_content_type_read_back_different_was_ignored() -> None:
    sent = PostUpdate(
        platforms=[PlatformToggle(id="pp1", enabled=False, content_type="facebook_post")]
    )
    assert ignored_fields(sent, _original()) == ["platforms.0.content_type"]


def test_names_outside_the_usual_set_are_still_said_in_words() -> None:
    names = {0: "Pinterest"}
    assert describe_ignored(["platforms.0"], names) == "the Pinterest destination"
    assert describe_ignored(["platforms.0.meta.board_id"], names) == "a setting of Pinterest"
    assert describe_ignored(["platforms.5.enabled"], names) == "switching a destination on or off"
    assert describe_ignored(["platforms.5.other"], names) == "a destination's settings"
    assert describe_ignored(["platforms.x.meta"], names) == "a destination's settings"
    assert describe_ignored(["platforms"], names) == "a destination"


# -- checks ------------------------------------------------------------------------------------


def test_the_counter_counts_the_way_the_network_does() -> None:
    doc = ComposerDocument(content=CJK * 10)
    doc.add_destination("x1", "x")
    counted = char_count(doc, 0)
    assert counted is not None
    assert (counted.used, counted.limit) == (60, 280)


def test_no_destination_is_a_blocking_issue_with_its_message() -> None:
    assert check_document(ComposerDocument(content="Hi"), now=NOW) == [
        Issue("destinations", NO_DESTINATIONS, blocking=True)
    ]


def test_a_dated_draft_in_the_past_is_a_warning_with_its_message() -> None:
    doc = ComposerDocument(content="Hi", schedule=Schedule(at=NOW - timedelta(minutes=1)))
    doc.add_destination("a", "linkedin")
    assert check_document(doc, now=NOW) == [Issue("scheduled_at", DRAFT_TIME_PAST, blocking=False)]


def test_an_account_chosen_twice_is_flagged_at_the_second() -> None:
    doc = ComposerDocument(content="Hi")
    doc.add_destination("a", "linkedin")
    doc.add_destination("a", "linkedin")
    assert check_document(doc, now=NOW) == [
        Issue("destinations.1.social_account_id", DUPLICATE_ACCOUNT)
    ]


def test_no_text_and_no_media_asks_for_either_in_the_shared_editor() -> None:
    doc = ComposerDocument(schedule=Schedule(mode=ScheduleMode.PUBLISH_NOW))
    doc.add_destination("a", "linkedin")
    assert check_document(doc, now=NOW) == [Issue("destinations.0.content", NEEDS_TEXT_OR_MEDIA)]
    doc.media = [_image()]
    assert check_document(doc, now=NOW) == []


def test_a_destination_without_text_still_gets_its_other_problems() -> None:
    doc = ComposerDocument(schedule=Schedule(mode=ScheduleMode.PUBLISH_NOW))
    doc.add_destination("t1", "tiktok")
    assert [i.path for i in check_document(doc, now=NOW)] == [
        "destinations.0.content",
        "destinations.0.meta.privacy_level",
        "destinations.0.media",
    ]


def test_boards_and_channels_are_checked_against_each_accounts_own_lookup() -> None:
    doc = ComposerDocument(content="Hi", media=[_image()])
    doc.add_destination("p1", "pinterest").meta = {"board_id": "b9"}
    doc.add_destination("d1", "discord").meta = {"channel_id": "c9"}
    assert check_document(doc, now=NOW) == []  # nothing looked up: any id is accepted
    found = check_document(
        doc, now=NOW, board_ids={"p1": ["b1"]}, channel_ids={"d1": ["c1"], "p1": ["c9"]}
    )
    assert found == [
        Issue("destinations.0.meta.board_id", "The selected board is invalid."),
        Issue("destinations.1.meta.channel_id", "The selected channel is invalid."),
    ]
    assert check_document(doc, now=NOW, board_ids={"p1": ["b9"]}, channel_ids={"d1": ["c9"]}) == []


def test_settings_are_named_by_their_label_in_messages() -> None:
    doc = ComposerDocument(content="Hi")
    doc.add_destination("x1", "x").meta = {"thread_replies": [{"text": "a" * 281}]}
    assert check_document(doc, now=NOW) == [
        Issue(
            "destinations.0.meta.thread_replies.0.text",
            "The thread replies text field must not be greater than 280 characters.",
        )
    ]


def test_the_send_line_with_two_blockers_and_one_without_a_destination() -> None:
    stops = [
        Issue("destinations.0.content", "Too long."),
        Issue("destinations", "Choose at least one account to post to."),
    ]
    names = {"destinations.0.content": "X @a"}
    assert blocker_summary(stops, names.get) == (
        "2 things stop sending: X @a: Too long. · Choose at least one account to post to."
    )
    assert blocker_summary(stops[1:], names.get) == "Choose at least one account to post to."


# -- a 422's paths -----------------------------------------------------------------------------


def test_field_errors_keep_their_paths_unless_a_platform_entry_is_mapped() -> None:
    errors = {
        "content": ["Too long."],
        "platforms.0": ["Gone."],
        "platforms.0.meta.board_id": ["Invalid."],
        "platforms.3.enabled": ["No."],
    }
    assert map_field_errors(errors, "m") == errors
    assert map_field_errors(errors, "m", platform_indexes={0: 2}) == {
        "content": ["Too long."],
        "destinations.2": ["Gone."],
        "destinations.2.meta.board_id": ["Invalid."],
        "platforms.3.enabled": ["No."],
    }


def test_a_mark_finds_its_value_at_every_kind_of_path() -> None:
    at = NOW + timedelta(days=1)
    doc = ComposerDocument(
        content="Hi",
        media=[_image(id="m1")],
        schedule=Schedule(mode=ScheduleMode.AT, at=at),
        based_on_updated_at=NOW,
    )
    doc.add_destination("a", "linkedin")
    assert value_at(doc, "scheduled_at") == {"mode": "at", "at": "2031-01-11T12:00:00Z"}
    assert value_at(doc, "destinations.0.media.1") == [doc.media[0].model_dump(mode="json")]
    assert value_at(doc, "destinations.0")["account_id"] == "a"  # type: ignore[index]
    assert value_at(doc, "destinations.1.content") is None
    assert value_at(doc, "media.0.id") == "m1"
    assert value_at(doc, "media.1") is None
    assert value_at(doc, "based_on_updated_at") == "2031-01-10T12:00:00Z"


# -- opening an existing post ------------------------------------------------------------------


def _post(status: str, scheduled_at: str | None = "2031-02-01 10:00:00", **fields: Any) -> Post:
    return _original(status=status, scheduled_at=scheduled_at, **fields)


def test_only_a_scheduled_post_with_a_time_opens_as_scheduled() -> None:
    at = datetime(2031, 2, 1, 10, 0, tzinfo=UTC)
    assert document_from_post(_post("scheduled")).schedule == Schedule(mode=ScheduleMode.AT, at=at)
    assert document_from_post(_post("draft")).schedule == Schedule(mode=ScheduleMode.DRAFT, at=at)
    assert document_from_post(_post("scheduled", None)).schedule == Schedule()
    assert document_from_post(_post("published")).schedule == Schedule(at=at)


def test_an_opened_post_keeps_each_entrys_type_switch_and_account() -> None:
    post = _original(
        content=None,
        media=[
            {"id": "md1", "url": "https://x.test/a.png", "mime_type": "image/png", "size": 2048,
             "original_filename": "cup.png",
             "meta": {"width": 1080, "height": 1350, "alt_text": "A cup"}},
            {"id": "md2", "meta": {"width": "wide", "height": 2.5}},
        ],
        platforms=[
            {"id": "pp1", "platform": "facebook", "content_type": "facebook_reel", "enabled": False,
             "social_account": {"id": "acc", "platform": "facebook"}},
            {"id": "pp2", "platform": "pinterest"},
            {"id": "pp3", "platform": "myspace"},
        ],
    )  # fmt: skip
    doc = document_from_post(post)
    assert doc.content == ""
    first, second = doc.media
    assert (first.server_media_id, first.url, first.mime, first.size, first.path) == (
        "md1",
        "https://x.test/a.png",
        "image/png",
        2048,
        "cup.png",
    )
    assert (first.width, first.height, first.alt) == (1080, 1350, "A cup")
    assert (second.server_media_id, second.url, second.mime, second.size, second.path) == (
        "md2",
        None,
        "application/octet-stream",
        None,
        None,
    )
    assert (second.width, second.height, second.alt) == (None, None, "")
    got = [(d.account_id, d.content_type, d.enabled) for d in doc.destinations]
    assert got == [
        ("acc", "facebook_reel", False),
        ("", "pinterest_pin", True),
        ("", "", True),
    ]
    copy = duplicate_document(post)
    assert [(d.account_id, d.enabled, d.post_platform_id) for d in copy.destinations] == [
        ("acc", True, None)
    ]
