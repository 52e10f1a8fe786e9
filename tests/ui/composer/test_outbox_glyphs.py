"""Every outbox state's glyph is one the default font can draw (issue 19 §5: ⏳ was a box)."""

from __future__ import annotations

from PySide6.QtGui import QFontDatabase, QFontMetrics
from PySide6.QtWidgets import QApplication

from app.sync.outbox import OutboxState
from ui.composer.outbox_panel import _ICONS


def test_each_state_glyph_is_in_the_default_font(qapp: QApplication) -> None:
    metrics = QFontMetrics(QFontDatabase.systemFont(QFontDatabase.SystemFont.GeneralFont))
    missing = {
        state.name: glyph
        for state, glyph in _ICONS.items()
        for char in glyph
        if not metrics.inFontUcs4(ord(char))
    }
    assert not missing, f"glyphs the default font lacks: {missing}"
    assert set(_ICONS) >= {OutboxState.QUEUED, OutboxState.NEEDS_CONFIRMATION}
