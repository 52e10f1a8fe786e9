"""The main window's sections: pages built when first shown, and the first-paint signal."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QLabel, QWidget
from pytestqt.qtbot import QtBot

from ui.action_spec import ActionSpec
from ui.messages import MessageBridge
from ui.shell.main_window import MainWindow
from ui.shell.registry import ActionRegistry


class Builds:
    """A page builder that counts its calls."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.parents: list[QWidget] = []

    def __call__(self, parent: QWidget) -> QWidget:
        self.parents.append(parent)
        return QLabel(self.text, parent)


def window(qtbot: QtBot) -> MainWindow:
    shown = MainWindow(MessageBridge())
    qtbot.addWidget(shown)
    return shown


def test_a_page_is_built_once_when_its_section_is_first_shown(qtbot: QtBot) -> None:
    main = window(qtbot)
    build = Builds("Accounts page")
    main.set_page_builder("accounts", build)
    assert build.parents == [], "nothing is built while another section is shown"

    main.show_section("accounts")
    assert build.parents == [main.pages]
    page = main.page("accounts")
    assert isinstance(page, QLabel)
    assert page.text() == "Accounts page"
    assert main.pages.currentWidget() is page

    main.show_section("calendar")
    main.show_section("accounts")
    assert len(build.parents) == 1
    assert main.pages.currentWidget() is page


def test_asking_for_a_page_builds_it_without_showing_it(qtbot: QtBot) -> None:
    main = window(qtbot)
    main.set_page_builder("webhooks", Builds("Webhooks page"))
    page = main.page("webhooks")
    assert isinstance(page, QLabel)
    assert page.text() == "Webhooks page"
    assert main.current_section() == "calendar"


def test_the_section_on_screen_is_built_at_once(qtbot: QtBot) -> None:
    main = window(qtbot)
    build = Builds("Calendar page")
    main.set_page_builder("calendar", build)
    assert len(build.parents) == 1
    assert main.pages.currentWidget() is main.page("calendar")


def test_a_page_set_directly_replaces_a_pending_builder(qtbot: QtBot) -> None:
    main = window(qtbot)
    build = Builds("never built")
    main.set_page_builder("labels", build)
    ready = QLabel("Labels page")
    main.set_page("labels", ready)
    main.show_section("labels")
    assert build.parents == []
    assert main.page("labels") is ready


def test_the_section_shortcut_builds_the_page(qtbot: QtBot) -> None:
    main = window(qtbot)
    registry = ActionRegistry(main, main.current_section)
    registry.add(
        ActionSpec("go.signatures", "Signatures", lambda: main.show_section("signatures"), "Ctrl+4")
    )
    build = Builds("Signatures page")
    main.set_page_builder("signatures", build)
    main.show()
    main.activateWindow()
    qtbot.waitUntil(main.isActiveWindow)
    main.sidebar.setFocus()
    QTest.keyClick(main.sidebar, Qt.Key.Key_4, Qt.KeyboardModifier.ControlModifier)
    assert main.current_section() == "signatures"
    assert main.pages.currentWidget() is main.page("signatures")
    assert len(build.parents) == 1


def test_first_painted_is_emitted_once(qtbot: QtBot) -> None:
    main = window(qtbot)
    emitted: list[bool] = []
    main.firstPainted.connect(lambda: emitted.append(True))
    assert not main.painted
    with qtbot.waitSignal(main.firstPainted, timeout=5000):
        main.show()
    assert main.painted
    main.repaint()
    assert emitted == [True]
