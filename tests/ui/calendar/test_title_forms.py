"""The period title always has a form that fits a narrow toolbar (an agenda's four weeks in
long names were cut at 1024 px with the details open)."""

from __future__ import annotations

from datetime import date, timedelta

from PySide6.QtWidgets import QApplication

from app.calendar.grid import ViewKind
from ui.calendar.toolbar import TitleLabel, period_titles


def test_a_four_week_range_ends_on_a_short_form_that_fits_200_px(qapp: QApplication) -> None:
    first = date(2025, 10, 21)
    days = [first + timedelta(days=n) for n in range(28)]
    forms = period_titles(ViewKind.AGENDA, days, first)
    assert forms[0].endswith("2025")
    title = TitleLabel()
    font = title.font()
    font.setPixelSize(20)
    font.setWeight(font.Weight.DemiBold)
    title.setFont(font)
    title.set_forms(forms)
    title.show()
    QApplication.processEvents()  # polished: the font it draws with is the one measured
    metrics = title.fontMetrics()
    widths = [metrics.horizontalAdvance(form) for form in forms]
    assert widths == sorted(widths, reverse=True), "longest form first"
    assert widths[-1] <= 200, forms[-1]
    title.resize(widths[-1] + 20, 40)
    QApplication.processEvents()
    assert title.text() in forms
    assert metrics.horizontalAdvance(title.text()) <= title.width()
    title.close()
