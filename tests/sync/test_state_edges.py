"""The words the sync state gives about items it could not read: exact sentences a manager reads."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from app.models.unreadable import UnreadableItem
from app.sync.state import SyncState, unreadable_summary

NOW = datetime(2025, 11, 20, 12, 0, tzinfo=UTC)
NOV_12 = datetime(2025, 11, 12, 9, 30, tzinfo=UTC)

SHOWN = "They are shown; what could not be read shows as “(unreadable)” or “unknown”."
LABELS_PAGE = "A label can be given its name again on the Labels page."
LEFT_OUT = "What could not be read at all is left out; a saved copy of such a post is kept."


def post(
    text: str | None, *fields: str, when: datetime | None = None, index: int = 0
) -> UnreadableItem:
    return UnreadableItem(f"p{index}", index, "a reason", "GET /posts", fields, text, when)


def lost(source: str, index: int = 0) -> UnreadableItem:
    return UnreadableItem(None, index, "id: Field required", source)


def hint(*items: UnreadableItem) -> str:
    return SyncState("idle", "Up to date.", unreadable=items).unreadable_hint()


def test_the_hint_for_kept_items_is_one_exact_sentence() -> None:
    assert hint(post("Menu", "status")) == SHOWN


def test_the_hint_for_items_left_out_is_one_exact_sentence() -> None:
    assert hint(lost("GET /posts")) == LEFT_OUT


def test_the_hint_joins_its_sentences_with_a_space() -> None:
    items = (post("Menu", "labels.0.name"), lost("GET /posts", 1))
    assert hint(*items) == f"{SHOWN} {LABELS_PAGE} {LEFT_OUT}"


def test_a_label_without_its_name_points_to_the_labels_page() -> None:
    label = UnreadableItem("l1", 0, "name: null", "GET /labels", ("name",))
    assert hint(label) == f"{SHOWN} {LABELS_PAGE}"


def test_only_a_label_name_on_a_post_points_to_the_labels_page() -> None:
    # A media item's name or a label's colour is not something the Labels page can give back.
    assert hint(post("Menu", "media.0.name"), post("Tea", "labels.0.color")) == SHOWN


def test_items_of_a_list_that_is_not_posts_labels_or_accounts_are_counted_as_items() -> None:
    summary = unreadable_summary(
        [lost("GET /webhooks/w1/logs"), lost("GET /webhooks/w1/logs", 1)], NOW
    )
    assert summary == "2 items in the list could not be read at all."


def test_a_page_of_a_list_is_named_by_its_path_without_the_query() -> None:
    assert unreadable_summary([lost("GET /posts?page=2")], NOW) == (
        "1 post in the list could not be read at all."
    )


def test_a_post_without_text_alone_in_its_group_says_no_text() -> None:
    summary = unreadable_summary([post(None, "status"), post("Tea", "media.0")], NOW)
    assert (
        summary == "2 posts could not be read whole: “(no text)” (its status); “Tea” (its media)."
    )


def test_an_account_without_text_is_named_by_its_place_in_the_list() -> None:
    account = UnreadableItem("a1", 2, "name: null", "GET /social-accounts", ("name",))
    assert unreadable_summary([account], NOW) == (
        "1 account could not be read whole: “#3” (its name)."
    )


def test_two_in_a_group_are_both_named_and_three_say_one_more() -> None:
    two = [post(f"Post {n}", "status", index=n) for n in range(2)]
    assert unreadable_summary(two, NOW) == (
        "2 posts could not be read whole: its status on 2 of them (“Post 0”, “Post 1”)."
    )
    three = [post(f"Post {n}", "status", index=n) for n in range(3)]
    assert unreadable_summary(three, NOW) == (
        "3 posts could not be read whole: its status on 3 of them (“Post 0”, “Post 1” and 1 more)."
    )


def test_beyond_four_groups_the_rest_is_counted() -> None:
    fields = ["status", "content", "scheduled_at", "media.0", "platforms.0", "platforms.1"]
    items = [post(f"P{n}", field, index=n) for n, field in enumerate(fields)]
    items.append(post("P6", "platforms.0", index=6))
    summary = unreadable_summary(items, NOW)
    assert summary == (
        "7 posts could not be read whole: “P0” (its status); “P1” (its text); “P2” (its date); "
        "“P3” (its media); 3 more."
    )


def test_a_field_without_words_of_its_own_is_named_from_its_key() -> None:
    summary = unreadable_summary([post("Tea", "first_comment.text", "media.0")], NOW)
    assert summary == "1 post could not be read whole: “Tea” (its first comment, its media)."


def test_a_title_of_exactly_the_limit_is_kept_whole() -> None:
    title = "Thirty two characters long, yes!"
    assert len(title) == 32
    summary = unreadable_summary([post(title, "status")], NOW)
    assert summary == f"1 post could not be read whole: “{title}” (its status)."


def test_a_word_ending_at_the_limit_is_kept_before_the_ellipsis() -> None:
    # The 32nd character is a space: the cut falls between two words, so the last one stays.
    text = "Bread and butter from the baker today"
    assert text[31] == " "
    summary = unreadable_summary([post(text, "status")], NOW)
    assert (
        summary
        == "1 post could not be read whole: “Bread and butter from the baker…” (its status)."
    )


def test_a_cut_title_keeps_a_word_ending_in_capital_x() -> None:
    text = "Prices drop: all items, TAX free today!"
    summary = unreadable_summary([post(text, "status")], NOW)
    assert summary == "1 post could not be read whole: “Prices drop: all items, TAX…” (its status)."


def test_the_day_is_the_day_where_the_user_is() -> None:
    auckland = NOW.astimezone(ZoneInfo("Pacific/Auckland"))
    late = datetime(2025, 11, 12, 20, 0, tzinfo=UTC)  # already 13 Nov in Auckland
    summary = unreadable_summary([post("Tea", "status", when=late)], auckland)
    assert summary == "1 post could not be read whole: “Tea” on 13 Nov (its status)."


def test_labels_without_a_name_get_their_own_sentence_after_the_posts() -> None:
    nameless = UnreadableItem("l1", 0, "name: null", "GET /labels", ("name",))
    colourless = UnreadableItem("l2", 1, "color: 5", "GET /labels", ("color",), "Promo")
    summary = unreadable_summary([nameless, colourless, post("Tea", "status")], NOW)
    assert summary == (
        "1 post could not be read whole: “Tea” (its status). "
        "1 label could not be read whole (its name): shown as “(unreadable)”. "
        "1 label could not be read whole: “Promo” (its colour)."
    )


def test_a_group_names_its_posts_with_their_day_and_another_years_year() -> None:
    last_year = datetime(2024, 12, 24, 10, tzinfo=UTC)
    items = [post(None, "status", when=NOV_12), post("Tea", "status", when=last_year, index=1)]
    assert unreadable_summary(items, NOW) == (
        "2 posts could not be read whole: its status on 2 of them "
        "(“(no text)” on 12 Nov, “Tea” on 24 Dec 2024)."
    )


def test_a_cut_title_loses_the_punctuation_before_its_ellipsis() -> None:
    text = "Fresh bread, warm rolls, cakes, and coffee all day"
    summary = unreadable_summary([post(text, "status")], NOW)
    assert (
        summary == "1 post could not be read whole: “Fresh bread, warm rolls, cakes…” (its status)."
    )
