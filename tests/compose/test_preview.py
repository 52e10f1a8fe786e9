"""Previews show exactly what is sent: no invented numbering or thread, text over the limit
shown apart (sending is blocked), and "Split into a thread" only when asked."""

from __future__ import annotations

from app.compose.batch import build_batch
from app.compose.document import ComposerDocument, MediaAttachment
from app.compose.preview import preview, split_into_thread, split_thread
from app.models.accounts import SocialAccountSummary
from app.networks.text_length import Counting, x_weighted_length


def test_short_text_is_one_part_without_a_counter() -> None:
    assert split_thread("  hello  ", 280) == ["hello"]
    assert split_thread("", 280) == []


def test_long_text_splits_at_word_ends_without_adding_text() -> None:
    text = " ".join(f"word{i}" for i in range(200))
    parts = split_thread(text, 280, Counting.X_WEIGHTED)
    assert len(parts) > 1
    assert all(x_weighted_length(p) <= 280 for p in parts)
    assert " ".join(parts) == text


def test_cjk_parts_are_cut_at_xs_weighted_limit() -> None:
    parts = split_thread("中" * 300, 280, Counting.X_WEIGHTED)
    assert [len(p) for p in parts] == [140, 140, 20]


def test_sentences_are_preferred_over_words() -> None:
    text = "First sentence is here. " * 8 + "Tail " * 40
    assert split_thread(text, 280)[0].endswith(".")


def test_x_preview_of_long_text_is_one_post_over_the_limit_not_an_invented_thread() -> None:
    doc = ComposerDocument(content="a" * 281, media=[MediaAttachment(mime="image/png")])
    dest = doc.add_destination("x1", "x")
    dest.meta = {"thread_replies": [{"text": "More below", "media": []}]}
    shown = preview(doc, 0)
    assert [p.label for p in shown.parts] == ["", "Reply 1"]
    assert shown.parts[0].media == doc.media
    assert shown.over_by == 1
    assert shown.blocked
    assert shown.cut_off == "a"
    assert shown.sent_text == "a" * 281


def test_split_into_thread_moves_the_overflow_into_thread_replies_only_when_asked() -> None:
    words = " ".join(f"word{i}" for i in range(120))
    doc = ComposerDocument(content=words)
    dest = doc.add_destination("x1", "x")
    dest.meta = {"thread_replies": [{"text": "Existing", "media": []}]}
    assert preview(doc, 0).blocked
    assert dest.meta["thread_replies"] == [{"text": "Existing", "media": []}]
    assert split_into_thread(doc, 0)
    shown = preview(doc, 0)
    assert not shown.blocked
    replies = dest.meta["thread_replies"]
    assert replies[-1] == {"text": "Existing", "media": []}
    assert " ".join([dest.content or "", *(r["text"] for r in replies[:-1])]) == words
    wire = build_batch(doc).model_dump(mode="json")
    assert wire["destinations"][0]["meta"]["thread_replies"] == replies
    assert wire["destinations"][0]["content"] == dest.content
    assert not split_into_thread(doc, 0)


def test_split_is_only_offered_where_the_network_takes_thread_replies() -> None:
    doc = ComposerDocument(content="b" * 600)
    doc.add_destination("b1", "bluesky")
    assert not split_into_thread(doc, 0)
    assert doc.destinations[0].content is None


def test_other_networks_show_the_overflow_at_the_accounts_limit() -> None:
    doc = ComposerDocument(content="b" * 600)
    doc.add_destination("l1", "linkedin")
    account = SocialAccountSummary(id="l1", platform="linkedin", max_content_length=500)
    shown = preview(doc, 0, account)
    assert shown.limit == 500
    assert shown.over_by == 100
    assert shown.parts[0].text == "b" * 500
    assert shown.cut_off == "b" * 100
    assert preview(doc, 0).limit == 3000
