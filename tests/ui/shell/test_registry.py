"""The action registry: page shortcuts work whatever has focus on their page and never elsewhere;
menus, enabled states and conflicts come from the one list of specs."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from pytestqt.qtbot import QtBot

from ui.action_spec import ActionSpec
from ui.messages import MessageBridge
from ui.shell.main_window import MainWindow
from ui.shell.registry import MENU_ORDER, ActionRegistry, DuplicateAction


def shown_window(qtbot: QtBot) -> tuple[MainWindow, ActionRegistry]:
    main = MainWindow(MessageBridge())
    qtbot.addWidget(main)
    registry = ActionRegistry(main, main.current_section)
    main.sectionChanged.connect(registry.section_changed)
    main.show()
    main.activateWindow()
    qtbot.waitUntil(main.isActiveWindow)
    return main, registry


def test_a_page_letter_works_with_the_sidebar_focused_and_never_opens_another_section(
    qtbot: QtBot,
) -> None:
    main, registry = shown_window(qtbot)
    pressed: list[str] = []
    for letter in "MWA":
        registry.add(
            ActionSpec(f"calendar.{letter}", letter, lambda x=letter: pressed.append(x),
                       letter, "View", "calendar")
        )  # fmt: skip
    main.sidebar.setFocus()
    for key in (Qt.Key.Key_W, Qt.Key.Key_A, Qt.Key.Key_M):
        QTest.keyClick(main.sidebar, key)
    assert pressed == ["W", "A", "M"]
    assert main.current_section() == "calendar", "the sidebar's type-ahead must not move"

    main.show_section("labels")
    main.sidebar.setFocus()
    QTest.keyClick(main.sidebar, Qt.Key.Key_W)
    QTest.keyClick(main.sidebar, Qt.Key.Key_A)
    assert pressed == ["W", "A", "M"], "calendar keys do nothing on another page"
    assert main.current_section() == "labels"
    assert not registry.action("calendar.W").isEnabled()


def test_a_window_action_works_on_every_page_and_respects_its_enabled_check(
    qtbot: QtBot,
) -> None:
    main, registry = shown_window(qtbot)
    runs: list[int] = []
    allowed = [False]
    registry.add(
        ActionSpec("view.refresh", "Refresh", lambda: runs.append(1), "F5", "View",
                   enabled=lambda: allowed[0])
    )  # fmt: skip
    main.show_section("webhooks")
    QTest.keyClick(main.sidebar, Qt.Key.Key_F5)
    assert runs == []
    assert registry.run("view.refresh") is False
    allowed[0] = True
    registry.refresh_enabled()
    QTest.keyClick(main.sidebar, Qt.Key.Key_F5)
    assert runs == [1]


def test_menus_come_in_order_and_hold_their_actions(qtbot: QtBot) -> None:
    main, registry = shown_window(qtbot)
    registry.add(ActionSpec("file.quit", "Quit", lambda: None, "Ctrl+Q", "File"))
    menus = registry.build_menus(main.menuBar())
    registry.add(ActionSpec("help.about", "About Postdesk", lambda: None, menu="Help"))
    assert [a.text().lstrip("&") for a in main.menuBar().actions()] == list(MENU_ORDER)
    assert [a.text() for a in menus["File"].actions()] == ["Quit"]
    assert [a.text() for a in menus["Help"].actions()] == ["About Postdesk"]


def test_a_menu_filler_puts_its_items_above_the_registered_actions(qtbot: QtBot) -> None:
    main, registry = shown_window(qtbot)
    registry.add(ActionSpec("workspace.connect", "Connect…", lambda: None, menu="Workspace"))
    menus = registry.build_menus(main.menuBar())
    names = ["Acme"]

    def fill(menu):  # type: ignore[no-untyped-def]
        from PySide6.QtGui import QAction

        return [QAction(name, menu) for name in names]

    registry.set_menu_filler("Workspace", fill)
    menus["Workspace"].aboutToShow.emit()
    texts = [a.text() for a in menus["Workspace"].actions() if not a.isSeparator()]
    assert texts == ["Acme", "Connect…"]
    names.append("Globex")
    menus["Workspace"].aboutToShow.emit()
    texts = [a.text() for a in menus["Workspace"].actions() if not a.isSeparator()]
    assert texts == ["Acme", "Globex", "Connect…"], "items are rebuilt, not piled up"


def test_conflicting_ids_and_shortcuts_are_refused(qtbot: QtBot) -> None:
    _main, registry = shown_window(qtbot)
    registry.add(ActionSpec("a", "A", lambda: None, "Ctrl+K"))
    with pytest.raises(DuplicateAction):
        registry.add(ActionSpec("a", "again", lambda: None))
    with pytest.raises(DuplicateAction):
        registry.add(ActionSpec("b", "B", lambda: None, "Ctrl+K", scope="calendar"))
    registry.add(ActionSpec("c", "C", lambda: None, "X", scope="calendar"))
    registry.add(ActionSpec("d", "D", lambda: None, "X", scope="webhooks"))  # other page: fine


def test_a_key_follows_its_enabled_check_when_pressed_and_menus_when_they_open(
    qtbot: QtBot,
) -> None:
    """Selecting a post tells the registry nothing: Delete must still work right after, and
    the Post menu must still grey out what cannot be done when it opens."""
    main, registry = shown_window(qtbot)
    registry.build_menus(main.menuBar())
    runs: list[int] = []
    selected = [False]
    registry.add(
        ActionSpec("calendar.delete", "Delete post…", lambda: runs.append(1), "Delete", "Post",
                   "calendar", lambda: selected[0])
    )  # fmt: skip
    main.sidebar.setFocus()
    QTest.keyClick(main.sidebar, Qt.Key.Key_Delete)
    assert runs == []
    selected[0] = True  # a post is selected; nobody calls refresh_enabled()
    QTest.keyClick(main.sidebar, Qt.Key.Key_Delete)
    assert runs == [1]

    selected[0] = False
    menu = registry.menu("Post")
    menu.aboutToShow.emit()
    assert not registry.action("calendar.delete").isEnabled()
    menu.aboutToHide.emit()
    selected[0] = True
    QTest.keyClick(main.sidebar, Qt.Key.Key_Delete)
    assert runs == [1, 1]
    main.show_section("labels")
    QTest.keyClick(main.sidebar, Qt.Key.Key_Delete)
    assert runs == [1, 1], "a calendar key does nothing on another page"
