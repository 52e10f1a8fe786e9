"""Navigation bar of the calendar: Today, previous/next, the period title, jump to a date and the
view switch. Buttons mirror the page's QActions. Nothing in the bar may shrink below its text:
the title picks the longest of its forms that fits, so at 1024 px the buttons never read "…"."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from PySide6.QtCore import QDate, QEvent, QLocale, QPointF, Qt, Signal
from PySide6.QtGui import QAction, QKeyEvent, QMouseEvent, QResizeEvent
from PySide6.QtWidgets import (
    QApplication,
    QDateEdit,
    QHBoxLayout,
    QLabel,
    QSizePolicy,
    QToolButton,
    QWidget,
)

from app.calendar.grid import ViewKind
from ui.calendar.commands import keys_text
from ui.locale_text import month_year
from ui.locale_text import text_in_format as text
from ui.widgets.calendar_names import name_calendar_parts


def period_titles(view: ViewKind, days: list[date], anchor: date) -> list[str]:
    """The period's title, longest form first (the toolbar shows the longest that fits)."""
    if view is ViewKind.MONTH:
        return [month_year(anchor), month_year(anchor, short=True)]
    first, last = days[0], days[-1]
    if first.year != last.year:
        return [
            f"{text(first, 'd MMMM yyyy')} – {text(last, 'd MMMM yyyy')}",
            f"{text(first, 'd MMM yyyy')} – {text(last, 'd MMM yyyy')}",
            f"{text(first, 'd.M.yy')} – {text(last, 'd.M.yy')}",  # the last resort: numbers
        ]
    # The last resort of a range within a year leaves the year out (the date button beside
    # the title shows it): an agenda's four weeks did not fit a 1024 px window otherwise.
    yearless = f"{text(first, 'd MMM')} – {text(last, 'd MMM')}"
    if first.month != last.month:
        return [
            f"{text(first, 'd MMMM')} – {text(last, 'd MMMM yyyy')}",
            f"{text(first, 'd MMM')} – {text(last, 'd MMM yyyy')}",
            yearless,
        ]
    return [
        f"{first.day} – {text(last, 'd MMMM yyyy')}",
        f"{first.day}–{text(last, 'd MMM yyyy')}",
        yearless,
    ]


def action_button(
    action: QAction, object_name: str, *, text: str | None = None, parent: QWidget | None = None
) -> QToolButton:
    button = QToolButton(parent)
    if text is not None:
        # A tool button retakes its action's icon text whenever the action changes (e.g. its
        # shortcuts), so the short label lives there; menus keep showing the full text.
        action.setIconText(text)
    button.setDefaultAction(action)
    button.setObjectName(object_name)
    button.setAutoRaise(False)
    # Fixed: squeezed, a tool button elides its text to "…"; the title gives way instead.
    button.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
    return button


