"""The composer document: JSON round-trip for the drafts store, overrides and their reset."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

from app.compose.document import (
    ComposerDocument,
    MediaAttachment,
    Schedule,
    ScheduleMode,
)


def full_document() -> ComposerDocument:
    doc = ComposerDocument(
        content="Shared text ☕ — with signature\n-- Northwind",
        media=[
            MediaAttachment(
                path="/tmp/a.png", alt="Latte art", mime="image/png", size=10, width=4, height=3
            )
        ],
        labels=["label-1", "label-2"],
        schedule=Schedule(
            mode=ScheduleMode.AT,
            at=datetime(2031, 3, 30, 1, 30, tzinfo=timezone(timedelta(hours=2))),
        ),
        editing_post_id="post-1",
        based_on_updated_at=datetime(2031, 3, 1, 9, 0, tzinfo=UTC),
    )
    doc.add_destination("acc-x", "x")
    pin = doc.add_destination("acc-p", "pinterest")
    pin.content = "Own pin text"
    pin.media = []
    pin.meta = {"board_id": "b1", "title": "T"}
    return doc


def test_json_round_trip_keeps_everything() -> None:
    doc = full_document()
    again = ComposerDocument.from_json(doc.to_json())
    assert again == doc
    assert again.schedule.at == doc.schedule.at
    assert again.schedule.at is not None
    assert again.schedule.at.utcoffset() == timedelta(hours=2)
    assert again.destinations[1].media == []  # an empty override is not "use shared"
    assert again.destinations[0].media is None


def test_unknown_fields_of_a_newer_app_survive_a_round_trip() -> None:
    raw = full_document().model_dump(mode="json")
    raw["future_field"] = {"x": 1}
    raw["destinations"][0]["future_dest"] = True
    again = ComposerDocument.model_validate(raw)
    assert ComposerDocument.from_json(again.to_json()).model_dump(mode="json") == raw


def test_effective_content_and_media_follow_overrides_and_reset() -> None:
    doc = full_document()
    assert doc.content_for(0) == doc.content
    assert doc.content_for(1) == "Own pin text"
    assert doc.media_for(1) == []
    pin = doc.destinations[1]
    assert pin.overrides_content
    assert pin.overrides_media
    pin.reset_content()
    pin.reset_media()
    assert doc.content_for(1) == doc.content
    assert doc.media_for(1) == doc.media


def test_new_destinations_get_the_default_content_type_and_no_forced_choice() -> None:
    doc = ComposerDocument()
    tiktok = doc.add_destination("acc-t", "tiktok")
    assert tiktok.content_type == "tiktok_video"
    assert "privacy_level" not in tiktok.meta
    unknown = doc.add_destination("acc-u", "myspace")
    assert unknown.content_type == ""
    doc.remove_destination("acc-t")
    assert [d.account_id for d in doc.destinations] == ["acc-u"]
    assert doc.index_of("acc-u") == 0
    assert doc.index_of("acc-t") is None


def test_media_to_upload_is_listed_once() -> None:
    doc = full_document()
    shared = doc.media[0]
    doc.destinations[0].media = [shared, MediaAttachment(path="/tmp/b.mp4", mime="video/mp4")]
    assert [m.path for m in doc.all_media()] == ["/tmp/a.png", "/tmp/b.mp4"]
    assert doc.all_media()[1].kind == "video"


def test_an_empty_document_is_empty() -> None:
    doc = ComposerDocument()
    doc.add_destination("a", "x")
    assert doc.is_empty()
    doc.content = "  "
    assert doc.is_empty()
    doc.destinations[0].content = "x"
    assert not doc.is_empty()


def test_a_blank_content_override_means_the_shared_text() -> None:
    # The server trims "" / "  " to null, and a null override keeps the shared text.
    doc = ComposerDocument(content="Shared")
    dest = doc.add_destination("a", "x")
    dest.content = "   "
    assert not dest.overrides_content
    assert doc.content_for(0) == "Shared"
