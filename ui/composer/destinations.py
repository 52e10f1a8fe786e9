"""Choosing destinations: every account of the workspace with its network icon, name, handle
and time zone (when it differs from yours). Accounts that cannot be posted to are listed but
cannot be ticked, and say why. Recent sets are one click."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, tzinfo

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMenu,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.compose.checks import account_problem
from app.models.accounts import SocialAccountSummary
from ui.calendar.timezone import zone_from_name, zone_name
from ui.icons import network_icon, network_name

ACCOUNT_ROLE = Qt.ItemDataRole.UserRole + 1


def account_text(account: SocialAccountSummary, local_tz: tzinfo) -> str:
    name = account.display_name or account.username or account.id
    text = f"{name}  ·  {network_name(account.platform)}"
    if account.username:
        text += f"  @{account.username.removeprefix('@')}"  # Mastodon handles carry their own @
    zone = zone_from_name(account.timezone)
    if zone is not None and _differs(zone, local_tz):
        text += f"  ({account.timezone})"
    return text


def _differs(zone: tzinfo, local: tzinfo) -> bool:
    if zone_name(zone) == zone_name(local):
        return False
    now = datetime.now(local)
    return now.utcoffset() != now.astimezone(zone).utcoffset()


class TickList(QListWidget):
    """A click anywhere on an account's row ticks it, not only on the small box.

    The state is compared across the click: when Qt already toggled the box (a click on it),
    the row is left alone, so a click never counts twice."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._pressed: tuple[QListWidgetItem, Qt.CheckState] | None = None

    def mousePressEvent(self, event: QMouseEvent) -> None:
        item = self.itemAt(event.position().toPoint())
        self._pressed = (item, item.checkState()) if item is not None else None
        super().mousePressEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        super().mouseReleaseEvent(event)
        pressed, self._pressed = self._pressed, None
        if pressed is None or event.button() != Qt.MouseButton.LeftButton:
            return
        item, before = pressed
        if self.itemAt(event.position().toPoint()) is not item:
            return
        if item.flags() & Qt.ItemFlag.ItemIsUserCheckable and item.checkState() == before:
            ticked = before != Qt.CheckState.Checked
            item.setCheckState(Qt.CheckState.Checked if ticked else Qt.CheckState.Unchecked)


