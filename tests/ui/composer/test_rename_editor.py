"""Issue 15 §4: the rename field of a draft is as tall as a line edit needs (it was ~10 px)."""

from __future__ import annotations

from datetime import UTC, datetime

from PySide6.QtWidgets import QLineEdit
from pytestqt.qtbot import QtBot

from app.store.local_store import Draft
from ui.composer.drafts_panel import DraftsPanel


def test_the_rename_field_is_a_whole_line_edit(qtbot: QtBot) -> None:
    panel = DraftsPanel(UTC)
    qtbot.addWidget(panel)
    panel.resize(240, 300)
    panel.show()
    qtbot.waitExposed(panel)
    when = datetime(2026, 11, 26, 10, tzinfo=UTC)
    draft = Draft(
        id="d1",
        title="Monday roast",
        document="{}",
        revision=1,
        created_at=when,
        updated_at=when,
        preview="Monday roast",
    )
    panel.show_drafts([draft], None)
    panel.list.setCurrentRow(0)
    panel.rename_button.click()
    qtbot.waitUntil(lambda: panel.list.viewport().findChild(QLineEdit) is not None)
    editor = panel.list.viewport().findChild(QLineEdit)
    assert editor is not None
    qtbot.waitUntil(lambda: editor.height() >= editor.sizeHint().height())
