"""Previews: the text as each network cuts it, X threads in numbered parts, replies after."""

from __future__ import annotations

from app.compose.document import ComposerDocument, MediaAttachment
from app.compose.preview import preview, split_thread
from app.models.accounts import SocialAccountSummary


def test_short_text_is_one_part_without_a_counter() -> None:
    assert split_thread("  hello  ", 280) == ["hello"]
    assert split_thread("", 280) == []


def test_long_text_splits_at_word_ends_into_numbered_parts_within_the_limit() -> None:
    text = " ".join(f"word{i}" for i in range(200))
    parts = split_thread(text, 280)
    assert len(parts) > 1
    assert all(len(p) <= 280 for p in parts)
    assert [p.rsplit(" ", 1)[1] for p in parts] == [
        f"{i}/{len(parts)}" for i in range(1, len(parts) + 1)
    ]
    rebuilt = " ".join(p.rsplit(" ", 1)[0] for p in parts)
    assert rebuilt == text


def test_sentences_are_preferred_over_words() -> None:
    text = "First sentence is here. " * 8 + "Tail " * 40
    first = split_thread(text, 280)[0]
    assert first.rsplit(" ", 1)[0].endswith(".")


def test_x_preview_threads_and_keeps_media_on_the_first_part() -> None:
    doc = ComposerDocument(content="a " * 300, media=[MediaAttachment(mime="image/png")])
    dest = doc.add_destination("x1", "x")
    dest.meta = {"thread_replies": [{"text": "More below", "media": []}]}
    shown = preview(doc, 0)
    assert [p.label for p in shown.parts] == ["1/3", "2/3", "3/3", "Reply 1"]
    assert shown.parts[0].media == doc.media
    assert shown.parts[1].media == []
    assert shown.cut_off == ""


def test_other_networks_cut_at_the_accounts_limit() -> None:
    doc = ComposerDocument(content="b" * 600)
    doc.add_destination("l1", "linkedin")
    account = SocialAccountSummary(id="l1", platform="linkedin", max_content_length=500)
    shown = preview(doc, 0, account)
    assert shown.limit == 500
    assert shown.over_by == 100
    assert shown.parts[0].text == "b" * 500
    assert shown.cut_off == "b" * 100
    assert preview(doc, 0).limit == 3000
