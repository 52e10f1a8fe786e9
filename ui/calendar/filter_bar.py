"""Filters above the calendar: account or network, label, status."""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import QColor, QIcon, QPainter, QPixmap
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QPushButton, QWidget

from app.calendar.post_card import AccountChoice, CardLabel
from app.domain.enums import PostStatus
from ui.calendar.entries import status_text
from ui.calendar.filters import UNKNOWN_STATUS, PostFilter
from ui.calendar.multi_combo import MultiFilterCombo
from ui.calendar.style import status_colors
from ui.icons import network_icon, network_name


def dot_icon(color: str, size: int = 12) -> QIcon:
    pixmap = QPixmap(QSize(size, size))
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(QColor(color))
    painter.drawEllipse(1, 1, size - 2, size - 2)
    painter.end()
    return QIcon(pixmap)


class FilterCombo(QComboBox):
    """A filter list whose open list is as wide as its items (the closed box keeps its own
    width): measured when it opens, not at every refill (~2 ms for icons and names at start)."""

    def showPopup(self) -> None:
        view = self.view()
        view.setMinimumWidth(view.sizeHintForColumn(0) + 24)
        super().showPopup()


class FilterBar(QWidget):
    filterChanged = Signal(object)  # PostFilter

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("calendarFilters")
        self.account_combo = FilterCombo(self)
        self.account_combo.setObjectName("accountFilter")
        self.account_combo.setAccessibleName("Filter by account or network")
        self.account_combo.setMinimumContentsLength(20)
        self.label_combo = MultiFilterCombo(self)
        self.label_combo.setObjectName("labelFilter")
        self.label_combo.setAccessibleName("Filter by label (Space ticks several)")
        self.label_combo.setMinimumContentsLength(12)
        self.status_combo = MultiFilterCombo(self)
        self.status_combo.setObjectName("statusFilter")
        self.status_combo.setAccessibleName("Filter by status (Space ticks several)")
        self.status_combo.setMinimumContentsLength(14)
        self.clear_button = QPushButton("Clear filters", self)
        self.clear_button.setObjectName("linkButton")
        self.clear_button.setFlat(True)
        self.clear_button.clicked.connect(self.clear)
        self.account_combo.currentIndexChanged.connect(self._changed)
        for multi in (self.label_combo, self.status_combo):
            multi.pickedChanged.connect(self._changed)
        for combo in (self.account_combo, self.label_combo, self.status_combo):
            # Sized by the minimum contents length, not by the longest account name: a long
            # name must not push the page wider than a 1024 px window. The open list is as
            # wide as its items (`FilterCombo`).
            combo.setSizeAdjustPolicy(
                QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
            )
        self._fill_status()
        self.set_choices([], [])
        caption = QLabel("Show", self)
        caption.setObjectName("muted")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(8)
        layout.addWidget(caption)
        layout.addWidget(self.account_combo)
        layout.addWidget(self.label_combo)
        layout.addWidget(self.status_combo)
        layout.addWidget(self.clear_button)
        layout.addStretch(1)
        self._update_clear()

    def _fill_status(self) -> None:
        self.status_combo.blockSignals(True)
        self.status_combo.addItem("All statuses", None)
        for status in PostStatus:
            self.status_combo.addItem(
                dot_icon(status_colors()[status]), status_text(status), status.value
            )
        self.status_combo.addItem(dot_icon(status_colors()[None]), "Unknown status", UNKNOWN_STATUS)
        self.status_combo.blockSignals(False)

    def set_choices(self, accounts: list[AccountChoice], labels: list[CardLabel]) -> None:
        """Refill the lists, keeping what is selected when it still exists."""
        current = self.current_filter()
        for combo in (self.account_combo, self.label_combo):
            combo.blockSignals(True)
            combo.clear()
        self.account_combo.addItem("All accounts", None)
        networks = sorted(
            {account.platform for account in accounts}, key=lambda name: network_name(name).lower()
        )
        for network in networks:
            self.account_combo.addItem(
                network_icon(network), f"All {network_name(network)}", f"network:{network}"
            )
        if accounts:
            self.account_combo.insertSeparator(self.account_combo.count())
        for account in sorted(accounts, key=lambda item: (item.platform, item.label.lower())):
            self.account_combo.addItem(
                network_icon(account.platform), account.label, f"account:{account.id}"
            )
        self.label_combo.addItem("All labels", None)
        for label in labels:
            self.label_combo.addItem(dot_icon(label.color or "#8a8fa3"), label.name, label.id)
        self._select(current)
        for combo in (self.account_combo, self.label_combo):
            combo.blockSignals(False)
        self.account_combo.setToolTip(self.account_combo.currentText())
        if self.current_filter() != current:
            self._changed()

    def current_filter(self) -> PostFilter:
        account_data = self.account_combo.currentData()
        network = account = None
        if isinstance(account_data, str):
            kind, _, value = account_data.partition(":")
            network = value if kind == "network" else None
            account = value if kind == "account" else None
        labels = self.label_combo.picked()
        statuses = self.status_combo.picked()
        # One value keeps the single field (as before); several go in the set.
        return PostFilter(
            account_id=account,
            network=network,
            label_id=next(iter(labels)) if len(labels) == 1 else None,
            status=next(iter(statuses)) if len(statuses) == 1 else None,
            label_ids=labels if len(labels) > 1 else frozenset(),
            statuses=statuses if len(statuses) > 1 else frozenset(),
        )

    def set_filter(self, wanted: PostFilter) -> None:
        for combo in (self.account_combo, self.label_combo, self.status_combo):
            combo.blockSignals(True)
        self._select(wanted)
        for combo in (self.account_combo, self.label_combo, self.status_combo):
            combo.blockSignals(False)
        self._changed()

    def clear(self) -> None:
        self.set_filter(PostFilter())

    def _select(self, wanted: PostFilter) -> None:
        account_key = (
            f"account:{wanted.account_id}"
            if wanted.account_id
            else f"network:{wanted.network}"
            if wanted.network
            else None
        )
        self._set_data(self.account_combo, account_key)
        label = {wanted.label_id} if wanted.label_id is not None else set()
        self.label_combo.set_picked(wanted.label_ids | label)
        status = {wanted.status} if wanted.status is not None else set()
        self.status_combo.set_picked(wanted.statuses | status)

    @staticmethod
    def _set_data(combo: QComboBox, value: str | None) -> None:
        index = combo.findData(value) if value is not None else 0
        combo.setCurrentIndex(max(index, 0))

    def _changed(self) -> None:
        self._update_clear()
        self.account_combo.setToolTip(self.account_combo.currentText())
        self.filterChanged.emit(self.current_filter())

    def _update_clear(self) -> None:
        self.clear_button.setVisible(self.current_filter().active)
