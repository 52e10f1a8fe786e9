"""Light and dark: every page of the running app (against the demo sandbox) grabbed in both
themes, its text read for contrast off the pixels; the month grid's day numbers and chip text
too. A control case: the old fixed light style sheet over a dark palette (the dark-mode bug of
issue 16) is caught by the same reading."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest
from PySide6.QtCore import QRect, QSettings
from PySide6.QtGui import QColor, QImage
from PySide6.QtWidgets import QApplication

from app.sandbox.harness import SandboxServer
from tests.ui.app.conftest import LoopRunner, until
from tests.ui.app.contrast import Reading, read_region, unreadable, unreadable_item_colours
from tests.ui.app.test_app_calendar import api_key, options, started, stopped  # noqa: F401
from ui import theme
from ui.application import Application
from ui.calendar.month_view import MonthView
from ui.sections import SECTIONS
from ui.style import apply_style, choose_theme, stylesheet_template

SHOTS = Path("/tmp/postdesk-theme-shots")


@pytest.fixture
def restored_style(qapp: QApplication) -> Iterator[None]:
    """Leave the application's look as the other tests expect it (no style sheet)."""
    sheet, palette, current = qapp.styleSheet(), qapp.palette(), theme.current()
    yield
    qapp.setStyleSheet(sheet)
    qapp.setPalette(palette)
    theme._current = current


def month_readings(view: MonthView, image: QImage, scale: float) -> list[Reading]:
    """Day numbers (each cell's top left corner) and the text half of every chip shown."""
    readings: list[Reading] = []
    origin = view.mapTo(view.window(), view.rect().topLeft())

    def region(rect: QRect) -> QRect:
        moved = rect.translated(origin)
        return QRect(
            round(moved.x() * scale),
            round(moved.y() * scale),
            round(moved.width() * scale),
            round(moved.height() * scale),
        )

    for day in view.days():
        cell = view.cell_rect(day)
        corner = QRect(cell.left() + 4, cell.top() + 3, 26, 18)
        found = read_region(image, region(corner), f"day number {day}")
        if found is not None:
            readings.append(found)
        for post_id in view.visible_post_ids(day):
            chip = view.chip_rect(post_id)
            text_half = QRect(chip.center().x(), chip.top() + 2, chip.width() // 2 - 4, 13)
            found = read_region(image, region(text_half), f"chip {post_id} on {day}")
            if found is not None:
                readings.append(found)
    return readings


def grab(app: Application, name: str) -> QImage:
    image = app.window.grab().toImage()
    SHOTS.mkdir(exist_ok=True)
    image.save(str(SHOTS / f"{theme.current().name}-{name}.png"))
    return image


def _shown(app: Application, name: str) -> bool:
    page = app.window.built_page(name)
    return page is not None and page.isVisible()


@pytest.mark.parametrize("choice", ["light", "dark"])
def test_every_page_reads_in_both_themes(
    qapp: QApplication,
    runner: LoopRunner,
    demo_sandbox: SandboxServer,
    api_key: str,  # noqa: F811
    restored_style: None,
    choice: str,
) -> None:
    applied = apply_style(qapp, choice)
    assert applied.name == choice
    assert qapp.palette().color(qapp.palette().ColorRole.Base).name() == applied.surface

    async def scenario() -> None:
        app = Application(qapp, options(demo_sandbox.base_url))
        task = await started(app)
        app.window.resize(1360, 860)
        calendar = app.frame.calendar
        await until(lambda: bool(calendar.month_view.days()), what="the month laid out")
        poor: list[Reading] = []
        scale = 1.0
        for view in ("month", "week", "agenda"):
            calendar.set_view(view)
            image = grab(app, f"calendar-{view}")
            scale = image.width() / app.window.width()
            poor += unreadable(app.window, image)
            if view == "month":
                readings = month_readings(calendar.month_view, image, scale)
                assert len(readings) > 35, "day numbers and chips were read"
                poor += [reading for reading in readings if reading.ratio < 3.0]
        for name in SECTIONS[1:]:
            app.show_section(name)
            await until(lambda n=name: _shown(app, n), what=name)
            poor += unreadable(app.window, grab(app, name))
            if name == "accounts":
                page = app.window.built_page(name)
                await until(lambda p=page: p.model.rowCount() > 0, what="the accounts")
            poor += unreadable_item_colours(app.window, QColor(applied.surface))
        assert not poor, "\n".join(
            f"{r.what}: {r.ink.name()} on {r.background.name()} = {r.ratio:.2f}" for r in poor
        )
        assert await stopped(app, task) == 0

    runner.run(scenario())


def test_the_reading_catches_a_light_style_sheet_over_a_dark_palette(
    qapp: QApplication,
    runner: LoopRunner,
    demo_sandbox: SandboxServer,
    api_key: str,  # noqa: F811
    restored_style: None,
) -> None:
    """Before the themes: fixed light colours in the style sheet, the desktop's dark palette."""
    qapp.setPalette(theme.DARK.palette())
    qapp.setStyleSheet(theme.LIGHT.fill(stylesheet_template()))

    async def scenario() -> None:
        app = Application(qapp, options(demo_sandbox.base_url, date=date.today()))
        task = await started(app)
        app.window.resize(1360, 860)
        calendar = app.frame.calendar
        await until(lambda: bool(calendar.month_view.days()), what="the month laid out")
        image = grab(app, "bug-calendar-month")
        scale = image.width() / app.window.width()
        poor = [r for r in month_readings(calendar.month_view, image, scale) if r.ratio < 3.0]
        assert poor, "dark day numbers on a dark grid were not noticed"
        assert await stopped(app, task) == 0

    runner.run(scenario())


def test_view_theme_choices_apply_and_are_remembered(
    qapp: QApplication, restored_style: None, tmp_path: Path
) -> None:
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp_path))
    previous = QSettings().value(theme.SETTINGS_KEY)
    try:
        choose_theme(qapp, "dark")
        assert theme.current() is theme.DARK
        assert theme.remembered_choice() == "dark"
        assert apply_style(qapp).name == "dark"  # a later start without --theme
        choose_theme(qapp, "light")
        assert qapp.palette().color(qapp.palette().ColorRole.Window).name() == "#ffffff"
        assert "$" not in qapp.styleSheet()
    finally:
        if previous is None:
            QSettings().remove(theme.SETTINGS_KEY)
        else:
            QSettings().setValue(theme.SETTINGS_KEY, previous)
