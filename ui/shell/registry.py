"""The action registry: one list of ActionSpecs feeds the window's shortcuts, its menus, the
command palette and the key table (qutebrowser's command registry is the model).

Every QAction lives on the main window with a window-wide shortcut, so a page's shortcut works
whatever widget of the window has focus. A page-scoped action is enabled only while its page is
shown: "M" switches the calendar to month view from the sidebar too, and never fires on another
page. Text fields still get their letters: Qt lets a focused line edit claim printable keys
before any shortcut.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenu, QMenuBar, QWidget

from ui.action_spec import ActionSpec
from ui.shell.main_window import MENU_ORDER as MENU_ORDER

WINDOW = "window"
FOCUS_KEYS = frozenset({"Return", "Enter"})
"""Keys focused controls use themselves (a line edit's Enter): such a page shortcut is bound to
its page only while focus is inside it, never window-wide."""


class DuplicateAction(ValueError):
    """Two specs share an id or a shortcut in overlapping scopes."""


class ActionRegistry(QObject):
    def __init__(
        self,
        window: QWidget,
        current_section: Callable[[], str],
        page_widget: Callable[[str], QWidget | None] = lambda _section: None,
        show_section: Callable[[str], None] | None = None,
    ) -> None:
        super().__init__(window)
        self._window = window
        self._current_section = current_section
        self._page_widget = page_widget
        self._show_section = show_section
        self._specs: dict[str, ActionSpec] = {}
        self._actions: dict[str, QAction] = {}
        self._menus: dict[str, QMenu] = {}
        self._menu_fillers: dict[str, Callable[[QMenu], list[QAction]]] = {}

    # -- registering ---
    def add(self, spec: ActionSpec) -> QAction:
        if spec.id in self._specs:
            raise DuplicateAction(f"action id {spec.id!r} is registered twice")
        self._check_shortcut(spec)
        owner = self._window
        context = Qt.ShortcutContext.WindowShortcut
        page = self._page_widget(spec.scope) if spec.scope != WINDOW else None
        if spec.shortcut in FOCUS_KEYS and page is not None:
            owner, context = page, Qt.ShortcutContext.WidgetWithChildrenShortcut
        if spec.focus_within and page is not None:
            within = page if page.objectName() == spec.focus_within else None
            within = within or page.findChild(QWidget, spec.focus_within)
            if within is None:
                raise ValueError(f"{spec.id}: no widget {spec.focus_within!r} in its page")
            owner, context = within, Qt.ShortcutContext.WidgetWithChildrenShortcut
        action = QAction(spec.text, owner)
        if spec.shortcut:
            action.setShortcut(QKeySequence(spec.shortcut))
            action.setShortcutContext(context)
        if spec.help:
            action.setToolTip(spec.help)
            action.setStatusTip(spec.help)
        action.triggered.connect(lambda _checked=False, i=spec.id: self.run(i))
        owner.addAction(action)
        self._specs[spec.id] = spec
        self._actions[spec.id] = action
        if spec.menu and spec.menu in self._menus:
            self._menus[spec.menu].addAction(action)
        self._update(spec.id, self._current_section())
        return action

    def add_all(self, specs: Iterable[ActionSpec]) -> None:
        for spec in specs:
            self.add(spec)

    def _check_shortcut(self, spec: ActionSpec) -> None:
        if not spec.shortcut:
            return
        wanted = QKeySequence(spec.shortcut)
        for other in self._specs.values():
            if not other.shortcut or QKeySequence(other.shortcut) != wanted:
                continue
            if WINDOW in (other.scope, spec.scope) or other.scope == spec.scope:
                raise DuplicateAction(
                    f"{spec.shortcut} is bound to both {other.id!r} and {spec.id!r}"
                )

    # -- reading ---
    def specs(self) -> list[ActionSpec]:
        return list(self._specs.values())

    def spec(self, action_id: str) -> ActionSpec:
        return self._specs[action_id]

    def action(self, action_id: str) -> QAction:
        return self._actions[action_id]

    def is_available(self, action_id: str) -> bool:
        """In scope on the current page and enabled by its spec."""
        spec = self._specs[action_id]
        return self._in_scope(spec, self._current_section()) and _enabled(spec)

    def available(self) -> list[ActionSpec]:
        return [spec for spec in self._specs.values() if self.is_available(spec.id)]

    def run(self, action_id: str) -> bool:
        """Run the action if it is available now; False when it was not."""
        if not self.is_available(action_id):
            return False
        self._specs[action_id].callback()
        return True

    def reachable(self) -> list[ActionSpec]:
        """What the palette offers: the actions available here, and those of other pages
        (running one shows its page first)."""
        if self._show_section is None:
            return self.available()
        return [spec for spec in self._specs.values() if _enabled(spec)]

    def run_anywhere(self, action_id: str) -> bool:
        """Show the action's page if needed, then run it."""
        spec = self._specs[action_id]
        if spec.scope != WINDOW and spec.scope != self._current_section():
            if self._show_section is None:
                return False
            self._show_section(spec.scope)
        return self.run(action_id)

    # -- state ---
    def section_changed(self, section: str) -> None:
        for action_id in self._specs:
            self._update(action_id, section)

    def refresh_enabled(self) -> None:
        self.section_changed(self._current_section())

    def _update(self, action_id: str, section: str, *, checked: bool = False) -> None:
        """A key's QAction follows its page only: its enabled check is asked when it fires
        (`run`), since a selection or a post's status changes without telling the registry
        and a disabled QAction would ignore the key. An open menu shows the check's answer.
        Enter keeps its check always: an enabled one would take Enter from the page's fields."""
        spec = self._specs[action_id]
        checked = checked or spec.shortcut in FOCUS_KEYS
        enabled = self._in_scope(spec, section) and (not checked or _enabled(spec))
        self._actions[action_id].setEnabled(enabled)

    @staticmethod
    def _in_scope(spec: ActionSpec, section: str) -> bool:
        return spec.scope in (WINDOW, section)

    # -- menus ---
    def build_menus(self, bar: QMenuBar) -> dict[str, QMenu]:
        """File, View, Go, Post, Workspace, Help, in that order (the window's own, when it made
        them already); enabled states are refreshed each time a menu opens."""
        for name in MENU_ORDER:
            menu = bar.findChild(QMenu, f"menu{name}") or bar.addMenu(f"&{name}")
            menu.setObjectName(f"menu{name}")
            self._menus[name] = menu
            menu.aboutToShow.connect(lambda n=name: self._menu_opening(n))
            menu.aboutToHide.connect(self.refresh_enabled)
        for spec in self._specs.values():
            if spec.menu in self._menus:
                self._menus[spec.menu].addAction(self._actions[spec.id])
        return dict(self._menus)

    def menu(self, name: str) -> QMenu:
        return self._menus[name]

    def set_menu_filler(self, name: str, fill: Callable[[QMenu], list[QAction]]) -> None:
        """`fill(menu)` makes the menu's changing items (e.g. the workspace list, parented to
        the menu); they are put above its registered actions each time it opens."""
        self._menu_fillers[name] = fill

    def _menu_opening(self, name: str) -> None:
        section = self._current_section()
        for action_id in self._specs:
            self._update(action_id, section, checked=True)
        fill = self._menu_fillers.get(name)
        if fill is None:
            return
        menu = self._menus[name]
        registered = set(self._actions.values())
        for action in menu.actions():
            if action not in registered:
                menu.removeAction(action)
                if action.parent() is menu:
                    action.deleteLater()
        items = fill(menu)
        first = next(iter(menu.actions()), None)
        if items and first is not None:
            items.append(_separator(menu))
        if first is None:
            menu.addActions(items)
        else:
            menu.insertActions(first, items)


def _separator(menu: QMenu) -> QAction:
    separator = QAction(menu)
    separator.setSeparator(True)
    return separator


def _enabled(spec: ActionSpec) -> bool:
    return spec.enabled is None or bool(spec.enabled())
