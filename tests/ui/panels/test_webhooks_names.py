"""Issue 17: every control of the Webhooks page has an accessible name (25 of 52 had none)."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QLineEdit,
    QPlainTextEdit,
    QTabBar,
    QTabWidget,
    QWidget,
)

from ui.panels.webhooks import WebhooksPage

CONTROLS = (
    QAbstractButton,
    QComboBox,
    QLineEdit,
    QAbstractItemView,
    QPlainTextEdit,
    QTabWidget,
    QAbstractSpinBox,
)


def _inside_a_control(widget: QWidget) -> bool:
    """Parts Qt makes inside another control (a combo's line edit, a view's corner button)."""
    parent = widget.parentWidget()
    while parent is not None:
        if isinstance(parent, (QComboBox, QAbstractSpinBox, QAbstractItemView, QTabBar, QLineEdit)):
            return True
        parent = parent.parentWidget()
    return False


def test_every_control_of_the_page_is_named(qapp: QApplication) -> None:
    page = WebhooksPage()
    controls = [
        widget
        for widget in page.findChildren(QWidget)
        if isinstance(widget, CONTROLS)
        and not _inside_a_control(widget)
        and type(widget).__name__ != "QScrollBar"
    ]
    assert len(controls) >= 30
    unnamed = [
        f"{type(widget).__name__} {getattr(widget, 'text', lambda: '')()!r}"
        for widget in controls
        if not widget.accessibleName()
    ]
    assert unnamed == []
