"""One-line month chips (busy days): icon and compact time kept, and more of the text than
before (the time "09:30" bold then 5 px, the 14 px icon then 5 px: text from 67 px)."""

from __future__ import annotations

from datetime import date, time

from PySide6.QtGui import QFontMetricsF

from app.calendar.grid import local_instant
from tests.ui.calendar.conftest import BERLIN, PageFactory
from tests.ui.calendar.factories import make_post
from ui.calendar.style import one_line_head, small_font

DAY = date(2025, 10, 22)


def test_a_busy_day_s_chip_keeps_icon_and_time_and_shows_more_text(
    make_page: PageFactory,
) -> None:
    texts = ["Café del Mar tonight", "We're hiring baristas", "Pumpkin spice is back"]
    posts = [
        make_post(when=local_instant(DAY, time(9 + n, 30), BERLIN), content=text)
        for n, text in enumerate(texts)
    ]
    page = make_page(posts)
    page.resize(1180, 800)  # the calendar page in a 1360×860 window
    view = page.month_view
    rect = view.chip_rect(posts[0].id)
    assert rect.height() < 2 * 17  # one line: the day is busy
    entry = page.entry(posts[0].id)
    assert entry is not None
    assert entry.time_text in ("9:30", "9:30a")
    font = small_font(view.font())
    head = one_line_head(rect.width() - 1, entry.time_text, font)
    assert head.icon_left is not None
    assert head.time_left is not None
    assert head.text_left < 55
    room = rect.width() - 1 - 4 - head.text_left
    assert room >= 8 * QFontMetricsF(font).averageCharWidth()
