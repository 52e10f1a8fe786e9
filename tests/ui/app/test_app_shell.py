"""The shell as a user drives it, the whole app against the sandbox: keys whatever has focus,
the command palette, Quit, and a message that never moves the calendar."""

from __future__ import annotations

import asyncio

from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from app.sandbox.harness import SandboxServer
from tests.ui.app.conftest import LoopRunner, until
from tests.ui.app.test_app_calendar import api_key, options, started  # noqa: F401
from tests.ui.waits import settle_layouts
from ui.application import Application
from ui.messages import Level, Message


async def active(app: Application) -> None:
    app.window.activateWindow()
    await until(app.window.isActiveWindow, what="the window to be active")


def test_calendar_letters_work_with_the_sidebar_focused_and_ctrl_q_quits(
    qapp: QApplication,
    runner: LoopRunner,
    demo_sandbox: SandboxServer,
    api_key: str,  # noqa: F811
) -> None:
    async def scenario() -> None:
        app = Application(qapp, options(demo_sandbox.base_url))
        task = await started(app)
        await active(app)
        app.window.sidebar.setFocus()
        QTest.keyClick(app.window.sidebar, Qt.Key.Key_W)
        assert app.calendar.current_view() == "week"
        QTest.keyClick(app.window.sidebar, Qt.Key.Key_A)
        assert app.calendar.current_view() == "agenda"
        assert app.window.current_section() == "calendar", "no type-ahead to Accounts"
        QTest.keyClick(app.window.sidebar, Qt.Key.Key_5, Qt.KeyboardModifier.ControlModifier)
        assert app.window.current_section() == "accounts"
        QTest.keyClick(app.window.sidebar, Qt.Key.Key_M)
        assert app.calendar.current_view() == "agenda", "M does nothing on the accounts page"
        QTest.keyClick(app.window.sidebar, Qt.Key.Key_Q, Qt.KeyboardModifier.ControlModifier)
        assert await asyncio.wait_for(task, 10) == 0

    runner.run(scenario())


def test_the_palette_finds_an_action_and_a_post(
    qapp: QApplication,
    runner: LoopRunner,
    demo_sandbox: SandboxServer,
    api_key: str,  # noqa: F811
) -> None:
    async def scenario() -> None:
        app = Application(qapp, options(demo_sandbox.base_url))
        task = await started(app)
        await active(app)
        app.window.sidebar.setFocus()
        QTest.keyClick(app.window.sidebar, Qt.Key.Key_K, Qt.KeyboardModifier.ControlModifier)
        palette = app.palette
        assert palette is not None
        await until(palette.isVisible)
        QTest.keyClicks(palette.query, "week view")
        assert palette.shown_entries()[0].text == "Week view"
        QTest.keyClick(palette.query, Qt.Key.Key_Return)
        assert not palette.isVisible()
        assert app.calendar.current_view() == "week"

        app.window.show_section("webhooks")  # another page's action shows its page first
        app.open_palette()
        palette = app.palette
        assert palette is not None
        QTest.keyClicks(palette.query, "month view")
        QTest.keyClick(palette.query, Qt.Key.Key_Return)
        assert app.window.current_section() == "calendar"
        assert app.calendar.current_view() == "month"

        assert app.cache is not None
        start, end = app.calendar.visible_range()
        # QTest types Latin-1 only and aborts the process on anything else ("—", "☕"): the
        # demo's summaries vary with the date, so pick one that can be typed.
        card = next(
            c
            for c in app.cache.cards_between(start, end)
            if len(c.summary) > 12 and c.summary[:40].isascii() and c.summary[:40].isprintable()
        )
        app.window.show_section("accounts")
        app.open_palette()
        palette = app.palette
        assert palette is not None
        QTest.keyClicks(palette.query, card.summary[:40])
        assert any(e.kind == "Post" for e in palette.shown_entries())
        posts = [e for e in palette.shown_entries() if e.kind == "Post"]
        palette.results.setCurrentRow(palette.shown_entries().index(posts[0]))
        QTest.keyClick(palette.results, Qt.Key.Key_Return)
        assert app.window.current_section() == "calendar"
        assert app.calendar.selected_post_id() is not None
        assert app.cache.post(app.calendar.selected_post_id() or "") is not None

        app.open_palette()
        palette = app.palette
        assert palette is not None
        QTest.keyClicks(palette.query, "zzzz no such thing")
        assert palette.shown_entries() == []
        assert palette.empty.isVisible()
        palette.reject()
        app.window.close()
        assert await asyncio.wait_for(task, 10) == 0

    runner.run(scenario())


def test_a_message_does_not_move_the_calendar_buttons(
    qapp: QApplication,
    runner: LoopRunner,
    demo_sandbox: SandboxServer,
    api_key: str,  # noqa: F811
) -> None:
    async def scenario() -> None:
        app = Application(qapp, options(demo_sandbox.base_url))
        task = await started(app)
        [week] = [b for b in app.calendar.toolbar.view_buttons if "Week" in b.text()]
        before = week.mapToGlobal(QPoint(0, 0))
        app.messages.post(Message("Could not reach the server.", Level.ERROR, hint="Retry."))
        settle_layouts()  # whatever the message moved has moved now
        assert app.window.banner.isVisible()
        assert week.mapToGlobal(QPoint(0, 0)) == before
        assert not app.window.banner.geometry().intersects(
            app.calendar.toolbar.geometry().translated(
                app.calendar.toolbar.mapTo(app.window.page_area, QPoint(0, 0))
                - app.calendar.toolbar.pos()
            )
        ), "the toast does not cover the calendar's toolbar"
        app.window.banner.dismiss()
        settle_layouts()
        assert week.mapToGlobal(QPoint(0, 0)) == before
        app.window.close()
        assert await asyncio.wait_for(task, 10) == 0

    runner.run(scenario())


def test_a_message_never_covers_the_composers_send_button(
    qapp: QApplication,
    runner: LoopRunner,
    demo_sandbox: SandboxServer,
    api_key: str,  # noqa: F811
) -> None:
    async def scenario() -> None:
        app = Application(qapp, options(demo_sandbox.base_url))
        task = await started(app)
        app.window.resize(1024, 640)
        app.window.show_section("compose")
        settle_layouts()  # the page, built on first show, is laid out in the smaller window
        send = app.window.page("compose").schedule.send  # type: ignore[attr-defined]
        message = "The server refused the post. " * 6  # long: a tall, sticky toast
        app.messages.post(Message(message, Level.ERROR, hint="Fix it and send again."))
        settle_layouts()
        banner = app.window.banner
        assert banner.isVisible()
        send_rect = QRect(send.mapTo(app.window, QPoint(0, 0)), send.size())
        banner_rect = QRect(banner.mapTo(app.window, QPoint(0, 0)), banner.size())
        assert not banner_rect.intersects(send_rect)
        app.window.show_section("calendar")  # the calendar keeps its messages at the bottom
        settle_layouts()
        bottom = app.window.page_area.height() - banner.geometry().bottom()
        assert bottom < 40, "on the calendar the toast sits at the bottom"
        banner.dismiss()
        app.window.close()
        assert await asyncio.wait_for(task, 10) == 0

    runner.run(scenario())
