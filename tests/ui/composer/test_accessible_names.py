"""Issue 16 §5 / issue 15: every control of the composer has an accessible name (21 of 54
had none: the post text, the drafts and outbox lists among them)."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractSpinBox,
    QComboBox,
    QLineEdit,
    QPlainTextEdit,
    QTabBar,
    QTextEdit,
    QWidget,
)

from tests.ui.composer.conftest import Composer, until

CONTROLS = (
    QAbstractButton,
    QAbstractItemView,
    QAbstractSpinBox,
    QComboBox,
    QLineEdit,
    QPlainTextEdit,
    QTextEdit,
    QTabBar,
)


def _unnamed(root: QWidget) -> list[str]:
    found = []
    for widget in root.findChildren(QWidget):
        if not isinstance(widget, CONTROLS) or widget.accessibleName().strip() != "":
            continue
        # Qt's own parts of a control (a combo's popup list, a tab bar's scroll arrows) are
        # named through the control.
        parent = widget.parentWidget()
        owned = False
        while parent is not None and parent is not root:
            if isinstance(parent, (QComboBox, QAbstractSpinBox, QTabBar, QLineEdit)) or (
                type(parent).__name__ == "QComboBoxPrivateContainer"
            ):
                owned = True
                break
            parent = parent.parentWidget()
        if owned:
            continue
        text = widget.text() if isinstance(widget, QAbstractButton) else ""
        found.append(f"{type(widget).__name__} {widget.objectName()!r} {text!r}")
    return found


def test_every_composer_control_has_an_accessible_name(composer: Composer) -> None:
    page = composer.page
    platforms = ["x", "pinterest", "tiktok", "discord", "instagram-facebook"]
    chosen = [(composer.account(p), p) for p in platforms]

    async def body() -> None:
        await until(lambda: page.picker.list.count() > 0, what="accounts")
        page.state.set_destinations(chosen)
        page.state.set_meta(0, "thread_replies", [{"text": "More", "media": []}])
        page.state.set_destinations(chosen)
        await until(lambda: len(page.tabs_by_account) == len(chosen), what="the tabs")

    composer.run(body())
    unnamed = _unnamed(page)
    assert unnamed == [], "\n".join(unnamed)
