"""Accounts panel: the workspace's social accounts, their status, the active toggle
(`PUT /social-accounts/{id}/toggle`) and why an account is skipped at publish time.

A toggle is not idempotent: it goes through the workspace session's write gate (one in flight
per account, repeats dropped) from a button for which a double-click is one click; the answer
reaches the cache through the session, and the row shows what the cache then holds.
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtWidgets import (
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from app.domain.enums import AccountStatus, known
from ui import theme
from ui.action_spec import ActionSpec
from ui.icons import network_icon, network_name
from ui.panels.base import PanelPage
from ui.widgets.once_button import OncePushButton
from ui.widgets.table_model import HeaderedTableModel
from ui.write_gate import WriteGate, account_of_key

if TYPE_CHECKING:
    import asyncio

    from app.models import SocialAccountSummary
    from ui.session import WorkspaceSession

Index = QModelIndex | QPersistentModelIndex

_STATUS_TEXT = {
    AccountStatus.CONNECTED: "Connected",
    AccountStatus.DISCONNECTED: "Disconnected — reconnect it in the web app",
    AccountStatus.TOKEN_EXPIRED: "Token expired — reconnect it in the web app",
}


def skip_reason(account: SocialAccountSummary) -> str:
    """Why publishing passes this account by; empty when it publishes."""
    status = known(AccountStatus, account.status)
    if status is AccountStatus.DISCONNECTED:
        return "Skipped at publish time: the account is disconnected."
    if status is AccountStatus.TOKEN_EXPIRED:
        return "Skipped at publish time: the network's sign-in expired."
    if status is None and account.status is not None:
        return f"May be skipped: status “{account.status}” is unknown to Postdesk."
    if account.is_active is False:
        return "Turned off: not published to until you turn it on."
    return ""


class AccountsModel(HeaderedTableModel):
    HEADERS = ("Network", "Name", "Handle", "Status", "Publishing", "Why skipped")

    def __init__(self) -> None:
        super().__init__()
        self._accounts: list[SocialAccountSummary] = []
        self.busy: set[str] = set()

    def set_accounts(self, accounts: list[SocialAccountSummary]) -> None:
        self.beginResetModel()
        self._accounts = list(accounts)
        self.endResetModel()

    @property
    def accounts(self) -> list[SocialAccountSummary]:
        return list(self._accounts)

    def account_at(self, row: int) -> SocialAccountSummary | None:
        return self._accounts[row] if 0 <= row < len(self._accounts) else None

    def replace(self, account: SocialAccountSummary) -> None:
        for row, current in enumerate(self._accounts):
            if current.id == account.id:
                self._accounts[row] = account
                self.refresh_row(account.id)

    def refresh_row(self, account_id: str) -> None:
        for row, current in enumerate(self._accounts):
            if current.id == account_id:
                self.dataChanged.emit(self.index(row, 0), self.index(row, len(self.HEADERS) - 1))

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._accounts)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        account = self._accounts[index.row()]
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole or (
            role == Qt.ItemDataRole.ToolTipRole and column == 5
        ):
            return self._display(account, column)
        if role == Qt.ItemDataRole.DecorationRole and column == 0:
            return network_icon(account.platform)
        if role == Qt.ItemDataRole.ForegroundRole and column in (3, 5):
            status = known(AccountStatus, account.status)
            if column == 5:
                return theme.readable("#92400e")
            return theme.readable("#1e7a3c" if status is AccountStatus.CONNECTED else "#b42318")
        return None

    def _display(self, account: SocialAccountSummary, column: int) -> str:
        if column == 0:
            return network_name(account.platform)
        if column == 1:
            return account.display_name or ""
        if column == 2:
            return f"@{account.username}" if account.username else ""
        if column == 3:
            status = known(AccountStatus, account.status)
            return _STATUS_TEXT[status] if status else f"unknown ({account.status})"
        if column == 4:
            if account.id in self.busy:
                return "Switching…"
            if account.is_active is None:
                return "unknown"
            return "On" if account.is_active else "Off (inactive)"
        return skip_reason(account)


class AccountsPanel(PanelPage):
    TITLE = "Accounts"

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.summary = QLabel("Loading accounts…")
        self.summary.setObjectName("panelTitle")
        self.toggle_button = OncePushButton("Turn publishing off")
        self.toggle_button.clicked.connect(self.toggle_selected)
        self.refresh_button = QPushButton("Refresh")
        self.refresh_button.clicked.connect(self.reload)
        top = QHBoxLayout()
        top.addWidget(self.summary, 1)
        top.addWidget(self.toggle_button)
        top.addWidget(self.refresh_button)
        self.model = AccountsModel()
        self.table = QTableView()
        self.table.setAccessibleName("Social accounts")
        self.table.setModel(self.model)
        self.table.verticalHeader().hide()
        self.table.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QTableView.SelectionMode.SingleSelection)
        self.table.setAlternatingRowColors(True)
        self.table.setWordWrap(False)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.selectionModel().selectionChanged.connect(self._update_toggle)
        self.model.modelReset.connect(self._update_toggle)
        self.model.dataChanged.connect(self._update_toggle)
        note = QLabel(
            "Disconnected and expired accounts are skipped when posts publish; reconnect them in "
            "the web app. Turning an account off keeps it connected but out of publishing."
        )
        note.setWordWrap(True)
        note.setProperty("tone", "muted")  # coloured by the theme (style.qss)
        layout = QVBoxLayout(self.content)
        layout.addLayout(top)
        layout.addWidget(self.table, 1)
        layout.addWidget(note)
        self._post_count: int | None = None
        self._writes: WriteGate | None = None
        self._update_toggle()

    def action_specs(self) -> list[ActionSpec]:
        return [
            ActionSpec(
                "accounts.toggle",
                "Turn the selected account on or off",
                self.toggle_selected,
                scope="accounts",
                enabled=lambda: self.selected() is not None,
            )
        ]

    def session_changed(self) -> None:
        if self._writes is not None:
            with contextlib.suppress(RuntimeError, TypeError):
                self._writes.busyChanged.disconnect(self._on_session_busy)
        self._writes = self.session.writes if self.session is not None else None
        self.model.busy.clear()
        if self._writes is not None:
            self._writes.busyChanged.connect(self._on_session_busy)

    def _on_session_busy(self, key: str, busy: bool) -> None:
        account_id = account_of_key(key)
        if account_id is not None:
            self._on_busy(account_id, busy)

    # -- from the cache (what the app shows before the network answers) ---
    def show_data(self, accounts: list[SocialAccountSummary], post_count: int) -> None:
        self._post_count = post_count
        self._show(accounts)

    def _show(self, accounts: list[SocialAccountSummary]) -> None:
        self.model.set_accounts(accounts)
        self._summarize()

    def _summarize(self) -> None:
        accounts = self.model.accounts
        connected = sum(known(AccountStatus, a.status) is AccountStatus.CONNECTED for a in accounts)
        skipped = sum(bool(skip_reason(a)) for a in accounts)
        text = (
            f"{len(accounts)} accounts ({connected} connected, {skipped} skipped when publishing)"
        )
        if self._post_count is not None:
            text += f" · {self._post_count} posts in this workspace"
        self.summary.setText(text)

    # -- live ---
    def reload(self) -> None:
        if self.session is not None:
            self.spawn(self._load())

    async def _load(self) -> None:
        session = self.session
        assert session is not None
        accounts = await session.client.accounts.list()
        self._post_count = session.post_count()
        self._show(accounts)

    def selected(self) -> SocialAccountSummary | None:
        rows = self.table.selectionModel().selectedRows()
        return self.model.account_at(rows[0].row()) if rows else None

    def _update_toggle(self, *_: object) -> None:
        account = self.selected()
        busy = account is not None and account.id in self.model.busy
        self.toggle_button.setEnabled(account is not None and self.session is not None and not busy)
        on = account is None or account.is_active is not False
        self.toggle_button.setText("Turn publishing off" if on else "Turn publishing on")

    def _on_busy(self, key: str, busy: bool) -> None:
        (self.model.busy.add if busy else self.model.busy.discard)(key)
        self.model.refresh_row(key)
        self._update_toggle()

    def toggle_selected(self) -> None:
        account, session = self.selected(), self.session
        if account is None or session is None:
            return
        account_id = account.id
        toggling = session.toggle_account(account_id)
        if toggling is not None:
            toggling.add_done_callback(lambda task: self._toggled(session, account_id, task))

    def _toggled(
        self, session: WorkspaceSession, account_id: str, task: asyncio.Task[object]
    ) -> None:
        if session is not self.session or task.cancelled() or task.exception() is not None:
            return
        accounts = session.cache.accounts()
        fresh = next((account for account in accounts if account.id == account_id), None)
        if fresh is None:
            self._show(accounts)
        else:  # that row only: the selection stays
            self.model.replace(fresh)
            self._summarize()
