"""A write's answer reaches the calendar as those posts only (`postsStored` -> `show_posts`,
`postsForgotten` -> `forget_posts`), not as a reload of the whole period: the whole app against
the sandbox over loopback, with its real cache."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from PySide6.QtWidgets import QApplication

from app.sandbox.harness import SandboxServer
from tests.ui.app.conftest import LoopRunner, until
from tests.ui.app.test_app_calendar import (  # noqa: F401
    api_key,
    future_scheduled_post,
    options,
    started,
    stopped,
    writes_done,
)
from ui.application import Application
from ui.calendar import CalendarPage


def counting_reloads(calendar: CalendarPage) -> list[None]:
    """Observe `reload()` (the page still does its work): one entry per call."""
    calls: list[None] = []
    original = calendar.reload

    def counted() -> None:
        calls.append(None)
        original()

    calendar.reload = counted  # type: ignore[method-assign]
    return calls


def shown_at(app: Application, post_id: str) -> datetime | None:
    entry = app.calendar.entry(post_id)
    return None if entry is None else entry.card.calendar_at


def test_a_reschedule_moves_the_chip_without_a_reload(
    qapp: QApplication,
    runner: LoopRunner,
    demo_sandbox: SandboxServer,
    api_key: str,  # noqa: F811
) -> None:
    post = future_scheduled_post(demo_sandbox)
    post_id = str(post["id"])
    original = datetime.strptime(str(post["scheduled_at"]), "%Y-%m-%d %H:%M:%S")
    original = original.replace(tzinfo=UTC)

    async def scenario() -> None:
        app = Application(qapp, options(demo_sandbox.base_url))
        task = await started(app)
        calendar = app.calendar
        calendar.go_to(original.astimezone(calendar.display_tz).date())
        await until(lambda: shown_at(app, post_id) == original, what="the post on the calendar")
        start, end = calendar.visible_range()
        later = original + timedelta(days=1)
        new_when = later if later < end else original - timedelta(days=1)
        assert start <= new_when < end
        reloads = counting_reloads(calendar)

        calendar.rescheduleRequested.emit(post_id, new_when)
        await writes_done(app)
        await until(lambda: shown_at(app, post_id) == new_when, what="the chip moved")
        entry = calendar.entry(post_id)
        assert entry is not None
        assert entry.local is not None
        assert entry.local.date() == new_when.astimezone(calendar.display_tz).date()
        assert entry.local.date() in calendar.visible_dates()
        assert reloads == []  # the answer was shown as it is, nothing read back

        await until(lambda: app.window.banner.isVisible())
        app.window.banner._action.click()  # undo: the same path back
        await until(lambda: shown_at(app, post_id) == original, what="undo")
        assert reloads == []
        # What a reload would show now is what the chips show.
        calendar.reload()
        assert shown_at(app, post_id) == original
        assert await stopped(app, task) == 0

    runner.run(scenario())


def test_a_delete_and_a_duplicate_update_calendar_and_count_without_a_reload(
    qapp: QApplication,
    runner: LoopRunner,
    demo_sandbox: SandboxServer,
    api_key: str,  # noqa: F811
) -> None:
    doomed = str(future_scheduled_post(demo_sandbox)["id"])
    copied = str(future_scheduled_post(demo_sandbox)["id"])

    async def scenario() -> None:
        app = Application(qapp, options(demo_sandbox.base_url))
        task = await started(app)
        calendar = app.calendar
        soon = datetime.now(UTC) + timedelta(days=3)
        calendar.go_to(soon.astimezone(calendar.display_tz).date())
        await until(lambda: calendar.entry(doomed) is not None, what="the post on the calendar")
        panel = app.accounts_panel
        assert app.cache is not None
        cached_before = app.cache.post_ids()
        reloads = counting_reloads(calendar)

        calendar.deleteRequested.emit(doomed)
        await until(lambda: calendar.entry(doomed) is None, what="the chip gone")
        total = demo_sandbox.store.post_count()
        await until(lambda: f"{total} posts in this workspace" in panel.summary.text())

        calendar.duplicateRequested.emit(copied)
        await until(lambda: demo_sandbox.store.post_count() == total + 1)
        await writes_done(app)
        await until(lambda: f"{total + 1} posts in this workspace" in panel.summary.text())
        [copy] = app.cache.post_ids() - cached_before
        entry = calendar.entry(copy)
        assert entry is not None  # the new draft is in the tray
        assert entry.local is None
        assert reloads == []
        assert await stopped(app, task) == 0

    runner.run(scenario())
