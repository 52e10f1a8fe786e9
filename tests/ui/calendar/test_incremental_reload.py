"""A reload after one post changed: only that post's entry is rebuilt, only its days repaint,
and the calendar still shows the right thing."""

from __future__ import annotations

from datetime import date

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QFontMetrics, QPaintEvent, QRegion
from PySide6.QtWidgets import QApplication, QWidget
from pytestqt.qtbot import QtBot

from app.calendar.post_card import card_of
from app.models import Post
from tests.ui.calendar.conftest import PageFactory
from tests.ui.calendar.factories import make_post, utc
from ui.calendar import CalendarPage, InMemoryCalendarSource
from ui.calendar.entries import Entry
from ui.calendar.filters import PostFilter
from ui.calendar.month_view import MonthView
from ui.calendar.style import _TEXT_MEMO


class PaintSpy(QObject):
    """The region of every paint `widget` receives."""

    def __init__(self, widget: QWidget) -> None:
        super().__init__(widget)
        self.region = QRegion()
        self.paints = 0
        widget.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint and isinstance(event, QPaintEvent):
            self.region = self.region.united(event.region())
            self.paints += 1
        return False

    def reset(self) -> None:
        self.region = QRegion()
        self.paints = 0


def settle(page: CalendarPage) -> None:
    """Let every posted paint happen."""
    for _ in range(3):
        QApplication.processEvents()
    page.month_view.repaint()  # nothing pending any more
    QApplication.processEvents()


def month_of_posts() -> list[Post]:
    return [
        make_post(when=utc(2025, 10, day, 9), post_id=f"0000{day:04d}-7c1e-4b7a-9f3e-2d1c5b8a0000")
        for day in range(6, 25)
    ]


def moved(post: Post, day: int) -> Post:
    return post.model_copy(update={"scheduled_at": utc(2025, 10, day, 15)})


def page_with(make_page: PageFactory, posts: list[Post]) -> tuple[CalendarPage, PaintSpy]:
    source = InMemoryCalendarSource(posts)
    page = make_page(source=source)
    settle(page)
    return page, PaintSpy(page.month_view)


def cells(view: MonthView, *days: int) -> QRegion:
    region = QRegion()
    for day in days:
        region = region.united(QRegion(view.cell_rect(date(2025, 10, day))))
    return region


def test_a_reload_after_one_change_rebuilds_only_that_post(make_page: PageFactory) -> None:
    posts = month_of_posts()
    page, _spy = page_with(make_page, posts)
    before = {post.id: page.entry(post.id) for post in posts}
    source = page.source
    assert isinstance(source, InMemoryCalendarSource)
    source.set_posts([*posts[1:], moved(posts[0], 28)])
    page.reload()
    assert page.entry(posts[0].id) is not before[posts[0].id]
    assert all(page.entry(post.id) is before[post.id] for post in posts[1:])
    view = page.month_view
    assert view.visible_post_ids(date(2025, 10, 6)) == []
    assert view.visible_post_ids(date(2025, 10, 28)) == [posts[0].id]
    assert view.entries_on(date(2025, 10, 28))[0].time_text == "16:00"  # Berlin, summer time


def test_a_reload_that_changed_nothing_paints_nothing(make_page: PageFactory) -> None:
    page, spy = page_with(make_page, month_of_posts())
    spy.reset()
    page.reload()
    for _ in range(3):
        QApplication.processEvents()
    assert spy.paints == 0


def test_the_repaint_after_a_move_covers_just_the_two_days(
    make_page: PageFactory, qtbot: QtBot
) -> None:
    posts = month_of_posts()
    page, spy = page_with(make_page, posts)
    spy.reset()
    source = page.source
    assert isinstance(source, InMemoryCalendarSource)
    source.set_posts([*posts[1:], moved(posts[0], 28)])
    page.reload()
    qtbot.waitUntil(lambda: spy.paints >= 1)
    view = page.month_view
    assert spy.region.subtracted(cells(view, 6, 28)).isEmpty()
    untouched = view.cell_rect(date(2025, 10, 15))
    assert not spy.region.intersects(untouched)


