"""Post writes in the session and the workspace's lifetime, the whole app against the sandbox:
one write per post, undo that dies with its workspace, schedule / back to draft, and sync
failures explained in the window with a way out."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from urllib.parse import urlsplit

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from app.models.requests import BatchRequest, Destination
from app.posts.lifecycle import PostAction
from app.sandbox.harness import SandboxServer
from app.workspaces.profiles import Profile, ProfileStore
from tests.keyrings import MemoryKeyring
from tests.ui.app.conftest import LoopRunner, until
from tests.ui.app.proxy import Relay
from tests.ui.app.test_app_calendar import (  # noqa: F401
    api_key,
    future_scheduled_post,
    options,
    started,
    writes_done,
)
from ui.application import Application
from ui.session import duplicated_text


def copies_of(app: Application, post_id: str) -> int:
    assert app.cache is not None
    post = app.cache.post(post_id)
    assert post is not None
    return len([p for p in post.platforms if p.enabled]) or len(post.platforms)


def test_a_double_click_on_duplicate_sends_one_batch(
    qapp: QApplication,
    runner: LoopRunner,
    demo_sandbox: SandboxServer,
    api_key: str,  # noqa: F811
) -> None:
    post = future_scheduled_post(demo_sandbox)
    post_id = str(post["id"])
    when = datetime.strptime(str(post["scheduled_at"]), "%Y-%m-%d %H:%M:%S").replace(tzinfo=UTC)

    async def scenario() -> None:
        app = Application(qapp, options(demo_sandbox.base_url))
        task = await started(app)
        expected = copies_of(app, post_id)
        before = demo_sandbox.store.post_count()

        # Through the page, as a user clicks twice on the detail's Duplicate button.
        app.calendar.go_to(when.astimezone(app.calendar.display_tz).date())
        app.calendar.select_post(post_id)
        app.calendar.open_detail()
        button = app.calendar.detail.action_button(PostAction.DUPLICATE)
        assert button is not None
        await until(button.isVisible)
        QTest.mouseClick(button, Qt.MouseButton.LeftButton)
        QTest.mouseClick(button, Qt.MouseButton.LeftButton)
        # And straight at the session, as a second signal would arrive.
        app.calendar.duplicateRequested.emit(post_id)
        # The one write the clicks started has ended (the others were dropped when asked).
        await writes_done(app)
        assert demo_sandbox.store.post_count() == before + expected
        assert app.window.banner.text() == duplicated_text(expected)
        assert f"{expected} new draft" in app.window.banner.text()

        # Once the answer came, the next duplicate is a new request.
        app.calendar.duplicateRequested.emit(post_id)
        await until(lambda: demo_sandbox.store.post_count() == before + 2 * expected)
        await writes_done(app)
        assert demo_sandbox.store.post_count() == before + 2 * expected
        app.window.close()
        assert await asyncio.wait_for(task, 10) == 0

    runner.run(scenario())


def test_undo_after_a_workspace_switch_does_nothing_and_says_nothing(
    qapp: QApplication,
    runner: LoopRunner,
    demo_sandbox: SandboxServer,
    api_key: str,  # noqa: F811
    memory_keyring: MemoryKeyring,
) -> None:
    post = future_scheduled_post(demo_sandbox)
    post_id = str(post["id"])
    original = str(post["scheduled_at"])
    new_when = datetime.strptime(original, "%Y-%m-%d %H:%M:%S").replace(tzinfo=UTC) + timedelta(
        days=1
    )
    moved = new_when.strftime("%Y-%m-%d %H:%M:%S")

    def server_time() -> str:
        current = demo_sandbox.store.post(post_id)
        assert current is not None
        return str(current["scheduled_at"])

    async def scenario() -> None:
        app = Application(qapp, options(demo_sandbox.base_url))
        task = await started(app)
        app.calendar.rescheduleRequested.emit(post_id, new_when)
        await until(lambda: app.window.banner.text().startswith("Post rescheduled."))
        undo = app.window.banner.current
        assert undo is not None
        assert undo.action is not None
        assert server_time() == moved

        old = app.session
        assert old is not None
        other = Profile.create("Acme", demo_sandbox.base_url, "UTC")
        memory_keyring.set_password("postdesk", other.id, demo_sandbox.keys.admin)
        await app.open_workspace(other, None)
        assert app.window.banner.current is not undo, "the old workspace's toast is gone"
        assert app.session is not None
        assert app.session is not old

        undo.action()  # the click that raced the switch
        # The click has been handled (synchronously) and started no write in either workspace:
        # nothing can reach the server after this.
        assert old.closed
        assert not old.writes.busy_keys()
        assert not app.session.writes.busy_keys()
        assert server_time() == moved, "nothing was sent for the closed workspace"
        assert "closed" not in app.window.banner.text().lower()
        app.window.close()
        assert await asyncio.wait_for(task, 10) == 0

    runner.run(scenario())


def test_schedule_a_dated_draft_and_move_a_failed_post_back_to_draft(
    qapp: QApplication,
    runner: LoopRunner,
    demo_sandbox: SandboxServer,
    api_key: str,  # noqa: F811
) -> None:
    when = (datetime.now(UTC) + timedelta(days=4)).replace(microsecond=0)
    [draft] = demo_sandbox.store.insert_posts(1, status="draft", scheduled_at=when)
    failed = str(future_scheduled_post(demo_sandbox)["id"])
    demo_sandbox.store.set_post_status(failed, "failed")

    def status(post_id: str) -> str:
        current = demo_sandbox.store.post(post_id)
        assert current is not None
        return str(current["status"])

    async def scenario() -> None:
        app = Application(qapp, options(demo_sandbox.base_url))
        task = await started(app)
        app.calendar.scheduleRequested.emit(draft, when)
        await until(lambda: status(draft) == "scheduled")
        await until(lambda: app.window.banner.text().startswith("Post scheduled."))
        app.calendar.moveToDraftRequested.emit(failed)
        await until(lambda: status(failed) == "draft")
        await writes_done(app)
        assert app.cache is not None
        cached = app.cache.post(failed)
        assert cached is not None
        assert cached.status == "draft"
        app.window.close()
        assert await asyncio.wait_for(task, 10) == 0

    runner.run(scenario())


def saved_workspace(server: SandboxServer, keyring: MemoryKeyring | None, key: str) -> Profile:
    profile = Profile.create("Acme", server.base_url, "UTC")
    store = ProfileStore()
    store.add(profile)
    store.active_id = profile.id
    if keyring is not None:
        keyring.set_password("postdesk", profile.id, key)
    return profile


def test_a_refused_key_shows_why_with_replace_key_which_updates_the_workspace(
    qapp: QApplication,
    runner: LoopRunner,
    demo_sandbox: SandboxServer,
    memory_keyring: MemoryKeyring,
) -> None:
    profile = saved_workspace(demo_sandbox, memory_keyring, demo_sandbox.keys.expired)

    async def scenario() -> None:
        app = Application(qapp, options())
        task = await started(app)
        banner = app.window.banner
        await until(lambda: "Token expired." in banner.text())
        assert banner.action_button.text() == "Replace key…"
        assert banner.second_button.isHidden(), "retrying a refused key cannot help"
        assert app.window.connection_label.text() == "API key refused"
        assert "saved data" not in app.window.connection_label.text()

        QTest.mouseClick(banner.action_button, Qt.MouseButton.LeftButton)
        dialog = app.connect_dialog
        assert dialog is not None
        await until(dialog.isVisible)
        assert dialog.name_edit.text() == "Acme"
        assert dialog.url_edit.text() == demo_sandbox.base_url
        assert dialog.key_edit.text() == ""
        dialog.key_edit.setText(demo_sandbox.keys.admin)
        QTest.mouseClick(dialog.connect_button, Qt.MouseButton.LeftButton)
        await until(lambda: app.session is not None and app.session.first_sync_ok is True)
        assert [p.id for p in ProfileStore().load()] == [profile.id], "no second workspace"
        assert memory_keyring.passwords == {("postdesk", profile.id): demo_sandbox.keys.admin}
        assert "Token expired." not in banner.text()
        assert app.window.connection_label.text() == "Online"
        app.window.close()
        assert await asyncio.wait_for(task, 10) == 0

    runner.run(scenario())


def test_an_offline_banner_goes_away_when_the_connection_is_back(
    qapp: QApplication,
    runner: LoopRunner,
    demo_sandbox: SandboxServer,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("POSTDESK_API_KEY", demo_sandbox.keys.admin)
    port = urlsplit(demo_sandbox.base_url).port
    assert port is not None
    relay = Relay(port)

    async def scenario() -> None:
        await relay.up()
        app = Application(qapp, options(relay.base_url))
        task = await started(app)
        assert app.session is not None
        assert app.session.first_sync_ok is True
        await relay.down()
        app.session.refresh()
        await until(lambda: app.window.connection_label.text().startswith("Offline"))
        banner = app.window.banner
        await until(banner.isVisible)
        assert banner.current is not None
        assert banner.current.topic == "sync"
        assert app.window.connection_label.text() == "Offline — showing saved data"
        await relay.up()
        QTest.mouseClick(banner.action_button, Qt.MouseButton.LeftButton)  # Retry
        await until(lambda: app.window.connection_label.text() == "Online", what="back online")
        assert banner.current is None or banner.current.topic != "sync"
        app.window.close()
        assert await asyncio.wait_for(task, 10) == 0
        await relay.down()

    runner.run(scenario())


@pytest.mark.parametrize("failing", ["a write", "an outbox send"])
def test_a_request_that_cannot_reach_the_server_never_leaves_online_in_the_status_bar(
    qapp: QApplication,
    runner: LoopRunner,
    demo_sandbox: SandboxServer,
    monkeypatch: pytest.MonkeyPatch,
    failing: str,
) -> None:
    monkeypatch.setenv("POSTDESK_API_KEY", demo_sandbox.keys.admin)
    port = urlsplit(demo_sandbox.base_url).port
    assert port is not None
    relay = Relay(port)
    post_id = str(future_scheduled_post(demo_sandbox)["id"])
    account = demo_sandbox.store.account_id("x")
    offline = "Offline — showing saved data"

    async def scenario() -> None:
        await relay.up()
        app = Application(qapp, options(relay.base_url))
        task = await started(app)
        session = app.session
        assert session is not None
        assert session.outbox is not None
        assert app.window.connection_label.text() == "Online"
        await relay.down()  # no sync runs meanwhile: only the failed request can say so
        if failing == "a write":
            app.calendar.moveToDraftRequested.emit(post_id)
            await writes_done(app)
            assert app.window.connection_label.text() == offline
        else:
            request = BatchRequest(
                content="Sent from the train",
                destinations=[Destination(social_account_id=account, content_type="x_post")],
            )
            await session.outbox.enqueue(request)
            await until(lambda: app.window.connection_label.text() == offline, what="offline")
        await relay.up()
        session.sync.request_refresh(full=False)
        await until(lambda: app.window.connection_label.text() == "Online", what="back online")
        app.window.close()
        assert await asyncio.wait_for(task, 10) == 0
        await relay.down()

    runner.run(scenario())


def test_edit_opens_compose_and_says_what_to_do_until_the_composer_exists(
    qapp: QApplication,
    runner: LoopRunner,
    demo_sandbox: SandboxServer,
    api_key: str,  # noqa: F811
) -> None:
    post_id = str(future_scheduled_post(demo_sandbox)["id"])

    async def scenario() -> None:
        app = Application(qapp, options(demo_sandbox.base_url))
        task = await started(app)
        app.calendar.editRequested.emit(post_id)
        assert app.window.current_section() == "compose"
        compose = app.window.page("compose")
        if not callable(getattr(compose, "edit_post", None)):
            assert "composer" in app.window.banner.text()
        app.window.close()
        assert await asyncio.wait_for(task, 10) == 0

    runner.run(scenario())
