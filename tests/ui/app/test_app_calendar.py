"""The whole app against the sandbox over loopback: first sync, calendar actions with undo,
errors in words, offline with the last good data kept."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication

from app.sandbox.harness import SandboxServer
from tests.ui.app.conftest import LoopRunner, until
from ui.application import Application
from ui.cli import Options


def options(base_url: str | None = None, **overrides: object) -> Options:
    values: dict[str, object] = {
        "demo": False,
        "base_url": base_url,
        "server_timezone": "UTC",
        "view": "calendar",
        "date": None,
        "screenshot": None,
        "demo_posts": None,
    }
    values.update(overrides)
    return Options(**values)  # type: ignore[arg-type]


async def started(app: Application) -> asyncio.Task[int]:
    task = asyncio.ensure_future(app.run())
    await until(lambda: app.session is not None and app.session.first_sync_ok is not None)
    return task


async def stopped(app: Application, task: asyncio.Task[int]) -> int:
    app.window.close()
    return await asyncio.wait_for(task, 10)


async def writes_done(app: Application) -> None:
    await until(lambda: app.session is not None and not app.session.writes.busy_keys())


def future_scheduled_post(server: SandboxServer) -> dict[str, object]:
    [post_id] = server.store.insert_posts(
        1, status="scheduled", scheduled_at=datetime.now(UTC) + timedelta(days=3)
    )
    post = server.store.post(post_id)
    assert post is not None
    return post


@pytest.fixture
def api_key(demo_sandbox: SandboxServer, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("POSTDESK_API_KEY", demo_sandbox.keys.admin)
    return demo_sandbox.keys.admin


def test_first_sync_fills_the_calendar_and_accounts(
    qapp: QApplication, runner: LoopRunner, demo_sandbox: SandboxServer, api_key: str
) -> None:
    async def scenario() -> None:
        app = Application(qapp, options(demo_sandbox.base_url))
        task = await started(app)
        assert app.session is not None
        assert app.session.first_sync_ok is True
        total = demo_sandbox.store.post_count()
        assert app.cache is not None
        assert app.cache.count_posts() == total
        assert f"{total} posts in this workspace" in app.accounts_panel.summary.text()
        platforms = {account.platform for account in app.cache.accounts()}
        assert len(platforms) == 14, "the demo has accounts on all 14 networks"
        assert app.accounts_panel.model.rowCount() == len(app.cache.accounts())
        start, end = app.calendar.visible_range()
        assert app.cache.cards_between(start, end), "the demo has posts around today"
        assert app.window.connection_label.text() == "Online"
        assert app.window.sync_label.text() == "Today: just now · everything: just now"
        assert app.session.sync.watch.period == (start, end), "the period on screen is watched"
        assert await stopped(app, task) == 0

    runner.run(scenario())


def test_reschedule_from_the_calendar_reaches_the_server_and_undo_restores_it(
    qapp: QApplication, runner: LoopRunner, demo_sandbox: SandboxServer, api_key: str
) -> None:
    post = future_scheduled_post(demo_sandbox)
    post_id = str(post["id"])
    original = str(post["scheduled_at"])
    new_when = datetime.strptime(original, "%Y-%m-%d %H:%M:%S").replace(tzinfo=UTC) + timedelta(
        days=2
    )

    def server_time() -> str:
        current = demo_sandbox.store.post(post_id)
        assert current is not None
        return str(current["scheduled_at"])

    async def scenario() -> None:
        app = Application(qapp, options(demo_sandbox.base_url))
        task = await started(app)
        app.calendar.rescheduleRequested.emit(post_id, new_when)
        await until(lambda: server_time() == new_when.strftime("%Y-%m-%d %H:%M:%S"))
        await writes_done(app)  # the server saved it; our copy follows when the answer lands
        assert app.cache is not None
        cached = app.cache.post(post_id)
        assert cached is not None
        assert cached.scheduled_at == new_when
        await until(lambda: app.window.banner.isVisible())
        assert app.window.banner.text().startswith("Post rescheduled.")
        app.window.banner._action.click()
        await until(lambda: server_time() == original, what="undo")
        assert await stopped(app, task) == 0

    runner.run(scenario())


def test_unschedule_publish_duplicate_and_delete(
    qapp: QApplication, runner: LoopRunner, demo_sandbox: SandboxServer, api_key: str
) -> None:
    first = str(future_scheduled_post(demo_sandbox)["id"])
    second = str(future_scheduled_post(demo_sandbox)["id"])

    def status(post_id: str) -> str | None:
        post = demo_sandbox.store.post(post_id)
        return None if post is None else str(post["status"])

    async def scenario() -> None:
        app = Application(qapp, options(demo_sandbox.base_url))
        task = await started(app)
        assert app.cache is not None
        app.calendar.unscheduleRequested.emit(first)
        await until(lambda: status(first) == "draft")
        app.calendar.publishNowRequested.emit(second)
        await until(lambda: status(second) == "publishing")
        await writes_done(app)  # a write for a post that is busy is dropped, by design
        before = demo_sandbox.store.post_count()
        app.calendar.duplicateRequested.emit(second)
        await until(lambda: demo_sandbox.store.post_count() == before + 1)
        app.calendar.deleteRequested.emit(first)
        await until(lambda: status(first) is None)
        await until(lambda: app.cache is not None and app.cache.post(first) is None)
        assert app.cache.count_posts() == demo_sandbox.store.post_count()
        assert await stopped(app, task) == 0

    runner.run(scenario())


def test_a_refused_action_says_why_and_keeps_the_post_where_it_was(
    qapp: QApplication, runner: LoopRunner, demo_sandbox: SandboxServer, api_key: str
) -> None:
    post = future_scheduled_post(demo_sandbox)
    post_id = str(post["id"])
    demo_sandbox.store.set_post_status(post_id, "published")

    async def scenario() -> None:
        app = Application(qapp, options(demo_sandbox.base_url))
        task = await started(app)
        assert app.cache is not None
        before = app.cache.post(post_id)
        assert before is not None
        assert before.status == "published"
        app.calendar.unscheduleRequested.emit(post_id)
        await until(lambda: app.window.banner.isVisible())
        assert app.window.banner.current is not None
        assert app.window.banner.current.level.value == "error"
        after = app.cache.post(post_id)
        assert after is not None
        assert after.status == "published"
        assert await stopped(app, task) == 0

    runner.run(scenario())


def test_a_refused_key_is_explained_in_words(
    qapp: QApplication,
    runner: LoopRunner,
    demo_sandbox: SandboxServer,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("POSTDESK_API_KEY", demo_sandbox.keys.expired)

    async def scenario() -> None:
        app = Application(qapp, options(demo_sandbox.base_url))
        task = await started(app)
        assert app.session is not None
        assert app.session.first_sync_ok is False
        assert app.window.connection_label.text() == "API key refused"
        state = app.session.state
        assert state is not None
        assert "Token expired." in state.message
        assert await stopped(app, task) == 0

    runner.run(scenario())


def test_offline_keeps_the_last_good_data_on_screen(
    qapp: QApplication,
    runner: LoopRunner,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    server = SandboxServer(tmp_path / "db.sqlite3", seed="demo", posts=40)
    with server:
        monkeypatch.setenv("POSTDESK_API_KEY", server.keys.admin)

        async def first_run() -> None:
            app = Application(qapp, options(server.base_url))
            task = await started(app)
            assert await stopped(app, task) == 0

        runner.run(first_run())
    # The server is gone now: the next run paints from the cache and says it is offline.

    async def offline_run() -> None:
        app = Application(qapp, options(server.base_url))
        task = await started(app)
        assert app.session is not None
        assert app.session.first_sync_ok is False
        assert app.cache is not None
        assert app.cache.count_posts() == 40
        assert "40 posts" in app.accounts_panel.summary.text()
        assert app.window.connection_label.text().startswith("Offline")
        assert await stopped(app, task) == 0

    runner.run(offline_run())


def test_the_accounts_page_opened_at_start_follows_the_syncs(
    qapp: QApplication, runner: LoopRunner, demo_sandbox: SandboxServer, api_key: str
) -> None:
    async def scenario() -> None:
        app = Application(qapp, options(demo_sandbox.base_url, view="accounts"))
        task = await started(app)
        assert app.window.pages.currentWidget() is app.accounts_panel
        total = demo_sandbox.store.post_count()
        assert f"{total} posts in this workspace" in app.accounts_panel.summary.text()
        assert app.cache is not None
        assert app.accounts_panel.model.rowCount() == len(app.cache.accounts())
        assert await stopped(app, task) == 0

    runner.run(scenario())


def test_a_rate_limited_server_shows_the_wait_in_the_status_bar(
    qapp: QApplication,
    runner: LoopRunner,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with SandboxServer(tmp_path / "db.sqlite3", seed="demo", posts=60, rate_limit=2) as server:
        monkeypatch.setenv("POSTDESK_API_KEY", server.keys.admin)

        async def scenario() -> None:
            app = Application(qapp, options(server.base_url))
            task = asyncio.ensure_future(app.run())
            await until(lambda: app.window.connection_label.text().startswith("Rate limited"))
            assert "retrying in" in app.window.connection_label.text()
            app.window.close()
            assert await asyncio.wait_for(task, 10) == 0

        runner.run(scenario())