class DestinationPicker(QWidget):
    chosenChanged = Signal(list)  # [(account_id, platform)]

    def __init__(self, local_tz: tzinfo, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._local_tz = local_tz
        self._accounts: list[SocialAccountSummary] = []
        self._updating = False
        self.recent_provider: Callable[[], list[list[str]]] = list
        title = QLabel("Post to")
        title.setObjectName("sectionTitle")
        self.recent_button = QPushButton("Recent sets ▾")
        self.recent_button.setToolTip("Choose a set of accounts you posted to before.")
        self.recent_button.clicked.connect(self._show_recent)
        head = QHBoxLayout()
        head.setContentsMargins(0, 0, 0, 0)
        head.addWidget(title, 1)
        head.addWidget(self.recent_button)
        self.list = TickList()
        self.list.setObjectName("destinationList")
        self.list.setAccessibleName("Accounts to post to")
        self.recent_button.setAccessibleName("Recent sets of accounts")
        # Long account names are elided at the end: no horizontal scrollbar eating a row, and at
        # least three whole rows in a 1024×640 window (it showed 2.5 rows and a scrollbar).
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.list.setUniformItemSizes(True)
        self.list.setMinimumHeight(3 * 26 + 6)
        self.list.itemChanged.connect(self._item_changed)
        self.empty = QLabel("No accounts yet. They appear after the first sync.")
        self.empty.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(head)
        layout.addWidget(self.list, 1)
        layout.addWidget(self.empty)

    def set_accounts(self, accounts: list[SocialAccountSummary], chosen: list[str]) -> None:
        self._accounts = list(accounts)
        self._updating = True
        self.list.clear()
        for account in accounts:
            item = QListWidgetItem(
                network_icon(account.platform), account_text(account, self._local_tz)
            )
            item.setData(ACCOUNT_ROLE, account.id)
            problem = account_problem(account)
            if problem is None:
                item.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsUserCheckable)
                item.setCheckState(
                    Qt.CheckState.Checked if account.id in chosen else Qt.CheckState.Unchecked
                )
                item.setToolTip(f"{network_name(account.platform)} account {account.label}")
            else:
                item.setFlags(Qt.ItemFlag.NoItemFlags)
                item.setText(item.text() + "  — " + _short_reason(account))
                item.setToolTip(problem)
                if account.id in chosen:
                    item.setCheckState(Qt.CheckState.Checked)
            self.list.addItem(item)
        self._updating = False
        self.empty.setVisible(not accounts)

    def set_chosen(self, chosen: list[str]) -> None:
        self._updating = True
        for row in range(self.list.count()):
            item = self.list.item(row)
            if item.flags() & Qt.ItemFlag.ItemIsUserCheckable:
                wanted = item.data(ACCOUNT_ROLE) in chosen
                item.setCheckState(Qt.CheckState.Checked if wanted else Qt.CheckState.Unchecked)
        self._updating = False

    def item_for(self, account_id: str) -> QListWidgetItem | None:
        for row in range(self.list.count()):
            item = self.list.item(row)
            if item.data(ACCOUNT_ROLE) == account_id:
                return item
        return None

    def chosen(self) -> list[tuple[str, str]]:
        result = []
        for row, account in enumerate(self._accounts):
            item = self.list.item(row)
            if item is not None and item.checkState() == Qt.CheckState.Checked:
                result.append((account.id, account.platform))
        return result

    def toggle(self, account_id: str, on: bool = True) -> bool:
        """Tick or untick an account as a click would; False when it cannot be chosen."""
        item = self.item_for(account_id)
        if item is None or not item.flags() & Qt.ItemFlag.ItemIsUserCheckable:
            return False
        item.setCheckState(Qt.CheckState.Checked if on else Qt.CheckState.Unchecked)
        return True

    def _item_changed(self, _item: QListWidgetItem) -> None:
        if not self._updating:
            self.chosenChanged.emit(self.chosen())

    # -- recent sets ---------------------------------------------------------------------------
    def _show_recent(self) -> None:
        menu = self.recent_menu()
        menu.popup(self.recent_button.mapToGlobal(self.recent_button.rect().bottomLeft()))

    def recent_menu(self) -> QMenu:
        menu = QMenu(self)
        by_id = {a.id: a for a in self._accounts}
        sets = self.recent_provider()
        menu.setToolTipsVisible(True)
        width = max(240, self.window().width() // 2)
        for ids in sets:
            # Network and handle: two accounts with one display name read apart.
            names = [set_member_name(by_id[i]) for i in ids if i in by_id]
            if not names:
                continue
            full = ", ".join(names)
            # One line no wider than half the window: the menu fits beside the list.
            shown = menu.fontMetrics().elidedText(full, Qt.TextElideMode.ElideRight, width)
            action = menu.addAction(shown)
            action.setToolTip(full)
            action.triggered.connect(lambda _=False, chosen=ids: self.apply_set(chosen))
        if menu.isEmpty():
            menu.addAction("No recent sets yet: they are remembered when you send.").setEnabled(
                False
            )
        return menu

    def apply_set(self, account_ids: list[str]) -> None:
        self.set_chosen(account_ids)
        self.chosenChanged.emit(self.chosen())


def set_member_name(account: SocialAccountSummary) -> str:
    """`X @northwindcoffee`: short, and distinct where display names are the same."""
    handle = (account.username or "").lstrip("@")
    return f"{network_name(account.platform)} @{handle}" if handle else account.label


def _short_reason(account: SocialAccountSummary) -> str:
    if account.status == "disconnected":
        return "disconnected"
    if account.status == "token_expired":
        return "login expired"
    if account.is_active is False:
        return "switched off"
    return "unavailable"
