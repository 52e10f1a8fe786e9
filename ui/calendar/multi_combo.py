"""A filter list that takes several values: choosing an item (the ordinary way, or
`setCurrentIndex`) picks that one alone; ticking items in the open list (a click on the item,
or Space on the current one) picks several, and the list stays open meanwhile. The closed box
says what is picked ("Scheduled, Failed" or "Scheduled + 2")."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QModelIndex, QObject, Qt, Signal
from PySide6.QtGui import QKeyEvent, QMouseEvent, QPaintEvent, QStandardItemModel
from PySide6.QtWidgets import QComboBox, QStyledItemDelegate, QWidget


class MultiFilterCombo(QComboBox):
    pickedChanged = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._picked: list[str] = []
        self._pressed_in_list = False  # the release of the click that opened it is not a tick
        # A list item's delegate draws the tick boxes (the combo's menu-like one does not).
        self.setItemDelegate(QStyledItemDelegate(self))
        # The open list's filters are installed when it first opens: touching the view here
        # builds Qt classes the first frame must not pay for (tests/test_startup_imports.py).
        self._list_watched = False
        self.currentIndexChanged.connect(self._chosen)

    # -- what is picked --------------------------------------------------------------------
    def picked(self) -> frozenset[str]:
        return frozenset(self._picked)

    def set_picked(self, values: frozenset[str] | set[str]) -> None:
        """Without a signal (the filter bar sends one for the whole filter)."""
        present = {self.itemData(i) for i in range(self.count())}
        self._picked = [v for v in self._order() if v in values and v in present]
        self.blockSignals(True)
        first = self.findData(self._picked[0]) if len(self._picked) == 1 else 0
        self.setCurrentIndex(max(first, 0))
        self.blockSignals(False)
        self._show_checks()

    def summary(self, room: int | None = None) -> str:
        """What is picked, in `room` pixels when given ("A, B" else "A + 1")."""
        names = [self.itemText(self.findData(value)) for value in self._picked]
        if not names:
            return self.itemText(0)
        both = ", ".join(names)
        fits = room is None or self.fontMetrics().horizontalAdvance(both) <= room
        if len(names) <= 2 and fits:
            return both
        return f"{names[0]} + {len(names) - 1}"

    def _order(self) -> list[str]:
        return [v for i in range(self.count()) if isinstance(v := self.itemData(i), str)]

    def _chosen(self, index: int) -> None:
        value = self.itemData(index)
        self._picked = [value] if isinstance(value, str) else []
        self._show_checks()
        self.pickedChanged.emit()

    def _toggle(self, index: QModelIndex) -> None:
        value = index.data(Qt.ItemDataRole.UserRole)
        if not isinstance(value, str):  # "All …": nothing picked, and the list closes
            self._picked = []
            self.hidePopup()
        elif value in self._picked:
            self._picked.remove(value)
        else:
            self._picked = [v for v in self._order() if v in {*self._picked, value}]
        self.blockSignals(True)
        self.setCurrentIndex(self.findData(self._picked[0]) if len(self._picked) == 1 else 0)
        self.blockSignals(False)
        self._show_checks()
        self.pickedChanged.emit()

    def _show_checks(self) -> None:
        model = self.model()
        if not isinstance(model, QStandardItemModel):
            return
        for row in range(model.rowCount()):
            item = model.item(row)
            if item is None or not isinstance(item.data(Qt.ItemDataRole.UserRole), str):
                continue
            picked = item.data(Qt.ItemDataRole.UserRole) in self._picked
            item.setData(
                Qt.CheckState.Checked if picked else Qt.CheckState.Unchecked,
                Qt.ItemDataRole.CheckStateRole,
            )
        self.setToolTip(self.summary())
        self.setAccessibleDescription(self.summary())
        self.update()

    def showPopup(self) -> None:
        if not self._list_watched:
            self._list_watched = True
            self.view().viewport().installEventFilter(self)
            self.view().installEventFilter(self)
        self._show_checks()
        view = self.view()  # the open list as wide as its items (the closed box keeps its own)
        view.setMinimumWidth(view.sizeHintForColumn(0) + 24)
        self._pressed_in_list = False
        super().showPopup()

    # -- ticking in the open list ----------------------------------------------------------
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        # The event's type first, and only a user's press, release or key touches the combo:
        # while the combo is being destroyed its list still gets events (hide, child removed),
        # and asking the half-destroyed combo for its view then crashes the process.
        kind = event.type()
        if kind not in _LIST_INPUT:
            return False
        view = self.view()
        if kind == QEvent.Type.MouseButtonPress and watched is view.viewport():
            self._pressed_in_list = True
        elif kind == QEvent.Type.MouseButtonRelease and watched is view.viewport():
            assert isinstance(event, QMouseEvent)
            index = view.indexAt(event.position().toPoint())
            if not self._pressed_in_list:
                return True  # the button went down on the closed box: the list only opened
            if index.isValid():
                self._toggle(index)
                return True
        elif (
            kind == QEvent.Type.KeyPress
            and watched is view
            and isinstance(event, QKeyEvent)
            and event.key() == Qt.Key.Key_Space
        ):
            self._toggle(view.currentIndex())
            return True
        return False

    def paintEvent(self, event: QPaintEvent) -> None:
        if len(self._picked) <= 1:
            # The current item says it ("All statuses" or the one picked): Qt's own painting.
            # It is also the first frame's case, which must not build QStyle's enums
            # (tests/test_startup_imports.py).
            super().paintEvent(event)
            return
        from PySide6.QtWidgets import QStyle, QStyleOptionComboBox, QStylePainter

        painter = QStylePainter(self)
        option = QStyleOptionComboBox()
        self.initStyleOption(option)
        option.currentText = self.summary(self.width() - 56)  # less arrow, icon, margins
        option.currentIcon = self.itemIcon(self.findData(self._picked[0]))
        painter.drawComplexControl(QStyle.ComplexControl.CC_ComboBox, option)
        painter.drawControl(QStyle.ControlElement.CE_ComboBoxLabel, option)


_LIST_INPUT = frozenset(
    {QEvent.Type.MouseButtonPress, QEvent.Type.MouseButtonRelease, QEvent.Type.KeyPress}
)
