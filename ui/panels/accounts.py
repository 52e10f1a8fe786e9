"""Accounts panel: the workspace's social accounts and how many posts the workspace has."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QHeaderView, QLabel, QTableView, QVBoxLayout, QWidget

from app.domain.enums import AccountStatus, known

if TYPE_CHECKING:
    from app.models import SocialAccountSummary

Index = QModelIndex | QPersistentModelIndex

_STATUS_TEXT = {
    AccountStatus.CONNECTED: "Connected",
    AccountStatus.DISCONNECTED: "Disconnected — reconnect it in the web app",
    AccountStatus.TOKEN_EXPIRED: "Token expired — reconnect it in the web app",
}


class AccountsModel(QAbstractTableModel):
    HEADERS = ("Network", "Name", "Handle", "Status", "Publishing")

    def __init__(self) -> None:
        super().__init__()
        self._accounts: list[SocialAccountSummary] = []

    def set_accounts(self, accounts: list[SocialAccountSummary]) -> None:
        self.beginResetModel()
        self._accounts = list(accounts)
        self.endResetModel()

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._accounts)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.HEADERS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = 0) -> Any:
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return self.HEADERS[section]
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        account = self._accounts[index.row()]
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return self._display(account, column)
        if role == Qt.ItemDataRole.DecorationRole and column == 0:
            from ui.icons import network_icon

            return network_icon(account.platform)
        if role == Qt.ItemDataRole.ForegroundRole and column == 3:
            status = known(AccountStatus, account.status)
            return QColor("#1e7a3c" if status is AccountStatus.CONNECTED else "#b42318")
        return None

    @staticmethod
    def _display(account: SocialAccountSummary, column: int) -> str:
        if column == 0:
            from ui.icons import network_name

            return network_name(account.platform)
        if column == 1:
            return account.display_name or ""
        if column == 2:
            return f"@{account.username}" if account.username else ""
        if column == 3:
            status = known(AccountStatus, account.status)
            return _STATUS_TEXT[status] if status else f"unknown ({account.status})"
        return "Active" if account.is_active else "Paused (inactive)"


class AccountsPanel(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.summary = QLabel("Loading accounts…")
        self.summary.setObjectName("panelTitle")
        self.model = AccountsModel()
        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.verticalHeader().hide()
        self.table.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
        self.table.setAlternatingRowColors(True)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setStretchLastSection(True)
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addWidget(self.table, 1)

    def show_data(self, accounts: list[SocialAccountSummary], post_count: int) -> None:
        self.model.set_accounts(accounts)
        connected = sum(known(AccountStatus, a.status) is AccountStatus.CONNECTED for a in accounts)
        self.summary.setText(
            f"{len(accounts)} accounts ({connected} connected) · "
            f"{post_count} posts in this workspace"
        )