def test_busy_and_selection_repaint_only_their_chip(make_page: PageFactory, qtbot: QtBot) -> None:
    posts = month_of_posts()
    page, spy = page_with(make_page, posts)
    spy.reset()
    view = page.month_view
    page.set_busy(posts[3].id, True)
    qtbot.waitUntil(lambda: spy.paints >= 1)
    chip = view.chip_rect(posts[3].id)
    assert spy.region.subtracted(QRegion(chip.adjusted(-2, -2, 2, 2))).isEmpty()
    assert view.is_busy(posts[3].id)
    spy.reset()
    page.select_post(posts[5].id)
    qtbot.waitUntil(lambda: spy.paints >= 1)
    assert spy.region.intersects(view.chip_rect(posts[5].id))
    assert not spy.region.intersects(view.cell_rect(date(2025, 10, 20)))


def test_the_tray_is_not_refilled_when_its_drafts_did_not_change(
    make_page: PageFactory,
) -> None:
    drafts = [make_post(when=None, status="draft") for _ in range(3)]
    posts = [*month_of_posts(), *drafts]
    page, _spy = page_with(make_page, posts)
    resets: list[bool] = []
    model = page.tray_list.model()
    model.modelReset.connect(lambda: resets.append(True))
    page.reload()
    assert resets == []
    source = page.source
    assert isinstance(source, InMemoryCalendarSource)
    source.set_posts([*month_of_posts(), *drafts[1:]])  # one draft deleted
    page.reload()
    assert resets == [True]
    assert page.tray_list.model().rowCount() == 2
    assert page.action_tray.text() == "Unscheduled · 2"


def test_the_neighbouring_months_are_read_while_the_page_idles(
    make_page: PageFactory, qtbot: QtBot
) -> None:
    november = make_post(when=utc(2025, 11, 12, 9))
    source = InMemoryCalendarSource([*month_of_posts(), november])
    page = make_page(source=source)
    assert page.loader.entry_cache.known(november.id) is None
    qtbot.waitUntil(lambda: page.loader.entry_cache.known(november.id) is not None)
    read_ahead = page.loader.entry_cache.known(november.id)
    page.go_next()
    assert page.entry(november.id) is read_ahead
    assert page.month_view.visible_post_ids(date(2025, 11, 12)) == [november.id]


def test_chip_text_is_elided_as_qt_would_and_remembered(make_page: PageFactory) -> None:
    long_text = "An announcement far too long to fit on a chip of a month cell " * 3
    page, _spy = page_with(make_page, [make_post(when=utc(2025, 10, 8, 9), content=long_text)])
    font = page.month_view.font()
    expected = QFontMetrics(font).elidedText(long_text, Qt.TextElideMode.ElideRight, 120)
    first = _TEXT_MEMO.elided(long_text, font, font.key(), 120)
    assert first == expected
    assert _TEXT_MEMO.elided(long_text, font, font.key(), 120) is first
    wider = _TEXT_MEMO.elided(long_text, font, font.key(), 400)
    assert wider == QFontMetrics(font).elidedText(long_text, Qt.TextElideMode.ElideRight, 400)
    assert len(wider) > len(first)


def source_of(page: CalendarPage) -> InMemoryCalendarSource:
    source = page.source
    assert isinstance(source, InMemoryCalendarSource)
    return source


def test_a_write_answer_moves_its_chip_without_reading_the_source(
    make_page: PageFactory, qtbot: QtBot
) -> None:
    posts = month_of_posts()
    page, spy = page_with(make_page, posts)
    source = source_of(page)
    before = {post.id: page.entry(post.id) for post in posts}
    reads = len(source.queries)
    spy.reset()
    answer = moved(posts[0], 28)
    page.show_posts([answer])
    assert len(source.queries) == reads
    view = page.month_view
    assert view.visible_post_ids(date(2025, 10, 6)) == []
    assert view.visible_post_ids(date(2025, 10, 28)) == [answer.id]
    assert all(page.entry(post.id) is before[post.id] for post in posts[1:])
    qtbot.waitUntil(lambda: spy.paints >= 1)
    assert spy.region.subtracted(cells(view, 6, 28)).isEmpty()
    # Once stored, a reload shows the very same.
    source.set_posts([*posts[1:], answer])
    page.reload()
    assert view.visible_post_ids(date(2025, 10, 28)) == [answer.id]
    assert view.visible_post_ids(date(2025, 10, 6)) == []


