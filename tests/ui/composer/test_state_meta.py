"""The composer's state object: an emptied setting leaves the document, it is not kept as ""."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication

from app.compose.batch import build_batch
from app.compose.checks import check_document
from app.compose.document import Schedule, ScheduleMode
from ui.composer.state import ComposerState


def test_an_emptied_setting_is_removed_not_kept_blank(qapp: QApplication) -> None:
    state = ComposerState()
    state.set_destinations([("p", "pinterest")])
    changes: list[None] = []
    state.changed.connect(lambda: changes.append(None))
    state.set_meta(0, "board_id", "b1")
    state.set_meta(0, "title", "Beans")
    state.set_meta(0, "title", "")
    assert state.doc.destinations[0].meta == {"board_id": "b1"}
    assert build_batch(state.doc).to_wire()["destinations"][0]["meta"] == {"board_id": "b1"}
    assert len(changes) == 3
    # Emptying what is not there is no change at all.
    state.set_meta(0, "link", "")
    state.set_meta(0, "link", None)
    state.set_meta(0, "link", [])
    assert len(changes) == 3
    assert state.doc.destinations[0].meta == {"board_id": "b1"}


def test_an_emptied_board_reads_as_missing_not_as_a_wrong_one(qapp: QApplication) -> None:
    state = ComposerState()
    state.set_destinations([("p", "pinterest")])
    state.set_meta(0, "board_id", "b1")
    state.set_meta(0, "board_id", "")
    state.set_schedule(ScheduleMode.QUEUE_NEXT, None)
    assert state.doc.schedule == Schedule(mode=ScheduleMode.QUEUE_NEXT)
    issues = {i.path: i.message for i in check_document(state.doc)}
    assert "required" in issues["destinations.0.meta.board_id"]
    assert "meta" not in build_batch(state.doc).to_wire()["destinations"][0]