class TitleLabel(QLabel):
    """The period title: shows the longest of its forms that fits, never a cut one."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._forms: tuple[str, ...] = ("",)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.setMinimumWidth(120)

    def set_forms(self, forms: Sequence[str]) -> None:
        self._forms = tuple(forms) or ("",)
        self._fit()

    def forms(self) -> tuple[str, ...]:
        return self._forms

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit()

    def _fit(self) -> None:
        metrics = self.fontMetrics()
        room = self.contentsRect().width() - 2 * self.margin() - 6
        for form in self._forms:
            if metrics.horizontalAdvance(form) <= room:
                break
        self.setText(form)
        self.setToolTip(self._forms[0] if form != self._forms[0] else "")


PICKER_ROW_EXTRA = 4
"""Pixels added to each row of the Ctrl+G date picker (its last row touched the frame)."""


class JumpDateEdit(QDateEdit):
    """A date edit whose calendar popup is built when first opened (by mouse or keyboard),
    not with the page: the first paint does not need it."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setCalendarPopup(True)
        self._popup_ready = False

    def _prepare_popup(self) -> None:
        if not self._popup_ready:
            self._popup_ready = True
            calendar = self.calendarWidget()  # built here, on first call
            calendar.setFirstDayOfWeek(QLocale().firstDayOfWeek())
            calendar.setGridVisible(False)
            calendar.setAccessibleName("Choose a date (Enter jumps to it)")
            name_calendar_parts(calendar)
            # Qt sizes the popup so the six week rows plus the header just fit (rows of the
            # font's height + 4 px; the last one touched the frame): room for 4 px more each.
            hint = calendar.sizeHint()
            calendar.setMinimumSize(hint.width() + 24, hint.height() + 7 * PICKER_ROW_EXTRA)

    def open_calendar(self) -> None:
        """Open the calendar popup from the keyboard. A date edit opens it only for a press on
        its arrow (neither F4 nor Alt+Down does), so that press is what it gets."""
        # Here, not at import: `QStyle` builds ~1,000 enum members on first use (~5 ms at start).
        from PySide6.QtWidgets import QStyle, QStyleOptionComboBox

        option = QStyleOptionComboBox()
        option.initFrom(self)
        option.editable = True
        option.subControls = QStyle.SubControl.SC_All
        arrow = self.style().subControlRect(
            QStyle.ComplexControl.CC_ComboBox, option, QStyle.SubControl.SC_ComboBoxArrow, self
        )
        at = QPointF(arrow.center())
        press = QMouseEvent(
            QEvent.Type.MouseButtonPress,
            at,
            self.mapToGlobal(at),
            Qt.MouseButton.LeftButton,
            Qt.MouseButton.LeftButton,
            Qt.KeyboardModifier.NoModifier,
        )
        QApplication.sendEvent(self, press)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        self._prepare_popup()
        super().mousePressEvent(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        self._prepare_popup()
        super().keyPressEvent(event)


class CalendarToolbar(QWidget):
    dateChosen = Signal(object)  # date picked in the jump-to-date editor

    def __init__(
        self,
        *,
        today: QAction,
        previous: QAction,
        following: QAction,
        views: list[QAction],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("calendarToolbar")
        self.today_button = action_button(today, "todayButton")
        self.previous_button = action_button(previous, "navButton", text="‹")
        self.next_button = action_button(following, "navButton", text="›")
        self.previous_button.setAccessibleName("Previous period")
        self.next_button.setAccessibleName("Next period")
        self.title = TitleLabel()
        self.title.setObjectName("periodTitle")
        self.jump_edit = JumpDateEdit()
        self.jump_edit.setObjectName("jumpToDate")
        self.jump_edit.setDisplayFormat("d MMM yyyy")
        self.jump_edit.setToolTip("Jump to date" + keys_text("jump"))
        self.jump_edit.setAccessibleName("Jump to date")
        self.jump_edit.dateChanged.connect(self._date_changed)
        self.view_buttons: list[QToolButton] = []
        switch = QWidget()
        switch.setObjectName("viewSwitch")
        switch_layout = QHBoxLayout(switch)
        switch_layout.setContentsMargins(0, 0, 0, 0)
        switch_layout.setSpacing(0)
        for position, action in enumerate(views):
            button = action_button(action, "segment")
            button.setProperty(
                "position",
                "first" if position == 0 else "last" if position == len(views) - 1 else "middle",
            )
            switch_layout.addWidget(button)
            self.view_buttons.append(button)

        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(6)
        layout.addWidget(self.today_button)
        layout.addWidget(self.previous_button)
        layout.addWidget(self.next_button)
        layout.addSpacing(8)
        layout.addWidget(self.title, 1)
        layout.addWidget(self.jump_edit)
        layout.addSpacing(8)
        layout.addWidget(switch)

    def set_title(self, forms: Sequence[str]) -> None:
        """The title in forms from longest to shortest; the longest that fits is shown."""
        self.title.set_forms(forms)

    def set_jump_date(self, day: date) -> None:
        self.jump_edit.blockSignals(True)
        self.jump_edit.setDate(QDate(day.year, day.month, day.day))
        self.jump_edit.blockSignals(False)

    def open_date_picker(self) -> None:
        self.jump_edit.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.jump_edit.open_calendar()

    def _date_changed(self, value: QDate) -> None:
        self.dateChosen.emit(date(value.year(), value.month(), value.day()))