def test_a_post_moved_out_of_the_month_or_deleted_leaves_it(make_page: PageFactory) -> None:
    posts = month_of_posts()
    page, _spy = page_with(make_page, posts)
    later = posts[1].model_copy(update={"scheduled_at": utc(2025, 12, 3, 9)})
    page.show_posts([later])
    assert page.entry(posts[1].id) is None
    assert page.month_view.visible_post_ids(date(2025, 10, 7)) == []
    page.select_post(posts[2].id)
    page.forget_posts([posts[2].id])
    assert page.entry(posts[2].id) is None
    assert page.selected_post_id() is None
    assert len(page.loader.visible) == len(posts) - 2


def test_a_post_moved_to_draft_goes_to_the_tray_in_the_sources_order(
    make_page: PageFactory,
) -> None:
    posts = month_of_posts()
    page, _spy = page_with(make_page, posts)
    draft = posts[0].model_copy(update={"scheduled_at": None, "status": "draft"})
    source_of(page).set_posts([*posts[1:], draft])  # stored first, as the session does
    page.show_posts([draft])
    assert page.tray_list.model().post_ids() == [draft.id]
    assert page.month_view.visible_post_ids(date(2025, 10, 6)) == []
    assert page.action_tray.text() == "Unscheduled · 1"


def test_a_write_answer_that_the_filter_hides_is_not_shown(make_page: PageFactory) -> None:
    posts = month_of_posts()
    page, _spy = page_with(make_page, posts)
    page.state.filter = PostFilter(status="scheduled")
    failed = posts[0].model_copy(update={"status": "failed"})
    page.show_posts([failed])
    assert page.entry(posts[0].id) is None
    assert page.month_view.visible_post_ids(date(2025, 10, 6)) == []


def test_a_selected_post_stays_selected_when_its_answer_moves_it(
    make_page: PageFactory,
) -> None:
    posts = month_of_posts()
    page, _spy = page_with(make_page, posts)
    page.select_post(posts[4].id)
    answer = moved(posts[4], 29)
    page.show_posts([answer])
    assert page.selected_post_id() == answer.id
    assert page.entry(answer.id) is not None
    assert page.entry(answer.id).day == date(2025, 10, 29)  # type: ignore[union-attr]
    assert page.month_view.visible_post_ids(date(2025, 10, 29)) == [answer.id]


def test_the_week_view_shows_a_write_answer_too(make_page: PageFactory) -> None:
    posts = month_of_posts()
    page, _spy = page_with(make_page, posts)
    page.set_view("week")  # the week of 21 October
    answer = moved(posts[14], 22)  # from the 20th to Wednesday the 22nd
    page.show_posts([answer])
    assert [entry.id for entry in page.week_view.entries_on(date(2025, 10, 22))].count(
        answer.id
    ) == 1
    assert answer.id not in [entry.id for entry in page.week_view.entries_on(date(2025, 10, 20))]


def test_a_chip_is_painted_again_only_when_its_post_changed(make_page: PageFactory) -> None:
    from PySide6.QtCore import QRect
    from PySide6.QtGui import QImage, QPainter

    from ui.calendar.chip_pixmaps import ChipPixmaps
    from ui.calendar.entries import build_entry

    page, _spy = page_with(make_page, [])
    post = make_post(when=utc(2025, 10, 8, 9), content="First text")
    entry = build_entry(card_of(post), page.display_tz)
    chips = ChipPixmaps()
    font = page.month_view.font()
    image = QImage(200, 30, QImage.Format.Format_ARGB32)

    def paint(shown: Entry) -> QImage:
        image.fill(0)
        painter = QPainter(image)
        chips.paint(painter, QRect(0, 0, 180, 21), shown, page.palette(), font, font.key())
        painter.end()
        return image.copy()

    first = paint(entry)
    assert paint(entry) == first
    assert len(chips) == 1
    changed = build_entry(
        card_of(post.model_copy(update={"content": "Another text entirely"})), page.display_tz
    )
    assert paint(changed) != first
    assert len(chips) == 1  # the old picture of that chip was replaced
