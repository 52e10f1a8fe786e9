"""Issue 15 §3: local media rules judge the media the user adds or changes, not the files an
existing post already has on the server (they were accepted there)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from app.compose.checks import check_document
from app.compose.document import ComposerDocument, MediaAttachment, Schedule, ScheduleMode

LATER = datetime.now(UTC) + timedelta(days=2)


def _edited_pin(*media: MediaAttachment) -> ComposerDocument:
    doc = ComposerDocument(content="New text only", media=list(media))
    dest = doc.add_destination("p1", "pinterest")
    dest.meta = {"board_id": "b1"}
    doc.editing_post_id = "post-1"
    doc.schedule = Schedule(mode=ScheduleMode.AT, at=LATER)
    return doc


def _server(n: int) -> MediaAttachment:
    return MediaAttachment(mime="image/png", server_media_id=f"m{n}", url=f"https://x/{n}.png")


def test_changing_only_the_text_of_a_post_whose_server_media_break_a_rule_is_not_blocked() -> None:
    doc = _edited_pin(_server(1), _server(2))
    assert [i for i in check_document(doc, now=datetime.now(UTC)) if "media" in i.path] == []


def test_adding_a_file_to_it_checks_the_count_and_the_new_file() -> None:
    added = MediaAttachment(path="/tmp/a.gif", mime="video/webm", size=10)
    doc = _edited_pin(_server(1), _server(2), added)
    issues = {i.path: i.message for i in check_document(doc, now=datetime.now(UTC))}
    assert issues["destinations.0.media"] == "Pinterest takes at most 1 file; 3 are attached."
    # The new file's problem is at its own place in the whole list.
    assert "destinations.0.media.2" in issues


def test_one_file_reads_in_the_singular() -> None:
    doc = _edited_pin(
        MediaAttachment(path="/tmp/a.png", mime="image/png", size=10),
        MediaAttachment(path="/tmp/b.png", mime="image/png", size=10),
    )
    issues = {i.path: i.message for i in check_document(doc, now=datetime.now(UTC))}
    assert issues["destinations.0.media"] == "Pinterest takes at most 1 file; 2 are attached."
