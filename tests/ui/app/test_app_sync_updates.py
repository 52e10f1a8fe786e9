"""A sync's change reaches the calendar as the posts it changed (`dataChanged(change)` ->
`CalendarPage.show_change`), not as a reload of the whole period, unless the accounts or labels
changed: the whole app against the sandbox over loopback, with its real cache."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import httpx
from PySide6.QtWidgets import QApplication

from app.sandbox.harness import SandboxServer
from tests.ui.app.conftest import LoopRunner, until
from tests.ui.app.test_app_calendar import (  # noqa: F401
    api_key,
    future_scheduled_post,
    options,
    started,
    stopped,
)
from tests.ui.app.test_app_write_updates import counting_reloads
from ui.application import Application
from ui.calendar.entries import Entry


def deleted_elsewhere(server: SandboxServer, key: str, post_id: str) -> None:
    """Someone deletes the post with another client."""
    answer = httpx.delete(
        server.url(f"/posts/{post_id}"), headers={"Authorization": f"Bearer {key}"}
    )
    assert answer.status_code in (200, 204), answer.text


def test_a_sync_shows_what_changed_elsewhere_without_a_reload(
    qapp: QApplication,
    runner: LoopRunner,
    demo_sandbox: SandboxServer,
    api_key: str,  # noqa: F811
) -> None:
    failing = str(future_scheduled_post(demo_sandbox)["id"])
    doomed = str(future_scheduled_post(demo_sandbox)["id"])
    soon = datetime.now(UTC) + timedelta(days=3)

    async def scenario() -> None:
        app = Application(qapp, options(demo_sandbox.base_url))
        task = await started(app)
        calendar = app.calendar
        calendar.go_to(soon.astimezone(calendar.display_tz).date())
        await until(lambda: calendar.entry(doomed) is not None, what="the posts on the calendar")
        reloads = counting_reloads(calendar)
        shown = len(calendar.loader.visible)

        # Elsewhere, meanwhile: a post fails, one is planned, one is deleted.
        demo_sandbox.store.set_post_status(failing, "failed")
        [planned] = demo_sandbox.store.insert_posts(1, status="scheduled", scheduled_at=soon)
        deleted_elsewhere(demo_sandbox, api_key, doomed)
        assert app.session is not None
        app.session.sync.request_refresh(full=True)

        def synced() -> bool:
            entry = calendar.entry(failing)
            return (
                entry is not None
                and entry.status == "failed"
                and calendar.entry(planned) is not None
                and calendar.entry(doomed) is None
            )

        await until(synced, what="the sync's changes on the calendar")
        assert reloads == []
        assert len(calendar.loader.visible) == shown  # one came, one went
        # What a reload shows is what the chips show.
        before = {entry.id: entry.card for entry in calendar.loader.visible}
        calendar.reload()
        assert {entry.id: entry.card for entry in calendar.loader.visible} == before
        assert await stopped(app, task) == 0

    runner.run(scenario())


def test_a_sync_that_changed_the_labels_reads_the_period_again(
    qapp: QApplication,
    runner: LoopRunner,
    demo_sandbox: SandboxServer,
    api_key: str,  # noqa: F811
) -> None:
    async def scenario() -> None:
        app = Application(qapp, options(demo_sandbox.base_url))
        task = await started(app)
        calendar = app.calendar
        reloads = counting_reloads(calendar)
        reads: list[None] = []  # the whole period read again, in slices (`show_change`)
        read_parts = calendar.loader.read_parts

        def counted_parts() -> Iterator[list[Entry]]:
            reads.append(None)
            return read_parts()

        calendar.loader.read_parts = counted_parts  # type: ignore[method-assign]
        demo_sandbox.store.create_label("Launch week", "#ff8800")
        assert app.session is not None
        app.session.sync.request_refresh(full=True)

        def offered() -> bool:
            combo = calendar.filter_bar.label_combo
            listed = "Launch week" in [combo.itemText(i) for i in range(combo.count())]
            return listed and not calendar.refresh_pending()

        await until(offered, what="the new label in the filter list")
        assert len(reads) == 1
        assert reloads == []
        assert await stopped(app, task) == 0

    runner.run(scenario())
