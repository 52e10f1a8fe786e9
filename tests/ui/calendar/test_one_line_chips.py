"""One-line month chips: only where a cell is too low for a two-line chip (a window near its
minimum height); they keep the network icon and the compact time, then the text. (Busy days
used to get them at every size; since issue 16 every day has two-line chips where they fit,
see test_month_chip_text.py.)"""

from __future__ import annotations

from datetime import date, time

from PySide6.QtGui import QFontMetricsF

from app.calendar.grid import local_instant
from tests.ui.calendar.conftest import BERLIN, PageFactory
from tests.ui.calendar.factories import make_post
from ui.calendar.month_chip import ONE_LINE, TWO_LINES, chip_text, month_chip_layout
from ui.calendar.style import small_font

DAY = date(2025, 10, 22)


def test_a_low_cell_gets_one_line_chips_with_icon_and_time(make_page: PageFactory) -> None:
    texts = ["Café del Mar tonight", "We're hiring baristas", "Pumpkin spice is back"]
    posts = [
        make_post(when=local_instant(DAY, time(9 + n, 30), BERLIN), content=text)
        for n, text in enumerate(texts)
    ]
    page = make_page(posts)
    page.resize(1180, 800)  # the calendar page in a 1360×860 window: two lines
    view = page.month_view
    assert view.chip_rect(posts[0].id).height() == TWO_LINES
    page.resize(1180, 500)  # too low for a two-line chip
    rect = view.chip_rect(posts[0].id)
    assert rect.height() == ONE_LINE
    assert view.chip_height() == ONE_LINE
    assert view.cell_rect(DAY).contains(rect)
    entry = page.entry(posts[0].id)
    assert entry is not None
    assert entry.time_text in ("9:30", "9:30a")
    font = small_font(view.font())
    layout = month_chip_layout(rect.width(), rect.height(), entry.time_text, chip_text(entry), font)
    assert layout.icon is not None
    assert layout.time is not None
    assert layout.second == ""
    assert layout.first_rect.width() >= 8 * QFontMetricsF(font).averageCharWidth()
