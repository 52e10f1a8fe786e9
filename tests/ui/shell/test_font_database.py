"""Qt's font database can be filled on a thread while the main thread imports the first frame."""

from __future__ import annotations

from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import QApplication

from ui.shell.font_database import start_loading_fonts


def test_the_fonts_load_on_their_own_thread(qapp: QApplication) -> None:
    thread = start_loading_fonts()
    assert thread.ident is not None, "started"
    thread.join(timeout=10)
    assert not thread.is_alive()
    assert QFontDatabase.families(), "the database the widgets read is filled"
